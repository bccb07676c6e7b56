/** Provider of `Workspace` (spec 4.2 to 4.6, 4.8, 4.10). */
import { isId, type Problem } from "../../api/common";
import { tagsRelationshipRequestSchema } from "../../api/tags";
import {
  workspaceCreateRequestSchema,
  workspaceSettingsProblems,
  type WorkspaceResource,
  type WorkspaceSettingsRequest,
} from "../../api/workspaces";
import {
  UnreadableCreateError,
  toWorkspace,
  unavailableFromAnswer,
  workspaceRequestBody,
  type Workspace as ApiWorkspace,
  type WorkspaceCreateOptions,
  type WorkspaceUpdateOptions,
  type VcsRepoOptions,
  type WorkspacesClient,
} from "../../client";
import { defaultOrganization } from "../settings";
import { getClient, isNotFound, namesTagBindings, readWorkspaceWithTags, requireTagBindings } from "./client";
import { dedupeFailures, failuresFromIssues, inputPathOf, camelToKebab } from "./check-failures";
import {
  diffFields,
  foldTagName,
  sameGivenKeys,
  sameInstant,
  sameOptionalString,
  sameStringMap,
  sameStringSet,
  sameTagNames,
  type FieldRule,
} from "./compare";
import { isUnknown, withoutUnknowns } from "./unknowns";
import { type MissingRecord, confirmGone, unlessGone, workspaceLabel } from "./gone";
import { ProviderError, withWayOut } from "./errors";
import { organizationInput } from "./inputs";
import { recoverLostCreate } from "./lost-create";
import { deleteWorkspace } from "./deletion";
import type { CheckFailure, CheckResult, DiffResult, ProviderImpl, Props } from "./types";
import { clientName, workspaceFieldEntries, type DiffRule, type WorkspaceFieldName } from "../../api/workspace-fields";
import {
  WORKSPACE_TOP_OUTPUTS,
  currentShape,
  groupedOutputs,
  type WorkspaceInputValues,
  type WorkspaceOutputValues,
  type WorkspaceStoredOutputs,
} from "../workspace-fields";

/** Wire names that do not convert mechanically to the program's (the vendor spellings the client sends). */
const RENAMES = {
  "relationships.tag-bindings": "tags",
  "relationships.project": "project",
  "terraform-version": "engineVersion",
  "github-app-installation-id": "vcsAppInstallationId",
};

const sameBool = (a: unknown, b: unknown) => Boolean(a) === Boolean(b);
const vcsCompare = {
  branch: sameOptionalString,
  tagsRegex: sameOptionalString,
  oauthTokenId: sameOptionalString,
  vcsAppInstallationId: sameOptionalString,
  ingressSubmodules: sameBool,
};

/** The diff rules the field table names (src/api/workspace-fields.ts), as functions. */
const DIFF_RULES: Record<DiffRule, Omit<FieldRule, "name">> = {
  exact: {},
  replace: { replaces: true },
  bool: { same: sameBool },
  optionalString: { same: sameOptionalString },
  instant: { same: sameInstant },
  stringSet: { same: (a, b) => sameStringSet(a, b) },
  stringMap: { same: sameStringMap },
  tagNames: { same: sameTagNames },
  vcsRepo: { same: (a, b) => sameGivenKeys(a, b, vcsCompare) },
  settingOverwrites: { same: (a, b) => sameGivenKeys(a, b, { executionMode: sameBool, agentPool: sameBool }) },
};

/** How each input compares with what the service last reported: one rule per input line of the field table. */
export const WORKSPACE_FIELDS: FieldRule[] = workspaceFieldEntries
  .filter(([, f]) => f.role !== "computed")
  .map(([name, f]) => ({ name, ...DIFF_RULES[f.diff ?? "exact"] }));

/** Inputs that are plain workspace settings (sent as attributes on create and update): the table's settable lines but the name and the VCS connection. */
const SETTING_INPUTS: readonly string[] = workspaceFieldEntries
  .filter(([name, f]) => f.role !== "computed" && f.write !== undefined && name !== "name" && name !== "vcsRepo")
  .map(([name]) => name);

/** Inputs a program may set to `null` to clear them on the service (the table's `nullable` lines). */
const NULLABLE_INPUTS: readonly string[] = workspaceFieldEntries
  .filter(([, f]) => f.role !== "computed" && f.nullable)
  .map(([name]) => name);

/** Inputs that refuse `null`: every other input line but `organization` (whose `null` means the default). */
const NOT_NULLABLE_INPUTS: readonly string[] = workspaceFieldEntries
  .filter(([name, f]) => f.role !== "computed" && !f.nullable && name !== "organization")
  .map(([name]) => name);

/** Inputs whose cross-field rules are checked together (execution mode and agent pool). */
const MODE_GROUP = ["executionMode", "operations", "agentPoolId", "settingOverwrites"];

function tagBindingsOf(tags: unknown): { key: string; value: string }[] {
  return Object.entries((tags ?? {}) as Record<string, unknown>).map(([key, value]) => ({ key, value: String(value) }));
}

function vcsOptions(v: unknown): VcsRepoOptions | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const r = v as Props;
  const out: VcsRepoOptions = {};
  for (const k of [
    "identifier",
    "oauthTokenId",
    "vcsAppInstallationId",
    "branch",
    "ingressSubmodules",
    "tagsRegex",
  ] as const) {
    if (r[k] !== undefined) (out as Props)[k] = r[k];
  }
  return out;
}

/** Client options for the given inputs; `only` limits them to changed fields on update. */
function requestOptions(inputs: Props, only?: Set<string>): WorkspaceUpdateOptions {
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
function switchVcsCredential(patch: WorkspaceUpdateOptions, current: unknown): void {
  const repo = patch.vcsRepo;
  const cur = current as Props | null | undefined;
  if (!repo || !cur) return;
  if (cur.oauthTokenId && repo.vcsAppInstallationId && repo.oauthTokenId === undefined) repo.oauthTokenId = null;
  if (cur.vcsAppInstallationId && repo.oauthTokenId && repo.vcsAppInstallationId === undefined)
    repo.vcsAppInstallationId = null;
}

// ---------------------------------------------------------------------------
// check

function problemInput(p: Problem): string {
  return inputPathOf(p.pointer, RENAMES);
}

/** The service's problem details speak the wire (`agent-pool-id`); messages speak the program's names (`agentPoolId`). */
const WIRE_NAMES: Array<[RegExp, string]> = [
  ...SETTING_INPUTS,
  "name",
  "project",
  "vcsRepo",
  "oauthTokenId",
  "vcsAppInstallationId",
  "tagsRegex",
  "agentPool",
]
  .map((k) => [new RegExp(`(?<![\\w-])${camelToKebab(k)}(?![\\w-])`, "g"), k] as [RegExp, string])
  .filter(([re]) => re.source.includes("-"));

for (const [wire, name] of Object.entries(RENAMES))
  if (!wire.includes(".")) WIRE_NAMES.push([new RegExp(`(?<![\\w-])${wire}(?![\\w-])`, "g"), name]);

function programNames(text: string): string {
  return WIRE_NAMES.reduce((t, [re, k]) => t.replace(re, k), text);
}

/**
 * `olds` are the inputs of the last deployment: an organization the program does not
 * give is taken from there before the ambient default (see organizationInput).
 */
function checkWorkspace(news: Props, olds: Props = {}): CheckResult {
  const inputs: Props = { ...news };
  const failures: CheckFailure[] = [];
  if (inputs.organization === undefined || inputs.organization === null || inputs.organization === "") {
    const org = organizationInput(olds, news, defaultOrganization);
    if (org) inputs.organization = org;
    else {
      failures.push({
        property: "organization",
        reason:
          "organization is required: set it on the resource, or set the stack config workspaces:organization (or WORKSPACES_ORGANIZATION)",
      });
    }
  }
  const known = withoutUnknowns(inputs);
  if (
    known.organization !== undefined &&
    (typeof known.organization !== "string" || known.organization.trim() === "")
  ) {
    failures.push({ property: "organization", reason: "organization must be a non-empty organization name" });
  }
  if (news.name === undefined) failures.push({ property: "name", reason: "name is required" });
  // `null` clears a setting the service can clear; any other input refuses it by name rather than on the wire schema.
  const nulled = new Set(NOT_NULLABLE_INPUTS.filter((k) => known[k] === null));
  const nullFailures: CheckFailure[] = [...nulled].map((k) => ({
    property: k,
    reason: `${k} cannot be cleared with null (only ${NULLABLE_INPUTS.join(", ")} can); omit ${k} to leave the service's value alone`,
  }));

  // The schema judges the name as given, whatever its type.
  const body = workspaceRequestBody({
    ...(requestOptions(known) as WorkspaceCreateOptions),
    name: known.name as string,
  });
  const parsed = workspaceCreateRequestSchema.safeParse(body);
  if (!parsed.success) {
    failures.push(
      ...failuresFromIssues(parsed.error.issues, RENAMES).filter(
        (f) => !(f.property === "name" && news.name === undefined),
      ),
    );
  }
  const attrs = ((body.data as Props).attributes ?? {}) as WorkspaceSettingsRequest;
  const modeUnknown = MODE_GROUP.some((k) => isUnknown(inputs[k]));
  for (const p of workspaceSettingsProblems(attrs)) {
    const property = problemInput(p);
    const top = property.split(/[.[]/)[0];
    if (modeUnknown && MODE_GROUP.includes(top)) continue;
    if (isUnknown(inputs[top])) continue;
    failures.push({ property, reason: `${property}: ${programNames(p.detail)}` });
  }

  if (known.project !== undefined && !isId("project", known.project)) {
    failures.push({ property: "project", reason: "project must be a project id (prj-...)" });
  }
  if (
    known.sshKeyId !== undefined &&
    known.sshKeyId !== "" &&
    known.sshKeyId !== null &&
    !isId("sshKey", known.sshKeyId)
  ) {
    failures.push({
      property: "sshKeyId",
      reason: "sshKeyId must be an SSH key id (sshkey-...), or empty to unassign",
    });
  }
  if (known.tagNames !== undefined) {
    if (!Array.isArray(known.tagNames))
      failures.push({ property: "tagNames", reason: "tagNames must be a list of strings" });
    else {
      const tagBody = tagsRelationshipRequestSchema.safeParse({
        data: known.tagNames.map((name: unknown) => ({ type: "tags", attributes: { name } })),
      });
      if (!tagBody.success) {
        for (const issue of tagBody.error.issues) {
          const i = issue.path[1];
          failures.push({ property: `tagNames[${String(i)}]`, reason: `tagNames[${String(i)}]: ${issue.message}` });
        }
      }
    }
  }
  if (
    known.tags !== undefined &&
    (known.tags === null || typeof known.tags !== "object" || Array.isArray(known.tags))
  ) {
    failures.push({ property: "tags", reason: "tags must be a map of key to value" });
  }
  if (known.forceDelete !== undefined && typeof known.forceDelete !== "boolean") {
    failures.push({ property: "forceDelete", reason: "forceDelete must be true or false" });
  }
  // A value unknown until apply cannot be judged now; check runs again with it known.
  const judged = [
    ...nullFailures,
    ...failures.filter(
      (f) => !isUnknown(inputs[f.property.split(/[.[]/)[0]]) && !nulled.has(f.property.split(/[.[]/)[0]),
    ),
  ];
  return { inputs, failures: dedupeFailures(judged) };
}

// ---------------------------------------------------------------------------
// outputs

/** What the outputs hold beside the client's view of the workspace. */
interface OutputExtras {
  tags: Record<string, string>;
  effectiveTags: Record<string, string>;
  forceDelete: boolean;
  organization?: string;
}

/** Output values the provider computes instead of copying the client's property of the same line. */
const COMPUTED_OUTPUTS: Partial<Record<WorkspaceFieldName, (ws: ApiWorkspace, extra: OutputExtras) => unknown>> = {
  organization: (ws, extra) => ws.organization ?? extra.organization ?? null,
  operations: (ws) => ws.operations ?? ws.executionMode !== "local",
  tags: (_ws, extra) => extra.tags,
  tagNames: (ws) => [...ws.tagNames].sort(),
  forceDelete: (_ws, extra) => extra.forceDelete,
  effectiveTags: (_ws, extra) => extra.effectiveTags,
  selfLink: (ws) => ws.links.self ?? null,
  htmlLink: (ws) => ws.links.selfHtml ?? null,
  vcsRepoIdentifier: (ws) => ws.vcsRepoIdentifier ?? ws.vcsRepo?.identifier ?? null,
};

/** The resource's outputs for a workspace: the field table's top-level lines, then `metrics`, `status` and `permissions`. */
export function workspaceOutputs(ws: ApiWorkspace, extra: OutputExtras): WorkspaceOutputValues {
  const value = (name: WorkspaceFieldName): unknown => {
    const computed = COMPUTED_OUTPUTS[name];
    return computed ? computed(ws, extra) : (ws as unknown as Record<string, unknown>)[clientName(name)];
  };
  const out: Record<string, unknown> = {};
  for (const name of WORKSPACE_TOP_OUTPUTS) out[name] = value(name);
  Object.assign(out, groupedOutputs(value));
  out.permissions = ws.permissions;
  return out as WorkspaceOutputValues;
}

/** Thrown after the workspace exists, so that the engine records it instead of orphaning it. */
class PartialCreateError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
  ) {
    super(message);
    this.name = "PartialCreateError";
  }
  get reasons(): string[] {
    return [this.message];
  }
}

/**
 * A create the service acknowledged (2xx) although neither its answer nor a read of the
 * workspace could be understood: the workspace exists, and is never left out of the
 * stack when its id is known. It is recorded with the outputs of a workspace that has
 * the service's defaults, so the next `pulumi up` sends what differs and a refresh reads
 * the rest. Without an id the error says how to take it over.
 */
function unreadableCreate(err: unknown, organization: string, inputs: Props): never {
  if (!(err instanceof UnreadableCreateError)) throw err;
  const name = String(inputs.name);
  if (err.createdId) {
    const resource = {
      id: err.createdId,
      type: "workspaces",
      attributes: { name },
      relationships: { organization: { data: { id: organization, type: "organizations" } } },
    };
    const outs = workspaceOutputs(toWorkspace(resource as WorkspaceResource), {
      tags: {},
      effectiveTags: {},
      forceDelete: Boolean(inputs.forceDelete),
      organization,
    });
    throw new PartialCreateError(
      `workspace "${name}" (${err.createdId}) was created, but neither the service's answer nor a read of it could be understood (${err.message}). ` +
        `It is recorded in the stack with the service's defaults; the next \`pulumi up\` sends the declared settings again.`,
      err.createdId,
      outs,
    );
  }
  throw new ProviderError(
    `workspace "${name}" in organization "${organization}" was created, but neither the service's answer nor a read of it by name could be understood (${err.message}). ` +
      `Set adopt: true on the resource and run \`pulumi up\` to take it over.`,
  );
}

// ---------------------------------------------------------------------------
// provider

export const workspaceProvider: ProviderImpl<WorkspaceInputValues & Props, WorkspaceStoredOutputs> = {
  async check(olds, news) {
    return checkWorkspace(news, olds);
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    const { changed, replaces } = diffFields(olds, news, WORKSPACE_FIELDS);
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const tagNames: string[] = Array.isArray(inputs.tagNames) ? inputs.tagNames.map(String) : [];
    // check refuses inputs without a name, so create always has one.
    const options = { ...(requestOptions(inputs) as WorkspaceCreateOptions), name: String(inputs.name), tagNames };
    // A cleared setting is one the new workspace does not have: nothing to send.
    for (const [k, v] of Object.entries(options)) if (v === null) delete (options as Props)[k];
    const started = Date.now();
    let ws = await client.workspaces
      .create(organization, options)
      .catch((err) =>
        recoverLostCreate(err, () => client.workspaces.readByName(organization, String(inputs.name)), started),
      )
      .catch((err) => unreadableCreate(err, organization, inputs));
    let tags = Object.fromEntries(tagBindingsOf(inputs.tags).map((b) => [b.key, b.value]));
    let effectiveTags = { ...tags };
    const offersTagBindings = namesTagBindings(ws);
    try {
      if (inputs.project !== undefined && !("project" in ws.relationships)) {
        const path = `/organizations/${encodeURIComponent(organization)}/workspaces`;
        throw unavailableFromAnswer(
          client.baseUrl,
          "projects",
          { method: "POST", path, status: 201 },
          "answered without a project relationship",
        );
      }
      await requireTagBindings(client, ws.id, offersTagBindings, tags);
      // Flat tags travel with the create; a service that ignored them gets the rest now.
      // Some servers (OTF) keep a tag in the case given, so what they hold is folded too.
      const held = new Set(ws.tagNames.map(foldTagName));
      const missing = tagNames.filter((t) => !held.has(foldTagName(t)));
      if (missing.length > 0) {
        await client.tags.add(ws.id, missing);
        ws = { ...ws, tagNames: Array.from(new Set([...ws.tagNames, ...missing.map(foldTagName)])) };
      } else if (tagNames.length === 0 && offersTagBindings) {
        // The second request is free to read what the project passes down.
        const effective = await client.tagBindings.listEffective(ws.id);
        effectiveTags = Object.fromEntries(effective.map((b) => [b.key, b.value]));
      }
      if (typeof inputs.sshKeyId === "string" && inputs.sshKeyId !== "") {
        ws = await client.workspaces.assignSSHKey(ws.id, inputs.sshKeyId);
      }
    } catch (err) {
      // The outputs say what the workspace has, so that the next `pulumi up` tries the rest again.
      if (!offersTagBindings) tags = effectiveTags = {};
      const outs = workspaceOutputs(ws, {
        tags,
        effectiveTags,
        forceDelete: Boolean(inputs.forceDelete),
        organization,
      });
      const cause = withWayOut(err) as Error;
      throw new PartialCreateError(
        `workspace "${ws.name}" (${ws.id}) was created but setting it up failed: ${cause.message}`,
        ws.id,
        outs,
      );
    }
    return {
      id: ws.id,
      outs: workspaceOutputs(ws, { tags, effectiveTags, forceDelete: Boolean(inputs.forceDelete), organization }),
    };
  },

  async read(id, props) {
    const client = getClient();
    return unlessGone(
      client,
      { label: workspaceLabel(id, props.name), organization: props.organization, kind: "workspace" },
      "refresh",
      async () => {
        const { workspace, tags, effectiveTags } = await readWorkspaceWithTags(client, id, props.organization);
        return {
          id: workspace.id,
          props: workspaceOutputs(workspace, {
            tags,
            effectiveTags,
            forceDelete: Boolean(props.forceDelete),
            organization: props.organization ?? undefined,
          }),
        };
      },
      () => ({}),
    );
  },

  async update(id, stored, news) {
    const client = getClient();
    const olds = currentShape(stored);
    try {
      return await updateWorkspace(client, id, olds, news);
    } catch (err) {
      const label = workspaceLabel(id, olds.name);
      throw withWayOut(
        await refusedUpdate(client, { label, organization: olds.organization, kind: "workspace" }, id, err),
        `update ${label}`,
      );
    }
  },

  async delete(id, props) {
    await deleteWorkspace(getClient(), id, {
      force: Boolean(props.forceDelete),
      name: props.name,
      organization: props.organization,
    });
  },

  inputShape(name, value) {
    // The service adds read-only keys to vcs-repo; the input is the part a program gives.
    if (name !== "vcsRepo" || !value || typeof value !== "object") return value;
    const out: Props = {};
    for (const k of [
      "identifier",
      "oauthTokenId",
      "vcsAppInstallationId",
      "branch",
      "ingressSubmodules",
      "tagsRegex",
    ]) {
      const v = (value as Props)[k];
      if (v !== undefined && v !== null) out[k] = v;
    }
    return out;
  },
};

async function updateWorkspace(
  client: WorkspacesClient,
  id: string,
  olds: WorkspaceStoredOutputs,
  news: WorkspaceInputValues & Props,
): Promise<{ outs: WorkspaceStoredOutputs }> {
  const { changed } = diffFields(olds, news, WORKSPACE_FIELDS);
  const set = new Set(changed);
  const patch = requestOptions(news, set);
  switchVcsCredential(patch, olds.vcsRepo);
  let ws: ApiWorkspace | undefined;
  if (Object.keys(patch).length > 0) ws = await client.workspaces.update(id, patch);

  if (set.has("tagNames")) {
    const desired = new Set((news.tagNames as unknown[]).map((n) => foldTagName(String(n))));
    // Removed under the names the server reported: a server that keeps case (OTF) matches them exactly.
    const reported: string[] = ws?.tagNames ?? olds.tagNames ?? [];
    const actual = new Set(reported.map(foldTagName));
    const add = [...desired].filter((n) => !actual.has(n));
    const remove = reported.filter((n) => !desired.has(foldTagName(n)));
    await client.tags.add(id, add);
    await client.tags.remove(id, remove);
  }
  if (set.has("sshKeyId")) {
    ws = news.sshKeyId
      ? await client.workspaces.assignSSHKey(id, news.sshKeyId)
      : await client.workspaces.unassignSSHKey(id);
  }

  const forceDelete = news.forceDelete !== undefined ? Boolean(news.forceDelete) : Boolean(olds.forceDelete);
  if (set.has("tags") || set.has("tagNames") || set.has("project")) {
    // Effective tags depend on the new bindings and on the (maybe new) project.
    const fresh = await readWorkspaceWithTags(client, id);
    if (set.has("tags")) await requireTagBindings(client, id, fresh.offersTagBindings, news.tags);
    if (set.has("project") && news.project && !("project" in fresh.workspace.relationships)) {
      throw unavailableFromAnswer(
        client.baseUrl,
        "projects",
        { method: "GET", path: `/workspaces/${encodeURIComponent(id)}`, status: 200 },
        "answered without a project relationship",
      );
    }
    return {
      outs: workspaceOutputs(fresh.workspace, { tags: fresh.tags, effectiveTags: fresh.effectiveTags, forceDelete }),
    };
  }
  if (!ws) return { outs: { ...olds, forceDelete } };
  return {
    outs: workspaceOutputs(ws, {
      tags: olds.tags ?? {},
      effectiveTags: olds.effectiveTags ?? {},
      forceDelete,
      organization: olds.organization ?? undefined,
    }),
  };
}

/**
 * What a refused update means for the user. A 404 for a workspace the same token can
 * read is a missing right, not a missing workspace (the service hides refusals behind
 * 404); a 404 for one it cannot read follows the 404 rule (confirmGone).
 */
export async function refusedUpdate(
  client: WorkspacesClient,
  record: MissingRecord,
  id: string,
  err: unknown,
): Promise<unknown> {
  if (!isNotFound(err)) return err;
  let readable: ApiWorkspace | undefined;
  try {
    readable = await client.workspaces.read(id);
  } catch (readErr) {
    if (!isNotFound(readErr)) return err;
  }
  if (readable) {
    const perms = readable.permissions as Record<string, unknown> | undefined;
    const missing = perms ? ["canUpdate", "canManageTags"].filter((p) => perms[p] === false).map(camelToKebab) : [];
    return new ProviderError(
      `cannot update ${record.label}: the service answered 404 to the change although this token can read the workspace, ` +
        `so the token may lack write permission on it${missing.length ? ` (its permissions show ${missing.map((p) => `${p}: false`).join(", ")})` : ""}. ` +
        `Changing settings needs admin access to the workspace; run \`pulumi up\` with a token that has it.`,
    );
  }
  await confirmGone(client, record, "update");
  return new ProviderError(
    `cannot update ${record.label}: it no longer exists. Run \`pulumi refresh\` to drop it from the stack; the next \`pulumi up\` creates it again.`,
  );
}
