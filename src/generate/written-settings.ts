/**
 * The settings the generator writes for a workspace: those that differ from the
 * service's defaults, and for a module-made workspace, which of them its
 * `NoCodeWorkspace` can state.
 */
import {
  clientName,
  workspaceFieldEntries,
  type FieldDef,
  type VcsRepoValue,
  type WorkspaceFieldName,
} from "../api/workspace-fields";
import { fieldRules } from "../resources/providers/workspace-diff-rules";
import type { Workspace } from "../client";
import { NO_CODE_SETTINGS } from "../resources/no-code-workspace-fields";
import { WORKSPACE_SETTINGS_FIELDS } from "../resources/workspace-settings";
import { byCodePoint } from "./names";
import { isPackageOrigin } from "../api/origin";

function semver(v: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * The service sets a new workspace's engine version to the latest release; the newest
 * exact version in the organization stands for that default, and only other versions
 * (older pins, constraints) are written.
 */
export function newestEngineVersion(workspaces: Workspace[]): string | undefined {
  let best: { v: string; n: number[] } | undefined;
  for (const ws of workspaces) {
    const n = ws.engineVersion ? semver(ws.engineVersion) : undefined;
    if (n && (!best || (n[0] - best.n[0] || n[1] - best.n[1] || n[2] - best.n[2]) > 0))
      best = { v: ws.engineVersion!, n };
  }
  return best?.v;
}

/**
 * Lines of the field table the generator does not derive from the workspace's value,
 * and why: each is written by the program's other statements, or left out on purpose.
 */
const NOT_DERIVED: { readonly [K in WorkspaceFieldName]?: string } = {
  name: "the resource's `name`, written by renderProgram",
  organization: "the program's `organization` config",
  project: "written by renderProgram beside the name",
  tags: "written by renderProgram (a WorkspaceTags for a module-made workspace)",
  tagNames: "written by renderProgram (a WorkspaceTags for a module-made workspace)",
  sshKeyId: "written by renderProgram; NoCodeWorkspace cannot state it",
  executionMode: "a special case of settingsOf (an inherited mode is left to the organization)",
  agentPoolId: "written with its own agent mode (settingsOf)",
  operations: "mirrors the execution mode, and is never given together with it",
  settingOverwrites: "the execution mode's special case reads it; adopting states the mode alone",
  engineVersion: "a special case of settingsOf (the newest exact version stands for the default)",
  forceDelete: "not a setting of the service",
};

/** How the resource compares each input line (its diff rule): a value `same` as the line's absent value is a default. */
const RULES = new Map(fieldRules(workspaceFieldEntries.map(([name]) => name)).map((r) => [r.name, r.same]));

/** A line's value as a program states it: lists in a stable order, a VCS connection with the arguments `VcsRepoArgs` takes. */
function programValue(line: FieldDef, value: unknown): unknown {
  if (line.diff === "stringSet") return [...(value as string[])].sort();
  if (line.shape === "vcsRepo") {
    const r = value as VcsRepoValue;
    return {
      identifier: r.identifier,
      ...(r.oauthTokenId ? { oauthTokenId: r.oauthTokenId } : {}),
      ...(r.vcsAppInstallationId ? { vcsAppInstallationId: r.vcsAppInstallationId } : {}),
      ...(r.branch ? { branch: r.branch } : {}),
      ...(r.ingressSubmodules ? { ingressSubmodules: true } : {}),
      ...(r.tagsRegex ? { tagsRegex: r.tagsRegex } : {}),
    };
  }
  return value;
}

/**
 * An origin (`sourceName` / `sourceUrl`) this package writes on create names the stack
 * that created the workspace, not a choice of its owner: copied into a generated program,
 * it would turn off the recovery of interrupted creates (docs/interrupted-updates.md).
 */
const ORIGIN_LINES: ReadonlySet<string> = new Set(["sourceName", "sourceUrl"]);

/**
 * Settings that differ from the service's defaults: every settable line of the field
 * table whose value differs (by the resource's diff rule) from the line's absent value,
 * whatever its type, but the lines of {@link NOT_DERIVED}.
 */
export function settingsOf(ws: Workspace, defaultEngine: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const given = ws as unknown as Record<string, unknown>;
  for (const [name, line] of workspaceFieldEntries) {
    if (line.role === "computed" || name in NOT_DERIVED) continue;
    if (ORIGIN_LINES.has(name) && isPackageOrigin(ws.sourceName, ws.sourceUrl)) continue;
    const value = given[clientName(name)];
    const same = RULES.get(name) ?? Object.is;
    if (value === undefined || value === null || same(value, line.absent ?? null, {})) continue;
    out[name] = programValue(line, value);
  }
  // Special cases. A mode inherited from the organization's default is left to it (and so is its pool).
  if (ws.settingOverwrites?.executionMode !== false && ws.executionMode && ws.executionMode !== "remote") {
    out.executionMode = ws.executionMode;
    if (ws.executionMode === "agent" && ws.agentPoolId) out.agentPoolId = ws.agentPoolId;
  }
  // The service gives a new workspace the latest engine release: that default is not written.
  if (ws.engineVersion && ws.engineVersion !== defaultEngine) out.engineVersion = ws.engineVersion;
  return out;
}

/**
 * The settings of {@link settingsOf} that `NoCodeWorkspace` takes as inputs (its side of
 * the field table); `executionMode` only as `remote` or `agent`.
 */
const CARRIED_BY_NO_CODE: ReadonlySet<string> = new Set(NO_CODE_SETTINGS);

/** The settings a `WorkspaceSettings` declares for a workspace owned elsewhere. */
const SETTABLE_ELSEWHERE: ReadonlySet<string> = new Set(WORKSPACE_SETTINGS_FIELDS);

/**
 * A module-made workspace's settings split into what its `NoCodeWorkspace` declares, what a
 * `WorkspaceSettings` beside it declares (a setting that resource has no input for, such as
 * a `local` mode or health assessments) and what neither can state, by the same rules as a
 * plain workspace (defaults left out, a mode inherited from the organization left to it).
 */
export function noCodeSettingsOf(
  ws: Workspace,
  defaultEngine: string | undefined,
): { carried: Record<string, unknown>; settings: Record<string, unknown>; left: [string, unknown][] } {
  const all = { ...settingsOf(ws, defaultEngine), ...(ws.sshKeyId ? { sshKeyId: ws.sshKeyId } : {}) };
  const carried: Record<string, unknown> = {};
  const settings: Record<string, unknown> = {};
  const left: [string, unknown][] = [];
  for (const [k, v] of Object.entries(all)) {
    if (CARRIED_BY_NO_CODE.has(k) && !(k === "executionMode" && v === "local")) carried[k] = v;
    else if (SETTABLE_ELSEWHERE.has(k)) settings[k] = v;
    else left.push([k, v]);
  }
  return { carried, settings, left };
}

export function sortedTags(tags: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).sort(([a], [b]) => byCodePoint(a, b)));
}
