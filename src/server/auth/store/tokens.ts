import type { Db } from "../../store/db";
import { prepare } from "../../store/db";

/** The tokens table: only each token's digest is stored, with the principal it acts as. */

export type TokenKind = "organization" | "team" | "user";

export interface TokenRow {
  id: string;
  kind: TokenKind;
  organization: string | null;
  team_id: string | null;
  user_id: string | null;
  site_admin: number;
  /** The user the token acts as: its own user, else the team's or organization's service account. */
  principal: string;
}

export function findTokenByDigest(db: Db, digest: string): TokenRow | undefined {
  return prepare(
    db,
    `SELECT t.id, t.kind, t.organization, t.team_id, t.user_id, t.site_admin,
            COALESCE(t.user_id, tm.service_user_id, o.service_user_id) AS principal
       FROM tokens t
       LEFT JOIN teams tm ON tm.id = t.team_id
       LEFT JOIN organizations o ON o.name = t.organization AND t.kind = 'organization'
      WHERE t.digest = ?`,
  ).get(digest) as TokenRow | undefined;
}

export function tokenDigestExists(db: Db, digest: string): boolean {
  return !!prepare(db, `SELECT id FROM tokens WHERE digest = ?`).get(digest);
}

/** Some scrypt digest of a chosen token (`scrypt$<salt>$<hash>`), through the digest index; undefined when none is stored. */
export function anyScryptDigest(db: Db): string | undefined {
  // '%' follows '$': the range is every digest that starts with "scrypt$".
  return prepare(db, `SELECT digest FROM tokens WHERE digest >= 'scrypt$' AND digest < 'scrypt%' LIMIT 1`)
    .pluck()
    .get() as string | undefined;
}

/** Stores a token under another digest; false when no token has `from`. */
export function replaceTokenDigest(db: Db, from: string, to: string): boolean {
  return prepare(db, `UPDATE tokens SET digest = ? WHERE digest = ?`).run(to, from).changes > 0;
}

export function insertToken(
  db: Db,
  t: {
    id: string;
    digest: string;
    kind: TokenKind;
    organization: string | null;
    teamId: string | null;
    userId: string | null;
    siteAdmin: boolean;
    description: string | null;
    createdAt: string;
  },
): void {
  prepare(
    db,
    `INSERT INTO tokens (id, digest, kind, organization, team_id, user_id, site_admin, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(t.id, t.digest, t.kind, t.organization, t.teamId, t.userId, t.siteAdmin ? 1 : 0, t.description, t.createdAt);
}

/** Revokes the team's token; the bootstrap token (a site administrator's) is kept. Returns how many went. */
export function deleteTeamTokens(db: Db, teamId: string): number {
  return prepare(db, `DELETE FROM tokens WHERE kind = 'team' AND team_id = ? AND site_admin = 0`).run(teamId).changes;
}

export function deleteOrganizationToken(db: Db, organization: string): void {
  prepare(db, `DELETE FROM tokens WHERE kind = 'organization' AND organization = ?`).run(organization);
}

/** Every token of the organization and of its teams. */
export function deleteTokensOfOrganization(db: Db, organization: string): void {
  prepare(
    db,
    `DELETE FROM tokens WHERE organization = ? OR team_id IN (SELECT id FROM teams WHERE organization = ?)`,
  ).run(organization, organization);
}
