import type { ServerContext } from "../context";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { stateVersionOutputs, type StateOutput } from "./outputs";
import type { StateVersionRecord } from "./store";

export function renderStateVersion(ctx: ServerContext, sv: StateVersionRecord): Resource {
  const stored = sv.status === "finalized";
  return {
    id: sv.id,
    type: "state-versions",
    attributes: {
      "hosted-state-download-url": stored ? `${ctx.publicUrl}${API_PREFIX}/state-versions/${sv.id}/download` : null,
      "resources-processed": stored,
      serial: sv.serial,
      md5: sv.md5,
      lineage: sv.lineage,
      "created-at": sv.created_at,
      "resource-count": sv.resource_count,
      status: sv.status,
      intermediate: sv.intermediate === 1,
    },
    relationships: {
      workspace: ref("workspaces", sv.workspace_id),
      outputs: {
        data: stateVersionOutputs(ctx.db, sv.id).map((o) => ({ id: o.id, type: "state-version-outputs" })),
        links: { related: `${API_PREFIX}/state-versions/${sv.id}/outputs` },
      },
    },
    links: { self: `${API_PREFIX}/state-versions/${sv.id}` },
  };
}

/** A `state-version-outputs` resource; the value of a sensitive output is shown only to callers who may read it. */
export function renderStateVersionOutput(o: StateOutput, showSensitive: boolean): Resource {
  return {
    id: o.id,
    type: "state-version-outputs",
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      type: o.type,
      value: o.sensitive && !showSensitive ? null : o.value,
      "detailed-type": o.detailedType,
    },
    links: { self: `${API_PREFIX}/state-version-outputs/${o.id}` },
  };
}

/** A `workspace-outputs` resource (the current state version's outputs seen from the workspace); sensitive values are hidden. */
export function renderWorkspaceOutput(o: StateOutput): Resource {
  return {
    id: o.id,
    type: "workspace-outputs",
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      "output-type": o.type,
      value: o.sensitive ? null : o.value,
      "detailed-type": o.detailedType,
    },
    links: { self: `${API_PREFIX}/workspace-outputs/${o.id}` },
  };
}
