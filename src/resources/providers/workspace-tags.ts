/** Provider of `WorkspaceTags` (spec 2.6, 4.10). */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { tagsRelationshipRequestSchema } from "../../api/tags";
import { getClient, isNotFound, readWorkspaceWithTags, requireTagBindings, type WorkspaceWithTags } from "./client";
import { ProviderError } from "./user-errors";
import { diffFields, foldTagName, sameStringMap, sameTagNames, type FieldRule } from "./compare";
import { isUnknown, withoutUnknowns } from "./unknowns";
import { confirmGone, dependentRecord, unlessGone } from "./gone";
import { explainingMissingFeatures } from "./user-errors";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { OwnershipMode, WorkspaceTagsArgs } from "../workspace-tags";

/** Inputs as the engine hands them over. */
type WorkspaceTagsInputs = pulumi.Unwrap<WorkspaceTagsArgs>;

/** Outputs as stored in state. */
type WorkspaceTagsOutputs = {
  workspaceId: string;
  /** Absent from state written before the organization was recorded. */
  organization?: string | null;
  /** Absent when adopted through `get`. */
  mode?: OwnershipMode;
  tagNames: string[] | null;
  tags: Record<string, string> | null;
  effectiveTags: Record<string, string>;
  allTagNames: string[];
  /** Absent from state written before additive ownership was recorded. */
  addedTagNames?: string[];
  addedTags?: Record<string, string>;
};

/** The fields that say what a resource manages: its inputs, or the outputs that echo them. */
type Managed = { mode?: unknown; tagNames?: unknown; tags?: unknown };

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

function modeOf(p: { mode?: unknown }): OwnershipMode {
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

function checkWorkspaceTags(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const known = withoutUnknowns(news);
  if (news.workspaceId === undefined) failures.push({ property: "workspaceId", reason: "workspaceId is required" });
  else if (!isUnknown(news.workspaceId) && !isId("workspace", news.workspaceId)) {
    failures.push({ property: "workspaceId", reason: "workspaceId must be a workspace id (ws-...)" });
  }
  if (known.mode !== undefined && !MODES.includes(known.mode as string)) {
    failures.push({
      property: "mode",
      reason: `mode must be "authoritative" or "additive", not ${JSON.stringify(known.mode)}`,
    });
  }
  if (news.tagNames === undefined && news.tags === undefined) {
    failures.push({
      property: "tagNames",
      reason: "give tagNames, tags or both: otherwise there is nothing to manage",
    });
  }
  if (known.tagNames !== undefined) {
    if (!Array.isArray(known.tagNames))
      failures.push({ property: "tagNames", reason: "tagNames must be a list of strings" });
    else {
      const parsed = tagsRelationshipRequestSchema.safeParse({
        data: known.tagNames.map((name: unknown) => ({ type: "tags", attributes: { name } })),
      });
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
        if (typeof v !== "string")
          failures.push({ property: `tags.${k}`, reason: `tags.${k}: value must be a string` });
      }
    }
  }
  return failures;
}

/** Outputs as seen on the service; `managed` says which names/keys this resource owns in additive mode. */
function outputsOf(current: WorkspaceWithTags, inputs: Managed, added: Added): WorkspaceTagsOutputs {
  const mode = modeOf(inputs);
  const all = current.workspace.tagNames.map(foldTagName).sort();
  let tagNames: string[] | undefined;
  let tags: Record<string, string> | undefined;
  // A refresh passes the stored outputs, where what is not managed is null.
  if (inputs.tagNames !== undefined && inputs.tagNames !== null) {
    tagNames =
      mode === "authoritative"
        ? all
        : names(inputs.tagNames)
            .filter((n) => all.includes(n))
            .sort();
  }
  if (inputs.tags !== undefined && inputs.tags !== null) {
    if (mode === "authoritative") tags = current.tags;
    else {
      tags = {};
      for (const k of Object.keys(mapOf(inputs.tags))) if (k in current.tags) tags[k] = current.tags[k];
    }
  }
  return {
    workspaceId: current.workspace.id,
    organization: current.workspace.organization ?? null,
    mode,
    tagNames: tagNames ?? null,
    tags: tags ?? null,
    effectiveTags: current.effectiveTags,
    allTagNames: all,
    addedTagNames: mode === "additive" ? added.tagNames : [],
    addedTags: mode === "additive" ? added.tags : {},
  };
}

/** What this resource set in additive mode: flat tags it added, and each key-value tag with the value it set. */
interface Added {
  tagNames: string[];
  tags: Record<string, string>;
}

/**
 * The key-value tags additive mode may not write: a key the workspace has with another
 * value that this resource did not set, or that someone changed after this resource
 * set it. Additive mode never changes or removes a value it did not set.
 */
function foreignValues(
  current: Record<string, string>,
  desired: Record<string, string>,
  ours: Record<string, string>,
): string[] {
  const problems: string[] = [];
  for (const [k, v] of Object.entries(desired)) {
    if (!(k in current) || current[k] === v) continue;
    if (!(k in ours))
      problems.push(
        `tags.${k}: the workspace already has ${k} = ${JSON.stringify(current[k])}, set outside this resource`,
      );
    else if (current[k] !== ours[k]) {
      problems.push(
        `tags.${k}: ${k} was changed outside this resource to ${JSON.stringify(current[k])} after this resource set it to ${JSON.stringify(ours[k])}`,
      );
    }
  }
  return problems;
}

/**
 * The key-value tags after an additive change, and which of them this resource then
 * owns. A key it set and that still holds its value is changed or removed as the
 * program says; a key whose value someone else set (before or since) is left alone.
 */
function additiveTags(current: Record<string, string>, desired: Record<string, string>, ours: Record<string, string>) {
  const next = { ...current };
  const owned: Record<string, string> = {};
  for (const [k, v] of Object.entries(desired)) {
    const mine = k in ours && (!(k in current) || current[k] === ours[k]);
    if (!(k in current) || mine) {
      next[k] = v;
      owned[k] = v;
    }
  }
  for (const [k, v] of Object.entries(ours)) if (!(k in desired) && current[k] === v) delete next[k];
  return { next, owned };
}

/** Brings the workspace to the desired tags; in additive mode returns what this resource now owns. */
async function apply(workspaceId: string, inputs: WorkspaceTagsInputs, previous: Added) {
  const client = getClient();
  const mode = modeOf(inputs);
  const current = await readWorkspaceWithTags(client, workspaceId);
  if (inputs.tags !== undefined)
    await requireTagBindings(client, workspaceId, current.offersTagBindings, mapOf(inputs.tags));
  const added: Added = { tagNames: [...previous.tagNames], tags: { ...previous.tags } };

  // Decide everything first: a refusal must leave the workspace as it was.
  let nextTags: Record<string, string> | undefined;
  if (inputs.tags !== undefined) {
    const desired = mapOf(inputs.tags);
    if (mode === "authoritative") nextTags = desired;
    else {
      const problems = foreignValues(current.tags, desired, previous.tags);
      if (problems.length > 0) {
        throw new ProviderError(
          `additive WorkspaceTags on workspace ${workspaceId} does not change a value it did not set: ${problems.join("; ")}. ` +
            `Declare the value the workspace has, drop the key from tags, or use mode "authoritative" if this stack owns every tag of the workspace.`,
        );
      }
      const { next, owned } = additiveTags(current.tags, desired, previous.tags);
      nextTags = next;
      added.tags = owned;
    }
  }

  if (inputs.tagNames !== undefined) {
    const desired = names(inputs.tagNames);
    const actual = current.workspace.tagNames.map(foldTagName);
    const add = desired.filter((n) => !actual.includes(n));
    await client.tags.add(workspaceId, add);
    if (mode === "authoritative") {
      // Under the names the server reported: a server that keeps case (OTF) matches them exactly.
      await client.tags.remove(
        workspaceId,
        current.workspace.tagNames.filter((n) => !desired.includes(foldTagName(n))),
      );
    } else {
      // Tags this resource added earlier and that are no longer listed go away again.
      const dropped = added.tagNames.filter((n) => !desired.includes(n));
      await client.tags.remove(workspaceId, dropped);
      added.tagNames = Array.from(new Set([...added.tagNames.filter((n) => desired.includes(n)), ...add])).sort();
    }
  }
  if (nextTags !== undefined && !sameStringMap(nextTags, current.tags)) {
    await client.tagBindings.set(
      workspaceId,
      Object.entries(nextTags).map(([key, value]) => ({ key, value })),
    );
  }
  const fresh = await readWorkspaceWithTags(client, workspaceId);
  return outputsOf(fresh, inputs, added);
}

export const workspaceTagsProvider: ProviderImpl<WorkspaceTagsInputs & Props, WorkspaceTagsOutputs> =
  explainingMissingFeatures(
    {
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
        const client = getClient();
        return unlessGone(
          client,
          () => dependentRecord(client, "tags", workspaceId, props),
          "refresh",
          async () => {
            const current = await readWorkspaceWithTags(client, workspaceId, props.organization);
            // Adopted through `get`: nothing is known about ownership, so report every tag.
            const inputs: Managed =
              props.mode === undefined ? { mode: "authoritative", tagNames: [], tags: {} } : props;
            const outs = outputsOf(current, inputs, {
              tagNames: props.addedTagNames ?? [],
              tags: props.addedTags ?? {},
            });
            return {
              id: `${current.workspace.id}/tags`,
              props: { ...outs, organization: current.workspace.organization ?? props.organization ?? null },
            };
          },
          () => ({}),
        );
      },

      async update(id, olds, news) {
        return {
          outs: await apply(workspaceIdOf(id), news, {
            tagNames: olds.addedTagNames ?? [],
            tags: olds.addedTags ?? {},
          }),
        };
      },

      async delete(id, props) {
        const client = getClient();
        const workspaceId = workspaceIdOf(id);
        const mode = modeOf(props);
        try {
          const current = await readWorkspaceWithTags(client, workspaceId);
          const removeNames = mode === "additive" ? (props.addedTagNames ?? []) : (props.tagNames ?? []);
          await client.tags.remove(workspaceId, removeNames);
          // Additive: only a key that still holds the value this resource set; a value changed since is another owner's.
          const ours = mapOf(props.addedTags);
          const removeKeys =
            mode === "additive"
              ? Object.keys(ours).filter((k) => current.tags[k] === ours[k])
              : Object.keys(props.tags ?? {});
          if (removeKeys.some((k) => k in current.tags)) {
            const next = Object.entries(current.tags).filter(([k]) => !removeKeys.includes(k));
            await client.tagBindings.set(
              workspaceId,
              next.map(([key, value]) => ({ key, value })),
            );
          }
        } catch (err) {
          if (isNotFound(err)) {
            await confirmGone(client, await dependentRecord(client, "tags", workspaceId, props), "delete");
            return;
          }
          throw err;
        }
      },
    },
    "workspace tags",
  );
