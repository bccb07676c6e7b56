import type { Db } from "../../store/db";
import { inTransaction, type Page } from "../../store/db";
import { newInternalId } from "../../ids";
import { Invalid, NotFound, failIfAny, type Failure, visible } from "../../domain-errors";
import {
  PROJECT_ACCESS_PRESETS,
  WORKSPACE_ACCESS_PRESETS,
  type ProjectAccessLevel,
  type ProjectPermissionValues,
  type ProjectWorkspacePermissionValues,
  type WorkspaceAccessLevel,
  type WorkspacePermissionValues,
} from "../../../api/team-access";
import { projectGrantPermissions, type ProjectGrantPermissions } from "./presets";
import * as store from "../store/records";
import type { TeamProjectRecord, TeamWorkspaceRecord } from "../store/records";
import { assertAccessManager, assertProjectAccessManager, orgRole } from "./authz";
import type { Caller } from "./caller";
import { unique } from "./users";

/** The access teams are given on workspaces and projects (the records; ./authz.ts computes what they grant). */

export type { TeamProjectRecord, TeamWorkspaceRecord };

/** A grant's level and the permissions the body names, in the wire's spelling (none given on a plain update). */
export interface TeamWorkspaceInput extends Partial<WorkspacePermissionValues> {
  access?: WorkspaceAccessLevel;
}

/** A project grant's level and the permissions the body names. */
export interface TeamProjectInput {
  access?: ProjectAccessLevel;
  project?: Partial<ProjectPermissionValues>;
  workspace?: Partial<ProjectWorkspacePermissionValues>;
}

/** "state-versions" reads "State versions", as the service words it. */
function label(name: string): string {
  const words = name.split("-").join(" ");
  return words[0].toUpperCase() + words.slice(1);
}

/**
 * The permissions a grant at `level` ends with: a preset level's own (a permission the
 * body names must agree with it, else the body is refused with the service's message),
 * or, for `custom`, `base` with the body's values over it.
 */
function grantedPermissions<V extends Record<string, unknown>>(
  level: string,
  preset: V,
  base: V,
  given: Partial<V>,
  pointer: (name: string) => string,
): V {
  const failures: Failure[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || level === "custom" || value === preset[name]) continue;
    failures.push({
      detail: `${label(name)} is read-only when access level is '${level}'; use the 'custom' access level to set this attribute.`,
      field: { attribute: pointer(name) },
    });
  }
  failIfAny(failures);
  if (level !== "custom") return preset;
  const out = { ...base };
  for (const [name, value] of Object.entries(given))
    if (value !== undefined) (out as Record<string, unknown>)[name] = value;
  return out;
}

function workspaceGrant(level: WorkspaceAccessLevel, base: WorkspacePermissionValues, input: TeamWorkspaceInput) {
  const { access: _level, ...given } = input;
  const v = grantedPermissions(level, WORKSPACE_ACCESS_PRESETS[level], base, given, (n) => n);
  return {
    access: level,
    runs: v.runs,
    variables: v.variables,
    state_versions: v["state-versions"],
    sentinel_mocks: v["sentinel-mocks"],
    workspace_locking: v["workspace-locking"] ? 1 : 0,
    run_tasks: v["run-tasks"] ? 1 : 0,
    policy_overrides: v["policy-overrides"] ? 1 : 0,
  };
}

/** The permissions a team access record holds, in the wire's spelling. */
export function workspaceGrantPermissions(r: TeamWorkspaceRecord): WorkspacePermissionValues {
  if (r.access !== "custom") return WORKSPACE_ACCESS_PRESETS[r.access] ?? WORKSPACE_ACCESS_PRESETS.read;
  return {
    runs: r.runs as WorkspacePermissionValues["runs"],
    variables: r.variables as WorkspacePermissionValues["variables"],
    "state-versions": r.state_versions as WorkspacePermissionValues["state-versions"],
    "sentinel-mocks": (r.sentinel_mocks ?? "none") as WorkspacePermissionValues["sentinel-mocks"],
    "workspace-locking": r.workspace_locking === 1,
    "run-tasks": r.run_tasks === 1,
    "policy-overrides": r.policy_overrides === 1,
  };
}

function projectGrant(
  level: ProjectAccessLevel,
  base: ProjectGrantPermissions,
  input: TeamProjectInput,
): { access: string; custom_access: string | null } {
  const preset = PROJECT_ACCESS_PRESETS[level];
  const project = grantedPermissions(
    level,
    preset.project,
    base.project,
    input.project ?? {},
    (n) => `project-access.${n}`,
  );
  const workspace = grantedPermissions(
    level,
    preset.workspace,
    base.workspace,
    input.workspace ?? {},
    (n) => `workspace-access.${n}`,
  );
  return { access: level, custom_access: level === "custom" ? JSON.stringify({ project, workspace }) : null };
}

/**
 * A request to give a team access, before its body is validated: the workspace or project
 * the body names (when it names one, checked first, so that a caller who may not grant
 * access is told 404 rather than what is wrong with the body), and the reading of the body.
 */
export interface GrantRequest<T> {
  target: string | undefined;
  read: () => { targetId: string; teamId: string; input: T };
}

interface Located {
  id: string;
  organization: string;
}

/**
 * The record the grant is for, once the caller may manage access to it: the one the body
 * named before it was read when that is the one it names, else the body's.
 */
function grantTarget<R extends Located, T>(
  request: GrantRequest<T>,
  manageable: (id: string) => R,
): { target: R; teamId: string; input: T } {
  const named = request.target === undefined ? undefined : manageable(request.target);
  const { targetId, teamId, input } = request.read();
  return { target: named?.id === targetId ? named : manageable(targetId), teamId, input };
}

/** Gives the team access to the workspace (`find` looks it up in the workspace domain). */
export function createTeamWorkspace(
  db: Db,
  caller: Caller,
  find: (id: string) => Located | undefined,
  request: GrantRequest<TeamWorkspaceInput>,
): TeamWorkspaceRecord {
  const {
    target: ws,
    teamId,
    input,
  } = grantTarget(request, (id) => {
    return visible("workspace", find(id), (found) => assertAccessManager(db, caller, found.organization));
  });
  if (!store.teamInOrganization(db, teamId, ws.organization)) throw new NotFound("team not found");
  const level = input.access ?? "read";
  const record: TeamWorkspaceRecord = {
    id: newInternalId("tws-"),
    team_id: teamId,
    workspace_id: ws.id,
    ...workspaceGrant(level, WORKSPACE_ACCESS_PRESETS.custom, input),
  };
  inTransaction(db, () => {
    if (store.teamWorkspaceOf(db, teamId, ws.id))
      throw new Invalid("Team already has access to this workspace", { relationship: "team" });
    store.insertTeamWorkspace(db, record);
  });
  return store.findTeamWorkspace(db, record.id)!;
}

export function loadTeamWorkspace(db: Db, caller: Caller, id: string): TeamWorkspaceRecord {
  const r = visible("team access", store.teamWorkspaceOrganization(db, id), (found) =>
    assertAccessManager(db, caller, found.organization),
  );
  return store.findTeamWorkspace(db, r.id)!;
}

/** Sets the access level; the custom settings not given keep their values. */
export function updateTeamWorkspace(
  db: Db,
  caller: Caller,
  id: string,
  read: () => TeamWorkspaceInput,
): TeamWorkspaceRecord {
  const r = loadTeamWorkspace(db, caller, id);
  const input = read();
  inTransaction(db, () => {
    const cur = store.findTeamWorkspace(db, r.id)!;
    const level = input.access ?? cur.access;
    store.updateTeamWorkspaceRow(db, { id: r.id, ...workspaceGrant(level, workspaceGrantPermissions(cur), input) });
  });
  return store.findTeamWorkspace(db, r.id)!;
}

export function deleteTeamWorkspace(db: Db, caller: Caller, id: string): void {
  const r = loadTeamWorkspace(db, caller, id);
  inTransaction(db, () => store.deleteTeamWorkspaceRow(db, r.id));
}

/** Gives the team access to the project (`find` looks it up in the project domain). */
export function createTeamProject(
  db: Db,
  caller: Caller,
  find: (id: string) => Located | undefined,
  request: GrantRequest<TeamProjectInput & { access: ProjectAccessLevel }>,
): TeamProjectRecord {
  const {
    target: project,
    teamId,
    input,
  } = grantTarget(request, (id) => {
    const found = find(id);
    assertProjectAccessManager(db, caller, found);
    return found!;
  });
  if (!store.teamInOrganization(db, teamId, project.organization)) throw new NotFound("team not found");
  const record: TeamProjectRecord = {
    id: newInternalId("tprj-"),
    team_id: teamId,
    project_id: project.id,
    ...projectGrant(input.access, PROJECT_ACCESS_PRESETS.custom, input),
  };
  unique(() => inTransaction(db, () => store.insertTeamProject(db, record)), { relationship: "team" });
  return record;
}

export function loadTeamProject(db: Db, caller: Caller, id: string): TeamProjectRecord {
  const r = store.findTeamProject(db, id);
  if (!r || !orgRole(db, caller, r.organization).manageProjects) throw new NotFound("team project access not found");
  return r;
}

export function updateTeamProject(db: Db, caller: Caller, id: string, read: () => TeamProjectInput): TeamProjectRecord {
  const r = loadTeamProject(db, caller, id);
  const input = read();
  const level = input.access ?? (r.access as ProjectAccessLevel);
  const grant = projectGrant(level, projectGrantPermissions(r.access, r.custom_access), input);
  inTransaction(db, () => store.updateTeamProjectAccess(db, r.id, grant.access, grant.custom_access));
  return { ...r, ...grant };
}

export function deleteTeamProject(db: Db, caller: Caller, id: string): void {
  const r = loadTeamProject(db, caller, id);
  inTransaction(db, () => store.deleteTeamProjectRow(db, r.id));
}

/**
 * A page of the team access records of a workspace (`find` looks it up in the workspace
 * domain). `readPage` reads the page once the caller may manage access to the workspace.
 */
export function listTeamWorkspaces(
  db: Db,
  caller: Caller,
  find: (id: string) => Located | undefined,
  workspaceId: string,
  readPage: () => Page,
): { rows: TeamWorkspaceRecord[]; total: number; page: Page } {
  const ws = visible("workspace", find(workspaceId), (found) => assertAccessManager(db, caller, found.organization));
  const page = readPage();
  return { ...store.teamWorkspacesOf(db, ws.id, page), page };
}

/**
 * A page of the team access records of a project (`find` looks it up in the project
 * domain). `readPage` reads the page once the caller may manage access to the project.
 */
export function listTeamProjects(
  db: Db,
  caller: Caller,
  find: (id: string) => Located | undefined,
  projectId: string,
  readPage: () => Page,
): { rows: TeamProjectRecord[]; total: number; page: Page } {
  const project = find(projectId);
  assertProjectAccessManager(db, caller, project);
  const page = readPage();
  return { ...store.teamProjectsOf(db, project!.id, page), page };
}
