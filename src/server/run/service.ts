import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import { Conflict, visible } from "../domain-errors";
import { inTransaction, now, type Db } from "../store/db";
import { newId } from "../ids";
import { loadWorkspace, loadWorkspaceWith, setCurrentRun } from "../workspace/service";
import * as store from "./store";
import type { RunRecord } from "./store";

export type { RunRecord } from "./store";

/** Statuses after which a run no longer moves. */
export const FINAL_RUN_STATUSES = [
  "applied",
  "planned_and_finished",
  "discarded",
  "canceled",
  "errored",
  "force_canceled",
  "policy_soft_failed",
];

export function findRun(db: Db, id: string): RunRecord | undefined {
  return store.findRun(db, id);
}

/**
 * Records a run and makes it the workspace's current run. `kind` distinguishes runs that
 * other domains drive (a no-code upgrade) from plain API runs.
 */
export function createRun(
  ctx: ServerContext,
  workspaceId: string,
  spec: {
    status?: string;
    message?: string;
    isDestroy?: boolean;
    autoApply?: boolean;
    planOnly?: boolean;
    kind?: string;
    createdBy?: string | null;
  },
): RunRecord {
  return inTransaction(ctx.db, () => {
    const t = now();
    const id = newId("run");
    store.insertRun(ctx.db, {
      id,
      workspace_id: workspaceId,
      status: spec.status ?? "pending",
      message: spec.message ?? "",
      is_destroy: spec.isDestroy ? 1 : 0,
      auto_apply: spec.autoApply ? 1 : 0,
      plan_only: spec.planOnly ? 1 : 0,
      kind: spec.kind ?? "run",
      created_by: spec.createdBy ?? null,
      created_at: t,
      updated_at: t,
    });
    setCurrentRun(ctx, workspaceId, id);
    return store.findRun(ctx.db, id)!;
  });
}

export function setRunStatus(db: Db, id: string, status: string): RunRecord {
  return inTransaction(db, () => {
    store.updateRunStatus(db, id, status);
    return store.findRun(db, id)!;
  });
}

/** A run of a workspace the caller may read runs of; not found otherwise. */
export function loadRun(ctx: ServerContext, caller: Caller, id: string): RunRecord {
  return visible("run", store.findRun(ctx.db, id), (run) => {
    return loadWorkspace(ctx, caller, { id: run.workspace_id }).permissions["can-read-run"];
  });
}

/** What a caller asks a new run to be. */
export interface RunRequest {
  workspaceId: string;
  message?: string;
  isDestroy?: boolean;
  autoApply?: boolean;
  planOnly?: boolean;
}

/**
 * Queues a run for the caller. The workspace the unvalidated body names (`target`) is
 * checked before `read` parses the body, so a caller who may not queue runs there is
 * told 404 rather than what is wrong with the body.
 */
export function queueRun(
  ctx: ServerContext,
  caller: Caller,
  target: string | undefined,
  read: () => RunRequest,
): RunRecord {
  const mayQueue = (id: string) => loadWorkspaceWith(ctx, caller, { id }, "can-queue-run").ws;
  const named = target === undefined ? undefined : mayQueue(target);
  const { workspaceId, ...spec } = read();
  const ws = named?.id === workspaceId ? named : mayQueue(workspaceId);
  return createRun(ctx, ws.id, { ...spec, createdBy: caller.principalId });
}

/** Ends a run that has not ended yet (discard, cancel); a caller that may queue runs on its workspace may. */
export function endRun(ctx: ServerContext, caller: Caller, id: string, status: "discarded" | "canceled"): void {
  const run = visible("run", store.findRun(ctx.db, id), (r) => {
    loadWorkspace(ctx, caller, { id: r.workspace_id });
  });
  loadWorkspaceWith(ctx, caller, { id: run.workspace_id }, "can-queue-run");
  if (FINAL_RUN_STATUSES.includes(run.status))
    throw new Conflict("locked", `The run is ${run.status} and cannot be ${status}.`);
  setRunStatus(ctx.db, run.id, status);
}
