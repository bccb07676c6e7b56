import type { Db } from "../../store/db";
import { prepare, type Page } from "../../store/db";

/**
 * Organization memberships: a person invited by email (`invited` until they accept,
 * then `active`), and the teams they are on. A person on a team has an active
 * membership (added with the team membership when missing); an invited person's team
 * memberships wait, counted by no permission, until they accept.
 */

export interface MembershipRecord {
  id: string;
  organization: string;
  user_id: string;
  email: string;
  status: "invited" | "active";
  created_at: string;
}

export function insertMembership(db: Db, m: MembershipRecord): void {
  prepare(
    db,
    `INSERT INTO organization_memberships (id, organization, user_id, email, status, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(m.id, m.organization, m.user_id, m.email, m.status, m.created_at);
}

export function findMembership(db: Db, id: string): MembershipRecord | undefined {
  return prepare(db, `SELECT * FROM organization_memberships WHERE id = ?`).get(id) as MembershipRecord | undefined;
}

export function membershipOfUser(db: Db, organization: string, userId: string): MembershipRecord | undefined {
  return prepare(db, `SELECT * FROM organization_memberships WHERE organization = ? AND user_id = ?`).get(
    organization,
    userId,
  ) as MembershipRecord | undefined;
}

/** Whether someone of the organization already has this email (case-insensitive, as addresses are). */
export function emailTaken(db: Db, organization: string, email: string): boolean {
  return !!prepare(db, `SELECT 1 FROM organization_memberships WHERE organization = ? AND lower(email) = lower(?)`).get(
    organization,
    email,
  );
}

export function setMembershipStatus(db: Db, id: string, status: MembershipRecord["status"]): void {
  prepare(db, `UPDATE organization_memberships SET status = ? WHERE id = ?`).run(status, id);
}

/** Filters of a membership list: exact emails, a status, a part of the email or username. */
export interface MembershipFilter {
  emails?: ReadonlyArray<string>;
  status?: MembershipRecord["status"];
  query?: string;
}

function membershipFilterSql(organization: string, f: MembershipFilter): { where: string; params: unknown[] } {
  const parts = ["m.organization = ?"];
  const params: unknown[] = [organization];
  if (f.emails?.length) {
    parts.push(`lower(m.email) IN (${f.emails.map(() => "lower(?)").join(",")})`);
    params.push(...f.emails);
  }
  if (f.status) {
    parts.push(`m.status = ?`);
    params.push(f.status);
  }
  if (f.query) {
    parts.push(`(instr(lower(m.email), lower(?)) > 0 OR instr(lower(u.username), lower(?)) > 0)`);
    params.push(f.query, f.query);
  }
  return { where: parts.join(" AND "), params };
}

/** A page of the organization's memberships, oldest first, with the total. */
export function membershipsOf(
  db: Db,
  organization: string,
  f: MembershipFilter,
  page: Page,
): { rows: MembershipRecord[]; total: number } {
  const { where, params } = membershipFilterSql(organization, f);
  const from = `FROM organization_memberships m JOIN users u ON u.id = m.user_id WHERE ${where}`;
  const rows = db
    .prepare(`SELECT m.* ${from} ORDER BY m.created_at, m.rowid LIMIT ? OFFSET ?`)
    .all(...params, page.size, (page.number - 1) * page.size) as MembershipRecord[];
  const total = (db.prepare(`SELECT count(*) AS n ${from}`).get(...params) as { n: number }).n;
  return { rows, total };
}

/** The organization's teams the membership's person is on, in name order. */
export function teamIdsOfMembership(db: Db, m: MembershipRecord): string[] {
  return (
    prepare(
      db,
      `SELECT t.id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = ? AND t.organization = ? ORDER BY t.name`,
    ).all(m.user_id, m.organization) as { id: string }[]
  ).map((r) => r.id);
}

/** The memberships of the team's people (invited ones too), oldest first. */
export function membershipsOfTeam(db: Db, teamId: string): MembershipRecord[] {
  return prepare(
    db,
    `SELECT m.* FROM team_members tm JOIN teams t ON t.id = tm.team_id
       JOIN organization_memberships m ON m.user_id = tm.user_id AND m.organization = t.organization
      WHERE tm.team_id = ? ORDER BY m.created_at, m.rowid`,
  ).all(teamId) as MembershipRecord[];
}

/** The team's members as its `users` shows them: every member but the invited, who have not joined yet. */
export function activeTeamMemberIds(db: Db, teamId: string): string[] {
  return (
    prepare(
      db,
      `SELECT tm.user_id FROM team_members tm JOIN teams t ON t.id = tm.team_id
         LEFT JOIN organization_memberships m ON m.user_id = tm.user_id AND m.organization = t.organization
        WHERE tm.team_id = ? AND (m.status IS NULL OR m.status = 'active') ORDER BY tm.rowid`,
    ).all(teamId) as { user_id: string }[]
  ).map((r) => r.user_id);
}

export function removeTeamMember(db: Db, teamId: string, userId: string): void {
  prepare(db, `DELETE FROM team_members WHERE team_id = ? AND user_id = ?`).run(teamId, userId);
}

/** How many of the team's members are people who joined (the owners team keeps at least one). */
export function countActivePeople(db: Db, teamId: string): number {
  return (
    prepare(
      db,
      `SELECT count(*) AS n FROM team_members tm JOIN teams t ON t.id = tm.team_id JOIN users u ON u.id = tm.user_id
         JOIN organization_memberships m ON m.user_id = tm.user_id AND m.organization = t.organization
        WHERE tm.team_id = ? AND u.service_account = 0 AND m.status = 'active'`,
    ).get(teamId) as { n: number }
  ).n;
}

/** Ends the membership: the person leaves the organization's teams too. */
export function deleteMembershipRow(db: Db, m: MembershipRecord): void {
  prepare(
    db,
    `DELETE FROM team_members WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE organization = ?)`,
  ).run(m.user_id, m.organization);
  prepare(db, `DELETE FROM organization_memberships WHERE id = ?`).run(m.id);
}

export function personOfOrganization(db: Db, organization: string, userId: string): boolean {
  return !!prepare(
    db,
    `SELECT 1 FROM organization_memberships WHERE organization = ? AND user_id = ?
     UNION SELECT 1 FROM team_members m JOIN teams t ON t.id = m.team_id WHERE t.organization = ? AND m.user_id = ?`,
  ).get(organization, userId, organization, userId);
}

/** A user by username (people and service users), with the email a membership would carry. */
export function userByUsername(
  db: Db,
  username: string,
): { id: string; email: string | null; service_account: number } | undefined {
  return prepare(db, `SELECT id, email, service_account FROM users WHERE username = ?`).get(username) as
    { id: string; email: string | null; service_account: number } | undefined;
}

/** A person (not a service user) with this email, the oldest if several. */
export function personByEmail(db: Db, email: string): { id: string } | undefined {
  return prepare(
    db,
    `SELECT id FROM users WHERE lower(email) = lower(?) AND service_account = 0 ORDER BY created_at LIMIT 1`,
  ).get(email) as { id: string } | undefined;
}

/** A user's attributes as a membership's `include=user` shows them. */
export function userView(
  db: Db,
  id: string,
): { id: string; username: string; email: string | null; service_account: number } | undefined {
  return prepare(db, `SELECT id, username, email, service_account FROM users WHERE id = ?`).get(id) as
    { id: string; username: string; email: string | null; service_account: number } | undefined;
}
