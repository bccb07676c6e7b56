/**
 * Policy sets: which policies (attached one by one, or a version's uploaded folder) apply
 * to which workspaces and projects, less their exclusions, or to every workspace when
 * `global`. The local server evaluates nothing: a set is a record, and runs never check
 * it. Permissions as for policies (../policy/service.ts): members read, managers write.
 */
import { POLICY_KINDS } from "../../../api/policies";
import {
  PARAMETER_NOT_ALLOWED_DETAIL,
  POLICY_SET_LISTS,
  POLICY_SET_LIST_TYPES,
  type PolicySetCreateRequest,
  type PolicySetList,
  type PolicySetUpdateRequest,
} from "../../../api/policy-sets";
import { checkedIdLists } from "../../agent-pool/service";
import { assertMember } from "../../auth/service/authz";
import type { Caller } from "../../auth/service/caller";
import { Invalid, NameTaken, visible, type Failure } from "../../domain-errors";
import { newId } from "../../ids";
import { assertPolicyManager } from "./policies";
import type { Db, Page } from "../../store/db";
import { inTransaction, now, onDuplicate } from "../../store/db";
import * as store from "../store/sets";
import type { PolicySetLists, PolicySetRecord, PolicySetVersionRecord } from "../store/sets";
import type { NameKindFilter } from "../store/policies";

/** A set with its lists and versions, as its document shows it. */
export interface PolicySetView {
  set: PolicySetRecord;
  lists: PolicySetLists;
  newest?: PolicySetVersionRecord;
  current?: PolicySetVersionRecord;
}

/** A set the caller may see (any member), or manage when `manage` is set; otherwise what an unknown id gets. */
export function loadPolicySet(db: Db, caller: Caller, id: string, manage: boolean): PolicySetRecord {
  return visible("policy set", store.findPolicySet(db, id), (s) => {
    const role = assertMember(db, caller, s.organization);
    return !manage || role.managePolicies;
  });
}

/** Each set with its lists and versions, read in a few queries for a whole page. */
function policySetViews(db: Db, sets: readonly PolicySetRecord[]): PolicySetView[] {
  const ids = sets.map((s) => s.id);
  const lists = store.policySetLists(db, ids);
  const versions = store.versionsOf(db, ids);
  return sets.map((set) => ({ set, lists: lists.get(set.id)!, ...versions.get(set.id)! }));
}

/** The view of a set the caller has been authorized for. */
function policySetView(db: Db, id: string): PolicySetView {
  return policySetViews(db, [store.findPolicySet(db, id)!])[0];
}

export function readPolicySet(db: Db, caller: Caller, id: string): PolicySetView {
  return policySetViews(db, [loadPolicySet(db, caller, id, false)])[0];
}

/** How many policies a set holds: its current version's, else those attached to it. */
export function policyCount(view: PolicySetView): number {
  return view.current ? view.current.policy_count : view.lists.policies.length;
}

/** The given lists, once every id is found to be a record of the organization (422 at `field(list, item)` otherwise). */
function checkedLists(
  db: Db,
  organization: string,
  given: Partial<PolicySetLists>,
  field: (list: PolicySetList, item: number) => Failure["field"],
): Partial<PolicySetLists> {
  return checkedIdLists(db, organization, given, POLICY_SET_LIST_TYPES, field);
}

/** A global set applies to every workspace: it takes no workspaces or projects (exclusions it does). */
function assertNotGlobalWithTargets(global: boolean, lists: Partial<PolicySetLists>): void {
  for (const list of ["workspaces", "projects"] as const)
    if (global && lists[list]?.length)
      throw new Invalid(
        `a global policy set applies to every workspace and takes no ${list}: make it not global, or give ${list === "workspaces" ? "workspace" : "project"} exclusions instead`,
        { relationship: list },
      );
}

type Attributes = NonNullable<PolicySetUpdateRequest["data"]["attributes"]>;

/** The stored attributes a create or update gives, over `base`. */
function applyAttributes(base: PolicySetRecord, a: Attributes & { "tag-selectors"?: unknown }): PolicySetRecord {
  const agentEnabled = a["agent-enabled"] !== undefined ? (a["agent-enabled"] ? 1 : 0) : base.agent_enabled;
  const toolVersion = a["policy-tool-version"] !== undefined ? a["policy-tool-version"] : base.policy_tool_version;
  return {
    ...base,
    name: a.name ?? base.name,
    description: a.description !== undefined ? a.description : base.description,
    global: a.global !== undefined ? (a.global ? 1 : 0) : base.global,
    // An OPA set's own; a Sentinel set answers none.
    overridable:
      base.kind === "opa" ? (a.overridable != null ? (a.overridable ? 1 : 0) : (base.overridable ?? 0)) : null,
    policies_path: a["policies-path"] !== undefined ? a["policies-path"] : base.policies_path,
    agent_enabled: agentEnabled,
    // A set that stops running on agents stops pinning the agents' policy tool (as on the service).
    policy_tool_version: a["agent-enabled"] === false ? null : toolVersion,
    policy_update_patterns:
      a["policy-update-patterns"] !== undefined
        ? a["policy-update-patterns"] === null
          ? null
          : JSON.stringify(a["policy-update-patterns"])
        : base.policy_update_patterns,
    tag_selectors: a["tag-selectors"] != null ? JSON.stringify(a["tag-selectors"]) : base.tag_selectors,
    tag_selector_matching_logic:
      a["tag-selector-matching-logic"] !== undefined
        ? a["tag-selector-matching-logic"]
        : base.tag_selector_matching_logic,
    updated_at: now(),
  };
}

type CreateData = PolicySetCreateRequest["data"];

export function createPolicySet(db: Db, caller: Caller, organization: string, read: () => CreateData): PolicySetView {
  assertPolicyManager(db, caller, organization);
  const data = read();
  const a = data.attributes;
  const kind = a.kind ?? "sentinel";
  if (!(POLICY_KINDS as readonly string[]).includes(kind))
    throw new Invalid(`Kind is not included in the list (${POLICY_KINDS.join(", ")})`, { attribute: "kind" });
  if ((a as { "vcs-repo"?: unknown })["vcs-repo"] != null)
    throw new Invalid(
      "the local server reaches no version control system: upload the policies as a policy set version instead",
      { attribute: "vcs-repo" },
    );
  const given: Partial<PolicySetLists> = {};
  for (const list of POLICY_SET_LISTS) {
    const rel = data.relationships?.[list];
    if (rel) given[list] = rel.data.map((d) => d.id);
  }
  const id = newId("policySet");
  const at = now();
  const base: PolicySetRecord = {
    id,
    organization,
    name: a.name,
    description: null,
    kind,
    overridable: null,
    global: 0,
    policies_path: null,
    agent_enabled: 0,
    policy_tool_version: null,
    policy_update_patterns: null,
    tag_selectors: "[]",
    tag_selector_matching_logic: null,
    created_at: at,
    updated_at: at,
  };
  const record = applyAttributes(base, a);
  assertNotGlobalWithTargets(record.global === 1, given);
  onDuplicate(
    () =>
      inTransaction(db, () => {
        const lists = checkedLists(db, organization, given, (list, item) => ({ relationship: list, item, id: true }));
        store.insertPolicySet(db, record);
        for (const list of POLICY_SET_LISTS) store.addToList(db, id, list, lists[list] ?? []);
      }),
    () => new NameTaken(),
  );
  return policySetView(db, id);
}

export function updatePolicySet(db: Db, caller: Caller, id: string, read: () => Attributes): PolicySetView {
  const s = loadPolicySet(db, caller, id, true);
  const record = applyAttributes(s, read());
  if (record.global === 1 && s.global !== 1) assertNotGlobalWithTargets(true, policySetViews(db, [s])[0].lists);
  onDuplicate(
    () => store.updatePolicySetRow(db, record),
    () => new NameTaken(),
  );
  return policySetView(db, id);
}

/** Its parameters and versions go with it; its policies, workspaces and projects stay. */
export function deletePolicySet(db: Db, caller: Caller, id: string): void {
  const s = loadPolicySet(db, caller, id, true);
  inTransaction(db, () => store.deletePolicySetRow(db, s.id));
}

/** Adds to or takes off one list of a set; every id must be a record of the set's organization (422 at its place otherwise). */
export function changePolicySetList(
  db: Db,
  caller: Caller,
  id: string,
  list: PolicySetList,
  change: "add" | "remove",
  read: () => string[],
): void {
  const s = loadPolicySet(db, caller, id, true);
  const ids = read();
  inTransaction(db, () => {
    const checked = checkedLists(db, s.organization, { [list]: ids }, (_list, item) => ({ item, id: true }))[list]!;
    if (change === "add") {
      assertNotGlobalWithTargets(s.global === 1, { [list]: checked });
      store.addToList(db, s.id, list, checked);
    } else store.removeFromList(db, s.id, list, checked);
    store.updatePolicySetRow(db, { ...s, updated_at: now() });
  });
}

/** A tag selector as stored: the wire's own keys. */
type TagSelector = { "tag-key": string; "tag-value"?: string | null; "is-exclude"?: boolean };
const sameSelector = (a: TagSelector, b: TagSelector) =>
  a["tag-key"] === b["tag-key"] &&
  (a["tag-value"] ?? null) === (b["tag-value"] ?? null) &&
  !!a["is-exclude"] === !!b["is-exclude"];

/** Adds tag selectors to a set (one already there is kept once), or takes them off. */
export function changeTagSelectors(
  db: Db,
  caller: Caller,
  id: string,
  change: "add" | "remove",
  read: () => TagSelector[],
): void {
  const s = loadPolicySet(db, caller, id, true);
  const given = read().map((t) => ({
    "tag-key": t["tag-key"],
    "tag-value": t["tag-value"] ?? null,
    "is-exclude": !!t["is-exclude"],
  }));
  const current = JSON.parse(s.tag_selectors) as TagSelector[];
  const next =
    change === "add"
      ? [...current, ...given.filter((g) => !current.some((c) => sameSelector(c, g)))]
      : current.filter((c) => !given.some((g) => sameSelector(c, g)));
  store.updatePolicySetRow(db, { ...s, tag_selectors: JSON.stringify(next), updated_at: now() });
}

export function listPolicySets(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { page: Page; filter: NameKindFilter },
): { rows: PolicySetView[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const { page, filter } = read();
  const rows = store.filteredPolicySets(db, organization, filter);
  return { rows: policySetViews(db, rows.page(page.size, (page.number - 1) * page.size)), total: rows.count(), page };
}

/**
 * Refuses a parameter on a set that cannot pass one to its policies: an OPA set, or one
 * whose policies are attached individually (only a versioned Sentinel set can, as on the
 * service; an empty set takes one). `id` is a set the caller has been authorized for.
 */
export function assertTakesParameters(db: Db, id: string): void {
  const view = policySetView(db, id);
  if (view.set.kind === "opa" || (!view.current && policyCount(view) > 0))
    throw new Invalid(PARAMETER_NOT_ALLOWED_DETAIL, { data: true });
}
