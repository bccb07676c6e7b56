import type { Db } from "../store/db";
import { prepare } from "../store/db";

/** The state-version domain's table: `state_versions`. */

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

export function insertStateVersion(
  db: Db,
  v: Omit<StateVersionRecord, "promoted"> & { state: string | null; created_by: string },
): void {
  prepare(
    db,
    `INSERT INTO state_versions (id, workspace_id, serial, md5, lineage, state, resource_count, intermediate, promoted, status, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  ).run(
    v.id,
    v.workspace_id,
    v.serial,
    v.md5,
    v.lineage,
    v.state,
    v.resource_count,
    v.intermediate,
    v.status,
    v.created_by,
    v.created_at,
  );
}

export function findStateVersion(db: Db, id: string): StateVersionRecord | undefined {
  return prepare(db, `SELECT ${COLUMNS} FROM state_versions WHERE id = ?`).get(id) as StateVersionRecord | undefined;
}

/** The state file a version holds, or null while it holds none (undefined when there is no such version). */
export function stateText(db: Db, id: string): string | null | undefined {
  return (prepare(db, `SELECT state FROM state_versions WHERE id = ?`).get(id) as { state: string | null } | undefined)
    ?.state;
}

/** The latest intermediate version of a workspace that no unlock has settled yet. */
export function latestUnsettledIntermediate(
  db: Db,
  workspaceId: string,
): Pick<StateVersionRecord, "id" | "status" | "resource_count" | "created_at"> | undefined {
  return prepare(
    db,
    `SELECT id, status, resource_count, created_at FROM state_versions WHERE workspace_id = ? AND intermediate = 1 AND promoted = 0 ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  ).get(workspaceId) as Pick<StateVersionRecord, "id" | "status" | "resource_count" | "created_at"> | undefined;
}

/** Marks every unsettled intermediate version of a workspace settled. */
export function settleIntermediates(db: Db, workspaceId: string): void {
  prepare(
    db,
    `UPDATE state_versions SET promoted = 1 WHERE workspace_id = ? AND intermediate = 1 AND promoted = 0`,
  ).run(workspaceId);
}

/** Records the ids of a state version's outputs, so that each can be read by id. */
export function insertOutputIds(db: Db, stateVersionId: string, ids: ReadonlyArray<string>): void {
  const stmt = prepare(db, `INSERT OR IGNORE INTO state_version_output_ids (id, state_version_id) VALUES (?, ?)`);
  for (const id of ids) stmt.run(id, stateVersionId);
}

/** The state version an output id belongs to. */
export function stateVersionOfOutput(db: Db, outputId: string): string | undefined {
  return (
    prepare(db, `SELECT state_version_id FROM state_version_output_ids WHERE id = ?`).get(outputId) as
      { state_version_id: string } | undefined
  )?.state_version_id;
}

/** Finalized state versions with state whose output ids were never recorded (written before they were). */
export function versionsWithoutOutputIds(db: Db): string[] {
  return (
    prepare(
      db,
      `SELECT id FROM state_versions sv WHERE state IS NOT NULL AND instr(state, '"outputs"') > 0
         AND NOT EXISTS (SELECT 1 FROM state_version_output_ids o WHERE o.state_version_id = sv.id)`,
    ).all() as { id: string }[]
  ).map((r) => r.id);
}
