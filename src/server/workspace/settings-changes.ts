/**
 * The settings of a workspace (spec 4.2, 4.3), read top to bottom in the order a create
 * or an update (./service.ts) goes through them: `withoutEmptyAgentPool` (`""` read as no
 * pool), `checkProblems` (the request's own rules), `checkReferences` (what needs the
 * database), then `initialSettings` with the `inheritedExecution` of the project on
 * create, or `applySettingsUpdate` on update. Which table line is kept in `settings`,
 * under which key and with which default, is the one hand-off: ./stored-fields.ts.
 */
import type { ServerContext } from "../context";
import { randomString } from "../ids";
import { Invalid, failIfAny, type Failure } from "../domain-errors";
import type { Problem } from "../../api/common";
import { workspaceSettingsProblems, type VcsRepoRequest, type WorkspaceSettingsRequest } from "../../api/workspaces";
import { findProject, projectExecutionDefaults } from "../project/service";
import { agentPoolInOrganization, assertPoolAllows } from "../agent-pool/service";
import { oauthTokenInOrganization } from "../oauth/service";
import { WORKSPACE_FIELDS, type FieldDef } from "../../api/workspace-fields";
import type { WorkspaceRecord } from "./store";
import {
  defaultOf,
  givenValue,
  settingLines,
  storedKey,
  validatedHere,
  type StoredVcsRepo,
  type WorkspaceSettings,
} from "./stored-fields";

/** What a workspace of the project inherits while it does not override the setting: the project's, else the organization's. */
export function inheritedExecution(
  ctx: ServerContext,
  projectId: string,
): { mode: WorkspaceSettings["execution-mode"]; agentPoolId: string | null } {
  const project = findProject(ctx.db, projectId);
  return project ? projectExecutionDefaults(ctx.db, project) : { mode: "remote", agentPoolId: null };
}

function has<T extends object>(obj: T, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && (obj as Record<string, unknown>)[key] !== undefined;
}

/** `"agent-pool-id": ""` means no pool, as the hosted service reads it (terraform-provider-tfe sends it on every write). */
export function withoutEmptyAgentPool<T extends WorkspaceSettingsRequest>(a: T): T {
  if (a["agent-pool-id"] !== "") return a;
  const { "agent-pool-id": _none, ...rest } = a;
  return rest as T;
}

export function checkReferences(ctx: ServerContext, organization: string, a: WorkspaceSettingsRequest): void {
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
  const line: FieldDef = WORKSPACE_FIELDS.engineVersion;
  // Both spellings are checked, the neutral one first.
  for (const key of [line.alias!, line.wire!]) {
    const v = (a as Record<string, unknown>)[key];
    if (typeof v === "string" && !isEngineVersion(v)) {
      out.push({
        field: { attribute: key },
        detail: `"${v}" is neither an engine version (1.9.8) nor a version constraint (~> 1.9, >= 1.5, < 2.0)`,
      });
    }
  }
  return out;
}

/**
 * Values of lines the request schema of src/api does not know (lines a process added to
 * the table after it was built), checked against their own request schema.
 */
function addedLineProblems(a: WorkspaceSettingsRequest): Failure[] {
  const out: Failure[] = [];
  for (const [, line] of settingLines()) {
    const given = givenValue(a, line);
    if (given === undefined || !line.write || !validatedHere(line)) continue;
    const schema = line.write === "read" ? line.read! : line.write;
    const parsed = schema.safeParse(given);
    if (!parsed.success)
      out.push({
        field: { attribute: line.wire! },
        detail: `${line.wire}: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      });
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

export function checkProblems(
  a: WorkspaceSettingsRequest,
  current: Parameters<typeof workspaceSettingsProblems>[1],
): void {
  failIfAny([
    ...workspaceSettingsProblems(a, current).map(attributeFailure),
    ...engineVersionProblems(a),
    ...addedLineProblems(a),
  ]);
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

/** Lines whose stored value the server works out itself, on create and on update, rather than copying the request's. */
const SPECIAL: ReadonlySet<string> = new Set(["vcsRepo", "settingOverwrites"]);

/**
 * The settings of a new workspace: every setting line of the table takes the request's
 * value (under its wire name or its neutral spelling), else its default; then the special
 * cases: the execution mode a workspace inherits, the VCS connection, the overrides.
 */
export function initialSettings(
  a: WorkspaceSettingsRequest,
  inherited: WorkspaceSettings["execution-mode"],
): WorkspaceSettings {
  const out: Record<string, unknown> = {};
  for (const [key, line] of settingLines()) {
    if (SPECIAL.has(key)) continue;
    const given = givenValue(a, line);
    out[storedKey(line)] = given !== undefined ? given : defaultOf(key, line);
  }
  const s = out as WorkspaceSettings;
  const overwrites = a["setting-overwrites"];
  const explicit = a["execution-mode"] ?? (a.operations === undefined ? undefined : a.operations ? "remote" : "local");
  s["execution-mode"] = overwrites?.["execution-mode"] === false || explicit === undefined ? inherited : explicit;
  if (a["assessments-enabled"] === undefined && a["drift-detection"] !== undefined)
    s["assessments-enabled"] = a["drift-detection"];
  s["vcs-repo"] = a["vcs-repo"] ? newVcsRepo(a["vcs-repo"]) : null;
  s["setting-overwrites"] = {
    // An explicitly chosen setting overrides the organization default unless the request says otherwise.
    "execution-mode": overwrites?.["execution-mode"] ?? (has(a, "execution-mode") || has(a, "operations")),
    "agent-pool": overwrites?.["agent-pool"] ?? has(a, "agent-pool-id"),
  };
  return s;
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

/** Applies the settings of a PATCH (spec 4.3) to `s` and the columns of `next` they decide. */
export function applySettingsUpdate(
  ctx: ServerContext,
  next: WorkspaceRecord,
  s: WorkspaceSettings,
  a: WorkspaceSettingsRequest,
): void {
  const poolBefore = next.agent_pool_id;
  const out = s as unknown as Record<string, unknown>;
  // In place, so the stored JSON keeps its key order and an update that changes nothing writes nothing.
  for (const [key, line] of settingLines()) {
    const given = givenValue(a, line);
    if (given !== undefined && !SPECIAL.has(key)) out[storedKey(line)] = given;
  }
  if (a["assessments-enabled"] === undefined && a["drift-detection"] !== undefined)
    s["assessments-enabled"] = a["drift-detection"];
  if (a["execution-mode"] === undefined && a.operations !== undefined)
    s["execution-mode"] = a.operations ? (s["execution-mode"] === "local" ? "remote" : s["execution-mode"]) : "local";
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
    // Only a move onto a pool is checked: one that stops allowing a workspace running on it leaves it there.
    if (next.agent_pool_id !== poolBefore) assertPoolAllows(ctx.db, next.agent_pool_id, next.project_id, next.id);
  } else {
    next.agent_pool_id = null;
  }

  if (a["vcs-repo"] === null) s["vcs-repo"] = null;
  else if (a["vcs-repo"]) s["vcs-repo"] = mergeVcsRepo(s["vcs-repo"], a["vcs-repo"]);
}
