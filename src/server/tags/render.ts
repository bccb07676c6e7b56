import { tagBindingsPatchRequestSchema } from "../../api/tags";
import { API_PREFIX, parseBody, ref, type Resource } from "../http/jsonapi";
import {
  checkTagBindings,
  type EffectiveTagBinding,
  type KeyValue,
  type TagBindingRecord,
  type TagRecord,
} from "./service";

export function renderTag(t: TagRecord): Resource {
  return {
    id: t.id,
    type: "tags",
    attributes: { name: t.name, "created-at": t.created_at, "instance-count": t.instance_count ?? 0 },
    relationships: { organization: ref("organizations", t.organization) },
  };
}

export function renderTagBinding(b: TagBindingRecord): Resource {
  return { id: b.id, type: "tag-bindings", attributes: { key: b.key, value: b.value, "created-at": b.created_at } };
}

/**
 * An `effective-tag-bindings` resource. The spec gives these no identity of their own;
 * the id of the binding each comes from is added so that JSON:API clients can match
 * the entries of an `include` to the workspace's relationship (go-tfe does); workspaces
 * of one project share the inherited entries. An
 * inherited one names its project both as relationship `inherited-from` and as link
 * `inherited-from`, where go-tfe reads it; a direct one has neither.
 */
export function renderEffectiveTagBinding(b: EffectiveTagBinding, projectId: string): Resource {
  return {
    id: b.sourceId,
    type: "effective-tag-bindings",
    attributes: { key: b.key, value: b.value },
    ...(b.inherited
      ? {
          relationships: { "inherited-from": ref("projects", projectId) },
          links: { "inherited-from": `${API_PREFIX}/projects/${projectId}` },
        }
      : {}),
  };
}

export function parseTagBindingsPatch(body: unknown): KeyValue[] {
  const bindings = parseBody(tagBindingsPatchRequestSchema, body).data.map((b) => ({
    key: b.attributes.key,
    value: b.attributes.value ?? "",
  }));
  checkTagBindings(bindings, false);
  return bindings;
}
