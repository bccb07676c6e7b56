import type { AgentPoolList } from "../../api/agent-pools";
import type { Db } from "../store/db";
import { prepare } from "../store/db";

/** Agent pools are records only, so that `agent-pool-id` can be validated; no agent ever runs here. */
export interface AgentPoolRecord {
  id: string;
  organization: string;
  name: string;
  organization_scoped: number;
  created_at: string;
}

/** The three lists of a pool, ids in the order they were given. */
export type AgentPoolLists = Record<AgentPoolList, string[]>;

export function insertAgentPool(db: Db, p: AgentPoolRecord): void {
  prepare(
    db,
    `INSERT INTO agent_pools (id, organization, name, organization_scoped, created_at) VALUES (?, ?, ?, ?, ?)`,
  ).run(p.id, p.organization, p.name, p.organization_scoped, p.created_at);
}

export function findAgentPool(db: Db, id: string): AgentPoolRecord | undefined {
  return prepare(db, `SELECT * FROM agent_pools WHERE id = ?`).get(id) as AgentPoolRecord | undefined;
}

/** What a list of pools may be narrowed by: a name fragment, and the name of a workspace or project that may use them. */
export interface AgentPoolFilter {
  q?: string;
  allowedWorkspaceName?: string;
  allowedProjectName?: string;
}

/** `sort` values and their ORDER BY; the rowid breaks ties of one timestamp in creation order. */
const ORDER: Readonly<Record<string, string>> = {
  name: "p.name, p.rowid",
  "-name": "p.name DESC, p.rowid DESC",
  "created-at": "p.created_at, p.rowid",
  "-created-at": "p.created_at DESC, p.rowid DESC",
};

function filterClause(organization: string, f: AgentPoolFilter): { where: string; params: unknown[] } {
  const parts = ["p.organization = ?"];
  const params: unknown[] = [organization];
  if (f.q) {
    parts.push(`instr(lower(p.name), lower(?)) > 0`);
    params.push(f.q);
  }
  // A pool the named workspace or project may use: every organization-scoped pool, and those whose list names it.
  if (f.allowedWorkspaceName !== undefined) {
    parts.push(`(p.organization_scoped = 1 OR EXISTS (SELECT 1 FROM agent_pool_workspaces l JOIN workspaces w ON w.id = l.workspace_id
      WHERE l.agent_pool_id = p.id AND l.list = 'allowed-workspaces' AND w.name = ?))`);
    params.push(f.allowedWorkspaceName);
  }
  if (f.allowedProjectName !== undefined) {
    parts.push(`(p.organization_scoped = 1 OR EXISTS (SELECT 1 FROM agent_pool_projects l JOIN projects j ON j.id = l.project_id
      WHERE l.agent_pool_id = p.id AND j.name = ?))`);
    params.push(f.allowedProjectName);
  }
  return { where: parts.join(" AND "), params };
}

export function countAgentPools(db: Db, organization: string, filter: AgentPoolFilter = {}): number {
  const { where, params } = filterClause(organization, filter);
  return (prepare(db, `SELECT COUNT(*) AS n FROM agent_pools p WHERE ${where}`).get(...params) as { n: number }).n;
}

export function agentPoolsPage(
  db: Db,
  organization: string,
  filter: AgentPoolFilter,
  sort: string,
  limit: number,
  offset: number,
): AgentPoolRecord[] {
  const { where, params } = filterClause(organization, filter);
  return prepare(db, `SELECT p.* FROM agent_pools p WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`).all(
    ...params,
    limit,
    offset,
  ) as AgentPoolRecord[];
}

/** Whether `sort` is one the list knows. */
export function isAgentPoolSort(sort: string): boolean {
  return Object.prototype.hasOwnProperty.call(ORDER, sort);
}

export function updateAgentPoolRow(db: Db, id: string, name: string, organizationScoped: number): void {
  prepare(db, `UPDATE agent_pools SET name = ?, organization_scoped = ? WHERE id = ?`).run(
    name,
    organizationScoped,
    id,
  );
}

export function deleteAgentPoolRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM agent_pools WHERE id = ?`).run(id);
}

/** The lists of each of `ids`, read in two queries for a whole page. */
export function agentPoolLists(db: Db, ids: readonly string[]): Map<string, AgentPoolLists> {
  const out = new Map<string, AgentPoolLists>();
  for (const id of ids) out.set(id, { "allowed-workspaces": [], "allowed-projects": [], "excluded-workspaces": [] });
  if (!ids.length) return out;
  const marks = ids.map(() => "?").join(",");
  const workspaces = prepare(
    db,
    `SELECT agent_pool_id, list, workspace_id AS target FROM agent_pool_workspaces WHERE agent_pool_id IN (${marks}) ORDER BY position`,
  ).all(...ids) as { agent_pool_id: string; list: AgentPoolList; target: string }[];
  const projects = prepare(
    db,
    `SELECT agent_pool_id, 'allowed-projects' AS list, project_id AS target FROM agent_pool_projects WHERE agent_pool_id IN (${marks}) ORDER BY position`,
  ).all(...ids) as { agent_pool_id: string; list: AgentPoolList; target: string }[];
  for (const r of [...workspaces, ...projects]) out.get(r.agent_pool_id)![r.list].push(r.target);
  return out;
}

/** Replaces one list of a pool with `ids` (in their order; an empty list clears it). */
export function replaceAgentPoolList(db: Db, id: string, list: AgentPoolList, ids: readonly string[]): void {
  if (list === "allowed-projects") {
    prepare(db, `DELETE FROM agent_pool_projects WHERE agent_pool_id = ?`).run(id);
    const insert = prepare(
      db,
      `INSERT INTO agent_pool_projects (agent_pool_id, project_id, position) VALUES (?, ?, ?)`,
    );
    ids.forEach((target, i) => insert.run(id, target, i));
    return;
  }
  prepare(db, `DELETE FROM agent_pool_workspaces WHERE agent_pool_id = ? AND list = ?`).run(id, list);
  const insert = prepare(
    db,
    `INSERT INTO agent_pool_workspaces (agent_pool_id, list, workspace_id, position) VALUES (?, ?, ?, ?)`,
  );
  ids.forEach((target, i) => insert.run(id, list, target, i));
}

const ID_SLICE = 500;

/** Which of `ids` are records of `kind` in the organization (agent pools' and policy sets' lists check their ids here). */
export function idsInOrganization(
  db: Db,
  kind: "workspaces" | "projects" | "policies",
  organization: string,
  ids: readonly string[],
): Set<string> {
  const found = new Set<string>();
  // In slices, so that a list of any length stays under SQLite's limit of bound values.
  for (let i = 0; i < ids.length; i += ID_SLICE) {
    const slice = ids.slice(i, i + ID_SLICE);
    const rows = prepare(
      db,
      `SELECT id FROM ${kind} WHERE organization = ? AND id IN (${slice.map(() => "?").join(",")})`,
    ).all(organization, ...slice) as { id: string }[];
    for (const r of rows) found.add(r.id);
  }
  return found;
}

/**
 * Whether the pool lets a workspace of `projectId` (and, once it exists, of id
 * `workspaceId`) run on it: organization-scoped, or the workspace in its allowed
 * workspaces, or its project in its allowed projects; and the workspace not excluded.
 */
export function poolAllows(db: Db, pool: AgentPoolRecord, projectId: string, workspaceId?: string): boolean {
  const listed = (list: AgentPoolList) =>
    workspaceId !== undefined &&
    !!prepare(db, `SELECT 1 FROM agent_pool_workspaces WHERE agent_pool_id = ? AND list = ? AND workspace_id = ?`).get(
      pool.id,
      list,
      workspaceId,
    );
  if (listed("excluded-workspaces")) return false;
  if (pool.organization_scoped === 1 || listed("allowed-workspaces")) return true;
  return !!prepare(db, `SELECT 1 FROM agent_pool_projects WHERE agent_pool_id = ? AND project_id = ?`).get(
    pool.id,
    projectId,
  );
}

/** The workspaces running on each of `ids`, in name order. */
export function workspacesOnPools(db: Db, ids: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = prepare(
    db,
    `SELECT agent_pool_id, id FROM workspaces WHERE agent_pool_id IN (${ids.map(() => "?").join(",")}) ORDER BY name`,
  ).all(...ids) as { agent_pool_id: string; id: string }[];
  for (const r of rows) out.get(r.agent_pool_id)!.push(r.id);
  return out;
}

/**
 * Who still uses the pool: workspaces running on it, and whether it is its
 * organization's default. Read here, not through the workspace and organization
 * services, because both of those check pools through this domain.
 */
export function agentPoolUsers(db: Db, id: string): { workspaces: number; organizationDefault: boolean } {
  const workspaces = (
    prepare(db, `SELECT COUNT(*) AS n FROM workspaces WHERE agent_pool_id = ?`).get(id) as { n: number }
  ).n;
  const organizationDefault = !!prepare(db, `SELECT 1 FROM organizations WHERE default_agent_pool_id = ?`).get(id);
  return { workspaces, organizationDefault };
}
