/**
 * What version 6 adds: each organization's subscription, as a local server's site
 * administrator sets it (`POST /admin/organizations/:org/subscription`): the plan (a
 * feature set of a fixed list) and the limits given with it, recorded and enforced nowhere.
 */
export const SUBSCRIPTIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  organization TEXT PRIMARY KEY REFERENCES organizations(name) ON DELETE CASCADE,
  id TEXT NOT NULL UNIQUE,
  feature_set_id TEXT NOT NULL,
  -- JSON object of the limit attributes given (runs-ceiling, end-at, ...)
  limits TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;
