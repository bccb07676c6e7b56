/** The client options of a `Workspace`'s create and update requests, from the program's inputs. */
import { workspaceFieldEntries } from "../../api/workspace-fields";
import type { VcsRepoOptions, WorkspaceUpdateOptions } from "../../client";
import type { Props } from "./types";
import { VCS_INPUT_KEYS } from "./workspace-inputs";

/** Inputs that are plain workspace settings (sent as attributes on create and update): the table's settable lines but the name and the VCS connection. */
const SETTING_INPUTS: readonly string[] = workspaceFieldEntries
  .filter(([name, f]) => f.role !== "computed" && f.write !== undefined && name !== "name" && name !== "vcsRepo")
  .map(([name]) => name);

export function tagBindingsOf(tags: unknown): { key: string; value: string }[] {
  return Object.entries((tags ?? {}) as Record<string, unknown>).map(([key, value]) => ({ key, value: String(value) }));
}

function vcsOptions(v: unknown): VcsRepoOptions | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const r = v as Props;
  const out: VcsRepoOptions = {};
  for (const k of VCS_INPUT_KEYS) if (r[k] !== undefined) (out as Props)[k] = r[k];
  return out;
}

/** Client options for the given inputs; `only` limits them to changed fields on update. */
export function requestOptions(inputs: Props, only?: Set<string>): WorkspaceUpdateOptions {
  const take = (k: string) => inputs[k] !== undefined && (!only || only.has(k));
  const out: Props = {};
  for (const k of SETTING_INPUTS) if (take(k)) out[k] = inputs[k];
  if (take("name")) out.name = inputs.name;
  if (take("project")) out.projectId = inputs.project;
  if (take("vcsRepo")) out.vcsRepo = vcsOptions(inputs.vcsRepo);
  if (take("tags")) out.tagBindings = tagBindingsOf(inputs.tags);
  return out;
}

/**
 * The service merges `vcs-repo` keys on update and refuses an OAuth token together
 * with an app installation, so switching from one to the other clears the old one.
 */
export function switchVcsCredential(patch: WorkspaceUpdateOptions, current: unknown): void {
  const repo = patch.vcsRepo;
  const cur = current as Props | null | undefined;
  if (!repo || !cur) return;
  if (cur.oauthTokenId && repo.vcsAppInstallationId && repo.oauthTokenId === undefined) repo.oauthTokenId = null;
  if (cur.vcsAppInstallationId && repo.oauthTokenId && repo.vcsAppInstallationId === undefined)
    repo.vcsAppInstallationId = null;
}
