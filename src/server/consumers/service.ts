import type { ServerContext } from "../context";
import type { Caller } from "../auth/service";
import { orgRole, readableWorkspacesFilter } from "../auth/service";
import { inTransaction, prepare } from "../store/db";
import { notFound, unprocessable, unprocessableMany } from "../http/errors";
import { problemsToErrors } from "../../api/common";
import type { Page } from "../http/jsonapi";
import type { RemoteStateConsumersRequest } from "../../api/tags";
import { loadWorkspace, loadWorkspaceWith, permissionsFor } from "../workspace/service";
import { findWorkspaceById, settingsOf, type WorkspaceRecord } from "../workspace/store";

/**
 * Remote state consumers (spec 4.9). GET lists the authorized readers of a workspace's
 * state (every other workspace when `global-remote-state` is on); changes apply only
 * while it is off, and every named consumer must be a workspace the caller can read.
 */
export function listConsumers(ctx: ServerContext, caller: Caller, workspaceId: string, page: Page): { rows: WorkspaceRecord[]; total: number } {
  const { ws } = loadWorkspace(ctx, caller, { id: workspaceId });
  const visible = readableWorkspacesFilter(ctx.db, caller, ws.organization);
  const scope = settingsOf(ws)["global-remote-state"]
    ? { sql: `w.organization = ? AND w.id <> ?`, params: [ws.organization, ws.id] }
    : { sql: `w.id IN (SELECT consumer_id FROM remote_state_consumers WHERE workspace_id = ?)`, params: [ws.id] };
  const where = `${scope.sql} AND ${visible.sql}`;
  const params = [...scope.params, ...visible.params];
  const total = (prepare(ctx.db, `SELECT COUNT(*) AS n FROM workspaces w WHERE ${where}`).get(...params) as { n: number }).n;
  const rows = ctx.db
    .prepare(`SELECT w.* FROM workspaces w WHERE ${where} ORDER BY w.name COLLATE NOCASE, w.id LIMIT ? OFFSET ?`)
    .all(...params, page.size, (page.number - 1) * page.size) as WorkspaceRecord[];
  return { rows, total };
}

export type Mode = "replace" | "add" | "remove";

function resolveConsumers(ctx: ServerContext, caller: Caller, subject: WorkspaceRecord, body: RemoteStateConsumersRequest, mode: Mode): string[] {
  const errors: { pointer: string; detail: string }[] = [];
  const ids: string[] = [];
  body.data.forEach((item, i) => {
    const consumer = findWorkspaceById(ctx.db, item.id);
    if (!consumer || consumer.organization !== subject.organization || !permissionsFor(ctx, caller, consumer)) {
      errors.push({ pointer: `/data/${i}/id`, detail: `workspace "${item.id}" not found` });
      return;
    }
    if (consumer.id === subject.id && mode !== "remove") {
      errors.push({ pointer: `/data/${i}/id`, detail: "a workspace cannot be its own remote state consumer" });
      return;
    }
    ids.push(consumer.id);
  });
  if (errors.length) throw unprocessableMany(problemsToErrors(errors));
  return ids;
}

export function loadSubject(ctx: ServerContext, caller: Caller, workspaceId: string, mode: Mode): WorkspaceRecord {
  const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-update");
  // Replacing the whole set is reserved to teams that manage every workspace (spec 5, item 8).
  if (mode === "replace" && !orgRole(ctx.db, caller, ws.organization).manageWorkspaces) throw notFound("workspace not found");
  if (settingsOf(ws)["global-remote-state"]) {
    throw unprocessable("Remote state consumers can only be changed while global-remote-state is false.", "/data");
  }
  return ws;
}

export function changeConsumers(ctx: ServerContext, caller: Caller, workspaceId: string, body: RemoteStateConsumersRequest, mode: Mode): void {
  inTransaction(ctx.db, () => {
    const ws = loadSubject(ctx, caller, workspaceId, mode);
    const ids = resolveConsumers(ctx, caller, ws, body, mode);
    if (mode === "replace") prepare(ctx.db, `DELETE FROM remote_state_consumers WHERE workspace_id = ?`).run(ws.id);
    const stmt =
      mode === "remove"
        ? prepare(ctx.db, `DELETE FROM remote_state_consumers WHERE workspace_id = ? AND consumer_id = ?`)
        : prepare(ctx.db, `INSERT OR IGNORE INTO remote_state_consumers (workspace_id, consumer_id) VALUES (?, ?)`);
    for (const id of ids) stmt.run(ws.id, id);
  });
}
