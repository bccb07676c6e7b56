import type { Db } from "../store/db";
import { prepare } from "../store/db";

/** The key material (`value`) is written here and read by runs only; it is never selected for rendering. */
export interface SshKeyRecord {
  id: string;
  organization: string;
  name: string;
  created_at: string;
}

export function insertSshKey(db: Db, k: SshKeyRecord & { value: string }): void {
  prepare(db, `INSERT INTO ssh_keys (id, organization, name, value, created_at) VALUES (?, ?, ?, ?, ?)`).run(
    k.id,
    k.organization,
    k.name,
    k.value,
    k.created_at,
  );
}

export function findSshKey(db: Db, id: string): SshKeyRecord | undefined {
  return prepare(db, `SELECT id, organization, name, created_at FROM ssh_keys WHERE id = ?`).get(id) as
    SshKeyRecord | undefined;
}

export function countSshKeys(db: Db, organization: string): number {
  return (prepare(db, `SELECT COUNT(*) AS n FROM ssh_keys WHERE organization = ?`).get(organization) as { n: number })
    .n;
}

export function sshKeysPage(db: Db, organization: string, limit: number, offset: number): SshKeyRecord[] {
  return prepare(
    db,
    `SELECT id, organization, name, created_at FROM ssh_keys WHERE organization = ? ORDER BY name, id LIMIT ? OFFSET ?`,
  ).all(organization, limit, offset) as SshKeyRecord[];
}

export function deleteSshKeyRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM ssh_keys WHERE id = ?`).run(id);
}
