import type { Db } from "../store/db";
import { prepare } from "../store/db";

/** The consumers domain's table: `remote_state_consumers`. */

/** Workspaces (alias `w`) named as remote state consumers of `workspaceId`. */
export function consumersClause(workspaceId: string): { sql: string; params: unknown[] } {
  return {
    sql: `w.id IN (SELECT consumer_id FROM remote_state_consumers WHERE workspace_id = ?)`,
    params: [workspaceId],
  };
}

export function removeAllConsumers(db: Db, workspaceId: string): void {
  prepare(db, `DELETE FROM remote_state_consumers WHERE workspace_id = ?`).run(workspaceId);
}

export function addConsumers(db: Db, workspaceId: string, consumerIds: ReadonlyArray<string>): void {
  const insert = prepare(db, `INSERT OR IGNORE INTO remote_state_consumers (workspace_id, consumer_id) VALUES (?, ?)`);
  for (const id of consumerIds) insert.run(workspaceId, id);
}

export function removeConsumers(db: Db, workspaceId: string, consumerIds: ReadonlyArray<string>): void {
  const remove = prepare(db, `DELETE FROM remote_state_consumers WHERE workspace_id = ? AND consumer_id = ?`);
  for (const id of consumerIds) remove.run(workspaceId, id);
}
