import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { Db } from "../store/db";
import { isDefaultProject, projectExecutionDefaults, projectWorkspaceCount, type ProjectRecord } from "./service";

export function renderProject(db: Db, p: ProjectRecord): Resource {
  const count = projectWorkspaceCount(db, p.id);
  const isDefault = isDefaultProject(db, p);
  const exec = projectExecutionDefaults(db, p);
  const overrides = p.default_execution_mode !== null;
  return {
    id: p.id,
    type: "projects",
    attributes: {
      name: p.name,
      description: p.description,
      "created-at": p.created_at,
      "workspace-count": count,
      "is-default": isDefault,
      "default-execution-mode": exec.mode,
      "setting-overwrites": { "default-execution-mode": overrides, "default-agent-pool": overrides },
    },
    relationships: {
      organization: ref("organizations", p.organization),
      "default-agent-pool": ref("agent-pools", exec.agentPoolId),
      "tag-bindings": { links: { related: `${API_PREFIX}/projects/${p.id}/tag-bindings` } },
      "effective-tag-bindings": { links: { related: `${API_PREFIX}/projects/${p.id}/effective-tag-bindings` } },
    },
    links: { self: `${API_PREFIX}/projects/${p.id}` },
  };
}
