import type { Db } from "../store/db";
import { now, prepare } from "../store/db";

/** The run domain's table: `runs`. */

export interface RunRecord {
  id: string;
  workspace_id: string;
  status: string;
  message: string;
  is_destroy: number;
  auto_apply: number;
  plan_only: number;
  kind: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export function findRun(db: Db, id: string): RunRecord | undefined {
  return prepare(db, `SELECT * FROM runs WHERE id = ?`).get(id) as RunRecord | undefined;
}

export function insertRun(db: Db, run: RunRecord): void {
  prepare(
    db,
    `INSERT INTO runs (id, workspace_id, status, message, is_destroy, auto_apply, plan_only, kind, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    run.id,
    run.workspace_id,
    run.status,
    run.message,
    run.is_destroy,
    run.auto_apply,
    run.plan_only,
    run.kind,
    run.created_by,
    run.created_at,
    run.updated_at,
  );
}

export function updateRunStatus(db: Db, id: string, status: string): void {
  prepare(db, `UPDATE runs SET status = ?, updated_at = ? WHERE id = ?`).run(status, now(), id);
}
