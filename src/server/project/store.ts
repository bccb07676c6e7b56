import type { Db } from "../store/db";
import { prepare } from "../store/db";

export interface ProjectRecord {
  id: string;
  organization: string;
  name: string;
  description: string;
  created_at: string;
  /** Null while the project follows the organization's default. */
  default_execution_mode: string | null;
  default_agent_pool_id: string | null;
}

/** A condition on `projects` in a list query, with its parameters. */
export interface Clause {
  sql: string;
  params: unknown[];
}

export function findProject(db: Db, id: string): ProjectRecord | undefined {
  return prepare(db, `SELECT * FROM projects WHERE id = ?`).get(id) as ProjectRecord | undefined;
}

/** Whether another project of the organization (not `exceptId`) has the name. */
export function projectNameInUse(db: Db, organization: string, name: string, exceptId?: string): boolean {
  if (exceptId === undefined)
    return !!prepare(db, `SELECT 1 FROM projects WHERE organization = ? AND name = ?`).get(organization, name);
  return !!prepare(db, `SELECT 1 FROM projects WHERE organization = ? AND name = ? AND id <> ?`).get(
    organization,
    name,
    exceptId,
  );
}

export function insertProject(db: Db, p: ProjectRecord): void {
  prepare(
    db,
    `INSERT INTO projects (id, organization, name, description, created_at, default_execution_mode, default_agent_pool_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(p.id, p.organization, p.name, p.description, p.created_at, p.default_execution_mode, p.default_agent_pool_id);
}

export function setName(db: Db, id: string, name: string): void {
  prepare(db, `UPDATE projects SET name = ? WHERE id = ?`).run(name, id);
}

export function setDescription(db: Db, id: string, description: string): void {
  prepare(db, `UPDATE projects SET description = ? WHERE id = ?`).run(description, id);
}

export function setExecution(db: Db, id: string, mode: string | null, agentPoolId: string | null): void {
  prepare(db, `UPDATE projects SET default_execution_mode = ?, default_agent_pool_id = ? WHERE id = ?`).run(
    mode,
    agentPoolId,
    id,
  );
}

export function deleteProjectRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM projects WHERE id = ?`).run(id);
}

/** One page of the organization's projects matching every clause, in name order, and how many match in all. */
export function projectsPage(
  db: Db,
  organization: string,
  clauses: ReadonlyArray<Clause>,
  limit: number,
  offset: number,
): { rows: ProjectRecord[]; total: number } {
  const sql = ["organization = ?", ...clauses.map((c) => c.sql)].join(" AND ");
  const params = [organization, ...clauses.flatMap((c) => c.params)];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM projects WHERE ${sql}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM projects WHERE ${sql} ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`)
    .all(...params, limit, offset) as ProjectRecord[];
  return { rows, total };
}

export function nameIs(name: string): Clause {
  return { sql: "name = ?", params: [name] };
}

export function nameContains(part: string): Clause {
  return { sql: "instr(lower(name), lower(?)) > 0", params: [part] };
}

/**
 * How many workspaces the project holds. Counted here rather than through the workspace
 * domain, which reads projects through this one.
 */
export function workspaceCount(db: Db, projectId: string): number {
  return (prepare(db, `SELECT COUNT(*) AS n FROM workspaces WHERE project_id = ?`).get(projectId) as { n: number }).n;
}

export function holdsWorkspaces(db: Db, projectId: string): boolean {
  return !!prepare(db, `SELECT 1 FROM workspaces WHERE project_id = ? LIMIT 1`).get(projectId);
}
