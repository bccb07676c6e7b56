import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import {
  isProjectAdmin,
  mayCreateWorkspaceIn,
  orgRole,
  readableWorkspacesFilter,
  workspacePermissions,
} from "../auth/service/authz";
import { inTransaction, isUniqueViolation, now } from "../store/db";
import { newId, randomString } from "../ids";
import { Conflict, Forbidden, Invalid, NameTaken, NotFound, failIfAny, type Failure } from "../errors";
import { ID_PREFIXES, type Problem } from "../../api/common";
import {
  workspaceSettingsProblems,
  type Permissions,
  type VcsRepoRequest,
  type WorkspaceSettingsRequest,
} from "../../api/workspaces";
import { findOrganization } from "../organization/service";
import { findProject, projectExecutionDefaults } from "../project/service";
import {
  addWorkspaceTags,
  checkTagBindings,
  directTagBindings,
  flatTagClauses,
  pruneUnusedTags,
  replaceTagBindings,
  taggedWorkspacesClause,
} from "../tags/service";
import type { Page } from "../store/db";
import type { WorkspaceListFilter } from "./list";
import { agentPoolInOrganization } from "../agentpool/service";
import { oauthTokenInOrganization } from "../oauth/service";
import { sshKeyInOrganization } from "../sshkey/service";
import * as store from "./store";
import {
  findWorkspaceById,
  findWorkspaceByName,
  insertWorkspace,
  saveWorkspace,
  settingsOf,
  type StoredVcsRepo,
  type WorkspaceRecord,
  type WorkspaceSettings,
} from "./store";

/** The engine release a workspace gets when the request names none (spec 9). */
const LATEST_ENGINE_VERSION = "1.9.8";

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

/** What a workspace of the project inherits while it does not override the setting: the project's, else the organization's. */
function inheritedExecution(
  ctx: ServerContext,
  projectId: string,
): { mode: WorkspaceSettings["execution-mode"]; agentPoolId: string | null } {
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

function checkReferences(ctx: ServerContext, organization: string, a: WorkspaceSettingsRequest): void {
  const failures: Failure[] = [];
  const pool = a["agent-pool-id"];
  if (pool && !agentPoolInOrganization(ctx.db, pool, organization)) {
    failures.push({
      field: { attribute: "agent-pool-id" },
      detail: `agent pool "${pool}" not found in organization ${organization}`,
    });
  }
  const tokenId = a["vcs-repo"]?.["oauth-token-id"];
  if (tokenId && !oauthTokenInOrganization(ctx.db, tokenId, organization)) {
    failures.push({
      field: { attribute: "vcs-repo.oauth-token-id" },
      detail: `OAuth token "${tokenId}" not found in organization ${organization}`,
    });
  }
  failIfAny(failures);
}

const ENGINE_VERSION = String.raw`v?\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`;
const ENGINE_VERSION_TERM = new RegExp(
  String.raw`^\s*(?:(?:=|!=|>=|<=|>|<|~>)\s*)?` + ENGINE_VERSION + String.raw`\s*$`,
);

/** An exact engine version (`1.9.8`) or a constraint (`~> 1.9`, `>= 1.5, < 2.0`), as spec 4.2 allows; `latest` names the newest release. */
function isEngineVersion(value: string): boolean {
  return (
    value === "latest" || (value.trim() !== "" && value.split(",").every((term) => ENGINE_VERSION_TERM.test(term)))
  );
}

function engineVersionProblems(a: WorkspaceSettingsRequest): Failure[] {
  const out: Failure[] = [];
  for (const key of ["engine-version", "terraform-version"] as const) {
    const v = a[key];
    if (v !== undefined && !isEngineVersion(v)) {
      out.push({
        field: { attribute: key },
        detail: `"${v}" is neither an engine version (1.9.8) nor a version constraint (~> 1.9, >= 1.5, < 2.0)`,
      });
    }
  }
  return out;
}

/** A problem of the shared request rules (src/api), which name the attribute by its pointer under `/data/attributes/`. */
function attributeFailure(p: Problem): Failure {
  return {
    detail: p.detail,
    field: {
      attribute: p.pointer
        .replace(/^\/data\/attributes\//, "")
        .split("/")
        .join("."),
    },
  };
}

function checkProblems(a: WorkspaceSettingsRequest, current: Parameters<typeof workspaceSettingsProblems>[1]): void {
  failIfAny([...workspaceSettingsProblems(a, current).map(attributeFailure), ...engineVersionProblems(a)]);
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

function initialSettings(
  a: WorkspaceSettingsRequest,
  inherited: WorkspaceSettings["execution-mode"],
): WorkspaceSettings {
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
  const appId =
    given["vcs-app-installation-id"] !== undefined
      ? given["vcs-app-installation-id"]
      : given["github-app-installation-id"];
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
export function updateWorkspace(
  ctx: ServerContext,
  caller: Caller,
  locator: WorkspaceLocator,
  input: UpdateWorkspaceInput,
): WorkspaceRecord {
  const { db } = ctx;
  try {
    return inTransaction(db, () => {
      const { ws } = loadWorkspaceWith(ctx, caller, locator, "can-update");
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

      const copy: Array<Extract<keyof WorkspaceSettings, keyof WorkspaceSettingsRequest>> = [
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
      if (a["assessments-enabled"] === undefined && a["drift-detection"] !== undefined)
        s["assessments-enabled"] = a["drift-detection"];
      const engine = engineVersionOf(a);
      if (engine !== undefined) s["engine-version"] = engine;

      if (a["execution-mode"] !== undefined) s["execution-mode"] = a["execution-mode"];
      else if (a.operations !== undefined)
        s["execution-mode"] = a.operations
          ? s["execution-mode"] === "local"
            ? "remote"
            : s["execution-mode"]
          : "local";
      if (a["setting-overwrites"]) {
        const o = a["setting-overwrites"];
        if (o["execution-mode"] !== undefined) s["setting-overwrites"]["execution-mode"] = o["execution-mode"];
        if (o["agent-pool"] !== undefined) s["setting-overwrites"]["agent-pool"] = o["agent-pool"];
        // Giving up the override means following the organization default again.
        if (o["execution-mode"] === false && a["execution-mode"] === undefined && a.operations === undefined) {
          s["execution-mode"] = inheritedExecution(ctx, next.project_id).mode;
        }
      } else {
        if (a["execution-mode"] !== undefined || a.operations !== undefined)
          s["setting-overwrites"]["execution-mode"] = true;
        if (a["agent-pool-id"] !== undefined) s["setting-overwrites"]["agent-pool"] = true;
      }
      if (s["execution-mode"] === "agent") {
        if (a["agent-pool-id"]) next.agent_pool_id = a["agent-pool-id"];
        else if (!s["setting-overwrites"]["agent-pool"] && !s["setting-overwrites"]["execution-mode"]) {
          next.agent_pool_id = inheritedExecution(ctx, next.project_id).agentPoolId;
        }
        if (!next.agent_pool_id)
          throw new Invalid("agent-pool-id is required when execution-mode is agent", { attribute: "agent-pool-id" });
      } else {
        next.agent_pool_id = null;
      }

      if (a["vcs-repo"] === null) s["vcs-repo"] = null;
      else if (a["vcs-repo"]) s["vcs-repo"] = mergeVcsRepo(s["vcs-repo"], a["vcs-repo"]);

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
// lock state machine (spec 3)

export function lockWorkspace(ctx: ServerContext, caller: Caller, id: string, reason: string): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-lock");
    if (ws.locked === 1)
      throw new Conflict("already-locked", "Unable to lock workspace. The workspace is already locked.");
    store.setLock(ctx.db, ws.id, reason, caller.principalId);
    return findWorkspaceById(ctx.db, ws.id)!;
  });
}

/**
 * Unlocks a workspace locked by the caller. The unlock hooks run first (the state-version
 * domain settles the versions uploaded under the lock there, and may refuse the unlock).
 */
export function unlockWorkspace(ctx: ServerContext, caller: Caller, id: string): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-unlock");
    if (ws.locked !== 1)
      throw new Conflict("not-locked", "Unable to unlock workspace. The workspace is already unlocked.");
    if (ws.locked_by !== caller.principalId) {
      throw new Conflict(
        "locked-by-another-user",
        `Unable to unlock workspace. The workspace is locked by ${lockHolder(ctx, ws.locked_by)}; its holder unlocks it, or an admin force-unlocks it.`,
      );
    }
    for (const hook of ctx.hooks.workspaceUnlock) hook(ctx, ws, false);
    store.clearLock(ctx.db, ws.id);
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
  const named = store.principalName(ctx.db, principal);
  return named ? `${named.kind} ${named.name}` : `User ${principal}`;
}

/** Admin override: unlocks whoever holds the lock, abandoning unsettled intermediate state. */
export function forceUnlockWorkspace(ctx: ServerContext, caller: Caller, id: string): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-force-unlock");
    if (ws.locked !== 1)
      throw new Conflict("not-locked", "Unable to unlock workspace. The workspace is already unlocked.");
    for (const hook of ctx.hooks.workspaceUnlock) hook(ctx, ws, true);
    store.clearLock(ctx.db, ws.id);
    return findWorkspaceById(ctx.db, ws.id)!;
  });
}

// ---------------------------------------------------------------------------
// SSH key (spec 4.8)

export function assignSshKey(ctx: ServerContext, caller: Caller, id: string, sshKeyId: string | null): WorkspaceRecord {
  return inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-update");
    if (sshKeyId !== null && !sshKeyInOrganization(ctx.db, sshKeyId, ws.organization)) {
      throw new Invalid(`SSH key "${sshKeyId}" not found`, { attribute: "id" });
    }
    store.setSshKey(ctx.db, ws.id, sshKeyId);
    return findWorkspaceById(ctx.db, ws.id)!;
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

// ---------------------------------------------------------------------------
// list (spec 4.4)

interface CachedMatches {
  writes: number;
  dataVersion: number;
  ids: string[];
}
const matchCaches = new WeakMap<object, Map<string, CachedMatches>>();
const MATCH_CACHE_ENTRIES = 32;

/**
 * The ordered ids of every match of a list query. Paging through a list repeats the same
 * search on every page (and a deep page would re-test every row before it), so the
 * ordered ids are remembered until anything is written, by this connection or by another
 * process on the same file: totals and pages stay exact, and each further page is a
 * slice. Ids only, sorted over the covering index; the page's rows are loaded afterwards.
 */
function matchingIds(ctx: ServerContext, query: { sql: string; params: unknown[] }): string[] {
  const marks = store.writeMarks(ctx.db);
  let cache = matchCaches.get(ctx.db);
  if (!cache) matchCaches.set(ctx.db, (cache = new Map<string, CachedMatches>()));
  const key = JSON.stringify([query.sql, query.params]);
  const hit = cache.get(key);
  if (hit && hit.writes === marks.writes && hit.dataVersion === marks.dataVersion) {
    // Most recently used last, so the oldest entry is the one evicted.
    cache.delete(key);
    cache.set(key, hit);
    return hit.ids;
  }
  const ids = store.runWorkspaceListQuery(ctx.db, query);
  if (cache.size >= MATCH_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { ...marks, ids });
  return ids;
}

/** One page of the workspaces of an organization the caller may read, filtered and ordered; the total counts every match. */
export function listWorkspaces(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  filter: WorkspaceListFilter,
  page: Page,
): { rows: WorkspaceRecord[]; total: number } {
  const visible = readableWorkspacesFilter(ctx.db, caller, organization);
  const query = store.workspaceListQuery(
    organization,
    visible,
    filter,
    flatTagClauses(organization, filter.tags, filter.excludeTags),
    filter.tagged.map((t) => taggedWorkspacesClause(t.key, t.value)),
  );
  const all = matchingIds(ctx, query);
  const start = (page.number - 1) * page.size;
  return { rows: store.workspacesByIds(ctx.db, all.slice(start, start + page.size)), total: all.length };
}

/** A page of the workspaces (alias `w`) of the organization matching `scope` that the caller may read, in name order. */
export function listWorkspacesWhere(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  scope: store.Clause,
  page: Page,
): { rows: WorkspaceRecord[]; total: number } {
  return store.workspacesPage(ctx.db, [scope, readableWorkspacesFilter(ctx.db, caller, organization)], page);
}

/** A workspace by id, whoever may see it (callers authorize on their own). */
export function findWorkspace(ctx: ServerContext, id: string): WorkspaceRecord | undefined {
  return findWorkspaceById(ctx.db, id);
}

/** Marks a workspace changed by another domain's write (an applied no-code upgrade). */
export function touchWorkspace(ctx: ServerContext, workspaceId: string): void {
  store.touchWorkspace(ctx.db, workspaceId);
}
