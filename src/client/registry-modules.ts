/**
 * Private registry modules: what a no-code module needs (the registry module id and
 * which versions exist), plus publishing a module and a version so that scripts can
 * prepare an organization for no-code provisioning.
 */
import { listDocumentSchema } from "../api/common";
import {
  registryModuleDocumentSchema,
  registryModuleResourceSchema,
  registryModuleVersionDocumentSchema,
  type registryModuleVersionResourceSchema,
  type RegistryModuleResource,
} from "../api/organizations";
import type { z } from "zod";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { relId, relIds } from "./wire";

/** A version of a registry module and its ingestion status. */
export interface RegistryModuleVersionStatus {
  /** Version number. */
  version: string;
  /** Ingestion status (`ok`, `pending`, ...). */
  status: string;
}

/** A module of the organization's registry. */
export interface RegistryModule {
  /** Module id (`mod-...`). */
  id: string;
  /** Module name. */
  name: string;
  /** Provider the module is for (`aws`, `random`, ...). */
  provider: string;
  /** Namespace (the organization for private modules), or null. */
  namespace: string | null;
  /** `private` or `public`, or null. */
  registryName: string | null;
  /** Organization name, or null. */
  organization: string | null;
  /** Module status (`setup_complete`, `pending`, ...), or null. */
  status: string | null;
  /** Whether the module is enabled for no-code provisioning, or null when the service does not say. */
  noCode: boolean | null;
  /** Versions the registry holds, with their ingestion status. */
  versionStatuses: RegistryModuleVersionStatus[];
  /** The no-code module(s) made from this module (relationship `no-code-modules`). */
  noCodeModuleIds: string[];
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** One version of a registry module. */
export interface RegistryModuleVersion {
  /** Version id (`modver-...`). */
  id: string;
  /** Version number. */
  version: string;
  /** Ingestion status, or null. */
  status: string | null;
  /** Creation time (ISO 8601), or null. */
  createdAt: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** Where a module lives: organization, registry, namespace, name and provider. */
export interface RegistryModuleAddress {
  /** Organization holding the module. */
  organization: string;
  /** Defaults to the organization name, as for private modules. */
  namespace?: string;
  /** Module name. */
  name: string;
  /** Provider the module is for. */
  provider: string;
  /** `private` (default) or `public`. */
  registryName?: "private" | "public";
}

/** Filters of the registry module list. */
export interface RegistryModuleListOptions {
  /** Partial match on name, namespace or provider (`q`). */
  search?: string;
  /** Only modules for this provider. */
  provider?: string;
  /** Only modules of this registry. */
  registryName?: "private" | "public";
}

const registryModuleListDocumentSchema = listDocumentSchema(registryModuleResourceSchema);
type RegistryModuleVersionResource = z.infer<typeof registryModuleVersionResourceSchema>;

function toRegistryModule(r: RegistryModuleResource): RegistryModule {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    provider: a.provider,
    namespace: a.namespace ?? null,
    registryName: a["registry-name"] ?? null,
    organization: relId(r, "organization"),
    status: a.status ?? null,
    noCode: a["no-code"] ?? null,
    versionStatuses: (a["version-statuses"] ?? []).map((v) => ({ version: v.version, status: v.status })),
    noCodeModuleIds: relIds(r, "no-code-modules"),
    attributes: a,
  };
}

function toVersion(r: RegistryModuleVersionResource): RegistryModuleVersion {
  const a = r.attributes;
  return { id: r.id, version: a.version, status: a.status ?? null, createdAt: a["created-at"] ?? null, attributes: a };
}

function addressPath(address: RegistryModuleAddress, ...rest: string[]): string {
  return urlPath(
    "organizations",
    address.organization,
    "registry-modules",
    address.registryName ?? "private",
    address.namespace ?? address.organization,
    address.name,
    address.provider,
    ...rest,
  );
}

/** Registry module calls of a {@link WorkspacesClient} (`client.registryModules`). */
export class RegistryModules {
  constructor(private readonly transport: Transport) {}

  /** `GET /organizations/:org/registry-modules/:registry/:namespace/:name/:provider`. */
  async read(address: RegistryModuleAddress): Promise<RegistryModule> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: addressPath(address), repeat: "idempotent" },
      registryModuleDocumentSchema,
    );
    return toRegistryModule(doc.data);
  }

  /** `GET /registry-modules/:id`. */
  async readById(registryModuleId: string): Promise<RegistryModule> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("registry-modules", registryModuleId), repeat: "idempotent" },
      registryModuleDocumentSchema,
    );
    return toRegistryModule(doc.data);
  }

  /** `GET /organizations/:org/registry-modules`, 100 per page. */
  list(organization: string, options: RegistryModuleListOptions = {}): PagedList<RegistryModule> {
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "registry-modules"),
      { q: options.search, "filter[provider]": options.provider, "filter[registry_name]": options.registryName },
      registryModuleListDocumentSchema,
      toRegistryModule,
    );
  }

  /** `GET .../version?module_version=`: one version of a module. */
  async readVersion(address: RegistryModuleAddress, version: string): Promise<RegistryModuleVersion> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: addressPath(address, "version"),
        query: { module_version: version },
        repeat: "idempotent",
      },
      registryModuleVersionDocumentSchema,
    );
    return toVersion(doc.data);
  }

  /** `POST /organizations/:org/registry-modules`: publishes a module without a VCS connection. Not repeated once sent. */
  async create(
    organization: string,
    options: {
      name: string;
      provider: string;
      registryName?: "private" | "public";
      namespace?: string;
      noCode?: boolean;
    },
  ): Promise<RegistryModule> {
    const attributes: Record<string, unknown> = { name: options.name, provider: options.provider };
    if (options.registryName) attributes["registry-name"] = options.registryName;
    if (options.namespace) attributes.namespace = options.namespace;
    if (options.noCode !== undefined) attributes["no-code"] = options.noCode;
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("organizations", organization, "registry-modules"),
        body: { data: { type: "registry-modules", attributes } },
        repeat: "once",
        conflict: "create",
      },
      registryModuleDocumentSchema,
    );
    return toRegistryModule(doc.data);
  }

  /** `POST .../versions`: adds a version to a module. Not repeated once sent. */
  async createVersion(address: RegistryModuleAddress, version: string): Promise<RegistryModuleVersion> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: addressPath(address, "versions"),
        body: { data: { type: "registry-module-versions", attributes: { version } } },
        repeat: "once",
        conflict: "create",
      },
      registryModuleVersionDocumentSchema,
    );
    return toVersion(doc.data);
  }
}
