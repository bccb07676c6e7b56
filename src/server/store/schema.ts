import Database from "better-sqlite3";
import { TEAMS_AND_TRIGGERS_COLUMNS, TEAMS_AND_TRIGGERS_SCHEMA } from "./schema-v3";
import { AGENT_POOLS_SCHEMA } from "./schema-v4";
import { POLICIES_SCHEMA } from "./schema-v5";
import { SITE_ADMIN_SCHEMA } from "./schema-v6";
import { MEMBERSHIPS_AND_TOKENS_COLUMNS, MEMBERSHIPS_AND_TOKENS_SCHEMA } from "./schema-v7";
import { VARIABLE_SETS_SCHEMA } from "../variable/schema";

type Db = Database.Database;

/**
 * Tables of the core domains, as of schema version 1. Domains outside the core bring
 * their own DDL (see `Domain.schema` in ../context.ts), run by the same migration.
 * Released migrations are never edited: a later change of a table is a new entry of
 * `MIGRATIONS` below.
 */
const CORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  email TEXT,
  service_account INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS organizations (
  name TEXT PRIMARY KEY,
  email TEXT,
  created_at TEXT NOT NULL,
  default_project_id TEXT,
  allow_force_delete_workspaces INTEGER NOT NULL DEFAULT 0,
  service_user_id TEXT NOT NULL REFERENCES users(id),
  data_retention_days INTEGER,
  default_execution_mode TEXT NOT NULL DEFAULT 'remote',
  default_agent_pool_id TEXT
);

CREATE TABLE IF NOT EXISTS teams (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  is_owners INTEGER NOT NULL DEFAULT 0,
  manage_workspaces INTEGER NOT NULL DEFAULT 0,
  manage_projects INTEGER NOT NULL DEFAULT 0,
  service_user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  UNIQUE (organization, name)
);

CREATE TABLE IF NOT EXISTS team_members (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, user_id)
);

CREATE TABLE IF NOT EXISTS tokens (
  id TEXT PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('organization', 'team', 'user')),
  organization TEXT REFERENCES organizations(name) ON DELETE CASCADE,
  team_id TEXT REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  site_admin INTEGER NOT NULL DEFAULT 0,
  description TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS projects (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  -- NULL: the project follows the organization's default execution mode and agent pool
  default_execution_mode TEXT,
  default_agent_pool_id TEXT,
  UNIQUE (organization, name)
);

CREATE TABLE IF NOT EXISTS project_tag_bindings (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, key)
);

CREATE TABLE IF NOT EXISTS team_projects (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  access TEXT NOT NULL,
  UNIQUE (team_id, project_id)
);

CREATE TABLE IF NOT EXISTS ssh_keys (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS agent_pools (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  organization_scoped INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  UNIQUE (organization, name)
);

CREATE TABLE IF NOT EXISTS oauth_clients (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT,
  service_provider TEXT NOT NULL,
  http_url TEXT NOT NULL,
  api_url TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS oauth_tokens (
  id TEXT PRIMARY KEY,
  oauth_client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS workspaces (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  project_id TEXT NOT NULL REFERENCES projects(id),
  settings TEXT NOT NULL,
  source TEXT NOT NULL,
  locked INTEGER NOT NULL DEFAULT 0,
  locked_reason TEXT,
  locked_by TEXT,
  ssh_key_id TEXT REFERENCES ssh_keys(id) ON DELETE SET NULL,
  agent_pool_id TEXT REFERENCES agent_pools(id),
  current_state_version_id TEXT,
  current_run_id TEXT,
  resource_count INTEGER NOT NULL DEFAULT 0,
  latest_change_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS workspaces_org_name ON workspaces (organization, name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS workspaces_project ON workspaces (project_id);
-- Covers the list filters and the default order, so a page is found without reading whole rows.
CREATE INDEX IF NOT EXISTS workspaces_list ON workspaces (organization, name COLLATE NOCASE, id, project_id, current_run_id);

CREATE TABLE IF NOT EXISTS team_workspaces (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  access TEXT NOT NULL,
  runs TEXT NOT NULL DEFAULT 'read',
  variables TEXT NOT NULL DEFAULT 'none',
  state_versions TEXT NOT NULL DEFAULT 'none',
  workspace_locking INTEGER NOT NULL DEFAULT 0,
  run_tasks INTEGER NOT NULL DEFAULT 0,
  UNIQUE (team_id, workspace_id)
);
CREATE INDEX IF NOT EXISTS team_workspaces_ws ON team_workspaces (workspace_id);

CREATE TABLE IF NOT EXISTS tags (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (organization, name)
);

CREATE TABLE IF NOT EXISTS workspace_tags (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (workspace_id, tag_id)
);
CREATE INDEX IF NOT EXISTS workspace_tags_tag ON workspace_tags (tag_id);

CREATE TABLE IF NOT EXISTS workspace_tag_bindings (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (workspace_id, key)
);

-- Covering indexes for the filter[tagged] probes: one b-tree search answers key and value.
CREATE INDEX IF NOT EXISTS workspace_tag_bindings_probe ON workspace_tag_bindings (workspace_id, key, value);
CREATE INDEX IF NOT EXISTS project_tag_bindings_probe ON project_tag_bindings (project_id, key, value);
CREATE INDEX IF NOT EXISTS workspaces_org_change ON workspaces (organization, latest_change_at, id);

CREATE TABLE IF NOT EXISTS remote_state_consumers (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  consumer_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  PRIMARY KEY (workspace_id, consumer_id)
);

CREATE TABLE IF NOT EXISTS state_versions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  serial INTEGER NOT NULL,
  md5 TEXT,
  lineage TEXT,
  state TEXT,
  resource_count INTEGER NOT NULL DEFAULT 0,
  intermediate INTEGER NOT NULL DEFAULT 0,
  promoted INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS state_versions_ws ON state_versions (workspace_id, created_at);

CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  is_destroy INTEGER NOT NULL DEFAULT 0,
  auto_apply INTEGER NOT NULL DEFAULT 0,
  plan_only INTEGER NOT NULL DEFAULT 0,
  kind TEXT NOT NULL DEFAULT 'run',
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_ws ON runs (workspace_id, created_at);

CREATE TABLE IF NOT EXISTS data_retention_policies (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  delete_older_than_n_days INTEGER,
  created_at TEXT NOT NULL
);
`;

/** Workspace variables (the `vars` relationship); no-code workspaces are created with some. */
const VARIABLES_SCHEMA = `
CREATE TABLE IF NOT EXISTS vars (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL DEFAULT '',
  description TEXT,
  category TEXT NOT NULL CHECK (category IN ('engine', 'env')),
  -- the caller's spelling of the category when it was the vendor alias (terraform), answered back
  category_spelling TEXT,
  hcl INTEGER NOT NULL DEFAULT 0,
  sensitive INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  UNIQUE (workspace_id, key, category)
);
`;

/**
 * One step of the schema: `up` runs inside the transaction that also records `version`
 * in SQLite's `user_version`, so a step either completes or leaves the file untouched.
 * `domainSchemas` is the DDL the running domains bring (`Domain.schema`).
 */
export interface Migration {
  version: number;
  description: string;
  up(db: Db, domainSchemas: readonly string[]): void;
}

/**
 * The schema's history, oldest first; a database file records the last one applied in
 * `user_version`. Append a migration to change the schema; never edit one that shipped
 * (test/server/fixtures/schema-1.sql holds version 1 as it shipped).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "the tables of release 0.1.0",
    up(db, domainSchemas) {
      const ddl = [CORE_SCHEMA, VARIABLES_SCHEMA, ...domainSchemas];
      for (const sql of ddl) db.exec(sql);
      // A file written before migrations existed has the tables, but builds of that time
      // added some columns later; they are added here with their declared defaults.
      addMissingColumns(db, ddl);
    },
  },
  {
    version: 2,
    description: "variable sets, and the version id of every variable",
    up(db) {
      // A file brought to version 0 by hand from a newer one may have the column already.
      if (!columnsOf(db, "vars").some((c) => c.name === "version_id"))
        db.exec(`ALTER TABLE vars ADD COLUMN version_id TEXT`);
      db.exec(VARIABLE_SETS_SCHEMA);
    },
  },
  {
    version: 3,
    description: "team settings and access permissions, run triggers, notification configurations, output ids",
    up(db) {
      addColumns(db, TEAMS_AND_TRIGGERS_COLUMNS);
      db.exec(TEAMS_AND_TRIGGERS_SCHEMA);
    },
  },
  {
    version: 4,
    description: "who may use an agent pool (allowed workspaces and projects, excluded workspaces), agent tokens",
    up(db) {
      db.exec(AGENT_POOLS_SCHEMA);
    },
  },
  {
    version: 5,
    description: "policies, policy sets with where they apply, their parameters and versions",
    up(db) {
      db.exec(POLICIES_SCHEMA);
    },
  },
  {
    version: 6,
    description:
      "organization subscriptions (a plan and its limits) and policy tool versions, set by site administrators",
    up(db) {
      db.exec(SITE_ADMIN_SCHEMA);
    },
  },
  {
    version: 7,
    description: "membership status (invited, active), token expiry, last use, creator and audit-trail tokens",
    up(db) {
      addColumns(db, MEMBERSHIPS_AND_TOKENS_COLUMNS);
      db.exec(MEMBERSHIPS_AND_TOKENS_SCHEMA);
    },
  },
];

/** Adds each column its table lacks (a file brought back to an earlier version by hand may have some). */
function addColumns(db: Db, columns: ReadonlyArray<[table: string, column: string, declaration: string]>): void {
  for (const [table, column, declaration] of columns)
    if (!columnsOf(db, table).some((c) => c.name === column))
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${declaration}`);
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
}

function columnsOf(db: Db, table: string): ColumnInfo[] {
  return db.prepare(`SELECT name, type, "notnull", dflt_value FROM pragma_table_info(?)`).all(table) as ColumnInfo[];
}

/** Adds to `db` every column that `ddl` declares and the file's table lacks. */
function addMissingColumns(db: Db, ddl: readonly string[]): void {
  // The declared shape, read back from a scratch database rather than parsed from the text.
  const declared = new Database(":memory:");
  try {
    for (const sql of ddl) declared.exec(sql);
    const tables = declared
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .all() as { name: string }[];
    for (const { name: table } of tables) {
      const present = new Set(columnsOf(db, table).map((c) => c.name));
      for (const c of columnsOf(declared, table)) {
        if (present.has(c.name)) continue;
        const notNull = c.notnull ? " NOT NULL" : "";
        const dflt = c.dflt_value === null ? "" : ` DEFAULT ${c.dflt_value}`;
        db.exec(`ALTER TABLE "${table}" ADD COLUMN "${c.name}" ${c.type}${notNull}${dflt}`);
      }
    }
  } finally {
    declared.close();
  }
}
