import type { ServerContext } from "../context";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { moduleVersions, type RegistryModuleRecord, type RegistryModuleVersionRecord } from "./service";

function registryModulePath(m: RegistryModuleRecord): string {
  return `${API_PREFIX}/organizations/${encodeURIComponent(m.organization)}/registry-modules/${m.registry_name}/${encodeURIComponent(m.namespace)}/${encodeURIComponent(m.name)}/${encodeURIComponent(m.provider)}`;
}

/**
 * The hosted document of a registry module. Versions are ready as soon as they are
 * created (this service keeps no module sources), so every version reports `ok` and a
 * module with a version is `setup_complete`.
 */
export function renderRegistryModule(
  ctx: ServerContext,
  m: RegistryModuleRecord,
  role: { manageWorkspaces: boolean },
): Resource {
  const versions = moduleVersions(ctx.db, m.id);
  const resource: Resource = {
    id: m.id,
    type: "registry-modules",
    attributes: {
      name: m.name,
      provider: m.provider,
      "registry-name": m.registry_name,
      namespace: m.namespace,
      // Set by the domain that keeps no-code settings (ctx.hooks.registryModule).
      "no-code": false,
      permissions: {
        "can-delete": role.manageWorkspaces,
        "can-resync": role.manageWorkspaces,
        "can-retry": role.manageWorkspaces,
      },
      status: versions.length ? "setup_complete" : "pending",
      "version-statuses": versions.map((v) => ({ version: v.version, status: "ok" })),
      "vcs-repo": null,
      "created-at": m.created_at,
      "updated-at": m.updated_at,
    },
    relationships: {
      organization: {
        ...ref("organizations", m.organization),
        links: { related: `${API_PREFIX}/organizations/${encodeURIComponent(m.organization)}` },
      },
      "no-code-modules": { data: [] },
    },
    links: { self: registryModulePath(m) },
  };
  for (const hook of ctx.hooks.registryModule) hook.render?.(ctx, m.id, resource);
  return resource;
}

export function renderModuleVersion(m: RegistryModuleRecord, v: RegistryModuleVersionRecord): Resource {
  return {
    id: v.id,
    type: "registry-module-versions",
    attributes: {
      version: v.version,
      status: "ok",
      source: "tfe-api",
      "created-at": v.created_at,
      "updated-at": v.created_at,
    },
    relationships: {
      "registry-module": {
        ...ref("registry-modules", m.id),
        links: { related: `${API_PREFIX}/registry-modules/${m.id}` },
      },
    },
    links: { self: `${registryModulePath(m)}/version?module_version=${encodeURIComponent(v.version)}` },
  };
}
