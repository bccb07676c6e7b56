import type { ServerContext } from "../context";
import type { Caller, OrgRole } from "../auth/service/caller";
import {
  assertMember,
  isProjectAdmin,
  mayCreateWorkspaceIn,
  mayCreateWorkspaces,
  orgRole,
  workspacePermissions,
} from "../auth/service/authz";
import { inTransaction, isUniqueViolation, now } from "../store/db";
import { newId } from "../ids";
import { Conflict, Forbidden, Invalid, NameTaken, NotFound } from "../domain-errors";
import type { Permissions, VcsRepoRequest, WorkspaceSettingsRequest } from "../../api/workspaces";
import { findOrganization } from "../organization/service";
import { findProject } from "../project/service";
import { assertPoolAllows } from "../agent-pool/service";
import {
  addWorkspaceTags,
  checkTagBindings,
  directTagBindings,
  pruneUnusedTags,
  replaceTagBindings,
} from "../tags/service";
import { sshKeyInOrganization } from "../ssh-key/service";
import * as store from "./store";
import {
  findWorkspaceById,
  findWorkspaceByName,
  insertWorkspace,
  saveWorkspace,
  settingsOf,
  type WorkspaceRecord,
} from "./store";
import {
  applySettingsUpdate,
  checkProblems,
  checkReferences,
  inheritedExecution,
  initialSettings,
  withoutEmptyAgentPool,
} from "./settings-changes";

export { listWorkspaces, listWorkspacesWhere } from "./list-pages";

/** `source` of workspaces created through the API and from a no-code module. */
const SOURCE_API = "tfe-api";
export const SOURCE_MODULE = "tfe-module";

export type WorkspaceLocator = { id: string } | { organization: string; name: string };

export interface AccessibleWorkspace {
  ws: WorkspaceRecord;
  permissions: Permissions;
}

/** The caller's permissions on a workspace, or null when it may not read it. */
export function permissionsFor(ctx: ServerContext, caller: Caller, ws: WorkspaceRecord): Permissions | null {
  return workspacePermissions(ctx.db, caller, ws);
}

/** Finds a workspace the caller may read; a missing and an invisible workspace both give 404 (spec 7). */
export function loadWorkspace(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator): AccessibleWorkspace {
  const ws =
    "id" in locator
      ? findWorkspaceById(ctx.db, locator.id)
      : findWorkspaceByName(ctx.db, locator.organization, locator.name);
  const permissions = ws ? permissionsFor(ctx, caller, ws) : null;
  if (!ws || !permissions) throw new NotFound("workspace not found");
  return { ws, permissions };
}

/** Like {@link loadWorkspace}, with the caller's standing in the workspace's organization (shown by an included organization). */
export function showWorkspace(
  ctx: ServerContext,
  caller: Caller,
  locator: WorkspaceLocator,
): AccessibleWorkspace & { role: OrgRole } {
  const found = loadWorkspace(ctx, caller, locator);
  return { ...found, role: orgRole(ctx.db, caller, found.ws.organization) };
}

/** Like {@link loadWorkspace}, and the caller must hold `permission`; otherwise 404 as well. */
export function loadWorkspaceWith(
  ctx: ServerContext,
  caller: Caller,
  locator: WorkspaceLocator,
  permission: keyof Permissions,
): AccessibleWorkspace {
  const found = loadWorkspace(ctx, caller, locator);
  if (!found.permissions[permission]) throw new NotFound("workspace not found");
  return found;
}

// ---------------------------------------------------------------------------
// create

export interface CreateWorkspaceInput {
  /** Validated attributes in request spelling (spec 4.2); `name` is required. */
  attributes: WorkspaceSettingsRequest & { name: string };
  /** Target project; the organization's default project when absent. */
  projectId?: string | null;
  tagBindings?: { key: string; value: string }[];
  /** Flat tags (`data.relationships.tags`, as go-tfe sends them on create): by id or by name. */
  tags?: { id?: string; attributes?: { name?: string } }[];
  /** `source` attribute; {@link SOURCE_API} unless a domain creates the workspace on the user's behalf. */
  source?: string;
}

/**
 * Creates a workspace from validated attributes (spec 4.2), checking the rules that need
 * the database: permission on the project, referenced ids, the unique name. Runs in one
 * transaction; callers that create more alongside (no-code variables) may wrap it in
 * their own `inTransaction`, which nests.
 */
export function createWorkspace(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  input: CreateWorkspaceInput,
): WorkspaceRecord {
  const { db } = ctx;
  const org = findOrganization(db, organization);
  if (!org || !orgRole(db, caller, organization).member) throw new NotFound(`organization "${organization}" not found`);
  const a = withoutEmptyAgentPool(input.attributes);
  checkProblems(a, undefined);
  checkTagBindings(input.tagBindings);
  const projectId = input.projectId || org.default_project_id;
  if (findProject(db, projectId)?.organization !== organization) throw new NotFound(`project "${projectId}" not found`);
  if (!mayCreateWorkspaceIn(db, caller, organization, projectId))
    throw new NotFound(`project "${projectId}" not found`);
  checkReferences(ctx, organization, a);
  const inherited = inheritedExecution(ctx, projectId);
  const settings = initialSettings(a, inherited.mode);
  const inheritsPool = settings["execution-mode"] === "agent" && !settings["setting-overwrites"]["agent-pool"];
  try {
    return inTransaction(db, () => {
      if (findWorkspaceByName(db, organization, a.name)) throw new NameTaken();
      const t = now();
      const ws: WorkspaceRecord = {
        id: newId("workspace"),
        organization,
        name: a.name,
        project_id: projectId,
        settings: JSON.stringify(settings),
        source: input.source ?? SOURCE_API,
        locked: 0,
        locked_reason: null,
        locked_by: null,
        ssh_key_id: null,
        agent_pool_id:
          settings["execution-mode"] !== "agent"
            ? null
            : inheritsPool
              ? inherited.agentPoolId
              : (a["agent-pool-id"] ?? null),
        current_state_version_id: null,
        current_run_id: null,
        resource_count: 0,
        latest_change_at: t,
        created_at: t,
        updated_at: t,
      };
      if (ws.agent_pool_id) assertPoolAllows(db, ws.agent_pool_id, projectId);
      insertWorkspace(db, ws);
      if (input.tagBindings?.length) replaceTagBindings(db, "workspace", ws.id, input.tagBindings);
      if (input.tags?.length) addWorkspaceTags(db, ws, input.tags, true);
      return ws;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new NameTaken();
    throw err;
  }
}

// ---------------------------------------------------------------------------
// update

/**
 * `POST /organizations/:org/workspaces`: a member who may create workspaces somewhere in
 * the organization (404 otherwise, before `read` parses the body), with the caller's
 * permissions on the new workspace.
 */
export function createWorkspaceFor(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  read: () => CreateWorkspaceInput,
): AccessibleWorkspace {
  assertMember(ctx.db, caller, organization);
  if (!mayCreateWorkspaces(ctx.db, caller, organization))
    throw new NotFound(`organization "${organization}" not found`);
  const ws = createWorkspace(ctx, caller, organization, read());
  return { ws, permissions: permissionsFor(ctx, caller, ws)! };
}

function sameBindings(current: { key: string; value: string }[], given: { key: string; value: string }[]): boolean {
  const canon = (list: { key: string; value: string }[]) => JSON.stringify(list.map((b) => [b.key, b.value]).sort());
  return canon(current) === canon(given);
}

export interface UpdateWorkspaceInput {
  attributes: WorkspaceSettingsRequest;
  /** `data.relationships.project.data.id`; blank or unchanged means no move. */
  projectId?: string | null;
  /** Replaces the workspace's whole set of direct bindings when given (an empty list removes them all). */
  tagBindings?: { key: string; value: string }[];
}

/**
 * Applies a PATCH (spec 4.3): every attribute not supplied keeps its value. `read` parses
 * the body once the caller may update the workspace; the permissions returned are the
 * caller's on the workspace as it is now (a move to another project may change them).
 */
export function updateWorkspace(
  ctx: ServerContext,
  caller: Caller,
  locator: WorkspaceLocator,
  read: () => UpdateWorkspaceInput,
): AccessibleWorkspace {
  const { db } = ctx;
  try {
    const updated = inTransaction(db, () => {
      const { ws } = loadWorkspaceWith(ctx, caller, locator, "can-update");
      const input = read();
      const a = withoutEmptyAgentPool(input.attributes);
      const s = settingsOf(ws);
      checkProblems(a, {
        "execution-mode": s["execution-mode"],
        "agent-pool-id": ws.agent_pool_id,
        "vcs-repo": s["vcs-repo"] as VcsRepoRequest | null,
      });
      checkTagBindings(input.tagBindings);
      checkReferences(ctx, ws.organization, a);
      const next: WorkspaceRecord = { ...ws };

      if (a.name !== undefined && a.name !== ws.name) {
        const other = findWorkspaceByName(db, ws.organization, a.name);
        if (other && other.id !== ws.id) throw new NameTaken();
        next.name = a.name;
      }
      if (input.projectId && input.projectId !== ws.project_id) {
        if (findProject(db, input.projectId)?.organization !== ws.organization)
          throw new NotFound(`project "${input.projectId}" not found`);
        if (
          !isProjectAdmin(db, caller, ws.organization, ws.project_id) ||
          !isProjectAdmin(db, caller, ws.organization, input.projectId)
        ) {
          throw new NotFound(`project "${input.projectId}" not found`);
        }
        next.project_id = input.projectId;
      }

      applySettingsUpdate(ctx, next, s, a);
      next.settings = JSON.stringify(s);
      const bindingsChange =
        input.tagBindings !== undefined && !sameBindings(directTagBindings(db, ws.id), input.tagBindings);
      const changed =
        bindingsChange ||
        next.settings !== ws.settings ||
        next.name !== ws.name ||
        next.project_id !== ws.project_id ||
        next.agent_pool_id !== ws.agent_pool_id;
      // A PATCH that changes nothing leaves the document as it was, `updated-at` included.
      if (!changed) return ws;
      next.updated_at = now();
      saveWorkspace(db, next);
      if (bindingsChange) replaceTagBindings(db, "workspace", ws.id, input.tagBindings!);
      return findWorkspaceById(db, ws.id)!;
    });
    return { ws: updated, permissions: permissionsFor(ctx, caller, updated)! };
  } catch (err) {
    if (isUniqueViolation(err)) throw new NameTaken();
    throw err;
  }
}

// ---------------------------------------------------------------------------
// delete (spec 3, workspace existence)

function removeWorkspace(ctx: ServerContext, ws: WorkspaceRecord): void {
  store.deleteWorkspace(ctx.db, ws.id);
  pruneUnusedTags(ctx.db, ws.organization);
}

/** Deletes only a workspace that manages no resources; otherwise a conflict. */
export function safeDeleteWorkspace(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator): void {
  inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, locator, "can-destroy");
    // The hosted service refuses while a lock is held: whoever holds it may be writing state.
    if (ws.locked === 1)
      throw new Conflict(
        "locked",
        `Workspace is currently locked. Workspace must be unlocked before it can be safely deleted; unlock ${ws.name} first or force delete`,
      );
    if (ws.resource_count > 0) {
      throw new Conflict(
        "managing-resources",
        `workspace ${ws.name} is currently managing ${ws.resource_count} resources and cannot be safe-deleted; destroy them first or force delete`,
      );
    }
    removeWorkspace(ctx, ws);
  });
}

/** Deletes without looking at managed resources; forbidden when the caller sees the workspace but may not force delete it. */
export function forceDeleteWorkspace(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator): void {
  inTransaction(ctx.db, () => {
    const { ws, permissions } = loadWorkspace(ctx, caller, locator);
    if (!permissions["can-force-delete"]) throw new Forbidden("You are not authorized to force delete this workspace.");
    removeWorkspace(ctx, ws);
  });
}

// ---------------------------------------------------------------------------
// SSH key (spec 4.8)

/** Sets or clears the workspace's SSH key; `read` gives the key id once the caller may update the workspace. */
export function assignSshKey(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  read: () => string | null,
): AccessibleWorkspace {
  return inTransaction(ctx.db, () => {
    const { ws, permissions } = loadWorkspaceWith(ctx, caller, { id }, "can-update");
    const sshKeyId = read();
    if (sshKeyId !== null && !sshKeyInOrganization(ctx.db, sshKeyId, ws.organization)) {
      throw new Invalid(`SSH key "${sshKeyId}" not found`, { attribute: "id" });
    }
    store.setSshKey(ctx.db, ws.id, sshKeyId);
    return { ws: findWorkspaceById(ctx.db, ws.id)!, permissions };
  });
}

// ---------------------------------------------------------------------------
// records other domains keep about a workspace

/** Makes a state version the workspace's current one (the state-version domain calls it). */
export function setCurrentStateVersion(
  ctx: ServerContext,
  workspaceId: string,
  stateVersionId: string,
  resourceCount: number,
  changedAt: string,
): void {
  store.setCurrentState(ctx.db, workspaceId, stateVersionId, resourceCount, changedAt);
}

/** Makes a run the workspace's current run (the run domain calls it). */
export function setCurrentRun(ctx: ServerContext, workspaceId: string, runId: string): void {
  store.setCurrentRun(ctx.db, workspaceId, runId);
}

/** A workspace by id, whoever may see it (callers authorize on their own). */
export function findWorkspace(ctx: ServerContext, id: string): WorkspaceRecord | undefined {
  return findWorkspaceById(ctx.db, id);
}

/** Marks a workspace changed by another domain's write (an applied no-code upgrade). */
export function touchWorkspace(ctx: ServerContext, workspaceId: string): void {
  store.touchWorkspace(ctx.db, workspaceId);
}
