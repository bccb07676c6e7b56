import { MAX_RUN_TRIGGER_SOURCES, type RunTriggerDirection } from "../../api/run-triggers";
import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import { Invalid, NotFound } from "../domain-errors";
import { newId } from "../ids";
import { inTransaction, now, type Page } from "../store/db";
import { findWorkspace, loadWorkspace, loadWorkspaceWith, permissionsFor } from "../workspace/service";
import type { WorkspaceRecord } from "../workspace/store";
import * as store from "./store";
import type { RunTriggerRecord } from "./store";

/** A run trigger with the two workspaces it joins. */
export interface RunTriggerView {
  trigger: RunTriggerRecord;
  workspace: WorkspaceRecord;
  sourceable: WorkspaceRecord;
}

function view(ctx: ServerContext, trigger: RunTriggerRecord): RunTriggerView {
  return {
    trigger,
    workspace: findWorkspace(ctx, trigger.workspace_id)!,
    sourceable: findWorkspace(ctx, trigger.sourceable_id)!,
  };
}

/**
 * Makes a run in `sourceableId` queue a run in the workspace. Managing a workspace's
 * triggers takes admin on it; the source must be a workspace the caller can read, of the
 * same organization, not the workspace itself, not already a source, and within the
 * service's limit of sources per workspace.
 */
export function createRunTrigger(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  read: () => { sourceableId: string },
): RunTriggerView {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-update");
    const { sourceableId } = read();
    const field = { relationship: "sourceable", id: true } as const;
    const source = findWorkspace(ctx, sourceableId);
    if (!source || !permissionsFor(ctx, caller, source))
      throw new Invalid(`Sourceable workspace "${sourceableId}" not found`, field);
    if (source.id === ws.id) throw new Invalid("Sourceable cannot be the same as the workspace it triggers", field);
    if (source.organization !== ws.organization)
      throw new Invalid("Sourceable must be a workspace of the same organization", field);
    if (store.findRunTriggerBetween(ctx.db, ws.id, source.id))
      throw new Invalid("Sourceable has already been taken: the workspace already has a run trigger from it", field);
    if (store.countSources(ctx.db, ws.id) >= MAX_RUN_TRIGGER_SOURCES)
      throw new Invalid(
        `A workspace can have at most ${MAX_RUN_TRIGGER_SOURCES} source workspaces; remove a run trigger first`,
        field,
      );
    const trigger: RunTriggerRecord = {
      id: newId("runTrigger"),
      workspace_id: ws.id,
      sourceable_id: source.id,
      created_at: now(),
    };
    store.insertRunTrigger(ctx.db, trigger);
    return { trigger, workspace: ws, sourceable: source };
  });
}

/**
 * A page of the workspace's triggers in one direction; listing takes read access to the
 * workspace. `read` validates the query only once the caller may see the workspace: one
 * that may not gets 404 whatever it asked.
 */
export function listRunTriggers<Q extends { direction: RunTriggerDirection; page: Page }>(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  read: () => Q,
): { rows: RunTriggerView[]; total: number; query: Q } {
  const { ws } = loadWorkspace(ctx, caller, { id: workspaceId });
  const query = read();
  const { rows, total } = store.runTriggersOf(ctx.db, ws.id, query.direction === "inbound", query.page);
  return { rows: rows.map((r) => view(ctx, r)), total, query };
}

/** A trigger the caller may see: it can read the workspace the trigger queues runs in. */
export function loadRunTrigger(ctx: ServerContext, caller: Caller, id: string): RunTriggerView {
  const trigger = store.findRunTrigger(ctx.db, id);
  const ws = trigger && findWorkspace(ctx, trigger.workspace_id);
  if (!trigger || !ws || !permissionsFor(ctx, caller, ws)) throw new NotFound("run trigger not found");
  return view(ctx, trigger);
}

/** Deleting a trigger takes admin on the workspace it queues runs in. */
export function deleteRunTrigger(ctx: ServerContext, caller: Caller, id: string): void {
  inTransaction(ctx.db, () => {
    const trigger = store.findRunTrigger(ctx.db, id);
    const ws = trigger && findWorkspace(ctx, trigger.workspace_id);
    if (!trigger || !ws || !permissionsFor(ctx, caller, ws)?.["can-update"])
      throw new NotFound("run trigger not found");
    store.deleteRunTriggerRow(ctx.db, trigger.id);
  });
}
