import type { OrgRole } from "../auth/service/caller";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { OrganizationRecord } from "./service";

function organizationPath(name: string): string {
  return `${API_PREFIX}/organizations/${encodeURIComponent(name)}`;
}

export function renderOrganization(org: OrganizationRecord, role: OrgRole): Resource {
  return {
    id: org.name,
    type: "organizations",
    attributes: {
      name: org.name,
      email: org.email,
      "created-at": org.created_at,
      "allow-force-delete-workspaces": org.allow_force_delete_workspaces === 1,
      "default-execution-mode": org.default_execution_mode,
      permissions: {
        "can-update": role.owner,
        "can-destroy": role.owner,
        "can-create-workspace": role.manageWorkspaces,
        "can-create-team": role.owner,
        "can-create-project": role.manageProjects,
        "can-manage-tags": role.manageWorkspaces,
      },
    },
    relationships: {
      "default-project": {
        ...ref("projects", org.default_project_id),
        links: { related: `${API_PREFIX}/projects/${org.default_project_id}` },
      },
      "default-agent-pool": ref("agent-pools", org.default_agent_pool_id),
    },
    links: { self: organizationPath(org.name) },
  };
}
