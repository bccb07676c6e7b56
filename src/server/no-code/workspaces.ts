/**
 * Workspaces created from a no-code module (spec 4.15). The workspace itself is made by
 * the workspace service, so every rule of spec 4.2 applies unchanged; this adds the
 * variables and the record of which module version the workspace runs, in the same
 * transaction, and the attributes that record shows on every rendering.
 */
import type { NoCodeWorkspaceCreateRequest } from "../../api/no-code";
import { workspaceFieldEntries, type FieldDef } from "../../api/workspace-fields";
import type { Caller } from "../auth/service/caller";
import { mayCreateWorkspaces } from "../auth/service/authz";
import type { ServerContext, WorkspaceRenderHook } from "../context";
import { Invalid, NotFound, failIfAny, type Failure } from "../domain-errors";
import { newId } from "../ids";
import { findRegistryModule } from "../registry/service";
import type { Db } from "../store/db";
import { inTransaction, now } from "../store/db";
import {
  SOURCE_MODULE,
  createWorkspace,
  permissionsFor,
  type AccessibleWorkspace,
  type CreateWorkspaceInput,
} from "../workspace/service";
import { loadNoCodeModule } from "./service";
import * as store from "./store";
import type { NoCodeModuleRecord, NoCodeWorkspaceRecord } from "./store";
import { normalizeVariables, optionViolations, upsertVariables } from "./vars";

/** The `nocodever-` id of a module version, created the first time a workspace runs it. */
export function moduleVersionId(db: Db, noCodeModuleId: string, version: string): string {
  const found = store.findModuleVersionId(db, noCodeModuleId, version);
  if (found) return found;
  const id = newId("noCodeModuleVersion");
  store.insertModuleVersionId(db, id, noCodeModuleId, version, now());
  return id;
}

export function assertEnabled(m: NoCodeModuleRecord): void {
  if (m.enabled !== 1)
    throw new Invalid(
      `no-code provisioning is not enabled for module ${m.id}; enable it with PATCH /no-code-modules/${m.id}`,
    );
}

export function createWorkspaceFromModule(
  ctx: ServerContext,
  caller: Caller,
  noCodeModuleId: string,
  read: () => NoCodeWorkspaceCreateRequest,
): AccessibleWorkspace {
  const { db } = ctx;
  const m = loadNoCodeModule(ctx, caller, noCodeModuleId);
  if (!mayCreateWorkspaces(db, caller, m.organization)) throw new NotFound("no-code module not found");
  const body = read();
  assertEnabled(m);
  if (m.version_pin === "") {
    throw new Invalid(
      `the registry module of no-code module ${m.id} has no versions yet; publish a version before creating workspaces from it`,
    );
  }
  const d = body.data;
  const a = d.attributes;
  const failures: Failure[] = [];
  const vars = normalizeVariables(d.relationships?.vars?.data ?? [], failures);
  for (const v of optionViolations(db, m.id, vars))
    failures.push({ field: { relationship: "vars", item: v.index, attribute: "value" }, detail: v.detail });
  failIfAny(failures);

  const rm = findRegistryModule(db, m.registry_module_id)!;
  const address = `${rm.namespace}/${rm.name}/${rm.provider}`;
  // The field table's no-code settings the request gives, as on any workspace create;
  // then what this endpoint fills in where the request leaves a setting out (spec 4.15).
  const given = a as Record<string, unknown>;
  const attributes: Record<string, unknown> = {};
  for (const [, line] of workspaceFieldEntries as ReadonlyArray<[string, FieldDef]>)
    if (line.noCode === "setting" && line.wire && given[line.wire] !== undefined)
      attributes[line.wire] = given[line.wire];
  attributes.name = a.name;
  attributes.description ??= "";
  attributes["auto-apply"] = a.auto_apply ?? a["auto-apply"] ?? false;
  attributes["source-name"] ??= `no-code module ${address}`;
  attributes["source-url"] ??=
    `${ctx.publicUrl}/app/${encodeURIComponent(m.organization)}/registry/modules/${rm.registry_name}/${address}/${m.version_pin}`;
  // A requested engine version is honoured (and checked) as on any workspace create.
  const requested = a as { "engine-version"?: unknown; "terraform-version"?: unknown };
  for (const key of ["engine-version", "terraform-version"] as const) {
    const v = requested[key];
    if (v === undefined) continue;
    if (typeof v !== "string") throw new Invalid(`${key} must be a string`, { attribute: key });
    attributes[key] = v;
  }

  const created = inTransaction(db, () => {
    const ws = createWorkspace(ctx, caller, m.organization, {
      attributes: attributes as CreateWorkspaceInput["attributes"],
      projectId: d.relationships?.project?.data.id,
      source: SOURCE_MODULE,
    });
    upsertVariables(ctx, ws.id, vars);
    store.insertNoCodeWorkspace(db, {
      workspace_id: ws.id,
      no_code_module_id: m.id,
      registry_module_id: m.registry_module_id,
      module_version_id: moduleVersionId(db, m.id, m.version_pin),
      version: m.version_pin,
    });
    return ws;
  });
  return { ws: created, permissions: permissionsFor(ctx, caller, created)! };
}

/** Whether the module now provisions something other than what the workspace runs: another version, or (after a PATCH) another registry module. */
export function upgradeAvailable(
  m: { version_pin: string; registry_module_id: string },
  record: NoCodeWorkspaceRecord,
): boolean {
  return m.version_pin !== record.version || m.registry_module_id !== record.registry_module_id;
}

/**
 * Adds to a module-created workspace (spec 2.2): `source-module-id` (the registry module,
 * as the hosted service fills it), `no-code-upgrade-available` (see {@link upgradeAvailable}) and the `no-code-module-version` relationship.
 * Two attributes the spec does not name make the same facts readable without another
 * request: `no-code-module-id` (the no-code module the workspace was created from, which
 * the upgrade paths need) and `source-module-version` (the module version it runs, which
 * changes when an upgrade is applied).
 */
export const noCodeWorkspaceRender: WorkspaceRenderHook = (ctx, ws, resource) => {
  // One query per rendering, module included: this runs for every workspace of a list page.
  const row = store.noCodeWorkspaceWithModule(ctx.db, ws.id);
  if (!row) return;
  const record: NoCodeWorkspaceRecord = row;
  const m =
    row.module_pin !== null && row.module_registry_id !== null
      ? { version_pin: row.module_pin, registry_module_id: row.module_registry_id }
      : undefined;
  resource.attributes["source-module-id"] = record.registry_module_id;
  resource.attributes["no-code-module-id"] = record.no_code_module_id;
  resource.attributes["source-module-version"] = record.version;
  resource.attributes["no-code-upgrade-available"] = m !== undefined && upgradeAvailable(m, record);
  resource.relationships ??= {};
  resource.relationships["no-code-module-version"] = {
    data: { id: record.module_version_id, type: "no-code-module-versions" },
  };
};
