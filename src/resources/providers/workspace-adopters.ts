/**
 * The adopters of the workspace-shaped records: a workspace by organization and name, a
 * no-code workspace by the module it was made from, a no-code module by its registry
 * module (see ./adoption.ts for how adoption runs).
 */
import { NotFoundError, ValidationError, type Workspace as ApiWorkspace, type WorkspacesClient } from "../../client";
import { nameKey } from "./by-name";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import { fromSnapshot } from "../process/snapshot";
import { text } from "../../api/common";
import { nameTaken, type Adopter, type Found } from "./adoption";
import type { Props } from "./types";

/** The workspace of that name, from the listing of its declared project (else of the organization), else by name (undefined on a 404). */
async function byName(
  client: WorkspacesClient,
  organization: string,
  name: string,
  project?: unknown,
): Promise<ApiWorkspace | undefined> {
  const listed = await fromSnapshot(client, organization, { name }, project);
  if (listed) return listed.workspace;
  try {
    return await client.workspaces.readByName(organization, name);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

function sourceOf(ws: ApiWorkspace): Found["source"] {
  return { sourceName: ws.sourceName, sourceUrl: ws.sourceUrl };
}

function workspaceLabelOf(ws: ApiWorkspace, organization: string): string {
  return `workspace "${ws.name}" (${ws.id}) in organization "${organization}"`;
}

async function describeWorkspace(client: WorkspacesClient, inputs: Props): Promise<string | undefined> {
  const organization = String(inputs.organization);
  const ws = await byName(client, organization, String(inputs.name), inputs.project);
  return ws ? workspaceLabelOf(ws, organization) : undefined;
}

export const workspaceAdopter: Adopter = {
  noun: "workspace",
  key: nameKey,
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const ws = await byName(client, organization, String(inputs.name), inputs.project);
    if (!ws) return undefined;
    return {
      id: ws.id,
      label: workspaceLabelOf(ws, organization),
      seed: { organization, forceDelete: inputs.forceDelete, project: ws.projectId },
      source: sourceOf(ws),
    };
  },
  isTaken: nameTaken,
  describeExisting: describeWorkspace,
  otherwise: "Otherwise choose another name.",
};

/** A workspace made from a no-code module names it (`no-code-module-id`), or at least its registry module (`source-module-id`). */
async function madeFrom(
  client: WorkspacesClient,
  ws: ApiWorkspace,
  noCodeModuleId: string,
): Promise<boolean | undefined> {
  const stamped = ws.attributes["no-code-module-id"];
  if (typeof stamped === "string" && stamped !== "") return stamped === noCodeModuleId;
  if (!ws.sourceModuleId) return false;
  try {
    return (await client.noCode.read(noCodeModuleId)).registryModuleId === ws.sourceModuleId;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

export const noCodeWorkspaceAdopter: Adopter = {
  noun: "workspace",
  key: nameKey,
  async find(client, inputs) {
    const moduleId = inputs.noCodeModuleId;
    // Without an organization of its own the workspace goes to the module's.
    const organization =
      typeof inputs.organization === "string" && inputs.organization !== ""
        ? inputs.organization
        : String((await client.noCode.read(String(moduleId))).organization);
    const ws = await byName(client, organization, String(inputs.name), inputs.project);
    if (!ws) return undefined;
    const label = workspaceLabelOf(ws, organization);
    if (typeof moduleId === "string" && !isUnknown(moduleId)) {
      const same = await madeFrom(client, ws, moduleId);
      if (!same) {
        const from = ws.sourceModuleId
          ? `was made from another module (${text(ws.attributes["no-code-module-id"] ?? ws.sourceModuleId)})`
          : "was not made from a no-code module";
        throw new ProviderError(
          `cannot adopt ${label} as a workspace of no-code module ${moduleId}: it ${from}. ` +
            (ws.sourceModuleId
              ? "Set noCodeModuleId to that module, or choose another name."
              : "Declare it as a Workspace with adopt: true instead."),
        );
      }
    }
    // The service never shows a sensitive value: the declared one is taken as the record's.
    const declared = new Map<string, Props>();
    if (Array.isArray(inputs.variables)) for (const v of inputs.variables as Props[]) declared.set(String(v?.key), v);
    const sensitiveValues: Record<string, string> = {};
    const variables = (await client.variables.list(ws.id)).map((v) => {
      if (v.sensitive) sensitiveValues[v.key] = text(declared.get(v.key)?.value);
      return {
        key: v.key,
        ...(v.sensitive ? {} : { value: v.value ?? "" }),
        category: v.category,
        hcl: v.hcl,
        sensitive: v.sensitive,
        ...(v.description ? { description: v.description } : {}),
      };
    });
    return { id: ws.id, label, seed: { ...inputs, organization, variables, sensitiveValues }, source: sourceOf(ws) };
  },
  isTaken: nameTaken,
  describeExisting: describeWorkspace,
  otherwise: "Otherwise choose another name.",
};

export const noCodeModuleAdopter: Adopter = {
  noun: "no-code module",
  key(inputs) {
    const id = inputs.registryModuleId;
    return typeof id === "string" && !isUnknown(id) ? `of registry module ${id}` : undefined;
  },
  async find(client, inputs) {
    const registryModuleId = String(inputs.registryModuleId);
    let ids: string[];
    try {
      ids = (await client.registryModules.readById(registryModuleId)).noCodeModuleIds;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
    if (ids.length === 0) return undefined;
    return {
      id: ids[0],
      label: `no-code module ${ids[0]} of registry module ${registryModuleId}`,
      seed: { organization: inputs.organization },
    };
  },
  isTaken: (err) =>
    err instanceof ValidationError && err.problems.some((p) => /already enabled for no-code/i.test(p.detail)),
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise: "Otherwise read it without managing it with NoCodeModule.get.",
};
