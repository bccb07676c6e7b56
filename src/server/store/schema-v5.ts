/**
 * What version 5 adds: an organization's policies (their uploaded code kept as given),
 * policy sets with the lists of where they apply (an entry goes with its policy,
 * workspace or project), their parameters (a sensitive value sealed, as variables'
 * are) and their versions (the uploaded tarball is read once, for its status and its
 * count of policies, and not kept).
 */
export const POLICIES_SCHEMA = `
CREATE TABLE IF NOT EXISTS policies (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  query TEXT,
  description TEXT,
  enforcement_level TEXT NOT NULL,
  -- the legacy enforce list's path (one entry)
  enforce_path TEXT NOT NULL,
  -- NULL until code is uploaded
  code BLOB,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization, name)
);

CREATE TABLE IF NOT EXISTS policy_sets (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  kind TEXT NOT NULL,
  -- NULL for a Sentinel set (the attribute is OPA's)
  overridable INTEGER,
  global INTEGER NOT NULL DEFAULT 0,
  policies_path TEXT,
  agent_enabled INTEGER NOT NULL DEFAULT 0,
  policy_tool_version TEXT,
  -- JSON arrays
  policy_update_patterns TEXT,
  tag_selectors TEXT NOT NULL DEFAULT '[]',
  tag_selector_matching_logic TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization, name)
);

CREATE TABLE IF NOT EXISTS policy_set_policies (
  policy_set_id TEXT NOT NULL REFERENCES policy_sets(id) ON DELETE CASCADE,
  policy_id TEXT NOT NULL REFERENCES policies(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (policy_set_id, policy_id)
);
CREATE INDEX IF NOT EXISTS policy_set_policies_pol ON policy_set_policies (policy_id);

CREATE TABLE IF NOT EXISTS policy_set_workspaces (
  policy_set_id TEXT NOT NULL REFERENCES policy_sets(id) ON DELETE CASCADE,
  list TEXT NOT NULL CHECK (list IN ('workspaces', 'workspace-exclusions')),
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (policy_set_id, list, workspace_id)
);
CREATE INDEX IF NOT EXISTS policy_set_workspaces_ws ON policy_set_workspaces (workspace_id);

CREATE TABLE IF NOT EXISTS policy_set_projects (
  policy_set_id TEXT NOT NULL REFERENCES policy_sets(id) ON DELETE CASCADE,
  list TEXT NOT NULL CHECK (list IN ('projects', 'project-exclusions')),
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (policy_set_id, list, project_id)
);
CREATE INDEX IF NOT EXISTS policy_set_projects_prj ON policy_set_projects (project_id);

CREATE TABLE IF NOT EXISTS policy_set_params (
  id TEXT PRIMARY KEY,
  policy_set_id TEXT NOT NULL REFERENCES policy_sets(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL DEFAULT '',
  description TEXT,
  category TEXT NOT NULL CHECK (category = 'policy-set'),
  category_spelling TEXT,
  hcl INTEGER NOT NULL DEFAULT 0,
  sensitive INTEGER NOT NULL DEFAULT 0,
  version_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (policy_set_id, key, category)
);
CREATE TRIGGER IF NOT EXISTS policy_set_params_version_id AFTER UPDATE ON policy_set_params
  WHEN NEW.version_id IS OLD.version_id
  BEGIN UPDATE policy_set_params SET version_id = lower(hex(randomblob(20))) WHERE id = NEW.id; END;

CREATE TABLE IF NOT EXISTS policy_set_versions (
  id TEXT PRIMARY KEY,
  policy_set_id TEXT NOT NULL REFERENCES policy_sets(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  error_message TEXT,
  -- the secret of the version's upload link, sealed with the server's key
  upload_secret TEXT NOT NULL,
  policy_count INTEGER NOT NULL DEFAULT 0,
  pending_at TEXT,
  ready_at TEXT,
  errored_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS policy_set_versions_set ON policy_set_versions (policy_set_id, created_at);
`;
