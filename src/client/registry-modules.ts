/**
 * Private registry modules: the reads a no-code module needs (its registry module id
 * and which versions exist).
 */
import { listDocumentSchema } from "../api/common";
import { registryModuleDocumentSchema, registryModuleResourceSchema, type RegistryModuleResource } from "../api/organizations";
import { PagedList, pagedGet } from "./pagination";
import { Transport, urlPath } from "./transport";
import { relId } from "./wire";

export interface RegistryModuleVersionStatus {
  version: string;
  status: string;
}

export interface RegistryModule {
  id: string;
  name: string;
  provider: string;
  namespace: string | null;
  registryName: string | null;
  organization: string | null;
  status: string | null;
  noCode: boolean | null;
  /** Versions the registry holds, with their ingestion status. */
  versionStatuses: RegistryModuleVersionStatus[];
  attributes: Record<string, unknown>;
}

/** Where a module lives: `organization/registry/namespace/name/provider`. */
export interface RegistryModuleAddress {
  organization: string;
  /** Defaults to the organization name, as for private modules. */
  namespace?: string;
  name: string;
  provider: string;
  /** `private` (default) or `public`. */
  registryName?: "private" | "public";
}

const registryModuleListDocumentSchema = listDocumentSchema(registryModuleResourceSchema);

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
    attributes: a as Record<string, unknown>,
  };
}

export class RegistryModules {
  constructor(private readonly transport: Transport) {}

  /** `GET /organizations/:org/registry-modules/:registry/:namespace/:name/:provider`. */
  async read(address: RegistryModuleAddress): Promise<RegistryModule> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath(
          "organizations",
          address.organization,
          "registry-modules",
          address.registryName ?? "private",
          address.namespace ?? address.organization,
          address.name,
          address.provider,
        ),
        repeat: "idempotent",
      },
      registryModuleDocumentSchema,
    );
    return toRegistryModule(doc.data);
  }

  /** `GET /organizations/:org/registry-modules`, 100 per page. */
  list(organization: string): PagedList<RegistryModule> {
    return pagedGet(this.transport, urlPath("organizations", organization, "registry-modules"), {}, registryModuleListDocumentSchema, toRegistryModule);
  }

  /** Finds a module by id among the organization's modules (the service has no read by id). */
  async readById(organization: string, registryModuleId: string): Promise<RegistryModule | undefined> {
    for await (const m of this.list(organization)) if (m.id === registryModuleId) return m;
    return undefined;
  }
}
