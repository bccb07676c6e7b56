/**
 * Policies: one Sentinel or OPA policy of an organization, its code uploaded apart and
 * kept as given. The local server evaluates nothing: a policy is a record that policy
 * sets name. Permissions: members read; owners, the organization token and teams with
 * `manage-policies` create, change and delete; anybody else gets what an unknown id gets.
 */
import {
  ENFORCEMENT_LEVELS,
  POLICY_FILE_EXTENSIONS,
  POLICY_KINDS,
  enforcementLevelProblem,
  type PolicyCreateRequest,
  type PolicyKind,
  type PolicyUpdateRequest,
} from "../../../api/policies";
import { assertMember } from "../../auth/service/authz";
import type { Caller } from "../../auth/service/caller";
import { Invalid, NameTaken, NotFound, visible, type Field } from "../../domain-errors";
import { newId } from "../../ids";
import type { Db, Page } from "../../store/db";
import { inTransaction, now, onDuplicate } from "../../store/db";
import * as store from "../store/policies";
import type { NameKindFilter, PolicyRecord } from "../store/policies";

/** A policy with how many sets hold it, as its document shows it. */
export interface PolicyView {
  policy: PolicyRecord;
  policySetCount: number;
}

/** Managing an organization's policies and policy sets takes `manage-policies` (owners and the organization token have it); 404 otherwise. */
export function assertPolicyManager(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).managePolicies)
    throw new NotFound(`organization "${organization}" not found`);
}

/** A policy the caller may see (any member), or manage when `manage` is set; otherwise what an unknown id gets. */
function loadPolicy(db: Db, caller: Caller, id: string, manage: boolean): PolicyRecord {
  return visible("policy", store.findPolicy(db, id), (p) => {
    const role = assertMember(db, caller, p.organization);
    return !manage || role.managePolicies;
  });
}

function views(db: Db, policies: readonly PolicyRecord[]): PolicyView[] {
  const counts = store.policySetCounts(
    db,
    policies.map((p) => p.id),
  );
  return policies.map((policy) => ({ policy, policySetCount: counts.get(policy.id) ?? 0 }));
}

/** The policies of `ids` that exist (a set's, which its readers may see), in that order. */
export function policiesById(db: Db, ids: readonly string[]): PolicyView[] {
  return views(
    db,
    ids.flatMap((id) => store.findPolicy(db, id) ?? []),
  );
}

export function readPolicy(db: Db, caller: Caller, id: string): PolicyView {
  return views(db, [loadPolicy(db, caller, id, false)])[0];
}

type Enforcement = Pick<PolicyCreateRequest["data"]["attributes"], "enforce" | "enforcement-level">;

/**
 * The level and the legacy path a request gives (`enforce` or `enforcement-level`, not
 * both), checked against the kind; undefined when it gives neither.
 */
function enforcementOf(kind: string, a: Enforcement): { level: string; path?: string } | undefined {
  if (a.enforce !== undefined && a["enforcement-level"] !== undefined)
    throw new Invalid("give enforce or enforcement-level, not both", { attribute: "enforcement-level" });
  const given = a["enforcement-level"] ?? a.enforce?.[0]?.mode;
  if (given === undefined) return undefined;
  const field: Field = a.enforce ? { attribute: "enforce.0.mode" } : { attribute: "enforcement-level" };
  const problem = enforcementLevelProblem(kind, given);
  if (problem) throw new Invalid(`Enforcement level ${problem}`, field);
  return { level: given, path: a.enforce?.[0]?.path ?? undefined };
}

export function createPolicy(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => PolicyCreateRequest["data"]["attributes"],
): PolicyView {
  assertPolicyManager(db, caller, organization);
  const a = read();
  const kind = a.kind ?? "sentinel";
  if (!(POLICY_KINDS as readonly string[]).includes(kind))
    throw new Invalid(`Kind is not included in the list (${POLICY_KINDS.join(", ")})`, { attribute: "kind" });
  if (kind === "opa" && !a.query) throw new Invalid("Query can't be blank for an opa policy", { attribute: "query" });
  const enforcement = enforcementOf(kind, a);
  if (!enforcement)
    throw new Invalid(`Enforcement level can't be blank (${ENFORCEMENT_LEVELS[kind as PolicyKind].join(", ")})`, {
      attribute: "enforcement-level",
    });
  const id = newId("policy");
  const at = now();
  onDuplicate(
    () =>
      store.insertPolicy(db, {
        id,
        organization,
        name: a.name,
        kind,
        query: kind === "opa" ? (a.query ?? null) : null,
        description: a.description ?? null,
        enforcement_level: enforcement.level,
        enforce_path: enforcement.path || `${a.name}${POLICY_FILE_EXTENSIONS[kind as PolicyKind]}`,
        created_at: at,
        updated_at: at,
      }),
    () => new NameTaken(),
  );
  return views(db, [store.findPolicy(db, id)!])[0];
}

/** Given attributes change; a query is an OPA policy's only (a Sentinel policy's stays empty, as on the service). */
export function updatePolicy(
  db: Db,
  caller: Caller,
  id: string,
  read: () => NonNullable<PolicyUpdateRequest["data"]["attributes"]>,
): PolicyView {
  const p = loadPolicy(db, caller, id, true);
  const a = read();
  const enforcement = enforcementOf(p.kind, a);
  if (p.kind === "opa" && a.query !== undefined && !a.query)
    throw new Invalid("Query can't be blank for an opa policy", { attribute: "query" });
  store.updatePolicyRow(db, {
    id: p.id,
    query: p.kind === "opa" && a.query ? a.query : p.query,
    description: a.description !== undefined ? a.description : p.description,
    enforcement_level: enforcement?.level ?? p.enforcement_level,
    enforce_path: enforcement?.path || p.enforce_path,
    updated_at: now(),
  });
  return views(db, [store.findPolicy(db, p.id)!])[0];
}

/** A deleted policy leaves every set that held it. */
export function deletePolicy(db: Db, caller: Caller, id: string): void {
  const p = loadPolicy(db, caller, id, true);
  inTransaction(db, () => store.deletePolicyRow(db, p.id));
}

/** Stores the code as given (empty is code too). */
export function uploadPolicyCode(db: Db, caller: Caller, id: string, code: Buffer): void {
  const p = loadPolicy(db, caller, id, true);
  store.setPolicyCode(db, p.id, code, now());
}

/** The uploaded code; a policy with none answers what an unknown one does (go-tfe expects its not-found error). */
export function downloadPolicyCode(db: Db, caller: Caller, id: string): Buffer {
  const p = loadPolicy(db, caller, id, false);
  const code = store.policyCode(db, p.id);
  if (code === null || code === undefined) throw new NotFound("policy code not found: nothing was uploaded");
  return code;
}

export function listPolicies(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { page: Page; filter: NameKindFilter },
): { rows: PolicyView[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const { page, filter } = read();
  const rows = store.filteredPolicies(db, organization, filter);
  return { rows: views(db, rows.page(page.size, (page.number - 1) * page.size)), total: rows.count(), page };
}
