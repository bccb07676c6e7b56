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
  expired_at: string | null;
  last_used_at: string | null;
  audit_trails: number;
}

export function findTokenByDigest(db: Db, digest: string): TokenRow | undefined {
  return prepare(
    db,
    `SELECT t.id, t.kind, t.organization, t.team_id, t.user_id, t.site_admin, t.expired_at, t.last_used_at, t.audit_trails,
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
    expiredAt?: string | null;
    createdBy?: string | null;
    auditTrails?: boolean;
  },
): void {
  prepare(
    db,
    `INSERT INTO tokens (id, digest, kind, organization, team_id, user_id, site_admin, description, created_at, expired_at, created_by,
       audit_trails) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    t.id,
    t.digest,
    t.kind,
    t.organization,
    t.teamId,
    t.userId,
    t.siteAdmin ? 1 : 0,
    t.description,
    t.createdAt,
    t.expiredAt ?? null,
    t.createdBy ?? null,
    t.auditTrails ? 1 : 0,
  );
}

/** A team or organization token as read back (never its digest). */
export interface AuthTokenRecord {
  id: string;
  kind: TokenKind;
  organization: string | null;
  team_id: string | null;
  description: string | null;
  created_at: string;
  expired_at: string | null;
  last_used_at: string | null;
  created_by: string | null;
  audit_trails: number;
}

const TOKEN_COLUMNS = `id, kind, organization, team_id, description, created_at, expired_at, last_used_at, created_by, audit_trails`;

/** A team's token by id (the bootstrap token, a site administrator's, is none of them). */
export function findTeamToken(db: Db, id: string): AuthTokenRecord | undefined {
  return prepare(db, `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ? AND kind = 'team' AND site_admin = 0`).get(
    id,
  ) as AuthTokenRecord | undefined;
}

/** The team's legacy token: the one without a description. */
export function legacyTeamToken(db: Db, teamId: string): AuthTokenRecord | undefined {
  return prepare(
    db,
    `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE kind = 'team' AND team_id = ? AND site_admin = 0 AND description IS NULL`,
  ).get(teamId) as AuthTokenRecord | undefined;
}

export function teamTokenDescriptionTaken(db: Db, teamId: string, description: string): boolean {
  return !!prepare(
    db,
    `SELECT 1 FROM tokens WHERE kind = 'team' AND team_id = ? AND site_admin = 0 AND description = ?`,
  ).get(teamId, description);
}

/** Whether the team has any token (its service user then shows among its members). */
export function teamHasToken(db: Db, teamId: string): boolean {
  return !!prepare(db, `SELECT 1 FROM tokens WHERE kind = 'team' AND team_id = ? AND site_admin = 0`).get(teamId);
}

/** Filters and order of an organization's team tokens (go-tfe's TeamTokenListOptions). */
export interface TeamTokenQuery {
  /** A part of the team's name. */
  query?: string;
  /** `created-at`, `expired-at`, `last-used-at`, `description`, each with `-` for descending. */
  sort?: string;
  /** Only the tokens of these teams (a caller who may manage some of the teams only). */
  teamIds?: ReadonlyArray<string>;
}

export const TEAM_TOKEN_SORTS = ["created-at", "expired-at", "last-used-at", "description"] as const;

export function teamTokensOf(
  db: Db,
  organization: string,
  q: TeamTokenQuery,
  limit: number,
  offset: number,
): { rows: AuthTokenRecord[]; total: number } {
  const parts = ["t.kind = 'team'", "t.site_admin = 0", "tm.organization = ?"];
  const params: unknown[] = [organization];
  if (q.query) {
    parts.push("instr(lower(tm.name), lower(?)) > 0");
    params.push(q.query);
  }
  if (q.teamIds) {
    parts.push(`t.team_id IN (${["", ...q.teamIds].map(() => "?").join(",")})`);
    params.push("", ...q.teamIds);
  }
  const descending = q.sort?.startsWith("-") ?? false;
  const column = (q.sort ?? "created-at").replace(/^-/, "").replace(/-/g, "_");
  const order = `t.${column} ${descending ? "DESC" : "ASC"}, t.rowid`;
  const from = `FROM tokens t JOIN teams tm ON tm.id = t.team_id WHERE ${parts.join(" AND ")}`;
  const rows = db
    .prepare(
      `SELECT ${TOKEN_COLUMNS.split(", ")
        .map((c) => `t.${c}`)
        .join(", ")} ${from} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset) as AuthTokenRecord[];
  const total = (db.prepare(`SELECT count(*) AS n ${from}`).get(...params) as { n: number }).n;
  return { rows, total };
}

export function deleteTokenRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM tokens WHERE id = ?`).run(id);
}

/** The organization's token of a type: the organization token, or its audit-trail token. */
export function organizationToken(db: Db, organization: string, auditTrails: boolean): AuthTokenRecord | undefined {
  return prepare(
    db,
    `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE kind = 'organization' AND organization = ? AND audit_trails = ?`,
  ).get(organization, auditTrails ? 1 : 0) as AuthTokenRecord | undefined;
}

/** Revokes the organization's token of a type; returns how many went. */
export function deleteOrganizationToken(db: Db, organization: string, auditTrails = false): number {
  return prepare(db, `DELETE FROM tokens WHERE kind = 'organization' AND organization = ? AND audit_trails = ?`).run(
    organization,
    auditTrails ? 1 : 0,
  ).changes;
}

/** Every token of the organization and of its teams. */
export function deleteTokensOfOrganization(db: Db, organization: string): void {
  prepare(
    db,
    `DELETE FROM tokens WHERE organization = ? OR team_id IN (SELECT id FROM teams WHERE organization = ?)`,
  ).run(organization, organization);
}
