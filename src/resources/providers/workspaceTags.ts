/** Provider of `WorkspaceTags` (spec 2.6, 4.10). */
import { isId } from "../../api/common";
import { tagsRelationshipRequestSchema } from "../../api/tags";
import { getClient, isNotFound, readWorkspaceWithTags, type WorkspaceWithTags } from "./client";
import { diffFields, foldTagName, isUnknown, sameStringMap, sameTagNames, withoutUnknowns, type FieldRule } from "./common";
import type { CheckFailure, ProviderImpl, Props } from "./types";

const MODES = ["authoritative", "additive"];

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  { name: "mode", same: (a, b) => (a ?? "authoritative") === (b ?? "authoritative") },
  { name: "tagNames", same: sameTagNames },
  { name: "tags", same: sameStringMap },
];

/** `ws-...`, `ws-.../tags` -> `ws-...`. */
export function workspaceIdOf(id: string): string {
  const slash = id.indexOf("/");
  return slash > 0 ? id.slice(0, slash) : id;
}

function modeOf(p: Props): "authoritative" | "additive" {
  return p.mode === "additive" ? "additive" : "authoritative";
}

function names(v: unknown): string[] {
  return Array.isArray(v) ? Array.from(new Set(v.map((n) => foldTagName(String(n))))) : [];
}

function mapOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries((v ?? {}) as Record<string, unknown>)) out[k] = String(val);
  return out;
}

export function checkWorkspaceTags(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const known = withoutUnknowns(news);
  if (news.workspaceId === undefined) failures.push({ property: "workspaceId", reason: "workspaceId is required" });
  else if (!isUnknown(news.workspaceId) && !isId("workspace", news.workspaceId)) {
    failures.push({ property: "workspaceId", reason: "workspaceId must be a workspace id (ws-...)" });
  }
  if (known.mode !== undefined && !MODES.includes(known.mode)) {
    failures.push({ property: "mode", reason: `mode must be "authoritative" or "additive", not ${JSON.stringify(known.mode)}` });
  }
  if (news.tagNames === undefined && news.tags === undefined) {
    failures.push({ property: "tagNames", reason: "give tagNames, tags or both: otherwise there is nothing to manage" });
  }
  if (known.tagNames !== undefined) {
    if (!Array.isArray(known.tagNames)) failures.push({ property: "tagNames", reason: "tagNames must be a list of strings" });
    else {
      const parsed = tagsRelationshipRequestSchema.safeParse({ data: known.tagNames.map((name: unknown) => ({ type: "tags", attributes: { name } })) });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const i = String(issue.path[1]);
          failures.push({ property: `tagNames[${i}]`, reason: `tagNames[${i}]: ${issue.message}` });
        }
      }
    }
  }
  if (known.tags !== undefined) {
    if (known.tags === null || typeof known.tags !== "object" || Array.isArray(known.tags)) {
      failures.push({ property: "tags", reason: "tags must be a map of key to value" });
    } else {
      for (const [k, v] of Object.entries(known.tags)) {
        if (k.trim() === "") failures.push({ property: "tags", reason: "tag keys must not be empty" });
        if (typeof v !== "string") failures.push({ property: `tags.${k}`, reason: `tags.${k}: value must be a string` });
      }
    }
  }
  return failures;
}

/** Outputs as seen on the service; `managed` says which names/keys this resource owns in additive mode. */
function outputsOf(current: WorkspaceWithTags, inputs: Props, added: { tagNames: string[]; tags: Record<string, string> }): Props {
  const mode = modeOf(inputs);
  const all = current.workspace.tagNames.map(foldTagName).sort();
  let tagNames: string[] | undefined;
  let tags: Record<string, string> | undefined;
  if (inputs.tagNames !== undefined) {
    tagNames = mode === "authoritative" ? all : names(inputs.tagNames).filter((n) => all.includes(n)).sort();
  }
  if (inputs.tags !== undefined) {
    if (mode === "authoritative") tags = current.tags;
    else {
      tags = {};
      for (const k of Object.keys(mapOf(inputs.tags))) if (k in current.tags) tags[k] = current.tags[k];
    }
  }
  return {
    workspaceId: current.workspace.id,
    mode,
    tagNames: tagNames ?? null,
    tags: tags ?? null,
    effectiveTags: current.effectiveTags,
    allTagNames: all,
    addedTagNames: mode === "additive" ? added.tagNames : [],
    addedTags: mode === "additive" ? added.tags : {},
  };
}

/** Brings the workspace to the desired tags; returns what was added that was not there before. */
async function apply(workspaceId: string, inputs: Props, previous: { tagNames: string[]; tags: Record<string, string> }) {
  const client = getClient();
  const mode = modeOf(inputs);
  const current = await readWorkspaceWithTags(client, workspaceId);
  const added = { tagNames: [...previous.tagNames], tags: { ...previous.tags } };

  if (inputs.tagNames !== undefined) {
    const desired = names(inputs.tagNames);
    const actual = current.workspace.tagNames.map(foldTagName);
    const add = desired.filter((n) => !actual.includes(n));
    await client.tags.add(workspaceId, add);
    if (mode === "authoritative") {
      await client.tags.remove(workspaceId, actual.filter((n) => !desired.includes(n)));
    } else {
      // Tags this resource added earlier and that are no longer listed go away again.
      const dropped = added.tagNames.filter((n) => !desired.includes(n));
      await client.tags.remove(workspaceId, dropped);
      added.tagNames = Array.from(new Set([...added.tagNames.filter((n) => desired.includes(n)), ...add])).sort();
    }
  }
  if (inputs.tags !== undefined) {
    const desired = mapOf(inputs.tags);
    let next: Record<string, string>;
    if (mode === "authoritative") next = desired;
    else {
      next = { ...current.tags };
      for (const k of Object.keys(added.tags)) if (!(k in desired)) delete next[k];
      for (const [k, v] of Object.entries(desired)) {
        if (!(k in current.tags)) added.tags[k] = v;
        next[k] = v;
      }
      for (const k of Object.keys(added.tags)) if (!(k in desired)) delete added.tags[k];
    }
    if (!sameStringMap(next, current.tags)) {
      await client.tagBindings.set(workspaceId, Object.entries(next).map(([key, value]) => ({ key, value })));
    }
  }
  const fresh = await readWorkspaceWithTags(client, workspaceId);
  return outputsOf(fresh, inputs, added);
}

export const workspaceTagsProvider: ProviderImpl = {
  async check(_olds, news) {
    const inputs = { ...news };
    if (inputs.mode === undefined) inputs.mode = "authoritative";
    return { inputs, failures: checkWorkspaceTags(news) };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const workspaceId = String(inputs.workspaceId);
    const outs = await apply(workspaceId, inputs, { tagNames: [], tags: {} });
    return { id: `${workspaceId}/tags`, outs };
  },

  async read(id, props) {
    const workspaceId = workspaceIdOf(id);
    try {
      const current = await readWorkspaceWithTags(getClient(), workspaceId);
      // Adopted through `get`: nothing is known about ownership, so report every tag.
      const inputs: Props = props.mode === undefined ? { mode: "authoritative", tagNames: [], tags: {} } : props;
      const outs = outputsOf(current, inputs, { tagNames: props.addedTagNames ?? [], tags: props.addedTags ?? {} });
      return { id: `${current.workspace.id}/tags`, props: outs };
    } catch (err) {
      if (isNotFound(err)) return {};
      throw err;
    }
  },

  async update(id, olds, news) {
    return { outs: await apply(workspaceIdOf(id), news, { tagNames: olds.addedTagNames ?? [], tags: olds.addedTags ?? {} }) };
  },

  async delete(id, props) {
    const client = getClient();
    const workspaceId = workspaceIdOf(id);
    const mode = modeOf(props);
    try {
      const current = await readWorkspaceWithTags(client, workspaceId);
      const removeNames = mode === "additive" ? (props.addedTagNames ?? []) : props.tagNames ?? [];
      await client.tags.remove(workspaceId, removeNames);
      const removeKeys = mode === "additive" ? Object.keys(props.addedTags ?? {}) : Object.keys(props.tags ?? {});
      if (removeKeys.some((k) => k in current.tags)) {
        const next = Object.entries(current.tags).filter(([k]) => !removeKeys.includes(k));
        await client.tagBindings.set(workspaceId, next.map(([key, value]) => ({ key, value })));
      }
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  },
};
