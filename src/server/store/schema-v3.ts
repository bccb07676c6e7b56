/**
 * What version 3 adds for teams and the records beside workspaces: the rest of a team's
 * settings and organization access, the finer permissions of team access, run triggers,
 * notification configurations (the token sealed with the server's key), the ids of state
 * version outputs (so one can be read by id), and organization memberships.
 */
export const TEAMS_AND_TRIGGERS_SCHEMA = `
CREATE TABLE IF NOT EXISTS run_triggers (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  sourceable_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  UNIQUE (workspace_id, sourceable_id)
);
CREATE INDEX IF NOT EXISTS run_triggers_source ON run_triggers (sourceable_id);

CREATE TABLE IF NOT EXISTS notification_configurations (
  id TEXT PRIMARY KEY,
  -- the subscribable: a workspace or a project
  workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  destination_type TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 0,
  url TEXT,
  -- sealed with the server's key; never returned
  token TEXT,
  triggers TEXT NOT NULL DEFAULT '[]',
  email_addresses TEXT NOT NULL DEFAULT '[]',
  email_user_ids TEXT NOT NULL DEFAULT '[]',
  delivery_responses TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notification_configurations_ws ON notification_configurations (workspace_id);
CREATE INDEX IF NOT EXISTS notification_configurations_prj ON notification_configurations (project_id);

CREATE TABLE IF NOT EXISTS state_version_output_ids (
  id TEXT PRIMARY KEY,
  state_version_id TEXT NOT NULL REFERENCES state_versions(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS state_version_output_ids_sv ON state_version_output_ids (state_version_id);

CREATE TABLE IF NOT EXISTS organization_memberships (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (organization, user_id)
);
`;

/** Columns version 3 adds to existing tables, with their declared defaults. */
export const TEAMS_AND_TRIGGERS_COLUMNS: ReadonlyArray<[table: string, column: string, declaration: string]> = [
  ["teams", "visibility", "TEXT NOT NULL DEFAULT 'secret'"],
  ["teams", "sso_team_id", "TEXT"],
  ["teams", "allow_member_token_management", "INTEGER NOT NULL DEFAULT 1"],
  // the organization access flags beyond manage-workspaces and manage-projects, as JSON
  ["teams", "organization_access", "TEXT NOT NULL DEFAULT '{}'"],
  ["team_workspaces", "sentinel_mocks", "TEXT NOT NULL DEFAULT 'none'"],
  ["team_workspaces", "policy_overrides", "INTEGER NOT NULL DEFAULT 0"],
  // a custom grant's project-access and workspace-access, as JSON; null for the preset levels
  ["team_projects", "custom_access", "TEXT"],
];
