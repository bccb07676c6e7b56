/**
 * No-code modules (spec 2.7, 2.8, 4.12 to 4.14): enabling a registry module for no-code
 * provisioning, changing its settings, reading it.
 */
import { noCodeModuleDocumentSchema, variableOptionsResourceSchema, type NoCodeModuleResource } from "../api/no-code";
import type { AnyResource } from "../api/common";
import { orUnavailable, organizationOwner } from "./features";
import { type Transport, urlPath } from "./transport";
import { relId, relIds } from "./wire";
import { type NoCodeUpgrades, NoCodeWorkspaces, type NoCodeWorkspaceCreateOptions } from "./no-code-workspaces";
import type { Workspace } from "./workspaces";

/** Allowed values of one module variable. */
export interface VariableOptions {
  /** Option set id (`ncvo-...`). */
  id: string;
  /** Module variable the options apply to. */
  variableName: string;
  /** Type of that variable (`string`, `number`, ...). */
  variableType: string;
  /** The values users may choose from. */
  options: unknown[];
}

/** A no-code module: a registry module enabled for no-code provisioning. */
export interface NoCodeModule {
  /** No-code module id (`nocode-...`). */
  id: string;
  /** Whether workspaces may be created from it. */
  enabled: boolean;
  /** Module version new workspaces are provisioned from. */
  versionPin: string;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** The registry module (`mod-...`) it is made from, or null. */
  registryModuleId: string | null;
  /** Ids of its variable option sets. */
  variableOptionIds: string[];
  /** Present when read with `includeVariableOptions`. */
  variableOptions?: VariableOptions[];
  /** Links the service sends (`self`). */
  links: { self?: string };
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** An option set to create or (with `id`) replace. */
export interface VariableOptionsInput {
  /** Update only: replaces the existing set with this id instead of creating a new one. */
  id?: string;
  /** Module variable the options apply to. */
  variableName: string;
  /** Type of that variable (`string`, `number`, ...). */
  variableType: string;
  /** The values users may choose from. */
  options: unknown[];
}

/** What `noCode.enable` sends. */
export interface NoCodeModuleEnableOptions {
  /** The registry module (`mod-...`) to enable. */
  registryModuleId: string;
  /** Module version used for provisioning; the latest version when omitted. */
  versionPin?: string;
  /** Defaults to false on the service. */
  enabled?: boolean;
  /** Option sets to create with the module. */
  variableOptions?: Omit<VariableOptionsInput, "id">[];
}

/** What `noCode.update` sends: only the given settings change. */
export interface NoCodeModuleUpdateOptions {
  /** Module version new workspaces and upgrades use. */
  versionPin?: string;
  /** Whether workspaces may be created from it. */
  enabled?: boolean;
  /** The registry module it is made from. */
  registryModuleId?: string;
  /** Option sets: one with `id` replaces that set, one without creates a set. */
  variableOptions?: VariableOptionsInput[];
}

/** Options of `noCode.read`. */
export interface NoCodeModuleReadOptions {
  /** Adds the option sets (`include=variable_options`). */
  includeVariableOptions?: boolean;
}

function toNoCodeModule(r: NoCodeModuleResource, included: AnyResource[] | undefined): NoCodeModule {
  const links = r.links ?? {};
  const out: NoCodeModule = {
    id: r.id,
    enabled: r.attributes.enabled,
    versionPin: r.attributes["version-pin"],
    organization: relId(r, "organization"),
    registryModuleId: relId(r, "registry-module"),
    variableOptionIds: relIds(r, "variable-options"),
    links: typeof links.self === "string" ? { self: links.self } : {},
    attributes: r.attributes,
  };
  if (included) {
    out.variableOptions = included
      .filter((i) => i.type === "variable-options")
      .flatMap((i) => {
        const parsed = variableOptionsResourceSchema.safeParse(i);
        return parsed.success
          ? [
              {
                id: parsed.data.id,
                variableName: parsed.data.attributes["variable-name"],
                variableType: parsed.data.attributes["variable-type"],
                options: parsed.data.attributes.options,
              },
            ]
          : [];
      });
  }
  return out;
}

function variableOptionsBody(items: VariableOptionsInput[]): { data: unknown[] } {
  return {
    data: items.map((v) => ({
      type: "variable-options",
      ...(v.id ? { id: v.id } : {}),
      attributes: { "variable-name": v.variableName, "variable-type": v.variableType, options: v.options },
    })),
  };
}

/** No-code calls of a {@link WorkspacesClient} (`client.noCode`). */
export class NoCodeModules {
  /** Upgrades of workspaces created from a module. */
  readonly upgrade: NoCodeUpgrades;
  readonly #workspaces: NoCodeWorkspaces;

  constructor(private readonly transport: Transport) {
    this.#workspaces = new NoCodeWorkspaces(transport, async (id) => (await this.read(id)).organization);
    this.upgrade = this.#workspaces.upgrade;
  }

  /** `POST /no-code-modules/:id/workspaces`: see {@link NoCodeWorkspaces.create}. */
  createWorkspace(noCodeModuleId: string, options: NoCodeWorkspaceCreateOptions): Promise<Workspace> {
    return this.#workspaces.create(noCodeModuleId, options);
  }

  /**
   * `POST /organizations/:org/no-code-modules`. A create: never repeated once it reached
   * the service. A 404 while the organization reads fine gives FeatureUnavailableError
   * (a server without no-code provisioning, or one that refuses it to this kind of token).
   */
  async enable(organization: string, options: NoCodeModuleEnableOptions): Promise<NoCodeModule> {
    const attributes: Record<string, unknown> = {};
    if (options.versionPin !== undefined) attributes["version-pin"] = options.versionPin;
    if (options.enabled !== undefined) attributes.enabled = options.enabled;
    const relationships: Record<string, unknown> = {
      "registry-module": { data: { type: "registry-module", id: options.registryModuleId } },
    };
    if (options.variableOptions) relationships["variable-options"] = variableOptionsBody(options.variableOptions);
    const doc = await orUnavailable(this.transport, "no-code provisioning", organizationOwner(organization), () =>
      this.transport.requestParsed(
        {
          method: "POST",
          path: urlPath("organizations", organization, "no-code-modules"),
          body: { data: { type: "no-code-modules", attributes, relationships } },
          repeat: "once",
          conflict: "create",
        },
        noCodeModuleDocumentSchema,
      ),
    );
    return toNoCodeModule(doc.data, doc.included);
  }

  /** `PATCH /no-code-modules/:id`: absent settings keep their value. */
  async update(noCodeModuleId: string, options: NoCodeModuleUpdateOptions): Promise<NoCodeModule> {
    const attributes: Record<string, unknown> = {};
    if (options.versionPin !== undefined) attributes["version-pin"] = options.versionPin;
    if (options.enabled !== undefined) attributes.enabled = options.enabled;
    const relationships: Record<string, unknown> = {};
    if (options.registryModuleId)
      relationships["registry-module"] = { data: { type: "registry-module", id: options.registryModuleId } };
    if (options.variableOptions) relationships["variable-options"] = variableOptionsBody(options.variableOptions);
    const data: Record<string, unknown> = { type: "no-code-modules", attributes };
    if (Object.keys(relationships).length) data.relationships = relationships;
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path: urlPath("no-code-modules", noCodeModuleId), body: { data }, repeat: "idempotent" },
      noCodeModuleDocumentSchema,
    );
    return toNoCodeModule(doc.data, doc.included);
  }

  /** `DELETE /no-code-modules/:id`: withdraws the module from no-code provisioning. */
  async delete(noCodeModuleId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("no-code-modules", noCodeModuleId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `GET /no-code-modules/:id`, optionally with its variable options. */
  async read(noCodeModuleId: string, options: NoCodeModuleReadOptions = {}): Promise<NoCodeModule> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("no-code-modules", noCodeModuleId),
        query: { include: options.includeVariableOptions ? "variable_options" : undefined },
        repeat: "idempotent",
      },
      noCodeModuleDocumentSchema,
    );
    return toNoCodeModule(doc.data, options.includeVariableOptions ? (doc.included ?? []) : undefined);
  }
}
