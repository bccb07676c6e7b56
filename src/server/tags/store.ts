import type { Db, Page } from "../store/db";
import { now, prepare } from "../store/db";
import { newId } from "../ids";

/**
 * The tags domain's tables: flat tags (`tags`, `workspace_tags`) and key-value tag
 * bindings of workspaces and projects (`workspace_tag_bindings`, `project_tag_bindings`).
 */

export interface KeyValue {
  key: string;
  value: string;
}

export interface TagBindingRecord {
  id: string;
  key: string;
  value: string;
  created_at: string;
}

export interface TagRecord {
  id: string;
  organization: string;
  name: string;
  created_at: string;
  instance_count?: number;
}

/** A condition on the workspaces of a list query (alias `w`), with its parameters. */
export interface Clause {
  sql: string;
  params: unknown[];
}

// ---------------------------------------------------------------------------
// key-value bindings

const OWNERS = {
  workspace: { table: "workspace_tag_bindings", column: "workspace_id" },
  project: { table: "project_tag_bindings", column: "project_id" },
} as const;

export type BindingOwner = keyof typeof OWNERS;

export function selectBindings(
  db: Db,
  owner: BindingOwner,
  ownerId: string,
  order: "key" | "rowid",
): TagBindingRecord[] {
  const { table, column } = OWNERS[owner];
  return prepare(db, `SELECT id, key, value, created_at FROM ${table} WHERE ${column} = ? ORDER BY ${order}`).all(
    ownerId,
  ) as TagBindingRecord[];
}

export function replaceBindings(db: Db, owner: BindingOwner, ownerId: string, bindings: ReadonlyArray<KeyValue>): void {
  const { table, column } = OWNERS[owner];
  prepare(db, `DELETE FROM ${table} WHERE ${column} = ?`).run(ownerId);
  const insert = prepare(db, `INSERT INTO ${table} (id, ${column}, key, value, created_at) VALUES (?, ?, ?, ?, ?)`);
  const t = now();
  for (const b of bindings) insert.run(newId("tagBinding"), ownerId, b.key, b.value, t);
}

export function upsertBindings(db: Db, owner: BindingOwner, ownerId: string, bindings: ReadonlyArray<KeyValue>): void {
  const { table, column } = OWNERS[owner];
  const update = prepare(db, `UPDATE ${table} SET value = ? WHERE ${column} = ? AND key = ?`);
  const insert = prepare(db, `INSERT INTO ${table} (id, ${column}, key, value, created_at) VALUES (?, ?, ?, ?, ?)`);
  const t = now();
  for (const b of bindings)
    if (update.run(b.value, ownerId, b.key).changes === 0) insert.run(newId("tagBinding"), ownerId, b.key, b.value, t);
}

/**
 * Key-value filter on effective bindings: the workspace's own, else the project's for
 * keys it does not set. Correlated EXISTS probes use the (workspace_id, key) and
 * (project_id, key) unique indexes; measured faster than IN lists, which materialize
 * every matching id before the first row is returned.
 */
export function taggedClause(key: string, value: string | undefined): Clause {
  const direct = value === undefined ? `b.key = ?` : `b.key = ? AND b.value = ?`;
  const inherited = value === undefined ? `p.key = ?` : `p.key = ? AND p.value = ?`;
  const kv = value === undefined ? [key] : [key, value];
  return {
    sql: `(EXISTS (SELECT 1 FROM workspace_tag_bindings b WHERE b.workspace_id = w.id AND ${direct})
           OR (EXISTS (SELECT 1 FROM project_tag_bindings p WHERE p.project_id = w.project_id AND ${inherited})
               AND NOT EXISTS (SELECT 1 FROM workspace_tag_bindings b WHERE b.workspace_id = w.id AND b.key = ?)))`,
    params: [...kv, ...kv, key],
  };
}

// ---------------------------------------------------------------------------
// flat tags

const TAG_COLUMNS = `t.id, t.organization, t.name, t.created_at, (SELECT COUNT(*) FROM workspace_tags c WHERE c.tag_id = t.id) AS instance_count`;

export function findTag(db: Db, id: string): TagRecord | undefined {
  return prepare(db, `SELECT id, organization, name, created_at FROM tags WHERE id = ?`).get(id) as
    TagRecord | undefined;
}

export function tagExists(db: Db, organization: string, id: string): boolean {
  return prepare(db, `SELECT 1 FROM tags WHERE id = ? AND organization = ?`).get(id, organization) !== undefined;
}

export function tagIdByName(db: Db, organization: string, name: string): string | undefined {
  return (
    prepare(db, `SELECT id FROM tags WHERE name = ? AND organization = ?`).get(name, organization) as
      { id: string } | undefined
  )?.id;
}

export function insertTag(db: Db, organization: string, name: string): string {
  const id = newId("tag");
  prepare(db, `INSERT INTO tags (id, organization, name, created_at) VALUES (?, ?, ?, ?)`).run(
    id,
    organization,
    name,
    now(),
  );
  return id;
}

export function deleteTag(db: Db, id: string): void {
  prepare(db, `DELETE FROM workspace_tags WHERE tag_id = ?`).run(id);
  prepare(db, `DELETE FROM tags WHERE id = ?`).run(id);
}

export function attachTags(db: Db, workspaceId: string, tagIds: ReadonlyArray<string | null>): void {
  const link = prepare(db, `INSERT OR IGNORE INTO workspace_tags (workspace_id, tag_id) VALUES (?, ?)`);
  for (const id of tagIds) if (id) link.run(workspaceId, id);
}

export function detachTags(db: Db, workspaceId: string, tagIds: ReadonlyArray<string | null>): void {
  const unlink = prepare(db, `DELETE FROM workspace_tags WHERE workspace_id = ? AND tag_id = ?`);
  for (const id of tagIds) if (id) unlink.run(workspaceId, id);
}

/** Flat tags that no workspace carries any more disappear from the organization (spec 4.10). */
export function pruneUnusedTags(db: Db, organization: string): void {
  prepare(
    db,
    `DELETE FROM tags WHERE organization = ? AND NOT EXISTS (SELECT 1 FROM workspace_tags wt WHERE wt.tag_id = tags.id)`,
  ).run(organization);
}

export function flatTagNames(db: Db, workspaceId: string): string[] {
  return (
    prepare(
      db,
      `SELECT t.name FROM workspace_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.workspace_id = ? ORDER BY t.name`,
    ).all(workspaceId) as { name: string }[]
  ).map((r) => r.name);
}

/** Tag names of several workspaces in one query. */
export function flatTagNamesOf(db: Db, workspaceIds: ReadonlyArray<string>): { workspace_id: string; v: string }[] {
  // `json_each` keeps the statement text fixed whatever the page size, so it is compiled once.
  return prepare(
    db,
    `SELECT wt.workspace_id, t.name AS v FROM workspace_tags wt JOIN tags t ON t.id = wt.tag_id
      WHERE wt.workspace_id IN (SELECT value FROM json_each(?)) ORDER BY wt.workspace_id, t.name`,
  ).all(JSON.stringify(workspaceIds)) as { workspace_id: string; v: string }[];
}

export function workspaceTagsPage(db: Db, workspaceId: string, page: Page): { rows: TagRecord[]; total: number } {
  const total = (
    prepare(db, `SELECT COUNT(*) AS n FROM workspace_tags WHERE workspace_id = ?`).get(workspaceId) as { n: number }
  ).n;
  const rows = prepare(
    db,
    `SELECT ${TAG_COLUMNS} FROM workspace_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.workspace_id = ? ORDER BY t.name LIMIT ? OFFSET ?`,
  ).all(workspaceId, page.size, (page.number - 1) * page.size) as TagRecord[];
  return { rows, total };
}

export function organizationTagsPage(
  db: Db,
  organization: string,
  filter: { q?: string; excludeWorkspaceId?: string },
  page: Page,
): { rows: TagRecord[]; total: number } {
  const where = ["t.organization = ?"];
  const params: unknown[] = [organization];
  if (filter.q) {
    // `instr` compares every byte, so a control character in `q` is matched literally.
    where.push(`instr(lower(t.name), lower(?)) > 0`);
    params.push(filter.q);
  }
  if (filter.excludeWorkspaceId) {
    where.push(`NOT EXISTS (SELECT 1 FROM workspace_tags x WHERE x.tag_id = t.id AND x.workspace_id = ?)`);
    params.push(filter.excludeWorkspaceId);
  }
  const sql = where.join(" AND ");
  const total = (prepare(db, `SELECT COUNT(*) AS n FROM tags t WHERE ${sql}`).get(...params) as { n: number }).n;
  const rows = prepare(db, `SELECT ${TAG_COLUMNS} FROM tags t WHERE ${sql} ORDER BY t.name LIMIT ? OFFSET ?`).all(
    ...params,
    page.size,
    (page.number - 1) * page.size,
  ) as TagRecord[];
  return { rows, total };
}

/** Workspaces carrying the flat tag named `name` (lower-cased). */
export function hasFlatTagClause(organization: string, name: string): Clause {
  return {
    sql: `EXISTS (SELECT 1 FROM workspace_tags wt WHERE wt.workspace_id = w.id AND wt.tag_id = (SELECT id FROM tags WHERE organization = ? AND name = ?))`,
    params: [organization, name],
  };
}

/** Workspaces carrying none of the flat tags named (lower-cased). */
export function lacksFlatTagsClause(organization: string, names: ReadonlyArray<string>): Clause {
  return {
    sql: `NOT EXISTS (SELECT 1 FROM workspace_tags wt WHERE wt.workspace_id = w.id AND wt.tag_id IN (SELECT id FROM tags WHERE organization = ? AND name IN (${names.map(() => "?").join(",")})))`,
    params: [organization, ...names],
  };
}

/** Projects (table `projects` in a list query) with a binding of `key` (and `value` when given). */
export function taggedProjectClause(key: string, value: string | undefined): Clause {
  return {
    sql: `EXISTS (SELECT 1 FROM project_tag_bindings b WHERE b.project_id = projects.id AND b.key = ?${value === undefined ? "" : " AND b.value = ?"})`,
    params: value === undefined ? [key] : [key, value],
  };
}
