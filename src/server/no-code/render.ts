import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { ServerContext } from "../context";
import type { Db } from "../store/db";
import { variableOptionsOf, type NoCodeModuleRecord, type VariableOptionsRecord } from "./store";
import type { LoadedUpgrade } from "./upgrade";

function noCodeModulePath(id: string): string {
  return `${API_PREFIX}/no-code-modules/${id}`;
}

/** A no-code module (spec 2.7); its option sets are referenced, and rendered in full only through `include`. */
export function renderNoCodeModule(db: Db, m: NoCodeModuleRecord): Resource {
  return {
    id: m.id,
    type: "no-code-modules",
    attributes: {
      enabled: m.enabled === 1,
      "version-pin": m.version_pin,
      "created-at": m.created_at,
      "updated-at": m.updated_at,
    },
    relationships: {
      organization: {
        ...ref("organizations", m.organization),
        links: { related: `${API_PREFIX}/organizations/${encodeURIComponent(m.organization)}` },
      },
      "registry-module": {
        ...ref("registry-modules", m.registry_module_id),
        links: { related: `${API_PREFIX}/registry-modules/${m.registry_module_id}` },
      },
      "variable-options": { data: variableOptionsOf(db, m.id).map((o) => ({ id: o.id, type: "variable-options" })) },
    },
    links: { self: noCodeModulePath(m.id) },
  };
}

/** A set of allowed values (spec 2.8), related back to its module under the type the spec names. */
export function renderVariableOptions(o: VariableOptionsRecord): Resource {
  return {
    id: o.id,
    type: "variable-options",
    attributes: {
      "variable-name": o.variable_name,
      "variable-type": o.variable_type,
      options: JSON.parse(o.options) as unknown[],
    },
    relationships: { "no-code-allowed-module": ref("no-code-allowed-modules", o.no_code_module_id) },
  };
}

/** The `workspace-upgrade` document of spec 2.9; its id is the run's. */
export function renderUpgrade(
  ctx: ServerContext,
  noCodeModuleId: string,
  { ws, run, upgrade }: LoadedUpgrade,
): Resource {
  return {
    id: run.id,
    type: "workspace-upgrade",
    attributes: {
      status: run.status,
      "plan-url": `${ctx.publicUrl}/app/${encodeURIComponent(ws.organization)}/workspaces/${encodeURIComponent(ws.name)}/runs/${run.id}`,
      "target-version": upgrade.target_version,
      "error-message": run.status === "errored" ? upgrade.error : null,
    },
    relationships: {
      workspace: { ...ref("workspaces", ws.id), links: { related: `${API_PREFIX}/workspaces/${ws.id}` } },
      run: { ...ref("runs", run.id), links: { related: `${API_PREFIX}/runs/${run.id}` } },
    },
    links: { self: `${API_PREFIX}/no-code-modules/${noCodeModuleId}/workspaces/${ws.id}/upgrade/${run.id}` },
  };
}
