import { createHash } from "node:crypto";
import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import { Conflict, Invalid, NotFound, Unavailable, visible } from "../domain-errors";
import { inTransaction, now } from "../store/db";
import { newId } from "../ids";
import { loadWorkspace, loadWorkspaceWith, setCurrentStateVersion } from "../workspace/service";
import type { WorkspaceRecord } from "../workspace/store";
import * as store from "./store";
import { stateVersionOutputs, type StateOutput } from "./outputs";
import type { StateVersionRecord } from "./store";

export type { StateVersionRecord } from "./store";
export { stateVersionOutputs } from "./outputs";

/** Records the output ids of a state version that holds state, so each output can be read by id. */
function recordOutputIds(ctx: ServerContext, stateVersionId: string): void {
  store.insertOutputIds(
    ctx.db,
    stateVersionId,
    stateVersionOutputs(ctx.db, stateVersionId).map((o) => o.id),
  );
}

/** Records the output ids of state versions written before ids were recorded (run once at start). */
export function recordMissingOutputIds(ctx: ServerContext): void {
  const missing = store.versionsWithoutOutputIds(ctx.db);
  if (missing.length) inTransaction(ctx.db, () => missing.forEach((id) => recordOutputIds(ctx, id)));
}

/**
 * One output by id, with whether the caller may see a sensitive value: reading outputs
 * takes `can-read-state-outputs` on the workspace; a sensitive value is shown to a caller
 * that may read the state itself.
 */
export function loadStateVersionOutput(
  ctx: ServerContext,
  caller: Caller,
  outputId: string,
): { output: StateOutput; showSensitive: boolean } {
  const svId = store.stateVersionOfOutput(ctx.db, outputId);
  const sv = svId ? store.findStateVersion(ctx.db, svId) : undefined;
  const output = sv && stateVersionOutputs(ctx.db, sv.id).find((o) => o.id === outputId);
  let showSensitive = false;
  const found = visible("state version output", sv && output ? { sv, output } : undefined, (r) => {
    const { permissions } = loadWorkspace(ctx, caller, { id: r.sv.workspace_id });
    showSensitive = permissions["can-read-state-versions"];
    return permissions["can-read-state-outputs"];
  });
  return { output: found.output, showSensitive };
}

/** The outputs of the workspace's current state version; outputs-only access is enough. Sensitive values stay hidden. */
export function currentStateVersionOutputs(ctx: ServerContext, caller: Caller, workspaceId: string): StateOutput[] {
  const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-read-state-outputs");
  if (!ws.current_state_version_id) throw new NotFound("the workspace has no current state version");
  return stateVersionOutputs(ctx.db, ws.current_state_version_id);
}

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
    throw new Invalid("md5 does not match the MD5 digest of the decoded state", { attribute: "md5" });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new Invalid("state must be the base64 encoding of a JSON state file", { attribute: "state" });
  }
  const resources = (parsed as { resources?: unknown })?.resources;
  return { text: bytes.toString("utf8"), resourceCount: Array.isArray(resources) ? resources.length : 0 };
}

/**
 * Creates a state version the hosted way: the caller must hold the workspace lock. A
 * final version becomes current at once; an intermediate one waits for the unlock, which
 * promotes the latest of them (see {@link settleOnUnlock}). Without `state`, or with
 * `finalized: false`, the version stays pending.
 */
export function createStateVersion(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  read: () => StateVersionInput,
): StateVersionRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-create-state-versions");
    const input = read();
    if (ws.locked !== 1 || ws.locked_by !== caller.principalId) {
      throw new Conflict(
        ws.locked !== 1 ? "not-locked" : "locked-by-another-user",
        "The workspace must be locked by the caller to create a state version.",
      );
    }
    const state = readState(input);
    const status = state && input.finalized !== false ? "finalized" : "pending";
    const id = newId("stateVersion");
    const t = now();
    store.insertStateVersion(ctx.db, {
      id,
      workspace_id: ws.id,
      serial: input.serial,
      md5: input.md5,
      lineage: input.lineage ?? null,
      state: state?.text ?? null,
      resource_count: state?.resourceCount ?? 0,
      intermediate: input.intermediate ? 1 : 0,
      status,
      created_by: caller.principalId,
      created_at: t,
    });
    if (state) recordOutputIds(ctx, id);
    if (!input.intermediate && status === "finalized") setCurrentStateVersion(ctx, ws.id, id, state!.resourceCount, t);
    return store.findStateVersion(ctx.db, id)!;
  });
}

/**
 * The unlock hook: intermediate state versions uploaded under the lock are settled. On
 * an unlock the latest one becomes current, or, when it is not yet finalized, the unlock
 * is refused and the lock stays; a force-unlock abandons them.
 */
export function settleOnUnlock(ctx: ServerContext, ws: WorkspaceRecord, force: boolean): void {
  if (!force) {
    const latest = store.latestUnsettledIntermediate(ctx.db, ws.id);
    if (!latest) return;
    if (latest.status !== "finalized")
      throw new Unavailable("The latest intermediate state version is not yet finalized; retry the unlock shortly.");
    setCurrentStateVersion(ctx, ws.id, latest.id, latest.resource_count, latest.created_at);
  }
  store.settleIntermediates(ctx.db, ws.id);
}

export function loadStateVersion(ctx: ServerContext, caller: Caller, id: string): StateVersionRecord {
  return visible("state version", store.findStateVersion(ctx.db, id), (sv) => {
    return loadWorkspace(ctx, caller, { id: sv.workspace_id }).permissions["can-read-state-versions"];
  });
}

/**
 * The workspace's current state version. `read` reads the query once the caller may read
 * the workspace's state versions (one that may not gets 404 whatever it asked), before
 * the workspace is found to have none.
 */
export function loadCurrentStateVersion<Q>(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  read: () => Q,
): { sv: StateVersionRecord; query: Q } {
  const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-read-state-versions");
  const query = read();
  if (!ws.current_state_version_id) throw new NotFound("the workspace has no current state version");
  return { sv: store.findStateVersion(ctx.db, ws.current_state_version_id)!, query };
}

/** The state file a version holds; not found while it holds none. */
export function stateFile(ctx: ServerContext, sv: StateVersionRecord): string {
  const text = store.stateText(ctx.db, sv.id);
  if (text === null || text === undefined) throw new NotFound("the state version holds no state yet");
  return text;
}
