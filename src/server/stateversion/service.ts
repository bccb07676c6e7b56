import { createHash } from "node:crypto";
import type { ServerContext } from "../context";
import type { Caller } from "../auth/service";
import { inTransaction, now, prepare } from "../store/db";
import { newId } from "../ids";
import { conflict, notFound, unprocessable } from "../http/errors";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";
import { stateVersionOutputs } from "./outputs";

export interface StateVersionRecord {
  id: string;
  workspace_id: string;
  serial: number;
  md5: string | null;
  lineage: string | null;
  resource_count: number;
  intermediate: number;
  promoted: number;
  status: string;
  created_at: string;
}

const COLUMNS = `id, workspace_id, serial, md5, lineage, resource_count, intermediate, promoted, status, created_at`;

export interface StateVersionInput {
  serial: number;
  md5: string;
  lineage?: string;
  state?: string;
  intermediate?: boolean;
  finalized?: boolean;
}

/** Decodes the uploaded state and counts its `resources`, checking it against the given md5. */
function readState(input: StateVersionInput): { text: string; resourceCount: number } | null {
  if (input.state === undefined) return null;
  const bytes = Buffer.from(input.state, "base64");
  if (createHash("md5").update(bytes).digest("hex") !== input.md5.toLowerCase()) {
    throw unprocessable("md5 does not match the MD5 digest of the decoded state", "/data/attributes/md5");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw unprocessable("state must be the base64 encoding of a JSON state file", "/data/attributes/state");
  }
  const resources = (parsed as { resources?: unknown })?.resources;
  return { text: bytes.toString("utf8"), resourceCount: Array.isArray(resources) ? resources.length : 0 };
}

/**
 * Creates a state version the hosted way: the caller must hold the workspace lock. A
 * final version becomes current at once; an intermediate one waits for the unlock, which
 * promotes the latest of them (see `unlockWorkspace`). Without `state`, or with
 * `finalized: false`, the version stays pending.
 */
export function createStateVersion(ctx: ServerContext, caller: Caller, workspaceId: string, input: StateVersionInput): StateVersionRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-create-state-versions");
    if (ws.locked !== 1 || ws.locked_by !== caller.principalId) {
      throw conflict("The workspace must be locked by the caller to create a state version.");
    }
    const state = readState(input);
    const status = state && input.finalized !== false ? "finalized" : "pending";
    const id = newId("stateVersion");
    const t = now();
    ctx.db
      .prepare(
        `INSERT INTO state_versions (id, workspace_id, serial, md5, lineage, state, resource_count, intermediate, promoted, status, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
      )
      .run(id, ws.id, input.serial, input.md5, input.lineage ?? null, state?.text ?? null, state?.resourceCount ?? 0, input.intermediate ? 1 : 0, status, caller.principalId, t);
    if (!input.intermediate && status === "finalized") {
      prepare(ctx.db, `UPDATE workspaces SET current_state_version_id = ?, resource_count = ?, latest_change_at = ? WHERE id = ?`).run(id, state!.resourceCount, t, ws.id);
    }
    return findStateVersion(ctx, id)!;
  });
}

export function findStateVersion(ctx: ServerContext, id: string): StateVersionRecord | undefined {
  return prepare(ctx.db, `SELECT ${COLUMNS} FROM state_versions WHERE id = ?`).get(id) as StateVersionRecord | undefined;
}

export function loadStateVersion(ctx: ServerContext, caller: Caller, id: string): StateVersionRecord {
  const sv = findStateVersion(ctx, id);
  if (!sv) throw notFound("state version not found");
  const { permissions } = loadWorkspace(ctx, caller, { id: sv.workspace_id });
  if (!permissions["can-read-state-versions"]) throw notFound("state version not found");
  return sv;
}

export function loadCurrentStateVersion(ctx: ServerContext, caller: Caller, workspaceId: string): StateVersionRecord {
  const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-read-state-versions");
  if (!ws.current_state_version_id) throw notFound("the workspace has no current state version");
  return findStateVersion(ctx, ws.current_state_version_id)!;
}

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
