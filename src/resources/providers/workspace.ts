/** Provider of `Workspace` (spec 4.2 to 4.6, 4.8, 4.10). */
import { unavailableFromAnswer, type WorkspaceCreateOptions } from "../../client";
import { getClient, namesTagBindings, readWorkspaceWithTags, requireTagBindings } from "./client";
import { diffFields, foldTagName } from "./compare";
import { unlessGone, workspaceLabel } from "./gone";
import { withWayOut } from "./user-errors";
import { PartialCreateError, keepUnreadableCreate, recoverLostCreate } from "./lost-create";
import { deleteWorkspace } from "./deletion";
import type { DiffResult, ProviderImpl, Props } from "./types";
import { currentShape, type WorkspaceInputValues, type WorkspaceStoredOutputs } from "../workspace-fields";
import { checkWorkspace } from "./workspace-check";
import { WORKSPACE_FIELDS } from "./workspace-diff-rules";
import { workspaceOutputs } from "./workspace-outputs";
import { VCS_INPUT_KEYS } from "./workspace-inputs";
import { requestOptions, tagBindingsOf } from "./workspace-request";
import { refusedUpdate, updateWorkspace } from "./workspace-update";
import { isPoolRefusal, workspacePoolRefusal } from "./workspace-settings-rules";

export { WORKSPACE_FIELDS } from "./workspace-diff-rules";
export { workspaceOutputs, workspaceReport } from "./workspace-outputs";
export { refusedUpdate } from "./workspace-update";

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
    const forceDelete = Boolean(inputs.forceDelete);
    let ws = await client.workspaces
      .create(organization, options)
      .catch((err) => {
        throw isPoolRefusal(err) ? workspacePoolRefusal(`workspace "${options.name}"`, options.agentPoolId) : err;
      })
      .catch((err) => recoverLostCreate(err, () => client.workspaces.readByName(organization, options.name), started))
      .catch((err) =>
        keepUnreadableCreate(err, { name: options.name, organization }, (made) =>
          workspaceOutputs(made, { tags: {}, effectiveTags: {}, forceDelete, organization }),
        ),
      );
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
        forceDelete,
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
      outs: workspaceOutputs(ws, { tags, effectiveTags, forceDelete, organization }),
    };
  },

  async read(id, props) {
    const client = getClient();
    return unlessGone(
      client,
      { label: workspaceLabel(id, props.name), organization: props.organization, kind: "workspace" },
      "refresh",
      async () => {
        const { workspace, tags, effectiveTags } = await readWorkspaceWithTags(
          client,
          id,
          props.organization,
          props.project,
        );
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
      if (isPoolRefusal(err)) throw workspacePoolRefusal(label, news.agentPoolId);
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
    for (const k of VCS_INPUT_KEYS) {
      const v = (value as Props)[k];
      if (v !== undefined && v !== null) out[k] = v;
    }
    return out;
  },
};
