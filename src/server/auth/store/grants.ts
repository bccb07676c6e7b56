import type { Db } from "../../store/db";
import { prepare } from "../../store/db";

/**
 * What permissions are computed from: the organization's flags, the caller's teams, and
 * the access those teams hold on workspaces and projects. Read only; the queries join the
 * organization, project or workspace a grant points at, because every other domain checks
 * its callers through this one.
 */

/** Whether the organization exists, and whether it lets workspace admins force delete. */
export function organizationAccessFlags(
  db: Db,
  organization: string,
): { allow_force_delete_workspaces: number } | undefined {
  return prepare(db, `SELECT allow_force_delete_workspaces FROM organizations WHERE name = ?`).get(organization) as
    { allow_force_delete_workspaces: number } | undefined;
}

export interface TeamFlags {
  id: string;
  is_owners: number;
  manage_workspaces: number;
  manage_projects: number;
  /** The team's other organization-wide flags, as JSON (`read-workspaces`, `read-projects`, ...). */
  organization_access: string;
}

export function teamFlagsOfTeam(db: Db, teamId: string | null, organization: string): TeamFlags[] {
  return prepare(
    db,
    `SELECT id, is_owners, manage_workspaces, manage_projects, organization_access FROM teams WHERE id = ? AND organization = ?`,
  ).all(teamId, organization) as TeamFlags[];
}

/** The teams that give a person rights in the organization: not those of an invitation not yet accepted. */
export function teamFlagsOfUser(db: Db, userId: string | null, organization: string): TeamFlags[] {
  return prepare(
    db,
    `SELECT t.id, t.is_owners, t.manage_workspaces, t.manage_projects, t.organization_access
       FROM teams t JOIN team_members m ON m.team_id = t.id
      WHERE m.user_id = ? AND t.organization = ?
        AND NOT EXISTS (SELECT 1 FROM organization_memberships om
                         WHERE om.user_id = m.user_id AND om.organization = t.organization AND om.status = 'invited')`,
  ).all(userId, organization) as TeamFlags[];
}

/** The organizations the user belongs to through a team, by name. */
export function organizationsOfUser(db: Db, userId: string | null): string[] {
  return (
    prepare(
      db,
      `SELECT DISTINCT t.organization AS name FROM teams t JOIN team_members m ON m.team_id = t.id WHERE m.user_id = ?
        AND NOT EXISTS (SELECT 1 FROM organization_memberships om
                         WHERE om.user_id = m.user_id AND om.organization = t.organization AND om.status = 'invited')
       ORDER BY 1`,
    ).all(userId) as { name: string }[]
  ).map((o) => o.name);
}

export function organizationOfTeam(db: Db, teamId: string | null): string[] {
  return (prepare(db, `SELECT organization AS name FROM teams WHERE id = ?`).all(teamId) as { name: string }[]).map(
    (o) => o.name,
  );
}

export interface TeamWorkspaceAccess {
  access: "read" | "plan" | "write" | "admin" | "custom";
  runs: string;
  variables: string;
  state_versions: string;
  workspace_locking: number;
  run_tasks: number;
  sentinel_mocks: string;
  policy_overrides: number;
}

const marks = (ids: ReadonlyArray<string>) => ids.map(() => "?").join(",");

export function teamWorkspaceGrants(
  db: Db,
  workspaceId: string,
  teamIds: ReadonlyArray<string>,
): TeamWorkspaceAccess[] {
  return db
    .prepare(
      `SELECT access, runs, variables, state_versions, workspace_locking, run_tasks, sentinel_mocks, policy_overrides FROM team_workspaces WHERE workspace_id = ? AND team_id IN (${marks(teamIds)})`,
    )
    .all(workspaceId, ...teamIds) as TeamWorkspaceAccess[];
}

/** The teams' grants on a project: the level, and a custom grant's permissions as JSON. */
export function teamProjectGrants(
  db: Db,
  projectId: string,
  teamIds: ReadonlyArray<string>,
): { access: string; custom_access: string | null }[] {
  return db
    .prepare(`SELECT access, custom_access FROM team_projects WHERE project_id = ? AND team_id IN (${marks(teamIds)})`)
    .all(projectId, ...teamIds) as { access: string; custom_access: string | null }[];
}

export function holdsProjectAdmin(db: Db, projectId: string, teamIds: ReadonlyArray<string>): boolean {
  return !!prepare(
    db,
    `SELECT 1 FROM team_projects WHERE project_id = ? AND access = 'admin' AND team_id IN (${marks(teamIds)})`,
  ).get(projectId, ...teamIds);
}

export function holdsAnyProjectAdmin(db: Db, organization: string, teamIds: ReadonlyArray<string>): boolean {
  return !!prepare(
    db,
    `SELECT 1 FROM team_projects tp JOIN projects p ON p.id = tp.project_id
      WHERE p.organization = ? AND tp.access = 'admin' AND tp.team_id IN (${marks(teamIds)})`,
  ).get(organization, ...teamIds);
}

/** A project grant that may create workspaces: maintain, admin, or a custom grant with `workspace-access.create`. */
const CREATES_WORKSPACES = `(access IN ('admin', 'maintain') OR (access = 'custom' AND json_extract(custom_access, '$.workspace.create') = 1))`;

export function maintainsProject(db: Db, projectId: string, teamIds: ReadonlyArray<string>): boolean {
  return !!db
    .prepare(
      `SELECT 1 FROM team_projects WHERE project_id = ? AND ${CREATES_WORKSPACES} AND team_id IN (${marks(teamIds)})`,
    )
    .get(projectId, ...teamIds);
}

export function maintainsAnyProject(db: Db, organization: string, teamIds: ReadonlyArray<string>): boolean {
  return !!db
    .prepare(
      `SELECT 1 FROM team_projects tp JOIN projects p ON p.id = tp.project_id
        WHERE p.organization = ? AND ${CREATES_WORKSPACES} AND tp.team_id IN (${marks(teamIds)})`,
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
