/**
 * What version 7 adds: an organization membership's status (`invited` until the person
 * accepts, then `active`; memberships of earlier versions were active), and on every
 * token its expiry, its last use, who made it and whether it is an organization's
 * audit-trail token. People already on a team of an organization get the active
 * membership they had implicitly.
 */
export const MEMBERSHIPS_AND_TOKENS_COLUMNS: ReadonlyArray<[table: string, column: string, declaration: string]> = [
  ["organization_memberships", "status", "TEXT NOT NULL DEFAULT 'active'"],
  ["tokens", "expired_at", "TEXT"],
  ["tokens", "last_used_at", "TEXT"],
  ["tokens", "created_by", "TEXT"],
  ["tokens", "audit_trails", "INTEGER NOT NULL DEFAULT 0"],
];

export const MEMBERSHIPS_AND_TOKENS_SCHEMA = `
INSERT OR IGNORE INTO organization_memberships (id, organization, user_id, email, created_at, status)
  SELECT 'ou-' || lower(hex(randomblob(8))), t.organization, m.user_id, COALESCE(u.email, ''), u.created_at, 'active'
    FROM team_members m JOIN teams t ON t.id = m.team_id JOIN users u ON u.id = m.user_id
   WHERE u.service_account = 0;
CREATE INDEX IF NOT EXISTS organization_memberships_email ON organization_memberships (organization, email);
CREATE INDEX IF NOT EXISTS tokens_team ON tokens (team_id);
`;
