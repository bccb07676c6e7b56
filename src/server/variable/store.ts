import { prepare, type Db } from "../store/db";

/**
 * Variables (`vars`: a workspace's own; `varset_vars`: a set's) and variable sets with
 * where they apply. A sensitive value is stored sealed (the service decides; this room
 * only keeps what it is given). `version_id` changes on every update through the
 * tables. triggers (./schema.ts), whoever writes.
 */

/** The column a sealed workspace variable value belongs to, authenticated with it. */
export const VARS_VALUE_PURPOSE = "vars.value";
/** The column a sealed set variable value belongs to. */
export const VARSET_VARS_VALUE_PURPOSE = "varset_vars.value";
/** The column a sealed policy set parameter value belongs to. */
export const POLICY_SET_PARAMS_VALUE_PURPOSE = "policy_set_params.value";

/** A stored variable: `owner_id` is its workspace (`vars`), its set (`varset_vars`) or its policy set (`policy_set_params`). */
export interface VariableRecord {
  id: string;
  owner_id: string;
  key: string;
  /** Sealed when `sensitive` is 1. */
  value: string;
  description: string | null;
  category: string;
  category_spelling: string | null;
  hcl: number;
  sensitive: number;
  version_id: string;
  created_at: string;
}

export type VariableRow = Omit<VariableRecord, "id" | "created_at" | "version_id">;

/** Where variables live: a workspace's own, a variable set's, or a policy set's parameters (one set of rules for all). */
export type VariableTable = "vars" | "varset_vars" | "policy_set_params";

const OWNER: Record<VariableTable, string> = {
  vars: "workspace_id",
  varset_vars: "varset_id",
  policy_set_params: "policy_set_id",
};
const columns = (t: VariableTable) =>
  `id, ${OWNER[t]} AS owner_id, key, value, description, category, category_spelling, hcl, sensitive, version_id, created_at`;

export function variablesOf(db: Db, t: VariableTable, ownerId: string): VariableRecord[] {
  return prepare(db, `SELECT ${columns(t)} FROM ${t} WHERE ${OWNER[t]} = ? ORDER BY created_at, key`).all(
    ownerId,
  ) as VariableRecord[];
}

export function variablesPage(db: Db, t: VariableTable, ownerId: string, limit: number, offset: number) {
  return prepare(
    db,
    `SELECT ${columns(t)} FROM ${t} WHERE ${OWNER[t]} = ? ORDER BY created_at, key LIMIT ? OFFSET ?`,
  ).all(ownerId, limit, offset) as VariableRecord[];
}

export function countVariables(db: Db, t: VariableTable, ownerId: string): number {
  return (prepare(db, `SELECT COUNT(*) AS n FROM ${t} WHERE ${OWNER[t]} = ?`).get(ownerId) as { n: number }).n;
}

export function findVariable(db: Db, t: VariableTable, ownerId: string, id: string): VariableRecord | undefined {
  return prepare(db, `SELECT ${columns(t)} FROM ${t} WHERE id = ? AND ${OWNER[t]} = ?`).get(id, ownerId) as
    VariableRecord | undefined;
}

export function variableByKey(
  db: Db,
  t: VariableTable,
  ownerId: string,
  key: string,
  category: string,
): VariableRecord | undefined {
  return prepare(db, `SELECT ${columns(t)} FROM ${t} WHERE ${OWNER[t]} = ? AND key = ? AND category = ?`).get(
    ownerId,
    key,
    category,
  ) as VariableRecord | undefined;
}

/** Inserts a variable with a fresh `version_id`. */
export function insertVariable(db: Db, t: VariableTable, row: VariableRow & { id: string; created_at: string }): void {
  prepare(
    db,
    `INSERT INTO ${t} (id, ${OWNER[t]}, key, value, description, category, category_spelling, hcl, sensitive, version_id, created_at)
     VALUES (@id, @owner_id, @key, @value, @description, @category, @category_spelling, @hcl, @sensitive, lower(hex(randomblob(20))), @created_at)`,
  ).run(row);
}

/** Writes every attribute of the variable `id` (its `version_id` changes, even when nothing else does). */
export function updateVariableById(db: Db, t: VariableTable, id: string, row: VariableRow): void {
  prepare(
    db,
    `UPDATE ${t} SET key = @key, value = @value, description = @description, category = @category,
       category_spelling = @category_spelling, hcl = @hcl, sensitive = @sensitive WHERE id = @id`,
  ).run({ ...row, id });
}

/** Overwrites the workspace variable of the same key and category; false when there is none. A sensitive variable stays sensitive. */
export function updateVariableByKey(db: Db, row: VariableRow): boolean {
  return (
    prepare(
      db,
      `UPDATE vars SET value = @value, description = COALESCE(@description, description), hcl = @hcl, sensitive = MAX(sensitive, @sensitive),
            category_spelling = @category_spelling
      WHERE workspace_id = @owner_id AND key = @key AND category = @category`,
    ).run(row).changes > 0
  );
}

export function deleteVariable(db: Db, t: VariableTable, id: string): void {
  prepare(db, `DELETE FROM ${t} WHERE id = ?`).run(id);
}

/** Every sensitive workspace variable, for sealing values stored in clear by a release before encryption at rest. */
export function sensitiveVariables(db: Db): Pick<VariableRecord, "id" | "value">[] {
  return db.prepare(`SELECT id, value FROM vars WHERE sensitive = 1`).all() as Pick<VariableRecord, "id" | "value">[];
}

export function setVariableValue(db: Db, id: string, value: string): void {
  prepare(db, `UPDATE vars SET value = ? WHERE id = ?`).run(value, id);
}

// Variable sets

export interface VariableSetRecord {
  id: string;
  organization: string;
  name: string;
  description: string;
  global: number;
  priority: number;
  parent_project_id: string | null;
  created_at: string;
  updated_at: string;
}

export function findVariableSet(db: Db, id: string): VariableSetRecord | undefined {
  return prepare(db, `SELECT * FROM varsets WHERE id = ?`).get(id) as VariableSetRecord | undefined;
}

export function variableSetByName(db: Db, organization: string, name: string): VariableSetRecord | undefined {
  return prepare(db, `SELECT * FROM varsets WHERE organization = ? AND name = ?`).get(organization, name) as
    VariableSetRecord | undefined;
}

export function insertVariableSet(db: Db, r: VariableSetRecord): void {
  prepare(
    db,
    `INSERT INTO varsets (id, organization, name, description, global, priority, parent_project_id, created_at, updated_at)
     VALUES (@id, @organization, @name, @description, @global, @priority, @parent_project_id, @created_at, @updated_at)`,
  ).run(r);
}

export function updateVariableSet(db: Db, r: VariableSetRecord): void {
  prepare(
    db,
    `UPDATE varsets SET name = @name, description = @description, global = @global, priority = @priority, updated_at = @updated_at WHERE id = @id`,
  ).run(r);
}

export function deleteVariableSet(db: Db, id: string): void {
  prepare(db, `DELETE FROM varsets WHERE id = ?`).run(id);
}

/** Which sets a list shows: an organization's, those that reach a workspace, or those applied to a project. */
export type VariableSetFilter =
  | { organization: string; query?: string }
  | { workspaceId: string; projectId: string; organization: string; query?: string }
  | { projectId: string; query?: string };

function where(f: VariableSetFilter): { sql: string; args: unknown[] } {
  const q = f.query ? { sql: ` AND instr(lower(name), lower(?)) > 0`, args: [f.query] } : { sql: "", args: [] };
  if ("workspaceId" in f)
    return {
      sql:
        `organization = ? AND (global = 1 OR id IN (SELECT varset_id FROM varset_workspaces WHERE workspace_id = ?)` +
        ` OR id IN (SELECT varset_id FROM varset_projects WHERE project_id = ?))` +
        q.sql,
      args: [f.organization, f.workspaceId, f.projectId, ...q.args],
    };
  if ("projectId" in f)
    return {
      sql: `id IN (SELECT varset_id FROM varset_projects WHERE project_id = ?)` + q.sql,
      args: [f.projectId, ...q.args],
    };
  return { sql: `organization = ?` + q.sql, args: [f.organization, ...q.args] };
}

export function variableSetsPage(db: Db, f: VariableSetFilter, limit: number, offset: number): VariableSetRecord[] {
  const w = where(f);
  return prepare(db, `SELECT * FROM varsets WHERE ${w.sql} ORDER BY name, id LIMIT ? OFFSET ?`).all(
    ...w.args,
    limit,
    offset,
  ) as VariableSetRecord[];
}

export function countVariableSets(db: Db, f: VariableSetFilter): number {
  const w = where(f);
  return (prepare(db, `SELECT COUNT(*) AS n FROM varsets WHERE ${w.sql}`).get(...w.args) as { n: number }).n;
}

/** Every set that reaches a workspace: applied to it, to its project, or global. */
export function variableSetsReaching(
  db: Db,
  organization: string,
  workspaceId: string,
  projectId: string,
): VariableSetRecord[] {
  const w = where({ organization, workspaceId, projectId });
  return prepare(db, `SELECT * FROM varsets WHERE ${w.sql} ORDER BY name, id`).all(...w.args) as VariableSetRecord[];
}

export type Target = "workspaces" | "projects";
const TARGET_TABLE: Record<Target, { table: string; column: string }> = {
  workspaces: { table: "varset_workspaces", column: "workspace_id" },
  projects: { table: "varset_projects", column: "project_id" },
};

export function targetsOf(db: Db, target: Target, varsetId: string): string[] {
  const { table, column } = TARGET_TABLE[target];
  return (
    prepare(db, `SELECT ${column} AS id FROM ${table} WHERE varset_id = ? ORDER BY rowid`).all(varsetId) as {
      id: string;
    }[]
  ).map((r) => r.id);
}

/** Applies the set to the targets; those it already applies to stay as they are. */
export function addTargets(db: Db, target: Target, varsetId: string, ids: readonly string[]): void {
  const { table, column } = TARGET_TABLE[target];
  const insert = prepare(db, `INSERT OR IGNORE INTO ${table} (varset_id, ${column}) VALUES (?, ?)`);
  for (const id of ids) insert.run(varsetId, id);
}

export function removeTargets(db: Db, target: Target, varsetId: string, ids: readonly string[]): void {
  const { table, column } = TARGET_TABLE[target];
  const remove = prepare(db, `DELETE FROM ${table} WHERE varset_id = ? AND ${column} = ?`);
  for (const id of ids) remove.run(varsetId, id);
}

export function clearTargets(db: Db, target: Target, varsetId: string): void {
  const { table } = TARGET_TABLE[target];
  prepare(db, `DELETE FROM ${table} WHERE varset_id = ?`).run(varsetId);
}
