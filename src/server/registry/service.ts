import type { Caller, OrgRole } from "../auth/service/caller";
import { assertMember } from "../auth/service/authz";
import type { ServerContext } from "../context";
import { Invalid, NameTaken, NotFound, visible } from "../domain-errors";
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

/** A module as the caller sees it: the record, and the caller's standing, which its document's permissions show. */
export interface ModuleView {
  module: RegistryModuleRecord;
  role: OrgRole;
}

/** Creating modules and versions takes the organization's module management right: owners, teams managing workspaces, the organization token. */
function assertModuleManager(db: Db, caller: Caller, organization: string): OrgRole {
  const role = assertMember(db, caller, organization);
  if (!role.manageWorkspaces) throw new NotFound(`organization "${organization}" not found`);
  return role;
}

/** A module the caller may see (any member of its organization); otherwise not found. */
export function loadRegistryModule(ctx: ServerContext, caller: Caller, id: string): ModuleView {
  let role: OrgRole | undefined;
  const m = visible("registry module", findRegistryModule(ctx.db, id), (r) => {
    role = assertMember(ctx.db, caller, r.organization);
  });
  return { module: m, role: role! };
}

export function loadRegistryModuleByAddress(ctx: ServerContext, caller: Caller, address: ModuleAddress): ModuleView {
  const role = assertMember(ctx.db, caller, address.organization);
  const m = findRegistryModuleByAddress(ctx.db, address);
  if (!m) throw new NotFound("registry module not found");
  return { module: m, role };
}

export function createRegistryModule(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  read: () => { name: string; provider: string; registryName?: "private" | "public"; namespace?: string },
): ModuleView {
  const { db } = ctx;
  const role = assertModuleManager(db, caller, organization);
  const input = read();
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
    const created = inTransaction(db, () => {
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
    return { module: created, role };
  } catch (err) {
    if (isUniqueViolation(err)) throw new NameTaken();
    throw err;
  }
}

export function createModuleVersion(
  ctx: ServerContext,
  caller: Caller,
  address: ModuleAddress,
  read: () => string,
): { module: RegistryModuleRecord; version: RegistryModuleVersionRecord } {
  const { db } = ctx;
  // A module the caller cannot see is not found before a caller that may not publish is refused.
  const { module: m } = loadRegistryModuleByAddress(ctx, caller, address);
  assertModuleManager(db, caller, address.organization);
  const version = read();
  const taken = () => new Invalid(`version ${version} already exists for this module`, { attribute: "version" });
  try {
    const published = inTransaction(db, () => {
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
    return { module: m, version: published };
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
/** A page of the organization's modules; `read` parses the query once the caller may list them. */
export function listRegistryModules<Q extends { filter: ModuleListFilter; page: Page }>(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  read: () => Q,
): { rows: RegistryModuleRecord[]; total: number; query: Q; role: OrgRole } {
  const role = assertMember(ctx.db, caller, organization);
  const query = read();
  return { ...store.registryModulesPage(ctx.db, organization, query.filter, query.page), query, role };
}
