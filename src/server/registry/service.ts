import type { Caller } from "../auth/service";
import { assertMember } from "../auth/service";
import type { ServerContext } from "../context";
import { conflict, nameTaken, notFound, unprocessable } from "../http/errors";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { noCodeModuleOfRegistryModule } from "../nocode/store";
import {
  findModuleVersion,
  findRegistryModule,
  findRegistryModuleByAddress,
  moduleVersions,
  type ModuleAddress,
  type RegistryModuleRecord,
  type RegistryModuleVersionRecord,
} from "./store";

/** Creating modules and versions takes the organization's module management right: owners, teams managing workspaces, the organization token. */
export function assertModuleManager(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageWorkspaces) throw notFound(`organization "${organization}" not found`);
}

/** A module the caller may see (any member of its organization); otherwise 404. */
export function loadRegistryModule(ctx: ServerContext, caller: Caller, id: string): RegistryModuleRecord {
  const m = findRegistryModule(ctx.db, id);
  if (!m) throw notFound("registry module not found");
  assertMember(ctx.db, caller, m.organization);
  return m;
}

export function loadRegistryModuleByAddress(ctx: ServerContext, caller: Caller, address: ModuleAddress): RegistryModuleRecord {
  assertMember(ctx.db, caller, address.organization);
  const m = findRegistryModuleByAddress(ctx.db, address);
  if (!m) throw notFound("registry module not found");
  return m;
}

export function createRegistryModule(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  input: { name: string; provider: string; registryName?: "private" | "public"; namespace?: string },
): RegistryModuleRecord {
  const { db } = ctx;
  assertModuleManager(db, caller, organization);
  const registryName = input.registryName ?? "private";
  // Private modules live in the organization's own namespace; public ones need theirs named.
  if (registryName === "private" && input.namespace !== undefined && input.namespace !== "" && input.namespace !== organization) {
    throw unprocessable(`namespace of a private module must be the organization name "${organization}"`, "/data/attributes/namespace");
  }
  if (registryName === "public" && !input.namespace) throw unprocessable("namespace is required for a public module", "/data/attributes/namespace");
  const namespace = registryName === "private" ? organization : input.namespace!;
  try {
    return inTransaction(db, () => {
      const address = { organization, registryName, namespace, name: input.name, provider: input.provider };
      if (findRegistryModuleByAddress(db, address)) throw nameTaken();
      const t = now();
      const record: RegistryModuleRecord = {
        id: newId("registryModule"),
        organization,
        registry_name: registryName,
        namespace,
        name: input.name,
        provider: input.provider,
        created_at: t,
        updated_at: t,
      };
      prepare(
        db,
        `INSERT INTO registry_modules (id, organization, registry_name, namespace, name, provider, created_at, updated_at)
         VALUES (@id, @organization, @registry_name, @namespace, @name, @provider, @created_at, @updated_at)`,
      ).run(record);
      return record;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

export function createModuleVersion(ctx: ServerContext, caller: Caller, address: ModuleAddress, version: string): RegistryModuleVersionRecord {
  const { db } = ctx;
  assertModuleManager(db, caller, address.organization);
  const m = findRegistryModuleByAddress(db, address);
  if (!m) throw notFound("registry module not found");
  const taken = () => unprocessable(`version ${version} already exists for this module`, "/data/attributes/version");
  try {
    return inTransaction(db, () => {
      if (findModuleVersion(db, m.id, version)) throw taken();
      const t = now();
      const record: RegistryModuleVersionRecord = { id: newId("registryModuleVersion"), module_id: m.id, version, created_at: t };
      prepare(db, `INSERT INTO registry_module_versions (id, module_id, version, created_at) VALUES (@id, @module_id, @version, @created_at)`).run(record);
      // A no-code module enabled before the first version was published pins that version.
      prepare(db, `UPDATE no_code_modules SET version_pin = ? WHERE registry_module_id = ? AND version_pin = ''`).run(version, m.id);
      prepare(db, `UPDATE registry_modules SET updated_at = ? WHERE id = ?`).run(t, m.id);
      return record;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

export function registryModulePath(m: RegistryModuleRecord): string {
  return `${API_PREFIX}/organizations/${encodeURIComponent(m.organization)}/registry-modules/${m.registry_name}/${encodeURIComponent(m.namespace)}/${encodeURIComponent(m.name)}/${encodeURIComponent(m.provider)}`;
}

/**
 * The hosted document of a registry module. Versions are ready as soon as they are
 * created (this service keeps no module sources), so every version reports `ok` and a
 * module with a version is `setup_complete`.
 */
export function renderRegistryModule(ctx: ServerContext, m: RegistryModuleRecord, role: { manageWorkspaces: boolean }): Resource {
  const versions = moduleVersions(ctx.db, m.id);
  const noCode = noCodeModuleOfRegistryModule(ctx.db, m.id);
  return {
    id: m.id,
    type: "registry-modules",
    attributes: {
      name: m.name,
      provider: m.provider,
      "registry-name": m.registry_name,
      namespace: m.namespace,
      "no-code": noCode?.enabled === 1,
      permissions: { "can-delete": role.manageWorkspaces, "can-resync": role.manageWorkspaces, "can-retry": role.manageWorkspaces },
      status: versions.length ? "setup_complete" : "pending",
      "version-statuses": versions.map((v) => ({ version: v.version, status: "ok" })),
      "vcs-repo": null,
      "created-at": m.created_at,
      "updated-at": m.updated_at,
    },
    relationships: {
      organization: { ...ref("organizations", m.organization), links: { related: `${API_PREFIX}/organizations/${encodeURIComponent(m.organization)}` } },
      "no-code-modules": { data: noCode ? [{ id: noCode.id, type: "no-code-modules" }] : [] },
    },
    links: { self: registryModulePath(m) },
  };
}

export function renderModuleVersion(m: RegistryModuleRecord, v: RegistryModuleVersionRecord): Resource {
  return {
    id: v.id,
    type: "registry-module-versions",
    attributes: { version: v.version, status: "ok", source: "tfe-api", "created-at": v.created_at, "updated-at": v.created_at },
    relationships: { "registry-module": { ...ref("registry-modules", m.id), links: { related: `${API_PREFIX}/registry-modules/${m.id}` } } },
    links: { self: `${registryModulePath(m)}/version?module_version=${encodeURIComponent(v.version)}` },
  };
}

/**
 * go-tfe's deletes: a whole module name (every provider), one provider, or one version.
 * A module's no-code settings go with it; a version that a no-code module pins stays
 * (409) until the pin moves, since workspaces are provisioned from it.
 */
export function deleteRegistryModules(ctx: ServerContext, caller: Caller, address: Omit<ModuleAddress, "provider"> & { provider?: string }, version?: string): void {
  const { db } = ctx;
  assertModuleManager(db, caller, address.organization);
  inTransaction(db, () => {
    const modules = db
      .prepare(`SELECT * FROM registry_modules WHERE organization = ? AND registry_name = ? AND namespace = ? AND name = ? AND (? IS NULL OR provider = ?)`)
      .all(address.organization, address.registryName, address.namespace, address.name, address.provider ?? null, address.provider ?? null) as RegistryModuleRecord[];
    if (!modules.length) throw notFound("registry module not found");
    if (version === undefined) {
      for (const m of modules) prepare(db, `DELETE FROM registry_modules WHERE id = ?`).run(m.id);
      return;
    }
    const m = modules[0];
    const v = findModuleVersion(db, m.id, version);
    if (!v) throw notFound(`version ${version} of this module not found`);
    const pinned = noCodeModuleOfRegistryModule(db, m.id);
    if (pinned && pinned.version_pin === version) {
      throw conflict(`version ${version} is pinned by no-code module ${pinned.id}; move the pin before deleting it`);
    }
    prepare(db, `DELETE FROM registry_module_versions WHERE id = ?`).run(v.id);
    prepare(db, `UPDATE registry_modules SET updated_at = ? WHERE id = ?`).run(now(), m.id);
  });
}
