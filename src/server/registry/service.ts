import type { Caller } from "../auth/service/caller";
import { assertMember } from "../auth/service/authz";
import type { ServerContext } from "../context";
import { Invalid, NameTaken, NotFound } from "../errors";
import { newId } from "../ids";
import type { Db, Page } from "../store/db";
import { inTransaction, isUniqueViolation, now } from "../store/db";
import * as store from "./store";
import {
  findModuleVersion,
  findRegistryModule,
  findRegistryModuleByAddress,
  type ModuleAddress,
  type ModuleListFilter,
  type RegistryModuleRecord,
  type RegistryModuleVersionRecord,
} from "./store";

export type { ModuleAddress, ModuleListFilter, RegistryModuleRecord, RegistryModuleVersionRecord } from "./store";
export { findModuleVersion, findRegistryModule, latestModuleVersion, moduleVersions } from "./store";

/** Creating modules and versions takes the organization's module management right: owners, teams managing workspaces, the organization token. */
export function assertModuleManager(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageWorkspaces)
    throw new NotFound(`organization "${organization}" not found`);
}

/** A module the caller may see (any member of its organization); otherwise not found. */
export function loadRegistryModule(ctx: ServerContext, caller: Caller, id: string): RegistryModuleRecord {
  const m = findRegistryModule(ctx.db, id);
  if (!m) throw new NotFound("registry module not found");
  assertMember(ctx.db, caller, m.organization);
  return m;
}

export function loadRegistryModuleByAddress(
  ctx: ServerContext,
  caller: Caller,
  address: ModuleAddress,
): RegistryModuleRecord {
  assertMember(ctx.db, caller, address.organization);
  const m = findRegistryModuleByAddress(ctx.db, address);
  if (!m) throw new NotFound("registry module not found");
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
  if (
    registryName === "private" &&
    input.namespace !== undefined &&
    input.namespace !== "" &&
    input.namespace !== organization
  ) {
    throw new Invalid(`namespace of a private module must be the organization name "${organization}"`, {
      attribute: "namespace",
    });
  }
  if (registryName === "public" && !input.namespace)
    throw new Invalid("namespace is required for a public module", { attribute: "namespace" });
  const namespace = registryName === "private" ? organization : input.namespace!;
  try {
    return inTransaction(db, () => {
      const address = { organization, registryName, namespace, name: input.name, provider: input.provider };
      if (findRegistryModuleByAddress(db, address)) throw new NameTaken();
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
      store.insertRegistryModule(db, record);
      return record;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new NameTaken();
    throw err;
  }
}

export function createModuleVersion(
  ctx: ServerContext,
  caller: Caller,
  address: ModuleAddress,
  version: string,
): RegistryModuleVersionRecord {
  const { db } = ctx;
  assertModuleManager(db, caller, address.organization);
  const m = findRegistryModuleByAddress(db, address);
  if (!m) throw new NotFound("registry module not found");
  const taken = () => new Invalid(`version ${version} already exists for this module`, { attribute: "version" });
  try {
    return inTransaction(db, () => {
      if (findModuleVersion(db, m.id, version)) throw taken();
      const t = now();
      const record: RegistryModuleVersionRecord = {
        id: newId("registryModuleVersion"),
        module_id: m.id,
        version,
        created_at: t,
      };
      store.insertModuleVersion(db, record);
      for (const hook of ctx.hooks.registryModule) hook.versionPublished?.(ctx, m.id, version);
      store.touchRegistryModule(db, m.id, t);
      return record;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/**
 * go-tfe's deletes: a whole module name (every provider), one provider, or one version.
 * What other domains keep about a module goes with it (their tables cascade); a version
 * they refuse to lose (a no-code module's pin) stays until they let it go.
 */
export function deleteRegistryModules(
  ctx: ServerContext,
  caller: Caller,
  address: Omit<ModuleAddress, "provider"> & { provider?: string },
  version?: string,
): void {
  const { db } = ctx;
  assertModuleManager(db, caller, address.organization);
  inTransaction(db, () => {
    const modules = store.modulesNamed(db, address);
    if (!modules.length) throw new NotFound("registry module not found");
    if (version === undefined) {
      for (const m of modules) store.deleteRegistryModule(db, m.id);
      return;
    }
    const m = modules[0];
    const v = findModuleVersion(db, m.id, version);
    if (!v) throw new NotFound(`version ${version} of this module not found`);
    for (const hook of ctx.hooks.registryModule) hook.versionDeleting?.(ctx, m.id, version);
    store.deleteModuleVersion(db, v.id);
    store.touchRegistryModule(db, m.id, now());
  });
}

/** A version of a module the caller may see; not found otherwise. */
export function loadModuleVersion(
  ctx: ServerContext,
  m: RegistryModuleRecord,
  version: string,
): RegistryModuleVersionRecord {
  const v = findModuleVersion(ctx.db, m.id, version);
  if (!v) throw new NotFound(`version ${version} of this module not found`);
  return v;
}

/** A page of an organization's modules, for a member. */
export function listRegistryModules(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  filter: ModuleListFilter,
  page: Page,
): { rows: RegistryModuleRecord[]; total: number } {
  assertMember(ctx.db, caller, organization);
  return store.registryModulesPage(ctx.db, organization, filter, page);
}
