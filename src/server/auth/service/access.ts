import type { Db } from "../../store/db";
import { inTransaction } from "../../store/db";
import { newInternalId } from "../../ids";
import { NotFound } from "../../domain-errors";
import * as store from "../store/records";
import type { TeamProjectRecord, TeamWorkspaceRecord } from "../store/records";
import type { TeamWorkspaceAccess } from "../store/grants";
import { assertAccessManager, assertProjectAccessManager, orgRole } from "./authz";
import type { Caller } from "./caller";
import { unique } from "./users";

/** The access teams are given on workspaces and projects (the records; ./authz.ts computes what they grant). */

export type { TeamProjectRecord, TeamWorkspaceRecord };

type AccessLevel = TeamWorkspaceAccess["access"];

export interface TeamWorkspaceInput {
  access: AccessLevel;
  runs?: string;
  variables?: string;
  stateVersions?: string;
  workspaceLocking?: boolean;
  runTasks?: boolean;
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
    const found = find(id);
    if (!found) throw new NotFound("workspace not found");
    assertAccessManager(db, caller, found.organization);
    return found;
  });
  if (!store.teamInOrganization(db, teamId, ws.organization)) throw new NotFound("team not found");
  const record: TeamWorkspaceRecord = {
    id: newInternalId("tws-"),
    team_id: teamId,
    workspace_id: ws.id,
    access: input.access,
    runs: input.runs ?? "read",
    variables: input.variables ?? "none",
    state_versions: input.stateVersions ?? "none",
    workspace_locking: input.workspaceLocking ? 1 : 0,
    run_tasks: input.runTasks ? 1 : 0,
  };
  unique(() => inTransaction(db, () => store.insertTeamWorkspace(db, record)), { relationship: "team" });
  return store.findTeamWorkspace(db, record.id)!;
}

export function loadTeamWorkspace(db: Db, caller: Caller, id: string): TeamWorkspaceRecord {
  const r = store.teamWorkspaceOrganization(db, id);
  if (!r) throw new NotFound("team access not found");
  assertAccessManager(db, caller, r.organization);
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
    store.updateTeamWorkspaceRow(db, {
      id: r.id,
      access: input.access,
      runs: input.runs ?? cur.runs,
      variables: input.variables ?? cur.variables,
      state_versions: input.stateVersions ?? cur.state_versions,
      workspace_locking: input.workspaceLocking === undefined ? cur.workspace_locking : input.workspaceLocking ? 1 : 0,
      run_tasks: input.runTasks === undefined ? cur.run_tasks : input.runTasks ? 1 : 0,
    });
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
  request: GrantRequest<string>,
): TeamProjectRecord {
  const {
    target: project,
    teamId,
    input: access,
  } = grantTarget(request, (id) => {
    const found = find(id);
    assertProjectAccessManager(db, caller, found);
    return found!;
  });
  if (!store.teamInOrganization(db, teamId, project.organization)) throw new NotFound("team not found");
  const record: TeamProjectRecord = { id: newInternalId("tprj-"), team_id: teamId, project_id: project.id, access };
  unique(() => inTransaction(db, () => store.insertTeamProject(db, record)), { relationship: "team" });
  return record;
}

export function loadTeamProject(db: Db, caller: Caller, id: string): TeamProjectRecord {
  const r = store.findTeamProject(db, id);
  if (!r || !orgRole(db, caller, r.organization).manageProjects) throw new NotFound("team project access not found");
  return r;
}

export function updateTeamProject(
  db: Db,
  caller: Caller,
  id: string,
  read: () => string | undefined,
): TeamProjectRecord {
  const r = loadTeamProject(db, caller, id);
  const access = read();
  if (access !== undefined) inTransaction(db, () => store.updateTeamProjectAccess(db, r.id, access));
  return { ...r, access: access ?? r.access };
}

export function deleteTeamProject(db: Db, caller: Caller, id: string): void {
  const r = loadTeamProject(db, caller, id);
  inTransaction(db, () => store.deleteTeamProjectRow(db, r.id));
}
