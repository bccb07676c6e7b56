import type { Db } from "../store/db";
import { prepare } from "../store/db";

/**
 * The tables of callers and their access: users, tokens (only their digests), teams and
 * their members, and the access teams hold on workspaces and projects. Permission
 * queries join the organization, project or workspace a grant points at; those tables
 * are read here, never written, because every other domain checks its callers through
 * this one.
 */

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

// ---- organizations as permissions see them ----

/** Whether the organization exists, and whether it lets workspace admins force delete. */
export function organizationAccessFlags(
  db: Db,
  organization: string,
): { allow_force_delete_workspaces: number } | undefined {
  return prepare(db, `SELECT allow_force_delete_workspaces FROM organizations WHERE name = ?`).get(organization) as
    { allow_force_delete_workspaces: number } | undefined;
}

// ---- teams ----

export interface TeamRecord {
  id: string;
  organization: string;
  name: string;
  is_owners: number;
  manage_workspaces: number;
  manage_projects: number;
}

export interface TeamFlags {
  id: string;
  is_owners: number;
  manage_workspaces: number;
  manage_projects: number;
}

export function teamFlagsOfTeam(db: Db, teamId: string | null, organization: string): TeamFlags[] {
  return prepare(
    db,
    `SELECT id, is_owners, manage_workspaces, manage_projects FROM teams WHERE id = ? AND organization = ?`,
  ).all(teamId, organization) as TeamFlags[];
}

export function teamFlagsOfUser(db: Db, userId: string | null, organization: string): TeamFlags[] {
  return prepare(
    db,
    `SELECT t.id, t.is_owners, t.manage_workspaces, t.manage_projects
       FROM teams t JOIN team_members m ON m.team_id = t.id
      WHERE m.user_id = ? AND t.organization = ?`,
  ).all(userId, organization) as TeamFlags[];
}

export function insertTeam(
  db: Db,
  t: {
    id: string;
    organization: string;
    name: string;
    owners: boolean;
    manageWorkspaces: boolean;
    manageProjects: boolean;
    serviceUserId: string;
    createdAt: string;
  },
): void {
  prepare(
    db,
    `INSERT INTO teams (id, organization, name, is_owners, manage_workspaces, manage_projects, service_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    t.id,
    t.organization,
    t.name,
    t.owners ? 1 : 0,
    t.manageWorkspaces ? 1 : 0,
    t.manageProjects ? 1 : 0,
    t.serviceUserId,
    t.createdAt,
  );
}

export function findTeam(db: Db, id: string): TeamRecord | undefined {
  return prepare(db, `SELECT * FROM teams WHERE id = ?`).get(id) as TeamRecord | undefined;
}

export function teamInOrganization(db: Db, id: string, organization: string): boolean {
  return !!prepare(db, `SELECT id FROM teams WHERE id = ? AND organization = ?`).get(id, organization);
}

export function ownersTeamIdOf(db: Db, organization: string): string {
  return (
    prepare(db, `SELECT id FROM teams WHERE organization = ? AND is_owners = 1`).get(organization) as { id: string }
  ).id;
}

export function teamsOf(db: Db, organization: string): TeamRecord[] {
  return prepare(db, `SELECT * FROM teams WHERE organization = ? ORDER BY name`).all(organization) as TeamRecord[];
}

export function updateTeamRow(
  db: Db,
  id: string,
  name: string,
  manageWorkspaces: boolean,
  manageProjects: boolean,
): void {
  prepare(db, `UPDATE teams SET name = ?, manage_workspaces = ?, manage_projects = ? WHERE id = ?`).run(
    name,
    manageWorkspaces ? 1 : 0,
    manageProjects ? 1 : 0,
    id,
  );
}

/** Deletes the team and its tokens (its memberships and access go with it through the schema's cascades). */
export function deleteTeamRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM tokens WHERE team_id = ?`).run(id);
  prepare(db, `DELETE FROM teams WHERE id = ?`).run(id);
}

export function teamMemberIds(db: Db, teamId: string): string[] {
  return (prepare(db, `SELECT user_id FROM team_members WHERE team_id = ?`).all(teamId) as { user_id: string }[]).map(
    (u) => u.user_id,
  );
}

export function addTeamMember(db: Db, teamId: string, userId: string): void {
  prepare(db, `INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)`).run(teamId, userId);
}

/** The organizations the user belongs to through a team, by name. */
export function organizationsOfUser(db: Db, userId: string | null): string[] {
  return (
    prepare(
      db,
      `SELECT DISTINCT t.organization AS name FROM teams t JOIN team_members m ON m.team_id = t.id WHERE m.user_id = ? ORDER BY 1`,
    ).all(userId) as { name: string }[]
  ).map((o) => o.name);
}

export function organizationOfTeam(db: Db, teamId: string | null): string[] {
  return (prepare(db, `SELECT organization AS name FROM teams WHERE id = ?`).all(teamId) as { name: string }[]).map(
    (o) => o.name,
  );
}

// ---- users ----

export interface UserRecord {
  id: string;
  username: string;
  service_account: number;
}

export function insertUser(
  db: Db,
  u: { id: string; username: string; email: string | null; serviceAccount: boolean; createdAt: string },
): void {
  if (u.serviceAccount)
    prepare(db, `INSERT INTO users (id, username, service_account, created_at) VALUES (?, ?, 1, ?)`).run(
      u.id,
      u.username,
      u.createdAt,
    );
  else
    prepare(db, `INSERT INTO users (id, username, email, created_at) VALUES (?, ?, ?, ?)`).run(
      u.id,
      u.username,
      u.email,
      u.createdAt,
    );
}

export function findUser(db: Db, id: string): UserRecord | undefined {
  return prepare(db, `SELECT id, username, service_account FROM users WHERE id = ?`).get(id) as UserRecord | undefined;
}

/** A person (not a service account) by id or username. */
export function findPersonId(db: Db, idOrUsername: string): string | undefined {
  return (
    prepare(db, `SELECT id FROM users WHERE (id = ? OR username = ?) AND service_account = 0`).get(
      idOrUsername,
      idOrUsername,
    ) as { id: string } | undefined
  )?.id;
}

export function personExists(db: Db, id: string): boolean {
  return !!prepare(db, `SELECT id FROM users WHERE id = ? AND service_account = 0`).get(id);
}

// ---- team access to workspaces and projects ----

export interface TeamWorkspaceAccess {
  access: "read" | "plan" | "write" | "admin" | "custom";
  runs: string;
  variables: string;
  state_versions: string;
  workspace_locking: number;
  run_tasks: number;
}

export interface TeamWorkspaceRecord extends TeamWorkspaceAccess {
  id: string;
  team_id: string;
  workspace_id: string;
}

const marks = (ids: ReadonlyArray<string>) => ids.map(() => "?").join(",");

export function teamWorkspaceGrants(
  db: Db,
  workspaceId: string,
  teamIds: ReadonlyArray<string>,
): TeamWorkspaceAccess[] {
  return db
    .prepare(
      `SELECT access, runs, variables, state_versions, workspace_locking, run_tasks FROM team_workspaces WHERE workspace_id = ? AND team_id IN (${marks(teamIds)})`,
    )
    .all(workspaceId, ...teamIds) as TeamWorkspaceAccess[];
}

export function teamProjectGrants(db: Db, projectId: string, teamIds: ReadonlyArray<string>): string[] {
  return (
    db
      .prepare(`SELECT access FROM team_projects WHERE project_id = ? AND team_id IN (${marks(teamIds)})`)
      .all(projectId, ...teamIds) as { access: string }[]
  ).map((r) => r.access);
}

export function holdsProjectAdmin(db: Db, projectId: string, teamIds: ReadonlyArray<string>): boolean {
  return !!prepare(
    db,
    `SELECT 1 FROM team_projects WHERE project_id = ? AND access = 'admin' AND team_id IN (${marks(teamIds)})`,
  ).get(projectId, ...teamIds);
}

export function maintainsProject(db: Db, projectId: string, teamIds: ReadonlyArray<string>): boolean {
  return !!db
    .prepare(
      `SELECT 1 FROM team_projects WHERE project_id = ? AND access IN ('admin', 'maintain') AND team_id IN (${marks(teamIds)})`,
    )
    .get(projectId, ...teamIds);
}

export function maintainsAnyProject(db: Db, organization: string, teamIds: ReadonlyArray<string>): boolean {
  return !!db
    .prepare(
      `SELECT 1 FROM team_projects tp JOIN projects p ON p.id = tp.project_id
        WHERE p.organization = ? AND tp.access IN ('admin', 'maintain') AND tp.team_id IN (${marks(teamIds)})`,
    )
    .get(organization, ...teamIds);
}

/** SQL condition (on alias `w`) for the workspaces the teams reach directly or through a project, with its parameters. */
export function teamsReachCondition(teamIds: ReadonlyArray<string>): { sql: string; params: unknown[] } {
  const m = marks(teamIds);
  return {
    sql: `(w.id IN (SELECT workspace_id FROM team_workspaces WHERE team_id IN (${m}))
           OR w.project_id IN (SELECT project_id FROM team_projects WHERE team_id IN (${m})))`,
    params: [...teamIds, ...teamIds],
  };
}

export function insertTeamWorkspace(db: Db, r: TeamWorkspaceRecord): void {
  prepare(
    db,
    `INSERT INTO team_workspaces (id, team_id, workspace_id, access, runs, variables, state_versions, workspace_locking, run_tasks)
     VALUES (@id, @team_id, @workspace_id, @access, @runs, @variables, @state_versions, @workspace_locking, @run_tasks)`,
  ).run(r);
}

export function findTeamWorkspace(db: Db, id: string): TeamWorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM team_workspaces WHERE id = ?`).get(id) as TeamWorkspaceRecord | undefined;
}

/** The organization of the workspace a team access record points at. */
export function teamWorkspaceOrganization(db: Db, id: string): { id: string; organization: string } | undefined {
  return prepare(
    db,
    `SELECT tw.id, w.organization FROM team_workspaces tw JOIN workspaces w ON w.id = tw.workspace_id WHERE tw.id = ?`,
  ).get(id) as { id: string; organization: string } | undefined;
}

export function updateTeamWorkspaceRow(db: Db, r: Omit<TeamWorkspaceRecord, "team_id" | "workspace_id">): void {
  prepare(
    db,
    `UPDATE team_workspaces SET access = @access, runs = @runs, variables = @variables, state_versions = @state_versions,
       workspace_locking = @workspace_locking, run_tasks = @run_tasks WHERE id = @id`,
  ).run(r);
}

export function deleteTeamWorkspaceRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM team_workspaces WHERE id = ?`).run(id);
}

export interface TeamProjectRecord {
  id: string;
  team_id: string;
  project_id: string;
  access: string;
}

export function insertTeamProject(db: Db, r: TeamProjectRecord): void {
  prepare(db, `INSERT INTO team_projects (id, team_id, project_id, access) VALUES (?, ?, ?, ?)`).run(
    r.id,
    r.team_id,
    r.project_id,
    r.access,
  );
}

/** A team's access to a project, with the project's organization. */
export function findTeamProject(db: Db, id: string): (TeamProjectRecord & { organization: string }) | undefined {
  return prepare(
    db,
    `SELECT tp.id, tp.team_id, tp.project_id, tp.access, p.organization FROM team_projects tp JOIN projects p ON p.id = tp.project_id WHERE tp.id = ?`,
  ).get(id) as (TeamProjectRecord & { organization: string }) | undefined;
}

export function updateTeamProjectAccess(db: Db, id: string, access: string): void {
  prepare(db, `UPDATE team_projects SET access = ? WHERE id = ?`).run(access, id);
}

export function deleteTeamProjectRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM team_projects WHERE id = ?`).run(id);
}
