import type { Db, Page } from "../store/db";
import { prepare } from "../store/db";

/** The run-trigger domain's table: `run_triggers`. */

export interface RunTriggerRecord {
  id: string;
  workspace_id: string;
  sourceable_id: string;
  created_at: string;
}

export function insertRunTrigger(db: Db, r: RunTriggerRecord): void {
  prepare(db, `INSERT INTO run_triggers (id, workspace_id, sourceable_id, created_at) VALUES (?, ?, ?, ?)`).run(
    r.id,
    r.workspace_id,
    r.sourceable_id,
    r.created_at,
  );
}

export function findRunTrigger(db: Db, id: string): RunTriggerRecord | undefined {
  return prepare(db, `SELECT id, workspace_id, sourceable_id, created_at FROM run_triggers WHERE id = ?`).get(id) as
    RunTriggerRecord | undefined;
}

export function findRunTriggerBetween(db: Db, workspaceId: string, sourceableId: string): RunTriggerRecord | undefined {
  return prepare(
    db,
    `SELECT id, workspace_id, sourceable_id, created_at FROM run_triggers WHERE workspace_id = ? AND sourceable_id = ?`,
  ).get(workspaceId, sourceableId) as RunTriggerRecord | undefined;
}

/** How many sources a workspace has. */
export function countSources(db: Db, workspaceId: string): number {
  return (
    prepare(db, `SELECT count(*) AS n FROM run_triggers WHERE workspace_id = ?`).get(workspaceId) as { n: number }
  ).n;
}

/** A page of a workspace's triggers, oldest first: inbound (it is the target) or outbound (it is the source). */
export function runTriggersOf(
  db: Db,
  workspaceId: string,
  inbound: boolean,
  page: Page,
): { rows: RunTriggerRecord[]; total: number } {
  const column = inbound ? "workspace_id" : "sourceable_id";
  const rows = prepare(
    db,
    `SELECT id, workspace_id, sourceable_id, created_at FROM run_triggers WHERE ${column} = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
  ).all(workspaceId, page.size, (page.number - 1) * page.size) as RunTriggerRecord[];
  const total = (
    prepare(db, `SELECT count(*) AS n FROM run_triggers WHERE ${column} = ?`).get(workspaceId) as { n: number }
  ).n;
  return { rows, total };
}

export function deleteRunTriggerRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM run_triggers WHERE id = ?`).run(id);
}
