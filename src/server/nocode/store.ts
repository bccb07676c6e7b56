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
  return prepare(db, `SELECT * FROM no_code_modules WHERE registry_module_id = ?`).get(registryModuleId) as NoCodeModuleRecord | undefined;
}

export function variableOptionsOf(db: Db, noCodeModuleId: string): VariableOptionsRecord[] {
  return db
    .prepare(`SELECT * FROM no_code_variable_options WHERE no_code_module_id = ? ORDER BY created_at, rowid`)
    .all(noCodeModuleId) as VariableOptionsRecord[];
}

export function findNoCodeWorkspace(db: Db, workspaceId: string): NoCodeWorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM no_code_workspaces WHERE workspace_id = ?`).get(workspaceId) as NoCodeWorkspaceRecord | undefined;
}
