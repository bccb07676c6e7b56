/**
 * The settings the generator writes for a workspace: those that differ from the
 * service's defaults, and for a module-made workspace, which of them its
 * `NoCodeWorkspace` can state.
 */
import { isPackageOrigin } from "../api/origin";
import { workspaceFieldEntries } from "../api/workspace-fields";
import type { Workspace } from "../client";
import { NO_CODE_SETTINGS } from "../resources/no-code-workspace-fields";
import { byCodePoint } from "./names";

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

/** Boolean settings a program gives, with the service's default: the field table's settable lines with a boolean default. */
const FLAGS: readonly (readonly [string, boolean])[] = workspaceFieldEntries
  .filter(([, f]) => f.role !== "computed" && f.write !== undefined && typeof f.absent === "boolean")
  .map(([name, f]) => [name, f.absent as boolean] as const);

/** Settings of spec 4.2 that differ from the service's defaults. */
export function settingsOf(ws: Workspace, defaultEngine: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (ws.description) out.description = ws.description;
  // A mode inherited from the organization's default is left to it (and so is its pool).
  if (ws.settingOverwrites?.executionMode !== false && ws.executionMode && ws.executionMode !== "remote") {
    out.executionMode = ws.executionMode;
    if (ws.executionMode === "agent" && ws.agentPoolId) out.agentPoolId = ws.agentPoolId;
  }
  for (const [input, byDefault] of FLAGS) {
    const value = (ws as unknown as Record<string, unknown>)[input];
    if (typeof value === "boolean" && value !== byDefault) out[input] = value;
  }
  if (ws.autoDestroyAt) out.autoDestroyAt = ws.autoDestroyAt;
  if (ws.autoDestroyActivityDuration) out.autoDestroyActivityDuration = ws.autoDestroyActivityDuration;
  if (ws.engineVersion && ws.engineVersion !== defaultEngine) out.engineVersion = ws.engineVersion;
  if (ws.triggerPatterns.length) out.triggerPatterns = [...ws.triggerPatterns].sort();
  if (ws.triggerPrefixes.length) out.triggerPrefixes = [...ws.triggerPrefixes].sort();
  if (ws.workingDirectory) out.workingDirectory = ws.workingDirectory;
  // An origin this package wrote is left out: copied into the program, it would turn off the recovery of interrupted creates.
  if (!isPackageOrigin(ws.sourceName, ws.sourceUrl)) {
    if (ws.sourceName) out.sourceName = ws.sourceName;
    if (ws.sourceUrl) out.sourceUrl = ws.sourceUrl;
  }
  if (ws.vcsRepo) {
    const r = ws.vcsRepo;
    out.vcsRepo = {
      identifier: r.identifier,
      ...(r.oauthTokenId ? { oauthTokenId: r.oauthTokenId } : {}),
      ...(r.vcsAppInstallationId ? { vcsAppInstallationId: r.vcsAppInstallationId } : {}),
      ...(r.branch ? { branch: r.branch } : {}),
      ...(r.ingressSubmodules ? { ingressSubmodules: true } : {}),
      ...(r.tagsRegex ? { tagsRegex: r.tagsRegex } : {}),
    };
  }
  return out;
}

/**
 * The settings of {@link settingsOf} that `NoCodeWorkspace` takes as inputs (its side of
 * the field table); `executionMode` only as `remote` or `agent`.
 */
const CARRIED_BY_NO_CODE: ReadonlySet<string> = new Set(NO_CODE_SETTINGS);

/**
 * A module-made workspace's settings split into what its `NoCodeWorkspace` declares and
 * what that resource cannot state, by the same rules as a plain workspace (defaults left
 * out, a mode inherited from the organization left to it).
 */
export function noCodeSettingsOf(
  ws: Workspace,
  defaultEngine: string | undefined,
): { carried: Record<string, unknown>; left: [string, unknown][] } {
  const all = { ...settingsOf(ws, defaultEngine), ...(ws.sshKeyId ? { sshKeyId: ws.sshKeyId } : {}) };
  const carried: Record<string, unknown> = {};
  const left: [string, unknown][] = [];
  for (const [k, v] of Object.entries(all)) {
    if (CARRIED_BY_NO_CODE.has(k) && !(k === "executionMode" && v === "local")) carried[k] = v;
    else left.push([k, v]);
  }
  return { carried, left };
}

export function sortedTags(tags: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).sort(([a], [b]) => byCodePoint(a, b)));
}
