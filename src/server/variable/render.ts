import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { VariableRecord, VariableTable } from "./store";
import type { VariableSetRecord } from "./sets";

/** Each table's owner relationship and the variable's own path. */
const OWNERS: Record<VariableTable, (r: VariableRecord) => { owner: Resource["relationships"]; self: string }> = {
  vars: (r) => ({
    owner: {
      configurable: {
        data: { id: r.owner_id, type: "workspaces" },
        links: { related: `${API_PREFIX}/workspaces/${r.owner_id}` },
      },
    },
    self: `${API_PREFIX}/workspaces/${r.owner_id}/vars/${r.id}`,
  }),
  varset_vars: (r) => ({
    owner: {
      varset: { data: { id: r.owner_id, type: "varsets" }, links: { related: `${API_PREFIX}/varsets/${r.owner_id}` } },
    },
    self: `${API_PREFIX}/varsets/${r.owner_id}/relationships/vars/${r.id}`,
  }),
  policy_set_params: (r) => ({
    owner: {
      configurable: {
        data: { id: r.owner_id, type: "policy-sets" },
        links: { related: `${API_PREFIX}/policy-sets/${r.owner_id}` },
      },
    },
    self: `${API_PREFIX}/policy-sets/${r.owner_id}/parameters/${r.id}`,
  }),
};

/** A variable as the hosted service renders it: a sensitive value is never rendered (`value` is null). */
export function renderVariable(r: VariableRecord, t: VariableTable): Resource {
  const { owner, self } = OWNERS[t](r);
  return {
    id: r.id,
    type: "vars",
    attributes: {
      key: r.key,
      value: r.sensitive === 1 ? null : r.value,
      description: r.description,
      // Answered in the spelling the writer used: go-tfe compares with `terraform`, programs say `engine`.
      category: r.category_spelling ?? r.category,
      hcl: r.hcl === 1,
      sensitive: r.sensitive === 1,
      "version-id": r.version_id,
      "created-at": r.created_at,
    },
    relationships: owner,
    links: { self },
  };
}

/** What a set document names besides the set: where it applies and its variables. */
export interface SetRelations {
  workspaceIds: string[];
  projectIds: string[];
  variables: VariableRecord[];
}

/** A variable set; its workspaces, projects and variables are referenced (`include=vars` adds the variables). */
export function renderVariableSet(s: VariableSetRecord, rel: SetRelations): Resource {
  const refs = (type: string, ids: readonly string[]) => ({ data: ids.map((id) => ({ id, type })) });
  return {
    id: s.id,
    type: "varsets",
    attributes: {
      name: s.name,
      description: s.description,
      global: s.global === 1,
      priority: s.priority === 1,
      "updated-at": s.updated_at,
      "var-count": rel.variables.length,
      "workspace-count": rel.workspaceIds.length,
      "project-count": rel.projectIds.length,
    },
    relationships: {
      organization: ref("organizations", s.organization),
      parent: s.parent_project_id ? ref("projects", s.parent_project_id) : ref("organizations", s.organization),
      workspaces: refs("workspaces", rel.workspaceIds),
      projects: refs("projects", rel.projectIds),
      vars: refs(
        "vars",
        rel.variables.map((v) => v.id),
      ),
    },
    links: { self: `${API_PREFIX}/varsets/${s.id}` },
  };
}
