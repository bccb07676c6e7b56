import { createHash } from "node:crypto";
import type { Db } from "../store/db";
import { now, prepare } from "../store/db";
import { newId, newToken } from "../ids";
import { notFound } from "../http/errors";
import { API_PREFIX, type Resource } from "../http/jsonapi";
import { PERMISSION_NAMES, type PermissionName, type Permissions } from "../../api/workspaces";

export type { Permissions };

/**
 * Who is calling. Every token resolves to a principal user id (a service account for
 * organization and team tokens, as the hosted service does), which is what a lock
 * records as `locked-by`.
 */
export interface Caller {
  tokenId: string;
  kind: "organization" | "team" | "user";
  principalId: string;
  /** Organization of an organization or team token; null for a user token. */
  organization: string | null;
  teamId: string | null;
  userId: string | null;
  /** The bootstrap token of a local server: owner of every organization on it. */
  siteAdmin: boolean;
  roles: Map<string, OrgRole>;
}

export interface OrgRole {
  member: boolean;
  owner: boolean;
  manageWorkspaces: boolean;
  manageProjects: boolean;
  /** The caller's teams in this organization. */
  teamIds: string[];
  /** The organization lets workspace admins force delete (spec 5, item 7). */
  adminsMayForceDelete: boolean;
  /** Permissions on any workspace, for callers that manage them all (memoized per request). */
  everyWorkspace?: Permissions;
}

const NO_ROLE: OrgRole = { member: false, owner: false, manageWorkspaces: false, manageProjects: false, teamIds: [], adminsMayForceDelete: false };

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

interface TokenRow {
  id: string;
  kind: Caller["kind"];
  organization: string | null;
  team_id: string | null;
  user_id: string | null;
  site_admin: number;
  principal: string;
}

export function authenticate(db: Db, token: string): Caller | null {
  const row = db
    .prepare(
      `SELECT t.id, t.kind, t.organization, t.team_id, t.user_id, t.site_admin,
              COALESCE(t.user_id, tm.service_user_id, o.service_user_id) AS principal
         FROM tokens t
         LEFT JOIN teams tm ON tm.id = t.team_id
         LEFT JOIN organizations o ON o.name = t.organization AND t.kind = 'organization'
        WHERE t.digest = ?`,
    )
    .get(tokenDigest(token)) as TokenRow | undefined;
  if (!row) return null;
  return {
    tokenId: row.id,
    kind: row.kind,
    principalId: row.principal,
    organization: row.kind === "user" ? null : row.organization,
    teamId: row.team_id,
    userId: row.user_id,
    siteAdmin: row.site_admin === 1,
    roles: new Map(),
  };
}

interface TeamFlags {
  id: string;
  is_owners: number;
  manage_workspaces: number;
  manage_projects: number;
}

/** The caller's standing in an organization, cached for the request. */
export function orgRole(db: Db, caller: Caller, organization: string): OrgRole {
  const cached = caller.roles.get(organization);
  if (cached) return cached;
  const org = prepare(db, `SELECT allow_force_delete_workspaces FROM organizations WHERE name = ?`).get(organization) as
    | { allow_force_delete_workspaces: number }
    | undefined;
  const adminsMayForceDelete = org?.allow_force_delete_workspaces === 1;
  let role: OrgRole = NO_ROLE;
  if (!org) {
    role = NO_ROLE;
  } else if (caller.siteAdmin) {
    role = { member: true, owner: true, manageWorkspaces: true, manageProjects: true, teamIds: [], adminsMayForceDelete };
  } else if (caller.kind === "organization") {
    if (caller.organization === organization) role = { member: true, owner: false, manageWorkspaces: true, manageProjects: true, teamIds: [], adminsMayForceDelete };
  } else {
    const teams = (
      caller.kind === "team"
        ? prepare(db, `SELECT id, is_owners, manage_workspaces, manage_projects FROM teams WHERE id = ? AND organization = ?`).all(caller.teamId, organization)
        : db
            .prepare(
              `SELECT t.id, t.is_owners, t.manage_workspaces, t.manage_projects
                 FROM teams t JOIN team_members m ON m.team_id = t.id
                WHERE m.user_id = ? AND t.organization = ?`,
            )
            .all(caller.userId, organization)
    ) as TeamFlags[];
    if (teams.length) {
      const owner = teams.some((t) => t.is_owners === 1);
      role = {
        member: true,
        owner,
        manageWorkspaces: owner || teams.some((t) => t.manage_workspaces === 1),
        manageProjects: owner || teams.some((t) => t.manage_projects === 1),
        teamIds: teams.map((t) => t.id),
        adminsMayForceDelete,
      };
    }
  }
  caller.roles.set(organization, role);
  return role;
}

/** Organization-level visibility: members see the organization, everybody else gets 404. */
export function assertMember(db: Db, caller: Caller, organization: string): OrgRole {
  const exists = prepare(db, `SELECT 1 FROM organizations WHERE name = ?`).get(organization);
  const role = exists ? orgRole(db, caller, organization) : NO_ROLE;
  if (!role.member) throw notFound(`organization "${organization}" not found`);
  return role;
}

export function assertOwner(db: Db, caller: Caller, organization: string): OrgRole {
  const role = assertMember(db, caller, organization);
  if (!role.owner) throw notFound(`organization "${organization}" not found`);
  return role;
}

// ---- workspace permissions (spec 2.3 and 5) ----


export type AccessLevel = "read" | "plan" | "write" | "admin" | "custom";
export const ACCESS_LEVELS: ReadonlyArray<AccessLevel> = ["read", "plan", "write", "admin", "custom"];

const READ: PermissionName[] = ["can-read-run", "can-read-variable", "can-read-state-versions", "can-read-state-outputs", "can-read-settings", "can-read-assessment-results"];
const PLAN: PermissionName[] = [...READ, "can-queue-run"];
const WRITE: PermissionName[] = [...PLAN, "can-queue-apply", "can-queue-destroy", "can-lock", "can-unlock", "can-update-variable", "can-create-state-versions"];
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
const LEVEL_PERMISSIONS: Record<Exclude<AccessLevel, "custom">, PermissionName[]> = { read: READ, plan: PLAN, write: WRITE, admin: ADMIN };

export interface TeamWorkspaceAccess {
  access: AccessLevel;
  runs: string;
  variables: string;
  state_versions: string;
  workspace_locking: number;
  run_tasks: number;
}

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

/** Project-level team access gives the matching access on every workspace of the project. */
const PROJECT_TO_WORKSPACE: Record<string, Exclude<AccessLevel, "custom">> = { read: "read", write: "write", maintain: "admin", admin: "admin" };

export interface WorkspaceKey {
  id: string;
  organization: string;
  project_id: string;
}

export function emptyPermissions(): Permissions {
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
  // Teams that manage every workspace get the same answer everywhere in the organization: compute it once.
  if (role.manageWorkspaces) {
    role.everyWorkspace ??= permissionsFrom(new Set(ADMIN), role);
    return { ...role.everyWorkspace };
  }
  const granted = new Set<PermissionName>();
  if (role.teamIds.length) {
    const marks = role.teamIds.map(() => "?").join(",");
    const rows = db
      .prepare(`SELECT access, runs, variables, state_versions, workspace_locking, run_tasks FROM team_workspaces WHERE workspace_id = ? AND team_id IN (${marks})`)
      .all(ws.id, ...role.teamIds) as TeamWorkspaceAccess[];
    for (const r of rows) (r.access === "custom" ? customPermissions(r) : LEVEL_PERMISSIONS[r.access]).forEach((p) => granted.add(p));
    const projectRows = db
      .prepare(`SELECT access FROM team_projects WHERE project_id = ? AND team_id IN (${marks})`)
      .all(ws.project_id, ...role.teamIds) as { access: string }[];
    for (const r of projectRows) {
      const level = PROJECT_TO_WORKSPACE[r.access];
      if (level) LEVEL_PERMISSIONS[level].forEach((p) => granted.add(p));
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
  const marks = role.teamIds.map(() => "?").join(",");
  return !!prepare(db, `SELECT 1 FROM team_projects WHERE project_id = ? AND access = 'admin' AND team_id IN (${marks})`).get(projectId, ...role.teamIds);
}

/** May create workspaces in the project: teams managing all workspaces, organization tokens, or project maintainers. */
export function mayCreateWorkspaceIn(db: Db, caller: Caller, organization: string, projectId: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces) return true;
  if (!role.teamIds.length) return false;
  const marks = role.teamIds.map(() => "?").join(",");
  return !!db
    .prepare(`SELECT 1 FROM team_projects WHERE project_id = ? AND access IN ('admin', 'maintain') AND team_id IN (${marks})`)
    .get(projectId, ...role.teamIds);
}

/** May create workspaces in at least one project of the organization; checked before a create's body is read. */
export function mayCreateWorkspaces(db: Db, caller: Caller, organization: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces) return true;
  if (!role.teamIds.length) return false;
  const marks = role.teamIds.map(() => "?").join(",");
  return !!db
    .prepare(
      `SELECT 1 FROM team_projects tp JOIN projects p ON p.id = tp.project_id
        WHERE p.organization = ? AND tp.access IN ('admin', 'maintain') AND tp.team_id IN (${marks})`,
    )
    .get(organization, ...role.teamIds);
}

/** SQL condition (on alias `w`) restricting a list to the workspaces the caller may read, with its parameters. */
export function readableWorkspacesFilter(db: Db, caller: Caller, organization: string): { sql: string; params: unknown[] } {
  const role = orgRole(db, caller, organization);
  if (role.manageWorkspaces) return { sql: "1", params: [] };
  if (!role.teamIds.length) return { sql: "0", params: [] };
  const marks = role.teamIds.map(() => "?").join(",");
  return {
    sql: `(w.id IN (SELECT workspace_id FROM team_workspaces WHERE team_id IN (${marks}))
           OR w.project_id IN (SELECT project_id FROM team_projects WHERE team_id IN (${marks})))`,
    params: [...role.teamIds, ...role.teamIds],
  };
}

// ---- issuing principals and tokens ----

export function createServiceUser(db: Db, username: string): string {
  const id = newId("user");
  prepare(db, `INSERT INTO users (id, username, service_account, created_at) VALUES (?, ?, 1, ?)`).run(id, `${username}-${id.slice(5, 13)}`, now());
  return id;
}

export interface IssuedToken {
  id: string;
  token: string;
  createdAt: string;
}

/** Stores only the digest: the token itself is shown once, in the response that creates it. */
export function issueToken(
  db: Db,
  spec: { kind: Caller["kind"]; organization?: string | null; teamId?: string | null; userId?: string | null; siteAdmin?: boolean; description?: string | null },
  token: string = newToken(),
): IssuedToken {
  const id = newId("authenticationToken");
  const createdAt = now();
  prepare(db, 
    `INSERT INTO tokens (id, digest, kind, organization, team_id, user_id, site_admin, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, tokenDigest(token), spec.kind, spec.organization ?? null, spec.teamId ?? null, spec.userId ?? null, spec.siteAdmin ? 1 : 0, spec.description ?? null, createdAt);
  return { id, token, createdAt };
}

/** A user document (`users`): service accounts stand for team and organization tokens. */
export function renderUser(db: Db, id: string): Resource | undefined {
  const u = prepare(db, `SELECT id, username, service_account FROM users WHERE id = ?`).get(id) as
    | { id: string; username: string; service_account: number }
    | undefined;
  if (!u) return undefined;
  return {
    id: u.id,
    type: "users",
    attributes: { username: u.username, "is-service-account": u.service_account === 1 },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}
