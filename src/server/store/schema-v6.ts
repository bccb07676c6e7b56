/**
 * What version 6 adds, both set by a local server's site administrator and enforced
 * nowhere: each organization's subscription (`POST /admin/organizations/:org/subscription`),
 * the plan (a feature set of a fixed list) and the limits given with it; and the policy
 * tool versions (`/admin/sentinel-versions`, `/admin/opa-versions`) a policy set may name.
 */
export const SITE_ADMIN_SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  organization TEXT PRIMARY KEY REFERENCES organizations(name) ON DELETE CASCADE,
  id TEXT NOT NULL UNIQUE,
  feature_set_id TEXT NOT NULL,
  -- JSON object of the limit attributes given (runs-ceiling, end-at, ...)
  limits TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS tool_versions (
  id TEXT PRIMARY KEY,
  tool TEXT NOT NULL CHECK (tool IN ('sentinel', 'opa')),
  version TEXT NOT NULL,
  url TEXT,
  sha TEXT,
  official INTEGER NOT NULL DEFAULT 0,
  deprecated INTEGER NOT NULL DEFAULT 0,
  deprecated_reason TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  beta INTEGER NOT NULL DEFAULT 0,
  -- JSON array of { url, sha, os, arch }
  archs TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  UNIQUE (tool, version)
);
`;
