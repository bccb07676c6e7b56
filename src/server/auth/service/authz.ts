import type { Db } from "../../store/db";
import { NotFound } from "../../domain-errors";
import { PERMISSION_NAMES, type PermissionName, type Permissions } from "../../../api/workspaces";
import * as store from "../store/grants";
import type { TeamWorkspaceAccess } from "../store/grants";
import type { Caller, OrgRole } from "./caller";
import { customProjectAccess, organizationAccessOf } from "./presets";
import {
  ORGANIZATION_FLAGS_ON_WORKSPACES,
  PROJECT_LEVEL_ON_WORKSPACES,
  projectGrantOnWorkspaces,
} from "../../../api/team-access";
import type { TeamFlags } from "../store/grants";

/**
 * Authorization: the caller's standing in an organization, the permissions it holds on a
 * workspace or project, and the SQL filter of the workspaces it may read. Services call
 * these; routes and renderers never do (test/layout.test.ts), so each request is decided
 * once, and the `permissions` a document shows are the ones that guarded the request.
 */

const NO_ROLE: OrgRole = {
  member: false,
  owner: false,
  manageWorkspaces: false,
  manageProjects: false,
  manageAgentPools: false,
  managePolicies: false,
  teamIds: [],
  adminsMayForceDelete: false,
};

/** The caller's standing in an organization, cached for the request. */
export function orgRole(db: Db, caller: Caller, organization: string): OrgRole {
  const cached = caller.roles.get(organization);
  if (cached) return cached;
  const org = store.organizationAccessFlags(db, organization);
  const adminsMayForceDelete = org?.allow_force_delete_workspaces === 1;
  let role: OrgRole = NO_ROLE;
  if (!org) {
    role = NO_ROLE;
  } else if (caller.siteAdmin) {
    role = {
      member: true,
      owner: true,
      manageWorkspaces: true,
      manageProjects: true,
      manageAgentPools: true,
      managePolicies: true,
      everyWorkspaceLevel: "admin",
      teamIds: [],
      adminsMayForceDelete,
    };
  } else if (caller.kind === "organization") {
    if (caller.organization === organization)
      role = {
        member: true,
        owner: false,
        manageWorkspaces: true,
        manageProjects: true,
        manageAgentPools: true,
        managePolicies: true,
        everyWorkspaceLevel: "admin",
        teamIds: [],
        adminsMayForceDelete,
      };
  } else {
    const teams =
      caller.kind === "team"
        ? store.teamFlagsOfTeam(db, caller.teamId, organization)
        : store.teamFlagsOfUser(db, caller.userId, organization);
    if (teams.length) {
      const owner = teams.some((t) => t.is_owners === 1);
      role = {
        member: true,
        owner,
        manageWorkspaces: owner || teams.some((t) => t.manage_workspaces === 1),
        manageProjects: owner || teams.some((t) => t.manage_projects === 1),
        manageAgentPools: owner || teams.some((t) => organizationAccessOf(t)["manage-agent-pools"]),
        managePolicies: owner || teams.some((t) => organizationAccessOf(t)["manage-policies"]),
        everyWorkspaceLevel: levelFromFlags(teams),
        teamIds: teams.map((t) => t.id),
        adminsMayForceDelete,
      };
    }
  }
  caller.roles.set(organization, role);
  return role;
}

/** The strongest level the teams' organization-wide flags give on every workspace, if any. */
function levelFromFlags(teams: TeamFlags[]): OrgRole["everyWorkspaceLevel"] {
  let level: OrgRole["everyWorkspaceLevel"];
  for (const t of teams) {
    const flags = organizationAccessOf(t);
    for (const [flag, onWorkspaces] of Object.entries(ORGANIZATION_FLAGS_ON_WORKSPACES)) {
      if (!flags[flag as keyof typeof flags]) continue;
      if (onWorkspaces === "admin") return "admin";
      level = "read";
    }
  }
  return level;
}

/** Organization-level visibility: members see the organization, everybody else gets 404. */
export function assertMember(db: Db, caller: Caller, organization: string): OrgRole {
  const exists = store.organizationAccessFlags(db, organization) !== undefined;
  const role = exists ? orgRole(db, caller, organization) : NO_ROLE;
  if (!role.member) throw new NotFound(`organization "${organization}" not found`);
  return role;
}

export function assertOwner(db: Db, caller: Caller, organization: string): OrgRole {
  const role = assertMember(db, caller, organization);
  if (!role.owner) throw new NotFound(`organization "${organization}" not found`);
  return role;
}

/** A local server's site administrator only; anybody else is told there is nothing here. */
export function assertSiteAdmin(caller: Caller): void {
  if (!caller.siteAdmin) throw new NotFound("not found");
}

/** Granting access to workspaces takes the organization's manage-workspaces permission; 404 otherwise. */
export function assertAccessManager(db: Db, caller: Caller, organization: string): void {
  if (!orgRole(db, caller, organization).manageWorkspaces) throw new NotFound("not found");
}

/** Granting access to projects takes the organization's manage-projects permission; the project is not found otherwise. */
export function assertProjectAccessManager(
  db: Db,
  caller: Caller,
  project: { organization: string } | undefined,
): void {
  if (!project || !orgRole(db, caller, project.organization).manageProjects) throw new NotFound("project not found");
}

/** The organizations a team or user token reaches through its teams, by name (users' in name order). */
export function organizationsThroughTeams(db: Db, caller: Caller): string[] {
  return caller.kind === "team"
    ? store.organizationOfTeam(db, caller.teamId)
    : store.organizationsOfUser(db, caller.userId);
}

type AccessLevel = TeamWorkspaceAccess["access"];

const READ: PermissionName[] = [
  "can-read-run",
  "can-read-variable",
  "can-read-state-versions",
  "can-read-state-outputs",
  "can-read-settings",
  "can-read-assessment-results",
];

const PLAN: PermissionName[] = [...READ, "can-queue-run"];

const WRITE: PermissionName[] = [
  ...PLAN,
  "can-queue-apply",
  "can-queue-destroy",
  "can-lock",
  "can-unlock",
  "can-update-variable",
  "can-create-state-versions",
];

const ADMIN: PermissionName[] = [
  ...WRITE,
  "can-update",
  "can-destroy",
  "can-force-unlock",
  "can-manage-tags",
  "can-manage-run-tasks",
  "can-manage-assessments",
  "can-manage-ephemeral-workspaces",
];

const LEVEL_PERMISSIONS: Record<Exclude<AccessLevel, "custom">, PermissionName[]> = {
  read: READ,
  plan: PLAN,
  write: WRITE,
  admin: ADMIN,
};

function customPermissions(a: TeamWorkspaceAccess): PermissionName[] {
  const out: PermissionName[] = ["can-read-settings", "can-read-assessment-results"];
  if (["read", "plan", "apply"].includes(a.runs)) out.push("can-read-run");
  if (["plan", "apply"].includes(a.runs)) out.push("can-queue-run");
  if (a.runs === "apply") out.push("can-queue-apply", "can-queue-destroy");
  if (["read", "write"].includes(a.variables)) out.push("can-read-variable");
  if (a.variables === "write") out.push("can-update-variable");
  if (["read-outputs", "read", "write"].includes(a.state_versions)) out.push("can-read-state-outputs");
  if (["read", "write"].includes(a.state_versions)) out.push("can-read-state-versions");
  if (a.state_versions === "write") out.push("can-create-state-versions");
  if (a.workspace_locking) out.push("can-lock", "can-unlock");
  if (a.run_tasks) out.push("can-manage-run-tasks");
  return out;
}

/** A custom project grant's `workspace-access`, read as a custom grant on each workspace of the project. */
function projectGrantOnWorkspace(customAccess: string | null): TeamWorkspaceAccess {
  const w = projectGrantOnWorkspaces(customProjectAccess(customAccess).workspace);
  return {
    access: "custom",
    runs: w.runs,
    variables: w.variables,
    state_versions: w["state-versions"],
    sentinel_mocks: w["sentinel-mocks"],
    workspace_locking: w["workspace-locking"] ? 1 : 0,
    run_tasks: w["run-tasks"] ? 1 : 0,
    policy_overrides: w["policy-overrides"] ? 1 : 0,
  };
}

/** Project-level team access gives the matching access on every workspace of the project. */
const PROJECT_TO_WORKSPACE: Record<string, Exclude<AccessLevel, "custom">> = PROJECT_LEVEL_ON_WORKSPACES;

export interface WorkspaceKey {
  id: string;
  organization: string;
  project_id: string;
}

function emptyPermissions(): Permissions {
  return Object.fromEntries(PERMISSION_NAMES.map((p) => [p, false])) as Permissions;
}

/**
 * What the caller may do on one workspace, or null when it may not even read it (which
 * every endpoint answers with 404). The same computation fills the `permissions`
 * attribute, so the document always tells the truth about the token that asked.
 */
export function workspacePermissions(db: Db, caller: Caller, ws: WorkspaceKey): Permissions | null {
  const role = orgRole(db, caller, ws.organization);
  if (!role.member) return null;
  // Teams that manage every workspace (or every project) get the same answer everywhere in the organization: compute it once.
  if (role.everyWorkspaceLevel === "admin") {
    role.everyWorkspace ??= permissionsFrom(new Set(ADMIN), role);
    return { ...role.everyWorkspace };
  }
  // read-workspaces and read-projects read every workspace; the team's grants may add to that.
  const granted = new Set<PermissionName>(role.everyWorkspaceLevel === "read" ? READ : []);
  if (role.teamIds.length) {
    for (const r of store.teamWorkspaceGrants(db, ws.id, role.teamIds))
      (r.access === "custom" ? customPermissions(r) : LEVEL_PERMISSIONS[r.access]).forEach((p) => granted.add(p));
    for (const grant of store.teamProjectGrants(db, ws.project_id, role.teamIds)) {
      const level = PROJECT_TO_WORKSPACE[grant.access];
      if (level) LEVEL_PERMISSIONS[level].forEach((p) => granted.add(p));
      else if (grant.access === "custom")
        customPermissions(projectGrantOnWorkspace(grant.custom_access)).forEach((p) => granted.add(p));
    }
  }
  if (granted.size === 0) return null;
  return permissionsFrom(granted, role);
}

function permissionsFrom(granted: Set<PermissionName>, role: OrgRole): Permissions {
  const perms = emptyPermissions();
  for (const p of granted) perms[p] = true;
  perms["can-force-delete"] = role.owner || (role.adminsMayForceDelete && perms["can-update"]);
  return perms;
}

/** Admin on a project: owners, teams that manage projects, organization tokens, or project admins. */
export function isProjectAdmin(db: Db, caller: Caller, organization: string, projectId: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageProjects) return true;
  if (!role.teamIds.length) return false;
  return store.holdsProjectAdmin(db, projectId, role.teamIds);
}

/** Admin on at least one project of the organization (or manage-projects); checked before a body that names the project is read. */
export function isAnyProjectAdmin(db: Db, caller: Caller, organization: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageProjects) return true;
  if (!role.teamIds.length) return false;
  return store.holdsAnyProjectAdmin(db, organization, role.teamIds);
}

/** May create workspaces in the project: teams managing all workspaces or all projects, organization tokens, or project maintainers. */
export function mayCreateWorkspaceIn(db: Db, caller: Caller, organization: string, projectId: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces || role.manageProjects) return true;
  if (!role.teamIds.length) return false;
  return store.maintainsProject(db, projectId, role.teamIds);
}

/** May create workspaces in at least one project of the organization; checked before a create's body is read. */
export function mayCreateWorkspaces(db: Db, caller: Caller, organization: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces || role.manageProjects) return true;
  if (!role.teamIds.length) return false;
  return store.maintainsAnyProject(db, organization, role.teamIds);
}

/** SQL condition (on alias `w`) restricting a list to the workspaces the caller may read, with its parameters. */
export function readableWorkspacesFilter(
  db: Db,
  caller: Caller,
  organization: string,
): { sql: string; params: unknown[] } {
  const role = orgRole(db, caller, organization);
  if (role.everyWorkspaceLevel) return { sql: "1", params: [] };
  if (!role.teamIds.length) return { sql: "0", params: [] };
  return store.teamsReachCondition(role.teamIds);
}
