import type { ServerContext } from "../context";
import type { Caller } from "../auth/service";
import { isProjectAdmin, mayCreateWorkspaceIn, orgRole, workspacePermissions, type Permissions } from "../auth/service";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId, randomString } from "../ids";
import { conflict, forbidden, nameTaken, notFound, serviceUnavailable, unprocessable, unprocessableMany } from "../http/errors";
import { ID_PREFIXES, problemsToErrors } from "../../api/common";
import { workspaceSettingsProblems, type VcsRepoRequest, type WorkspaceSettingsRequest } from "../../api/workspaces";
import { findOrganization } from "../organization/service";
import { findProject, projectExecutionDefaults } from "../project/service";
import { checkTagBindings, replaceTagBindings } from "../store/tagBindings";
import {
  findWorkspaceById,
  findWorkspaceByName,
  attachTags,
  directTagBindings,
  insertWorkspace,
  resolveTags,
  pruneUnusedTags,
  saveWorkspace,
  settingsOf,
  type StoredVcsRepo,
  type WorkspaceRecord,
  type WorkspaceSettings,
} from "./store";

/** The engine release a workspace gets when the request names none (spec 9). */
export const LATEST_ENGINE_VERSION = "1.9.8";

/** `source` of workspaces created through the API and from a no-code module. */
export const SOURCE_API = "tfe-api";
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
  const ws = "id" in locator ? findWorkspaceById(ctx.db, locator.id) : findWorkspaceByName(ctx.db, locator.organization, locator.name);
  const permissions = ws ? permissionsFor(ctx, caller, ws) : null;
  if (!ws || !permissions) throw notFound("workspace not found");
  return { ws, permissions };
}

/** Like {@link loadWorkspace}, and the caller must hold `permission`; otherwise 404 as well. */
export function loadWorkspaceWith(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator, permission: keyof Permissions): AccessibleWorkspace {
  const found = loadWorkspace(ctx, caller, locator);
  if (!found.permissions[permission]) throw notFound("workspace not found");
  return found;
}

// ---------------------------------------------------------------------------
// create

/** What a workspace of the project inherits while it does not override the setting: the project's, else the organization's. */
function inheritedExecution(ctx: ServerContext, projectId: string): { mode: WorkspaceSettings["execution-mode"]; agentPoolId: string | null } {
  const project = findProject(ctx.db, projectId);
  return project ? projectExecutionDefaults(ctx.db, project) : { mode: "remote", agentPoolId: null };
}

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
  /** JSON pointer prefix of `attributes` in the request, for error sources. */
  attributesPointer?: string;
}

function has<T extends object>(obj: T, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && (obj as Record<string, unknown>)[key] !== undefined;
}

function engineVersionOf(a: WorkspaceSettingsRequest): string | undefined {
  return a["engine-version"] ?? a["terraform-version"];
}

/** `"agent-pool-id": ""` means no pool, as the hosted service reads it (terraform-provider-tfe sends it on every write). */
function withoutEmptyAgentPool<T extends WorkspaceSettingsRequest>(a: T): T {
  if (a["agent-pool-id"] !== "") return a;
  const { "agent-pool-id": _none, ...rest } = a;
  return rest as T;
}

function checkReferences(ctx: ServerContext, organization: string, a: WorkspaceSettingsRequest, pointer: string): void {
  const errors: { pointer: string; detail: string }[] = [];
  const pool = a["agent-pool-id"];
  if (pool && !prepare(ctx.db, `SELECT 1 FROM agent_pools WHERE id = ? AND organization = ?`).get(pool, organization)) {
    errors.push({ pointer: `${pointer}/agent-pool-id`, detail: `agent pool "${pool}" not found in organization ${organization}` });
  }
  const tokenId = a["vcs-repo"]?.["oauth-token-id"];
  if (tokenId && !prepare(ctx.db, `SELECT 1 FROM oauth_tokens WHERE id = ? AND organization = ?`).get(tokenId, organization)) {
    errors.push({ pointer: `${pointer}/vcs-repo/oauth-token-id`, detail: `OAuth token "${tokenId}" not found in organization ${organization}` });
  }
  if (errors.length) throw unprocessableMany(problemsToErrors(errors));
}

const ENGINE_VERSION = String.raw`v?\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`;
const ENGINE_VERSION_TERM = new RegExp(String.raw`^\s*(?:(?:=|!=|>=|<=|>|<|~>)\s*)?` + ENGINE_VERSION + String.raw`\s*$`);

/** An exact engine version (`1.9.8`) or a constraint (`~> 1.9`, `>= 1.5, < 2.0`), as spec 4.2 allows; `latest` names the newest release. */
export function isEngineVersion(value: string): boolean {
  return value === "latest" || (value.trim() !== "" && value.split(",").every((term) => ENGINE_VERSION_TERM.test(term)));
}

function engineVersionProblems(a: WorkspaceSettingsRequest): { pointer: string; detail: string }[] {
  const out: { pointer: string; detail: string }[] = [];
  for (const key of ["engine-version", "terraform-version"] as const) {
    const v = a[key];
    if (v !== undefined && !isEngineVersion(v)) {
      out.push({ pointer: `/data/attributes/${key}`, detail: `"${v}" is neither an engine version (1.9.8) nor a version constraint (~> 1.9, >= 1.5, < 2.0)` });
    }
  }
  return out;
}

function checkProblems(a: WorkspaceSettingsRequest, current: Parameters<typeof workspaceSettingsProblems>[1], pointer: string): void {
  const problems = [...workspaceSettingsProblems(a, current), ...engineVersionProblems(a)];
  if (problems.length) {
    throw unprocessableMany(problemsToErrors(problems.map((p) => ({ ...p, pointer: p.pointer.replace(/^\/data\/attributes/, pointer) }))));
  }
}

function newVcsRepo(r: VcsRepoRequest): StoredVcsRepo {
  return {
    identifier: r.identifier!,
    "oauth-token-id": r["oauth-token-id"] ?? null,
    "vcs-app-installation-id": r["vcs-app-installation-id"] ?? r["github-app-installation-id"] ?? null,
    branch: r.branch ?? "",
    "ingress-submodules": r["ingress-submodules"] ?? false,
    "tags-regex": r["tags-regex"] ?? null,
    "webhook-id": randomString(24),
  };
}


function initialSettings(a: WorkspaceSettingsRequest, inherited: WorkspaceSettings["execution-mode"]): WorkspaceSettings {
  const overwrites = a["setting-overwrites"];
  const explicit = a["execution-mode"] ?? (a.operations === undefined ? undefined : a.operations ? "remote" : "local");
  const mode = overwrites?.["execution-mode"] === false || explicit === undefined ? inherited : explicit;
  return {
    description: a.description ?? null,
    environment: "default",
    "execution-mode": mode,
    "allow-destroy-plan": a["allow-destroy-plan"] ?? true,
    "assessments-enabled": a["assessments-enabled"] ?? a["drift-detection"] ?? false,
    "auto-apply": a["auto-apply"] ?? false,
    "auto-apply-run-trigger": a["auto-apply-run-trigger"] ?? false,
    "auto-destroy-at": a["auto-destroy-at"] ?? null,
    "auto-destroy-activity-duration": a["auto-destroy-activity-duration"] ?? null,
    "file-triggers-enabled": a["file-triggers-enabled"] ?? true,
    "global-remote-state": a["global-remote-state"] ?? false,
    "queue-all-runs": a["queue-all-runs"] ?? false,
    "source-name": a["source-name"] ?? null,
    "source-url": a["source-url"] ?? null,
    "speculative-enabled": a["speculative-enabled"] ?? true,
    "structured-run-output-enabled": a["structured-run-output-enabled"] ?? true,
    "engine-version": engineVersionOf(a) ?? LATEST_ENGINE_VERSION,
    "trigger-patterns": a["trigger-patterns"] ?? [],
    "trigger-prefixes": a["trigger-prefixes"] ?? [],
    "vcs-repo": a["vcs-repo"] ? newVcsRepo(a["vcs-repo"]) : null,
    "working-directory": a["working-directory"] ?? null,
    "setting-overwrites": {
      // An explicitly chosen setting overrides the organization default unless the request says otherwise.
      "execution-mode": overwrites?.["execution-mode"] ?? (has(a, "execution-mode") || has(a, "operations")),
      "agent-pool": overwrites?.["agent-pool"] ?? has(a, "agent-pool-id"),
    },
  };
}

/**
 * Creates a workspace from validated attributes (spec 4.2), checking the rules that need
 * the database: permission on the project, referenced ids, the unique name. Runs in one
 * transaction; callers that create more alongside (no-code variables) may wrap it in
 * their own `inTransaction`, which nests.
 */
export function createWorkspace(ctx: ServerContext, caller: Caller, organization: string, input: CreateWorkspaceInput): WorkspaceRecord {
  const { db } = ctx;
  const pointer = input.attributesPointer ?? "/data/attributes";
  const org = findOrganization(db, organization);
  if (!org || !orgRole(db, caller, organization).member) throw notFound(`organization "${organization}" not found`);
  const a = withoutEmptyAgentPool(input.attributes);
  checkProblems(a, undefined, pointer);
  checkTagBindings(input.tagBindings);
  const projectId = input.projectId || org.default_project_id;
  if (!prepare(db, `SELECT 1 FROM projects WHERE id = ? AND organization = ?`).get(projectId, organization)) {
    throw notFound(`project "${projectId}" not found`);
  }
  if (!mayCreateWorkspaceIn(db, caller, organization, projectId)) throw notFound(`project "${projectId}" not found`);
  checkReferences(ctx, organization, a, pointer);
  const inherited = inheritedExecution(ctx, projectId);
  const settings = initialSettings(a, inherited.mode);
  const inheritsPool = settings["execution-mode"] === "agent" && !settings["setting-overwrites"]["agent-pool"];
  try {
    return inTransaction(db, () => {
      if (findWorkspaceByName(db, organization, a.name)) throw nameTaken(`${pointer}/name`);
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
        agent_pool_id: settings["execution-mode"] !== "agent" ? null : inheritsPool ? inherited.agentPoolId : (a["agent-pool-id"] ?? null),
        current_state_version_id: null,
        current_run_id: null,
        resource_count: 0,
        latest_change_at: t,
        created_at: t,
        updated_at: t,
      };
      insertWorkspace(db, ws);
      if (input.tagBindings?.length) replaceTagBindings(db, "workspace", ws.id, input.tagBindings);
      if (input.tags?.length) attachTags(db, ws.id, resolveTags(db, organization, input.tags, true, "/data/relationships/tags/data"));
      return ws;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(`${pointer}/name`);
    throw err;
  }
}

// ---------------------------------------------------------------------------
// update

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

function mergeVcsRepo(current: StoredVcsRepo | null, given: VcsRepoRequest): StoredVcsRepo {
  if (!current) return newVcsRepo(given);
  const merged: StoredVcsRepo = { ...current };
  if (given.identifier !== undefined) merged.identifier = given.identifier;
  if (given.branch !== undefined) merged.branch = given.branch;
  if (given["ingress-submodules"] !== undefined) merged["ingress-submodules"] = given["ingress-submodules"];
  if (given["tags-regex"] !== undefined) merged["tags-regex"] = given["tags-regex"];
  const appId = given["vcs-app-installation-id"] !== undefined ? given["vcs-app-installation-id"] : given["github-app-installation-id"];
  // One repository connection at a time: choosing one kind of credential drops the other.
  if (given["oauth-token-id"] !== undefined) {
    merged["oauth-token-id"] = given["oauth-token-id"];
    if (given["oauth-token-id"]) merged["vcs-app-installation-id"] = null;
  }
  if (appId !== undefined) {
    merged["vcs-app-installation-id"] = appId;
    if (appId) merged["oauth-token-id"] = null;
  }
  return merged;
}

/** Applies a PATCH (spec 4.3): every attribute not supplied keeps its value. */
export function updateWorkspace(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator, input: UpdateWorkspaceInput): WorkspaceRecord {
  const { db } = ctx;
  try {
    return inTransaction(db, () => {
      const { ws } = loadWorkspaceWith(ctx, caller, locator, "can-update");
      const a = withoutEmptyAgentPool(input.attributes);
      const s = settingsOf(ws);
      checkProblems(a, { "execution-mode": s["execution-mode"], "agent-pool-id": ws.agent_pool_id, "vcs-repo": s["vcs-repo"] as VcsRepoRequest | null }, "/data/attributes");
      checkTagBindings(input.tagBindings);
      checkReferences(ctx, ws.organization, a, "/data/attributes");
      const next: WorkspaceRecord = { ...ws };

      if (a.name !== undefined && a.name !== ws.name) {
        const other = findWorkspaceByName(db, ws.organization, a.name);
        if (other && other.id !== ws.id) throw nameTaken();
        next.name = a.name;
      }
      if (input.projectId && input.projectId !== ws.project_id) {
        if (!prepare(db, `SELECT 1 FROM projects WHERE id = ? AND organization = ?`).get(input.projectId, ws.organization)) {
          throw notFound(`project "${input.projectId}" not found`);
        }
        if (!isProjectAdmin(db, caller, ws.organization, ws.project_id) || !isProjectAdmin(db, caller, ws.organization, input.projectId)) {
          throw notFound(`project "${input.projectId}" not found`);
        }
        next.project_id = input.projectId;
      }

      const copy: Array<keyof WorkspaceSettings & keyof WorkspaceSettingsRequest> = [
        "description",
        "allow-destroy-plan",
        "assessments-enabled",
        "auto-apply",
        "auto-apply-run-trigger",
        "auto-destroy-at",
        "auto-destroy-activity-duration",
        "file-triggers-enabled",
        "global-remote-state",
        "queue-all-runs",
        "source-name",
        "source-url",
        "speculative-enabled",
        "structured-run-output-enabled",
        "trigger-patterns",
        "trigger-prefixes",
        "working-directory",
      ];
      const out = s as unknown as Record<string, unknown>;
      for (const key of copy) if (a[key] !== undefined) out[key] = a[key];
      if (a["assessments-enabled"] === undefined && a["drift-detection"] !== undefined) s["assessments-enabled"] = a["drift-detection"];
      const engine = engineVersionOf(a);
      if (engine !== undefined) s["engine-version"] = engine;

      if (a["execution-mode"] !== undefined) s["execution-mode"] = a["execution-mode"];
      else if (a.operations !== undefined) s["execution-mode"] = a.operations ? (s["execution-mode"] === "local" ? "remote" : s["execution-mode"]) : "local";
      if (a["setting-overwrites"]) {
        const o = a["setting-overwrites"];
        if (o["execution-mode"] !== undefined) s["setting-overwrites"]["execution-mode"] = o["execution-mode"];
        if (o["agent-pool"] !== undefined) s["setting-overwrites"]["agent-pool"] = o["agent-pool"];
        // Giving up the override means following the organization default again.
        if (o["execution-mode"] === false && a["execution-mode"] === undefined && a.operations === undefined) {
          s["execution-mode"] = inheritedExecution(ctx, next.project_id).mode;
        }
      } else {
        if (a["execution-mode"] !== undefined || a.operations !== undefined) s["setting-overwrites"]["execution-mode"] = true;
        if (a["agent-pool-id"] !== undefined) s["setting-overwrites"]["agent-pool"] = true;
      }
      if (s["execution-mode"] === "agent") {
        if (a["agent-pool-id"]) next.agent_pool_id = a["agent-pool-id"];
        else if (!s["setting-overwrites"]["agent-pool"] && !s["setting-overwrites"]["execution-mode"]) {
          next.agent_pool_id = inheritedExecution(ctx, next.project_id).agentPoolId;
        }
        if (!next.agent_pool_id) throw unprocessable("agent-pool-id is required when execution-mode is agent", "/data/attributes/agent-pool-id");
      } else {
        next.agent_pool_id = null;
      }

      if (a["vcs-repo"] === null) s["vcs-repo"] = null;
      else if (a["vcs-repo"]) s["vcs-repo"] = mergeVcsRepo(s["vcs-repo"], a["vcs-repo"]);

      next.settings = JSON.stringify(s);
      const bindingsChange = input.tagBindings !== undefined && !sameBindings(directTagBindings(db, ws.id), input.tagBindings);
      const changed =
        bindingsChange || next.settings !== ws.settings || next.name !== ws.name || next.project_id !== ws.project_id || next.agent_pool_id !== ws.agent_pool_id;
      // A PATCH that changes nothing leaves the document as it was, `updated-at` included.
      if (!changed) return ws;
      next.updated_at = now();
      saveWorkspace(db, next);
      if (bindingsChange) replaceTagBindings(db, "workspace", ws.id, input.tagBindings!);
      return findWorkspaceById(db, ws.id)!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

// ---------------------------------------------------------------------------
// delete (spec 3, workspace existence)

function removeWorkspace(ctx: ServerContext, ws: WorkspaceRecord): void {
  prepare(ctx.db, `DELETE FROM workspaces WHERE id = ?`).run(ws.id);
  pruneUnusedTags(ctx.db, ws.organization);
}

/** Deletes only a workspace that manages no resources; otherwise 409. */
export function safeDeleteWorkspace(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator): void {
  inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, locator, "can-destroy");
    // The hosted service refuses while a lock is held: whoever holds it may be writing state.
    if (ws.locked === 1) throw conflict(`Workspace is currently locked. Workspace must be unlocked before it can be safely deleted; unlock ${ws.name} first or force delete`);
    if (ws.resource_count > 0) {
      throw conflict(`workspace ${ws.name} is currently managing ${ws.resource_count} resources and cannot be safe-deleted; destroy them first or force delete`);
    }
    removeWorkspace(ctx, ws);
  });
}

/** Deletes without looking at managed resources; 403 when the caller sees the workspace but may not force delete it. */
export function forceDeleteWorkspace(ctx: ServerContext, caller: Caller, locator: WorkspaceLocator): void {
  inTransaction(ctx.db, () => {
    const { ws, permissions } = loadWorkspace(ctx, caller, locator);
    if (!permissions["can-force-delete"]) throw forbidden("You are not authorized to force delete this workspace.");
    removeWorkspace(ctx, ws);
  });
}

// ---------------------------------------------------------------------------
// lock state machine (spec 3)

export function lockWorkspace(ctx: ServerContext, caller: Caller, id: string, reason: string): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-lock");
    if (ws.locked === 1) throw conflict("Unable to lock workspace. The workspace is already locked.");
    prepare(ctx.db, `UPDATE workspaces SET locked = 1, locked_reason = ?, locked_by = ? WHERE id = ? AND locked = 0`).run(reason, caller.principalId, ws.id);
    return findWorkspaceById(ctx.db, ws.id)!;
  });
}

interface IntermediateRow {
  id: string;
  status: string;
  resource_count: number;
  created_at: string;
}

/**
 * Unlocks a workspace locked by the caller. Intermediate state versions uploaded under
 * the lock are settled first: the latest one becomes current, or, when it is not yet
 * finalized, the unlock fails with 503 and the lock stays.
 */
export function unlockWorkspace(ctx: ServerContext, caller: Caller, id: string): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-unlock");
    if (ws.locked !== 1) throw conflict("Unable to unlock workspace. The workspace is already unlocked.");
    if (ws.locked_by !== caller.principalId) {
      throw conflict(`Unable to unlock workspace. The workspace is locked by ${lockHolder(ctx, ws.locked_by)}; its holder unlocks it, or an admin force-unlocks it.`);
    }
    const latest = ctx.db
      .prepare(`SELECT id, status, resource_count, created_at FROM state_versions WHERE workspace_id = ? AND intermediate = 1 AND promoted = 0 ORDER BY created_at DESC, rowid DESC LIMIT 1`)
      .get(ws.id) as IntermediateRow | undefined;
    if (latest) {
      if (latest.status !== "finalized") {
        throw serviceUnavailable("The latest intermediate state version is not yet finalized; retry the unlock shortly.");
      }
      ctx.db
        .prepare(`UPDATE workspaces SET current_state_version_id = ?, resource_count = ?, latest_change_at = ? WHERE id = ?`)
        .run(latest.id, latest.resource_count, latest.created_at, ws.id);
      prepare(ctx.db, `UPDATE state_versions SET promoted = 1 WHERE workspace_id = ? AND intermediate = 1 AND promoted = 0`).run(ws.id);
    }
    prepare(ctx.db, `UPDATE workspaces SET locked = 0, locked_reason = NULL, locked_by = NULL WHERE id = ?`).run(ws.id);
    return findWorkspaceById(ctx.db, ws.id)!;
  });
}

/**
 * Names the kind of the lock holder the way the hosted service does (`Team <name>`,
 * `User <name>`, `Run <id>`); clients tell the cases apart by that word.
 */
function lockHolder(ctx: ServerContext, principal: string | null): string {
  if (!principal) return "User unknown";
  if (principal.startsWith(ID_PREFIXES.run)) return `Run ${principal}`;
  const team = prepare(ctx.db, `SELECT name FROM teams WHERE service_user_id = ?`).get(principal) as { name: string } | undefined;
  if (team) return `Team ${team.name}`;
  const org = prepare(ctx.db, `SELECT name FROM organizations WHERE service_user_id = ?`).get(principal) as { name: string } | undefined;
  if (org) return `Organization ${org.name}`;
  const user = prepare(ctx.db, `SELECT username FROM users WHERE id = ?`).get(principal) as { username: string } | undefined;
  return `User ${user?.username ?? principal}`;
}

/** Admin override: unlocks whoever holds the lock, abandoning unsettled intermediate state. */
export function forceUnlockWorkspace(ctx: ServerContext, caller: Caller, id: string): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-force-unlock");
    if (ws.locked !== 1) throw conflict("Unable to unlock workspace. The workspace is already unlocked.");
    prepare(ctx.db, `UPDATE state_versions SET promoted = 1 WHERE workspace_id = ? AND intermediate = 1 AND promoted = 0`).run(ws.id);
    prepare(ctx.db, `UPDATE workspaces SET locked = 0, locked_reason = NULL, locked_by = NULL WHERE id = ?`).run(ws.id);
    return findWorkspaceById(ctx.db, ws.id)!;
  });
}

// ---------------------------------------------------------------------------
// SSH key (spec 4.8)

export function assignSshKey(ctx: ServerContext, caller: Caller, id: string, sshKeyId: string | null): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-update");
    if (sshKeyId !== null && !prepare(ctx.db, `SELECT 1 FROM ssh_keys WHERE id = ? AND organization = ?`).get(sshKeyId, ws.organization)) {
      throw unprocessable(`SSH key "${sshKeyId}" not found`, "/data/attributes/id");
    }
    prepare(ctx.db, `UPDATE workspaces SET ssh_key_id = ?, updated_at = ? WHERE id = ?`).run(sshKeyId, now(), ws.id);
    return findWorkspaceById(ctx.db, ws.id)!;
  });
}

/** A workspace by id, whoever may see it (callers authorize on their own). */
export function findWorkspace(ctx: ServerContext, id: string): WorkspaceRecord | undefined {
  return findWorkspaceById(ctx.db, id);
}
