/** The update of a `Workspace`: the changed settings, tags and SSH key, and what a refused update means. */
import { unavailableFromAnswer, type Workspace as ApiWorkspace, type WorkspacesClient } from "../../client";
import { isNotFound, readWorkspaceWithTags, requireTagBindings } from "./client";
import { camelToKebab } from "./check-failures";
import { diffFields, foldTagName } from "./compare";
import { type MissingRecord, confirmGone } from "./gone";
import { ProviderError } from "./user-errors";
import type { Props } from "./types";
import { WORKSPACE_FIELDS } from "./workspace-diff-rules";
import { requestOptions, switchVcsCredential } from "./workspace-request";
import { workspaceOutputs } from "./workspace-outputs";
import type { WorkspaceInputValues, WorkspaceStoredOutputs } from "../workspace-fields";

export async function updateWorkspace(
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
