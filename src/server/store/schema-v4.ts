/**
 * What version 4 adds for agent pools: the lists of who may use a pool (allowed
 * workspaces, allowed projects, excluded workspaces; an entry goes with its workspace or
 * project), and agent tokens, kept as the SHA-256 digest of the secret (it is answered
 * once, on create, and never read back).
 */
export const AGENT_POOLS_SCHEMA = `
CREATE TABLE IF NOT EXISTS agent_pool_workspaces (
  agent_pool_id TEXT NOT NULL REFERENCES agent_pools(id) ON DELETE CASCADE,
  -- 'allowed-workspaces' or 'excluded-workspaces'
  list TEXT NOT NULL CHECK (list IN ('allowed-workspaces', 'excluded-workspaces')),
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (agent_pool_id, list, workspace_id)
);
CREATE INDEX IF NOT EXISTS agent_pool_workspaces_ws ON agent_pool_workspaces (workspace_id);

CREATE TABLE IF NOT EXISTS agent_pool_projects (
  agent_pool_id TEXT NOT NULL REFERENCES agent_pools(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (agent_pool_id, project_id)
);
CREATE INDEX IF NOT EXISTS agent_pool_projects_prj ON agent_pool_projects (project_id);

CREATE TABLE IF NOT EXISTS agent_tokens (
  id TEXT PRIMARY KEY,
  agent_pool_id TEXT NOT NULL REFERENCES agent_pools(id) ON DELETE CASCADE,
  -- SHA-256 of the token; the token itself is never stored
  digest TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX IF NOT EXISTS agent_tokens_pool ON agent_tokens (agent_pool_id, created_at);
`;
