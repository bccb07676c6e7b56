/**
 * No-code modules (spec 4.12 to 4.14): enabling a private registry module for no-code
 * provisioning, its settings and its sets of allowed variable values.
 */
import type { NoCodeModuleEnableRequest, NoCodeModuleUpdateRequest } from "../../api/no-code";
import type { Caller } from "../auth/service/caller";
import { assertMember } from "../auth/service/authz";
import type { ServerContext } from "../context";
import { Conflict, Invalid, NotFound, type Failure, type Field, visible } from "../domain-errors";
import { newId } from "../ids";
import { findModuleVersion, findRegistryModule, latestModuleVersion } from "../registry/service";
import type { Db } from "../store/db";
import { inTransaction, now } from "../store/db";
import * as store from "./store";
import { findNoCodeModule, noCodeModuleOfRegistryModule, variableOptionsOf, type NoCodeModuleRecord } from "./store";

/**
 * Spec 5, item 9: the no-code endpoints take user and team tokens only. The answer is a
 * not-found, like every other refusal outside force delete, with a detail that says why.
 */
function refuseOrganizationToken(caller: Caller): void {
  if (caller.kind === "organization") {
    throw new NotFound("The no-code endpoints cannot be called with an organization token; use a user or team token.");
  }
}

/**
 * A no-code module the caller may see: any member of its organization may read it;
 * `manage` (enable, update, delete) takes the organization's module management right
 * (owners and teams that manage all workspaces). Anything else is not found.
 */
export function loadNoCodeModule(ctx: ServerContext, caller: Caller, id: string, manage = false): NoCodeModuleRecord {
  refuseOrganizationToken(caller);
  return visible("no-code module", findNoCodeModule(ctx.db, id), (m) => {
    const role = assertMember(ctx.db, caller, m.organization);
    return !manage || role.manageWorkspaces;
  });
}

function assertMayManageNoCode(ctx: ServerContext, caller: Caller, organization: string): void {
  refuseOrganizationToken(caller);
  if (!assertMember(ctx.db, caller, organization).manageWorkspaces)
    throw new NotFound(`organization "${organization}" not found`);
}

const REGISTRY_MODULE: Field = { relationship: "registry-module", id: true };
const PIN: Field = { attribute: "version-pin" };
const option = (item: number, attribute?: string): Field =>
  attribute
    ? { relationship: "variable-options", item, attribute }
    : { relationship: "variable-options", item, id: true };

/** The registry module a body names: it must exist in the organization and have no other no-code module. */
function checkRegistryModule(
  db: Db,
  organization: string,
  id: string,
  self: string | null,
  problems: Failure[],
): boolean {
  const rm = findRegistryModule(db, id);
  if (!rm || rm.organization !== organization) {
    problems.push({
      field: REGISTRY_MODULE,
      detail: `registry module "${id}" not found in organization ${organization}`,
    });
    return false;
  }
  const other = noCodeModuleOfRegistryModule(db, id);
  if (other && other.id !== self) {
    problems.push({
      field: REGISTRY_MODULE,
      detail: `registry module "${id}" is already enabled for no-code provisioning as ${other.id}`,
    });
    return false;
  }
  return true;
}

/**
 * The version a pin resolves to. Absent (or `latest`, which go-tfe documents) means the
 * module's latest version at the time of the request, or, for a module without versions
 * yet, an empty pin that its first published version fills; anything else must name an
 * existing version.
 */
function resolvePin(
  db: Db,
  registryModuleId: string,
  requested: string | undefined,
  problems: Failure[],
): string | undefined {
  if (requested === undefined || requested === "latest") return latestModuleVersion(db, registryModuleId) ?? "";
  if (!findModuleVersion(db, registryModuleId, requested)) {
    problems.push({ field: PIN, detail: `version-pin "${requested}" is not a version of the registry module` });
    return undefined;
  }
  return requested;
}

type OptionItem = NonNullable<
  NonNullable<NoCodeModuleEnableRequest["data"]["relationships"]>["variable-options"]
>["data"][number];

interface OptionSet {
  id: string;
  variableName: string;
  variableType: string;
  options: unknown[];
  createdAt: string;
}

/**
 * The module's option sets after a request (spec 4.13): an item with an `id` replaces
 * that set; an item without one creates a new set, which replaces any set of the same
 * variable (a variable has at most one set of allowed values, and go-tfe never sends
 * ids, so its updates must not pile up duplicates). Sets not mentioned stay.
 */
function mergeOptionSets(
  existing: OptionSet[],
  items: OptionItem[],
  allowIds: boolean,
  problems: Failure[],
): OptionSet[] {
  const byId = new Map(existing.map((s) => [s.id, s]));
  const t = now();
  const seenIds = new Set<string>();
  items.forEach((item, i) => {
    const a = item.attributes;
    if (item.id !== undefined) {
      if (!allowIds) {
        problems.push({
          field: option(i),
          detail: "variable options are created with the module; an id can only be given when updating it",
        });
        return;
      }
      if (seenIds.has(item.id)) {
        problems.push({ field: option(i), detail: `variable options "${item.id}" are given more than once` });
        return;
      }
      seenIds.add(item.id);
      const current = byId.get(item.id);
      if (!current) {
        problems.push({
          field: option(i),
          detail: `variable options "${item.id}" do not belong to this no-code module`,
        });
        return;
      }
      byId.set(item.id, {
        ...current,
        variableName: a["variable-name"],
        variableType: a["variable-type"],
        options: a.options,
      });
      return;
    }
    for (const [id, s] of byId) if (s.variableName === a["variable-name"] && !seenIds.has(id)) byId.delete(id);
    const id = newId("variableOptions");
    seenIds.add(id);
    byId.set(id, {
      id,
      variableName: a["variable-name"],
      variableType: a["variable-type"],
      options: a.options,
      createdAt: t,
    });
  });
  const names = new Map<string, number>();
  for (const s of byId.values()) names.set(s.variableName, (names.get(s.variableName) ?? 0) + 1);
  items.forEach((item, i) => {
    if ((names.get(item.attributes["variable-name"]) ?? 0) > 1) {
      problems.push({
        field: option(i, "variable-name"),
        detail: `variable "${item.attributes["variable-name"]}" has more than one set of options`,
      });
    }
  });
  return [...byId.values()];
}

function existingOptionSets(db: Db, moduleId: string): OptionSet[] {
  return variableOptionsOf(db, moduleId).map((o) => ({
    id: o.id,
    variableName: o.variable_name,
    variableType: o.variable_type,
    options: JSON.parse(o.options) as unknown[],
    createdAt: o.created_at,
  }));
}

function writeOptionSets(db: Db, moduleId: string, sets: OptionSet[]): void {
  store.replaceVariableOptions(
    db,
    moduleId,
    sets.map((s) => ({
      id: s.id,
      variable_name: s.variableName,
      variable_type: s.variableType,
      options: JSON.stringify(s.options),
      created_at: s.createdAt,
    })),
  );
}

function fail(problems: Failure[]): never {
  throw new Invalid(problems);
}

/** Spec 4.12. Every check runs before anything is written, so a refused request changes nothing. */
export function enableNoCodeModule(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  read: () => NoCodeModuleEnableRequest,
): NoCodeModuleRecord {
  const { db } = ctx;
  assertMayManageNoCode(ctx, caller, organization);
  const body = read();
  const d = body.data;
  return inTransaction(db, () => {
    const problems: Failure[] = [];
    const registryModuleId = d.relationships["registry-module"].data.id;
    const pin = checkRegistryModule(db, organization, registryModuleId, null, problems)
      ? resolvePin(db, registryModuleId, d.attributes?.["version-pin"], problems)
      : undefined;
    const sets = mergeOptionSets([], d.relationships["variable-options"]?.data ?? [], false, problems);
    if (problems.length || pin === undefined) fail(problems);
    const t = now();
    const m: NoCodeModuleRecord = {
      id: newId("noCodeModule"),
      organization,
      registry_module_id: registryModuleId,
      enabled: d.attributes?.enabled ? 1 : 0,
      version_pin: pin,
      created_at: t,
      updated_at: t,
    };
    store.insertNoCodeModule(db, m);
    writeOptionSets(db, m.id, sets);
    return m;
  });
}

/**
 * Spec 4.13: absent keys keep their value. A new registry module without a new pin keeps
 * the pin when that version exists in the new module, and otherwise takes its latest.
 */
export function updateNoCodeModule(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  read: () => NoCodeModuleUpdateRequest,
): NoCodeModuleRecord {
  const { db } = ctx;
  return inTransaction(db, () => {
    const m = loadNoCodeModule(ctx, caller, id, true);
    const body = read();
    const d = body.data;
    const problems: Failure[] = [];
    const next = { ...m };
    const newModuleId = d.relationships?.["registry-module"]?.data.id;
    let moduleOk = true;
    if (newModuleId !== undefined && newModuleId !== m.registry_module_id) {
      moduleOk = checkRegistryModule(db, m.organization, newModuleId, m.id, problems);
      if (moduleOk) next.registry_module_id = newModuleId;
    }
    const requestedPin = d.attributes?.["version-pin"];
    if (moduleOk) {
      if (requestedPin !== undefined) {
        next.version_pin = resolvePin(db, next.registry_module_id, requestedPin, problems) ?? m.version_pin;
      } else if (
        next.registry_module_id !== m.registry_module_id &&
        !findModuleVersion(db, next.registry_module_id, m.version_pin)
      ) {
        next.version_pin = resolvePin(db, next.registry_module_id, undefined, problems) ?? m.version_pin;
      }
    }
    if (d.attributes?.enabled !== undefined) next.enabled = d.attributes.enabled ? 1 : 0;
    const items = d.relationships?.["variable-options"]?.data;
    const sets = items ? mergeOptionSets(existingOptionSets(db, m.id), items, true, problems) : undefined;
    if (problems.length) fail(problems);
    next.updated_at = now();
    store.saveNoCodeModule(db, next);
    if (sets) writeOptionSets(db, m.id, sets);
    return findNoCodeModule(db, m.id)!;
  });
}

/** go-tfe's delete: the module and its option sets go; workspaces created from it stay, without upgrades. */
export function deleteNoCodeModule(ctx: ServerContext, caller: Caller, id: string): void {
  inTransaction(ctx.db, () => {
    const m = loadNoCodeModule(ctx, caller, id, true);
    store.deleteNoCodeModuleRow(ctx.db, m.id);
  });
}

// ---------------------------------------------------------------------------
// what the registry domain's modules carry of no-code (its ctx.hooks.registryModule)

/** The no-code module of a registry module, if one was enabled for it. */
export function noCodeModuleOf(ctx: ServerContext, registryModuleId: string): NoCodeModuleRecord | undefined {
  return noCodeModuleOfRegistryModule(ctx.db, registryModuleId);
}

/** A no-code module enabled before its registry module had a version pins the first one published. */
export function onVersionPublished(ctx: ServerContext, registryModuleId: string, version: string): void {
  store.pinFirstVersion(ctx.db, registryModuleId, version);
}

/** A version a no-code module pins stays until the pin moves, since workspaces are provisioned from it. */
export function onVersionDeleting(ctx: ServerContext, registryModuleId: string, version: string): void {
  const pinned = noCodeModuleOfRegistryModule(ctx.db, registryModuleId);
  if (pinned && pinned.version_pin === version) {
    throw new Conflict(
      "locked",
      `version ${version} is pinned by no-code module ${pinned.id}; move the pin before deleting it`,
    );
  }
}
