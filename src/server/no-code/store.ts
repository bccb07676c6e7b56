import { prepare, type Db } from "../store/db";

/**
 * Tables of no-code provisioning. A workspace created from a module keeps the no-code
 * module id and the version it runs in `no_code_workspaces` (no foreign key to the
 * module: a workspace outlives the deletion of the module it came from). Each upgrade is
 * a row of `runs` (the run domain's table, so run lists and `current-run` see it) plus a
 * row here with what the run will apply.
 */
export const NOCODE_SCHEMA = `
CREATE TABLE IF NOT EXISTS no_code_modules (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  registry_module_id TEXT NOT NULL UNIQUE REFERENCES registry_modules(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL DEFAULT 0,
  version_pin TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS no_code_variable_options (
  id TEXT PRIMARY KEY,
  no_code_module_id TEXT NOT NULL REFERENCES no_code_modules(id) ON DELETE CASCADE,
  variable_name TEXT NOT NULL,
  variable_type TEXT NOT NULL,
  options TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (no_code_module_id, variable_name)
);

CREATE TABLE IF NOT EXISTS no_code_module_versions (
  id TEXT PRIMARY KEY,
  no_code_module_id TEXT NOT NULL,
  version TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (no_code_module_id, version)
);

CREATE TABLE IF NOT EXISTS no_code_workspaces (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  no_code_module_id TEXT NOT NULL,
  registry_module_id TEXT NOT NULL,
  module_version_id TEXT NOT NULL,
  version TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS no_code_workspaces_module ON no_code_workspaces (no_code_module_id);

CREATE TABLE IF NOT EXISTS no_code_upgrades (
  run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  no_code_module_id TEXT NOT NULL,
  target_version TEXT NOT NULL,
  target_registry_module_id TEXT NOT NULL,
  vars TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('changes', 'no-changes', 'error')),
  error TEXT,
  phase TEXT NOT NULL CHECK (phase IN ('plan', 'apply')),
  phase_started_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS no_code_upgrades_ws ON no_code_upgrades (workspace_id);
`;

export interface NoCodeModuleRecord {
  id: string;
  organization: string;
  registry_module_id: string;
  enabled: number;
  version_pin: string;
  created_at: string;
  updated_at: string;
}

export interface VariableOptionsRecord {
  id: string;
  no_code_module_id: string;
  variable_name: string;
  variable_type: string;
  /** JSON array. */
  options: string;
  created_at: string;
}

export interface NoCodeWorkspaceRecord {
  workspace_id: string;
  no_code_module_id: string;
  registry_module_id: string;
  module_version_id: string;
  version: string;
}

export function findNoCodeModule(db: Db, id: string): NoCodeModuleRecord | undefined {
  return prepare(db, `SELECT * FROM no_code_modules WHERE id = ?`).get(id) as NoCodeModuleRecord | undefined;
}

export function noCodeModuleOfRegistryModule(db: Db, registryModuleId: string): NoCodeModuleRecord | undefined {
  return prepare(db, `SELECT * FROM no_code_modules WHERE registry_module_id = ?`).get(registryModuleId) as
    NoCodeModuleRecord | undefined;
}

export function variableOptionsOf(db: Db, noCodeModuleId: string): VariableOptionsRecord[] {
  return db
    .prepare(`SELECT * FROM no_code_variable_options WHERE no_code_module_id = ? ORDER BY created_at, rowid`)
    .all(noCodeModuleId) as VariableOptionsRecord[];
}

export function findNoCodeWorkspace(db: Db, workspaceId: string): NoCodeWorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM no_code_workspaces WHERE workspace_id = ?`).get(workspaceId) as
    NoCodeWorkspaceRecord | undefined;
}

export function insertNoCodeModule(db: Db, m: NoCodeModuleRecord): void {
  prepare(
    db,
    `INSERT INTO no_code_modules (id, organization, registry_module_id, enabled, version_pin, created_at, updated_at)
     VALUES (@id, @organization, @registry_module_id, @enabled, @version_pin, @created_at, @updated_at)`,
  ).run(m);
}

export function saveNoCodeModule(db: Db, m: NoCodeModuleRecord): void {
  prepare(
    db,
    `UPDATE no_code_modules SET registry_module_id = @registry_module_id, enabled = @enabled, version_pin = @version_pin, updated_at = @updated_at WHERE id = @id`,
  ).run(m);
}

export function deleteNoCodeModuleRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM no_code_modules WHERE id = ?`).run(id);
}

/** A no-code module enabled before its registry module had a version pins the first one published. */
export function pinFirstVersion(db: Db, registryModuleId: string, version: string): void {
  prepare(db, `UPDATE no_code_modules SET version_pin = ? WHERE registry_module_id = ? AND version_pin = ''`).run(
    version,
    registryModuleId,
  );
}

export function replaceVariableOptions(
  db: Db,
  moduleId: string,
  sets: ReadonlyArray<Omit<VariableOptionsRecord, "no_code_module_id">>,
): void {
  prepare(db, `DELETE FROM no_code_variable_options WHERE no_code_module_id = ?`).run(moduleId);
  const insert = prepare(
    db,
    `INSERT INTO no_code_variable_options (id, no_code_module_id, variable_name, variable_type, options, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const s of sets) insert.run(s.id, moduleId, s.variable_name, s.variable_type, s.options, s.created_at);
}

export function findModuleVersionId(db: Db, noCodeModuleId: string, version: string): string | undefined {
  return (
    prepare(db, `SELECT id FROM no_code_module_versions WHERE no_code_module_id = ? AND version = ?`).get(
      noCodeModuleId,
      version,
    ) as { id: string } | undefined
  )?.id;
}

export function insertModuleVersionId(db: Db, id: string, noCodeModuleId: string, version: string, at: string): void {
  prepare(
    db,
    `INSERT INTO no_code_module_versions (id, no_code_module_id, version, created_at) VALUES (?, ?, ?, ?)`,
  ).run(id, noCodeModuleId, version, at);
}

export function insertNoCodeWorkspace(db: Db, r: NoCodeWorkspaceRecord): void {
  prepare(
    db,
    `INSERT INTO no_code_workspaces (workspace_id, no_code_module_id, registry_module_id, module_version_id, version) VALUES (?, ?, ?, ?, ?)`,
  ).run(r.workspace_id, r.no_code_module_id, r.registry_module_id, r.module_version_id, r.version);
}

export function setNoCodeWorkspaceVersion(
  db: Db,
  workspaceId: string,
  version: string,
  moduleVersionId: string,
  registryModuleId: string,
): void {
  prepare(
    db,
    `UPDATE no_code_workspaces SET version = ?, module_version_id = ?, registry_module_id = ? WHERE workspace_id = ?`,
  ).run(version, moduleVersionId, registryModuleId, workspaceId);
}

/** A workspace's no-code record with its module's pin and registry module (null when the module is gone), in one query. */
export function noCodeWorkspaceWithModule(
  db: Db,
  workspaceId: string,
): (NoCodeWorkspaceRecord & { module_pin: string | null; module_registry_id: string | null }) | undefined {
  return prepare(
    db,
    `SELECT w.*, m.version_pin AS module_pin, m.registry_module_id AS module_registry_id
       FROM no_code_workspaces w LEFT JOIN no_code_modules m ON m.id = w.no_code_module_id WHERE w.workspace_id = ?`,
  ).get(workspaceId) as
    (NoCodeWorkspaceRecord & { module_pin: string | null; module_registry_id: string | null }) | undefined;
}

export interface UpgradeRow {
  run_id: string;
  workspace_id: string;
  no_code_module_id: string;
  target_version: string;
  target_registry_module_id: string;
  vars: string;
  outcome: "changes" | "no-changes" | "error";
  error: string | null;
  phase: "plan" | "apply";
  phase_started_ms: number;
}

export function findUpgrade(db: Db, runId: string): UpgradeRow | undefined {
  return prepare(db, `SELECT * FROM no_code_upgrades WHERE run_id = ?`).get(runId) as UpgradeRow | undefined;
}

/** Run ids of every upgrade of a workspace, oldest first. */
export function upgradeRunIds(db: Db, workspaceId: string): string[] {
  return prepare(db, `SELECT run_id FROM no_code_upgrades WHERE workspace_id = ? ORDER BY rowid`)
    .pluck()
    .all(workspaceId) as string[];
}

export function insertUpgrade(db: Db, u: UpgradeRow): void {
  prepare(
    db,
    `INSERT INTO no_code_upgrades (run_id, workspace_id, no_code_module_id, target_version, target_registry_module_id, vars, outcome, error, phase, phase_started_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    u.run_id,
    u.workspace_id,
    u.no_code_module_id,
    u.target_version,
    u.target_registry_module_id,
    u.vars,
    u.outcome,
    u.error,
    u.phase,
    u.phase_started_ms,
  );
}

export function startApplyPhase(db: Db, runId: string, atMs: number): void {
  prepare(db, `UPDATE no_code_upgrades SET phase = 'apply', phase_started_ms = ? WHERE run_id = ?`).run(atMs, runId);
}

/** The stored variables of every upgrade. */
export function upgradeVariableRows(db: Db): Pick<UpgradeRow, "run_id" | "workspace_id" | "vars">[] {
  return db.prepare(`SELECT run_id, workspace_id, vars FROM no_code_upgrades`).all() as Pick<
    UpgradeRow,
    "run_id" | "workspace_id" | "vars"
  >[];
}

export function setUpgradeVariables(db: Db, runId: string, vars: string): void {
  prepare(db, `UPDATE no_code_upgrades SET vars = ? WHERE run_id = ?`).run(vars, runId);
}
