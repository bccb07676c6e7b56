import { POLICY_SET_LISTS, POLICY_SET_LIST_TYPES } from "../../api/policy-sets";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { policyCount, type PolicySetView } from "./service/sets";
import type { PolicySetVersionRecord } from "./store/sets";

/**
 * A policy set document: every list is always shown as ids (one read answers where a set
 * applies, without `include`), with its counts and its newest and current versions.
 */
export function renderPolicySet(view: PolicySetView): Resource {
  const { set: s, lists } = view;
  const relationships: NonNullable<Resource["relationships"]> = { organization: ref("organizations", s.organization) };
  for (const list of POLICY_SET_LISTS)
    relationships[list] = { data: lists[list].map((id) => ({ id, type: POLICY_SET_LIST_TYPES[list] })) };
  relationships["newest-version"] = ref("policy-set-versions", view.newest?.id);
  relationships["current-version"] = ref("policy-set-versions", view.current?.id);
  return {
    id: s.id,
    type: "policy-sets",
    attributes: {
      name: s.name,
      description: s.description,
      kind: s.kind,
      overridable: s.overridable === null ? null : s.overridable === 1,
      global: s.global === 1,
      "policies-path": s.policies_path,
      "policy-count": policyCount(view),
      "workspace-count": lists.workspaces.length,
      "project-count": lists.projects.length,
      "agent-enabled": s.agent_enabled === 1,
      "policy-tool-version": s.policy_tool_version,
      "policy-update-patterns":
        s.policy_update_patterns === null ? null : (JSON.parse(s.policy_update_patterns) as string[]),
      "tag-selectors": JSON.parse(s.tag_selectors) as unknown[],
      "tag-selector-matching-logic": s.tag_selector_matching_logic,
      "vcs-repo": null,
      "created-at": s.created_at,
      "updated-at": s.updated_at,
    },
    relationships,
    links: { self: `${API_PREFIX}/policy-sets/${s.id}` },
  };
}

/** A version document; `uploadLink` is the absolute upload address while the version waits for its tarball. */
export function renderPolicySetVersion(v: PolicySetVersionRecord, uploadLink?: string): Resource {
  const timestamps: Record<string, string> = {};
  for (const [key, at] of [
    ["pending-at", v.pending_at],
    ["ready-at", v.ready_at],
    ["errored-at", v.errored_at],
  ] as const)
    if (at) timestamps[key] = at;
  return {
    id: v.id,
    type: "policy-set-versions",
    attributes: {
      source: v.source,
      status: v.status,
      "status-timestamps": timestamps,
      error: v.status === "errored" ? "invalid_archive" : null,
      "error-message": v.error_message,
      "ingress-attributes": null,
      "created-at": v.created_at,
      "updated-at": v.updated_at,
    },
    relationships: { "policy-set": ref("policy-sets", v.policy_set_id) },
    links: { self: `${API_PREFIX}/policy-set-versions/${v.id}`, ...(uploadLink ? { upload: uploadLink } : {}) },
  };
}
