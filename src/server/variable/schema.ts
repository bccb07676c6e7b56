/**
 * Variable sets and what version 2 adds to workspace variables: the `version-id` each
 * update changes (a trigger, so that every writer of a variable changes it), a set's
 * own variables, and where each set applies.
 */
export const VARIABLE_SETS_SCHEMA = `
UPDATE vars SET version_id = lower(hex(randomblob(20))) WHERE version_id IS NULL;
CREATE TRIGGER IF NOT EXISTS vars_version_id AFTER UPDATE ON vars
  WHEN NEW.version_id IS OLD.version_id
  BEGIN UPDATE vars SET version_id = lower(hex(randomblob(20))) WHERE id = NEW.id; END;
CREATE TRIGGER IF NOT EXISTS vars_first_version_id AFTER INSERT ON vars WHEN NEW.version_id IS NULL
  BEGIN UPDATE vars SET version_id = lower(hex(randomblob(20))) WHERE id = NEW.id; END;

CREATE TABLE IF NOT EXISTS varsets (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  global INTEGER NOT NULL DEFAULT 0,
  priority INTEGER NOT NULL DEFAULT 0,
  -- the project that owns the set, or null when the organization does
  parent_project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS varsets_org_name ON varsets (organization, name);

CREATE TABLE IF NOT EXISTS varset_workspaces (
  varset_id TEXT NOT NULL REFERENCES varsets(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  PRIMARY KEY (varset_id, workspace_id)
);
CREATE INDEX IF NOT EXISTS varset_workspaces_ws ON varset_workspaces (workspace_id);

CREATE TABLE IF NOT EXISTS varset_projects (
  varset_id TEXT NOT NULL REFERENCES varsets(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  PRIMARY KEY (varset_id, project_id)
);
CREATE INDEX IF NOT EXISTS varset_projects_prj ON varset_projects (project_id);

CREATE TABLE IF NOT EXISTS varset_vars (
  id TEXT PRIMARY KEY,
  varset_id TEXT NOT NULL REFERENCES varsets(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL DEFAULT '',
  description TEXT,
  category TEXT NOT NULL CHECK (category IN ('engine', 'env')),
  category_spelling TEXT,
  hcl INTEGER NOT NULL DEFAULT 0,
  sensitive INTEGER NOT NULL DEFAULT 0,
  version_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (varset_id, key, category)
);
CREATE TRIGGER IF NOT EXISTS varset_vars_version_id AFTER UPDATE ON varset_vars
  WHEN NEW.version_id IS OLD.version_id
  BEGIN UPDATE varset_vars SET version_id = lower(hex(randomblob(20))) WHERE id = NEW.id; END;
`;
