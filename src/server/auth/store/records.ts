import type { Db } from "../../store/db";
import { prepare, type Page } from "../../store/db";
import type { TeamWorkspaceAccess } from "./grants";

/** The records of callers: users, teams and their members, and the access teams are given on workspaces and projects. */

export interface TeamRecord {
  id: string;
  organization: string;
  name: string;
  is_owners: number;
  /** The user team tokens act as (shown among the team's members once the team has a token). */
  service_user_id: string;
  manage_workspaces: number;
  manage_projects: number;
  visibility: string;
  sso_team_id: string | null;
  allow_member_token_management: number;
  /** JSON of the organization access flags beyond manage-workspaces and manage-projects. */
  organization_access: string;
}

/** The settings of a team beyond its name and the two flags the permission model reads. */
export interface TeamSettings {
  visibility: string;
  ssoTeamId: string | null;
  allowMemberTokenManagement: boolean;
  organizationAccess: string;
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
    settings?: TeamSettings;
  },
): void {
  prepare(
    db,
    `INSERT INTO teams (id, organization, name, is_owners, manage_workspaces, manage_projects, service_user_id, created_at,
       visibility, sso_team_id, allow_member_token_management, organization_access) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    t.id,
    t.organization,
    t.name,
    t.owners ? 1 : 0,
    t.manageWorkspaces ? 1 : 0,
    t.manageProjects ? 1 : 0,
    t.serviceUserId,
    t.createdAt,
    t.settings?.visibility ?? "secret",
    t.settings?.ssoTeamId ?? null,
    t.settings === undefined || t.settings.allowMemberTokenManagement ? 1 : 0,
    t.settings?.organizationAccess ?? "{}",
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

/** Filters of a team list: exact names, and a case-insensitive part of the name. */
export interface TeamFilter {
  names?: ReadonlyArray<string>;
  query?: string;
  /** For a caller who may not see secret teams: the teams it belongs to (visible beside those of visibility `organization`). */
  secretVisibleOnly?: ReadonlyArray<string>;
}

function teamFilterSql(organization: string, f: TeamFilter): { where: string; params: unknown[] } {
  const parts = ["organization = ?"];
  const params: unknown[] = [organization];
  if (f.names?.length) {
    parts.push(`name IN (${f.names.map(() => "?").join(",")})`);
    params.push(...f.names);
  }
  if (f.query) {
    parts.push(`instr(lower(name), lower(?)) > 0`);
    params.push(f.query);
  }
  if (f.secretVisibleOnly) {
    parts.push(`(visibility = 'organization' OR id IN (${["", ...f.secretVisibleOnly].map(() => "?").join(",")}))`);
    params.push("", ...f.secretVisibleOnly);
  }
  return { where: parts.join(" AND "), params };
}

export function teamsOf(db: Db, organization: string, f: TeamFilter = {}, page?: Page): TeamRecord[] {
  const { where, params } = teamFilterSql(organization, f);
  const limit = page ? ` LIMIT ${page.size} OFFSET ${(page.number - 1) * page.size}` : "";
  return db.prepare(`SELECT * FROM teams WHERE ${where} ORDER BY name${limit}`).all(...params) as TeamRecord[];
}

export function countTeams(db: Db, organization: string, f: TeamFilter = {}): number {
  const { where, params } = teamFilterSql(organization, f);
  return (db.prepare(`SELECT count(*) AS n FROM teams WHERE ${where}`).get(...params) as { n: number }).n;
}

export function updateTeamRow(
  db: Db,
  id: string,
  name: string,
  manageWorkspaces: boolean,
  manageProjects: boolean,
  settings: TeamSettings,
): void {
  prepare(
    db,
    `UPDATE teams SET name = ?, manage_workspaces = ?, manage_projects = ?, visibility = ?, sso_team_id = ?,
       allow_member_token_management = ?, organization_access = ? WHERE id = ?`,
  ).run(
    name,
    manageWorkspaces ? 1 : 0,
    manageProjects ? 1 : 0,
    settings.visibility,
    settings.ssoTeamId,
    settings.allowMemberTokenManagement ? 1 : 0,
    settings.organizationAccess,
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

export interface TeamWorkspaceRecord extends TeamWorkspaceAccess {
  id: string;
  team_id: string;
  workspace_id: string;
}

export function insertTeamWorkspace(db: Db, r: TeamWorkspaceRecord): void {
  prepare(
    db,
    `INSERT INTO team_workspaces (id, team_id, workspace_id, access, runs, variables, state_versions, workspace_locking, run_tasks,
       sentinel_mocks, policy_overrides)
     VALUES (@id, @team_id, @workspace_id, @access, @runs, @variables, @state_versions, @workspace_locking, @run_tasks,
       @sentinel_mocks, @policy_overrides)`,
  ).run(r);
}

export function findTeamWorkspace(db: Db, id: string): TeamWorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM team_workspaces WHERE id = ?`).get(id) as TeamWorkspaceRecord | undefined;
}

export function teamWorkspaceOf(db: Db, teamId: string, workspaceId: string): { id: string } | undefined {
  return prepare(db, `SELECT id FROM team_workspaces WHERE team_id = ? AND workspace_id = ?`).get(
    teamId,
    workspaceId,
  ) as { id: string } | undefined;
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
       workspace_locking = @workspace_locking, run_tasks = @run_tasks, sentinel_mocks = @sentinel_mocks,
       policy_overrides = @policy_overrides WHERE id = @id`,
  ).run(r);
}

/** A page of the team access records of a workspace, oldest first, with their total. */
export function teamWorkspacesOf(
  db: Db,
  workspaceId: string,
  page: Page,
): { rows: TeamWorkspaceRecord[]; total: number } {
  const rows = prepare(db, `SELECT * FROM team_workspaces WHERE workspace_id = ? ORDER BY rowid LIMIT ? OFFSET ?`).all(
    workspaceId,
    page.size,
    (page.number - 1) * page.size,
  ) as TeamWorkspaceRecord[];
  const total = (
    prepare(db, `SELECT count(*) AS n FROM team_workspaces WHERE workspace_id = ?`).get(workspaceId) as { n: number }
  ).n;
  return { rows, total };
}

export function deleteTeamWorkspaceRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM team_workspaces WHERE id = ?`).run(id);
}

export interface TeamProjectRecord {
  id: string;
  team_id: string;
  project_id: string;
  access: string;
  /** JSON of a custom grant's permissions; null for the preset levels. */
  custom_access: string | null;
}

export function insertTeamProject(db: Db, r: TeamProjectRecord): void {
  prepare(db, `INSERT INTO team_projects (id, team_id, project_id, access, custom_access) VALUES (?, ?, ?, ?, ?)`).run(
    r.id,
    r.team_id,
    r.project_id,
    r.access,
    r.custom_access,
  );
}

/** A page of the team access records of a project, oldest first, with their total. */
export function teamProjectsOf(db: Db, projectId: string, page: Page): { rows: TeamProjectRecord[]; total: number } {
  const rows = prepare(
    db,
    `SELECT id, team_id, project_id, access, custom_access FROM team_projects WHERE project_id = ? ORDER BY rowid LIMIT ? OFFSET ?`,
  ).all(projectId, page.size, (page.number - 1) * page.size) as TeamProjectRecord[];
  const total = (
    prepare(db, `SELECT count(*) AS n FROM team_projects WHERE project_id = ?`).get(projectId) as { n: number }
  ).n;
  return { rows, total };
}

/** A team's access to a project, with the project's organization. */
export function findTeamProject(db: Db, id: string): (TeamProjectRecord & { organization: string }) | undefined {
  return prepare(
    db,
    `SELECT tp.id, tp.team_id, tp.project_id, tp.access, tp.custom_access, p.organization FROM team_projects tp JOIN projects p ON p.id = tp.project_id WHERE tp.id = ?`,
  ).get(id) as (TeamProjectRecord & { organization: string }) | undefined;
}

export function updateTeamProjectAccess(db: Db, id: string, access: string, customAccess: string | null): void {
  prepare(db, `UPDATE team_projects SET access = ?, custom_access = ? WHERE id = ?`).run(access, customAccess, id);
}

export function deleteTeamProjectRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM team_projects WHERE id = ?`).run(id);
}
