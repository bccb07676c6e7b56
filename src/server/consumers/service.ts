import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import { orgRole } from "../auth/service/authz";
import { Invalid, NotFound, failIfAny, type Failure } from "../domain-errors";
import { inTransaction, type Page } from "../store/db";
import {
  findWorkspace,
  listWorkspacesWhere,
  loadWorkspace,
  loadWorkspaceWith,
  permissionsFor,
} from "../workspace/service";
import { settingsOf, type WorkspaceRecord } from "../workspace/store";
import * as store from "./store";

/**
 * Remote state consumers (spec 4.9). GET lists the authorized readers of a workspace's
 * state (every other workspace when `global-remote-state` is on); changes apply only
 * while it is off, and every named consumer must be a workspace the caller can read.
 */
export function listConsumers(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  page: Page,
): ReturnType<typeof listWorkspacesWhere> {
  const { ws } = loadWorkspace(ctx, caller, { id: workspaceId });
  const scope = settingsOf(ws)["global-remote-state"]
    ? { sql: `w.organization = ? AND w.id <> ?`, params: [ws.organization, ws.id] }
    : store.consumersClause(ws.id);
  return listWorkspacesWhere(ctx, caller, ws.organization, scope, page);
}

export type Mode = "replace" | "add" | "remove";

function resolveConsumers(
  ctx: ServerContext,
  caller: Caller,
  subject: WorkspaceRecord,
  consumerIds: ReadonlyArray<string>,
  mode: Mode,
): string[] {
  const failures: Failure[] = [];
  const ids: string[] = [];
  consumerIds.forEach((id, i) => {
    const consumer = findWorkspace(ctx, id);
    if (!consumer || consumer.organization !== subject.organization || !permissionsFor(ctx, caller, consumer)) {
      failures.push({ field: { item: i, id: true }, detail: `workspace "${id}" not found` });
      return;
    }
    if (consumer.id === subject.id && mode !== "remove") {
      failures.push({ field: { item: i, id: true }, detail: "a workspace cannot be its own remote state consumer" });
      return;
    }
    ids.push(consumer.id);
  });
  failIfAny(failures);
  return ids;
}

function loadSubject(ctx: ServerContext, caller: Caller, workspaceId: string, mode: Mode): WorkspaceRecord {
  const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-update");
  // Replacing the whole set is reserved to teams that manage every workspace (spec 5, item 8).
  if (mode === "replace" && !orgRole(ctx.db, caller, ws.organization).manageWorkspaces)
    throw new NotFound("workspace not found");
  if (settingsOf(ws)["global-remote-state"]) {
    throw new Invalid("Remote state consumers can only be changed while global-remote-state is false.", { data: true });
  }
  return ws;
}

export function changeConsumers(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  read: () => ReadonlyArray<string>,
  mode: Mode,
): void {
  inTransaction(ctx.db, () => {
    const ws = loadSubject(ctx, caller, workspaceId, mode);
    const ids = resolveConsumers(ctx, caller, ws, read(), mode);
    if (mode === "replace") store.removeAllConsumers(ctx.db, ws.id);
    if (mode === "remove") store.removeConsumers(ctx.db, ws.id, ids);
    else store.addConsumers(ctx.db, ws.id, ids);
  });
}
