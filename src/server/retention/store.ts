import type { Db } from "../store/db";
import { prepare } from "../store/db";

export interface PolicyRecord {
  id: string;
  kind: string;
  delete_older_than_n_days: number | null;
}

export function findWorkspacePolicy(db: Db, workspaceId: string): PolicyRecord | undefined {
  return prepare(
    db,
    `SELECT id, kind, delete_older_than_n_days FROM data_retention_policies WHERE workspace_id = ?`,
  ).get(workspaceId) as PolicyRecord | undefined;
}

/** Creates the workspace's policy, or replaces the kind and days of the one it has (keeping its id). */
export function upsertWorkspacePolicy(db: Db, workspaceId: string, p: PolicyRecord, createdAt: string): void {
  prepare(
    db,
    `INSERT INTO data_retention_policies (workspace_id, id, kind, delete_older_than_n_days, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id) DO UPDATE SET kind = excluded.kind, delete_older_than_n_days = excluded.delete_older_than_n_days`,
  ).run(workspaceId, p.id, p.kind, p.delete_older_than_n_days, createdAt);
}

export function deleteWorkspacePolicy(db: Db, workspaceId: string): void {
  prepare(db, `DELETE FROM data_retention_policies WHERE workspace_id = ?`).run(workspaceId);
}
