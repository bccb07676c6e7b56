import type { Db } from "../store/db";
import { prepare } from "../store/db";

export interface OrganizationRecord {
  name: string;
  email: string | null;
  created_at: string;
  default_project_id: string;
  allow_force_delete_workspaces: number;
  service_user_id: string;
  /** Where workspaces that do not override it run: `remote`, `local` or `agent`. */
  default_execution_mode: string;
  default_agent_pool_id: string | null;
  /** Days after which state versions are deleted, the default retention policy of its workspaces (self-managed); null keeps them. */
  data_retention_days: number | null;
}

export function findOrganization(db: Db, name: string): OrganizationRecord | undefined {
  return prepare(db, `SELECT * FROM organizations WHERE name = ?`).get(name) as OrganizationRecord | undefined;
}

export function allOrganizationNames(db: Db): string[] {
  return (prepare(db, `SELECT name FROM organizations ORDER BY name`).all() as { name: string }[]).map((o) => o.name);
}

export function insertOrganization(
  db: Db,
  o: {
    name: string;
    email: string | null;
    createdAt: string;
    defaultProjectId: string;
    allowForceDeleteWorkspaces: boolean;
    serviceUserId: string;
  },
): void {
  prepare(
    db,
    `INSERT INTO organizations (name, email, created_at, default_project_id, allow_force_delete_workspaces, service_user_id) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(o.name, o.email, o.createdAt, o.defaultProjectId, o.allowForceDeleteWorkspaces ? 1 : 0, o.serviceUserId);
}

/**
 * The organization's default project, created with it in one transaction. Written here
 * rather than through the project domain, which reads organizations through this one.
 */
export function insertDefaultProject(
  db: Db,
  p: { id: string; organization: string; name: string; createdAt: string },
): void {
  prepare(db, `INSERT INTO projects (id, organization, name, description, created_at) VALUES (?, ?, ?, '', ?)`).run(
    p.id,
    p.organization,
    p.name,
    p.createdAt,
  );
}

export function setEmail(db: Db, name: string, email: string | null): void {
  prepare(db, `UPDATE organizations SET email = ? WHERE name = ?`).run(email, name);
}

export function setAllowForceDelete(db: Db, name: string, allow: boolean): void {
  prepare(db, `UPDATE organizations SET allow_force_delete_workspaces = ? WHERE name = ?`).run(allow ? 1 : 0, name);
}

export function setExecutionDefaults(db: Db, name: string, mode: string, agentPoolId: string | null): void {
  prepare(db, `UPDATE organizations SET default_execution_mode = ?, default_agent_pool_id = ? WHERE name = ?`).run(
    mode,
    agentPoolId,
    name,
  );
}

/**
 * Deletes the organization; the schema's cascades take everything in it. Its workspaces
 * go first, because they also point at its projects (written here rather than through the
 * workspace domain, which reads organizations through this one). Returns the rows deleted.
 */
export function deleteOrganizationRow(db: Db, name: string): number {
  prepare(db, `DELETE FROM workspaces WHERE organization = ?`).run(name);
  return prepare(db, `DELETE FROM organizations WHERE name = ?`).run(name).changes;
}
