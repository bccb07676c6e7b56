import type { Db, Page } from "../store/db";
import { now, prepare } from "../store/db";
import type { WorkspaceListFilter, WorkspaceSortKey } from "./list-filter";
import type { WorkspaceSettings } from "./stored-fields";

/** A workspace row. Settings without their own column live in `settings` as JSON (see ./stored-fields.ts). */
export interface WorkspaceRecord {
  id: string;
  organization: string;
  name: string;
  project_id: string;
  settings: string;
  source: string;
  locked: number;
  locked_reason: string | null;
  locked_by: string | null;
  ssh_key_id: string | null;
  agent_pool_id: string | null;
  current_state_version_id: string | null;
  current_run_id: string | null;
  resource_count: number;
  latest_change_at: string;
  created_at: string;
  updated_at: string;
}

export function settingsOf(ws: WorkspaceRecord): WorkspaceSettings {
  return JSON.parse(ws.settings) as WorkspaceSettings;
}

export function findWorkspaceById(db: Db, id: string): WorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM workspaces WHERE id = ?`).get(id) as WorkspaceRecord | undefined;
}

export function findWorkspaceByName(db: Db, organization: string, name: string): WorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM workspaces WHERE organization = ? AND name = ? COLLATE NOCASE`).get(
    organization,
    name,
  ) as WorkspaceRecord | undefined;
}

export function insertWorkspace(db: Db, ws: WorkspaceRecord): void {
  prepare(
    db,
    `INSERT INTO workspaces (id, organization, name, project_id, settings, source, locked, locked_reason, locked_by, ssh_key_id, agent_pool_id,
       current_state_version_id, current_run_id, resource_count, latest_change_at, created_at, updated_at)
     VALUES (@id, @organization, @name, @project_id, @settings, @source, @locked, @locked_reason, @locked_by, @ssh_key_id, @agent_pool_id,
       @current_state_version_id, @current_run_id, @resource_count, @latest_change_at, @created_at, @updated_at)`,
  ).run(ws);
}

/** Writes the columns a settings update may change. */
export function saveWorkspace(db: Db, ws: WorkspaceRecord): void {
  prepare(
    db,
    `UPDATE workspaces SET name = @name, project_id = @project_id, settings = @settings, agent_pool_id = @agent_pool_id,
       ssh_key_id = @ssh_key_id, updated_at = @updated_at WHERE id = @id`,
  ).run(ws);
}

export function variableIds(db: Db, workspaceId: string): string[] {
  return (
    prepare(db, `SELECT id FROM vars WHERE workspace_id = ? ORDER BY created_at, key`).all(workspaceId) as {
      id: string;
    }[]
  ).map((r) => r.id);
}

/** Variable ids of several workspaces in one query. */
export function variableIdsOf(db: Db, workspaceIds: ReadonlyArray<string>): { workspace_id: string; v: string }[] {
  return prepare(
    db,
    `SELECT workspace_id, id AS v FROM vars WHERE workspace_id IN (SELECT value FROM json_each(?)) ORDER BY workspace_id, created_at, key`,
  ).all(JSON.stringify(workspaceIds)) as { workspace_id: string; v: string }[];
}

export function deleteWorkspace(db: Db, id: string): void {
  prepare(db, `DELETE FROM workspaces WHERE id = ?`).run(id);
}

export function setLock(db: Db, id: string, reason: string, holder: string): void {
  prepare(db, `UPDATE workspaces SET locked = 1, locked_reason = ?, locked_by = ? WHERE id = ? AND locked = 0`).run(
    reason,
    holder,
    id,
  );
}

export function clearLock(db: Db, id: string): void {
  prepare(db, `UPDATE workspaces SET locked = 0, locked_reason = NULL, locked_by = NULL WHERE id = ?`).run(id);
}

/** The one write of a workspace's current state: the version, its resource count, and when it changed. */
export function setCurrentState(
  db: Db,
  id: string,
  stateVersionId: string,
  resourceCount: number,
  changedAt: string,
): void {
  prepare(
    db,
    `UPDATE workspaces SET current_state_version_id = ?, resource_count = ?, latest_change_at = ? WHERE id = ?`,
  ).run(stateVersionId, resourceCount, changedAt, id);
}

export function setCurrentRun(db: Db, id: string, runId: string): void {
  prepare(db, `UPDATE workspaces SET current_run_id = ? WHERE id = ?`).run(runId, id);
}

export function touchWorkspace(db: Db, id: string): void {
  prepare(db, `UPDATE workspaces SET updated_at = ? WHERE id = ?`).run(now(), id);
}

export function setSshKey(db: Db, id: string, sshKeyId: string | null): void {
  prepare(db, `UPDATE workspaces SET ssh_key_id = ?, updated_at = ? WHERE id = ?`).run(sshKeyId, now(), id);
}

/** One workspace row per id, in the order given. */
export function workspacesByIds(db: Db, ids: ReadonlyArray<string>): WorkspaceRecord[] {
  const one = prepare(db, `SELECT * FROM workspaces WHERE id = ?`);
  return ids.map((id) => one.get(id) as WorkspaceRecord);
}

/** A condition on workspaces (alias `w`) of a list query, with its parameters. */
export interface Clause {
  sql: string;
  params: unknown[];
}

/** Escapes LIKE wildcards so user text matches literally (escape character `\`). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `search[wildcard-name]`: `*` matches any run of characters, everything else literally.
 * SQLite's LIKE reads its pattern only up to a NUL, so a pattern holding one would match
 * as if cut there; each such literal piece is also required by `instr`, which compares
 * every byte, so a control character stays a literal character.
 */
function wildcardClause(wildcard: string): Clause {
  const pieces = wildcard.split("*");
  const clause: Clause = {
    sql: `w.name LIKE ? ESCAPE '\\'`,
    params: [pieces.map((p) => likeLiteral(p).replace(/\0/g, "_")).join("%")],
  };
  for (const piece of pieces.filter((p) => p.includes("\0"))) {
    clause.sql += ` AND instr(lower(w.name), lower(?)) > 0`;
    clause.params.push(piece);
  }
  return clause;
}

const SORTS: Record<WorkspaceSortKey, string> = {
  name: "w.name COLLATE NOCASE",
  "latest-change-at": "w.latest_change_at",
  "current-run.created-at": "r.created_at",
};

/**
 * The list query of spec 4.4: the ids of every matching workspace in list order, as the
 * SQL text and parameters (so a caller can remember results by them) and a function
 * that runs it. `visible` limits to what the caller may read; `flatTags` and `tagged`
 * are the tags domain's conditions on the workspaces (alias `w`).
 */
export function workspaceListQuery(
  organization: string,
  visible: Clause,
  filter: WorkspaceListFilter,
  flatTags: ReadonlyArray<Clause>,
  tagged: ReadonlyArray<Clause>,
): { sql: string; params: unknown[] } {
  const where: Clause[] = [{ sql: "w.organization = ?", params: [organization] }, visible];
  // A substring, compared byte for byte (case-insensitive for ASCII, as LIKE was); `instr`
  // takes control characters literally where LIKE would stop at a NUL.
  if (filter.name !== undefined) where.push({ sql: `instr(lower(w.name), lower(?)) > 0`, params: [filter.name] });
  if (filter.wildcard !== undefined) where.push(wildcardClause(filter.wildcard));
  where.push(...flatTags);
  if (filter.projectId !== undefined) where.push({ sql: "w.project_id = ?", params: [filter.projectId] });
  if (filter.runStatuses.length) {
    where.push({
      sql: `w.current_run_id IN (SELECT id FROM runs WHERE status IN (${filter.runStatuses.map(() => "?").join(",")}))`,
      params: filter.runStatuses,
    });
  }
  where.push(...tagged);
  let order = "w.name COLLATE NOCASE ASC, w.id ASC";
  let join = "";
  if (filter.sort) {
    if (filter.sort.key === "current-run.created-at") join = "LEFT JOIN runs r ON r.id = w.current_run_id";
    const dir = filter.sort.desc ? "DESC" : "ASC";
    order = `${SORTS[filter.sort.key]} ${dir}, w.name COLLATE NOCASE ${dir}, w.id ${dir}`;
  }
  return {
    sql: `SELECT w.id FROM workspaces w ${join} WHERE ${where.map((c) => c.sql).join(" AND ")} ORDER BY ${order}`,
    params: where.flatMap((c) => c.params),
  };
}

export function runWorkspaceListQuery(db: Db, query: { sql: string; params: unknown[] }): string[] {
  return prepare(db, query.sql)
    .pluck()
    .all(...query.params) as string[];
}

/** A page of the workspaces matching the clauses, in name order, with the total count. */
export function workspacesPage(
  db: Db,
  where: ReadonlyArray<Clause>,
  page: Page,
): { rows: WorkspaceRecord[]; total: number } {
  const sql = where.map((c) => c.sql).join(" AND ");
  const params = where.flatMap((c) => c.params);
  const total = (prepare(db, `SELECT COUNT(*) AS n FROM workspaces w WHERE ${sql}`).get(...params) as { n: number }).n;
  const rows = prepare(
    db,
    `SELECT w.* FROM workspaces w WHERE ${sql} ORDER BY w.name COLLATE NOCASE, w.id LIMIT ? OFFSET ?`,
  ).all(...params, page.size, (page.number - 1) * page.size) as WorkspaceRecord[];
  return { rows, total };
}

/** Writes since this connection opened, and the file's data version: both change on any write, from this process or another. */
export function writeMarks(db: Db): { writes: number; dataVersion: number } {
  const state = prepare(db, `SELECT total_changes() AS writes`).get() as { writes: number };
  return { writes: state.writes, dataVersion: db.pragma("data_version", { simple: true }) as number };
}

// Read from the OAuth and team domains' tables until those domains offer the same lookups.

export interface OAuthInfo {
  name: string | null;
  service_provider: string;
  http_url: string;
}

export function oauthInfo(db: Db, oauthTokenId: string): OAuthInfo | undefined {
  return prepare(
    db,
    `SELECT c.name, c.service_provider, c.http_url FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.oauth_client_id WHERE t.id = ?`,
  ).get(oauthTokenId) as OAuthInfo | undefined;
}

/** The name of a lock holder: the team or organization whose service account it is, else the user. */
export function principalName(
  db: Db,
  principal: string,
): { kind: "Team" | "Organization" | "User"; name: string } | undefined {
  const team = prepare(db, `SELECT name FROM teams WHERE service_user_id = ?`).get(principal) as
    { name: string } | undefined;
  if (team) return { kind: "Team", name: team.name };
  const org = prepare(db, `SELECT name FROM organizations WHERE service_user_id = ?`).get(principal) as
    { name: string } | undefined;
  if (org) return { kind: "Organization", name: org.name };
  const user = prepare(db, `SELECT username FROM users WHERE id = ?`).get(principal) as
    { username: string } | undefined;
  return user ? { kind: "User", name: user.username } : undefined;
}
