/** Provider of `AgentPool` (`/organizations/:org/agent-pools`, `/agent-pools/:id`), id `apool-...`. */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { ConflictError, ValidationError, type AgentPool as ApiAgentPool, type WorkspacesClient } from "../../client";
import { adoptable, nameTaken, type Adopter } from "./adoption";
import { firstNamed, nameKey } from "./by-name";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { confirmGone, unlessGone, updatedUnlessGone, type MissingRecord } from "./gone";
import { checkedOrganization } from "./inputs";
import { recoverLostCreate } from "./lost-create";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { AgentPoolArgs } from "../agent-pool";

/** Inputs as the engine hands them over. */
type AgentPoolInputs = pulumi.Unwrap<AgentPoolArgs>;

/** Outputs as stored in state. */
type AgentPoolOutputs = {
  name: string;
  organization: string | null;
  organizationScoped: boolean | null;
  createdAt: string | null;
};

/** A scope the service does not report reads as the one declared (liberal reading). */
function sameScope(desired: unknown, actual: unknown): boolean {
  return actual === null || actual === undefined || desired === actual;
}

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "name" },
  { name: "organizationScoped", same: sameScope },
];

function poolLabel(name: unknown, id: string): string {
  return typeof name === "string" && name !== "" ? `agent pool "${name}" (${id})` : `agent pool ${id}`;
}

function missing(id: string, props: Props): MissingRecord {
  return { label: poolLabel(props.name, id), organization: props.organization, kind: "agent pool" };
}

function outputsOf(p: ApiAgentPool, organization: unknown): AgentPoolOutputs {
  return {
    name: p.name,
    organization: p.organization ?? (typeof organization === "string" ? organization : null),
    organizationScoped: p.organizationScoped,
    createdAt: p.createdAt,
  };
}

/** The pool named `name` in `organization`, or undefined. */
export function poolByName(
  client: WorkspacesClient,
  organization: string,
  name: string,
): Promise<ApiAgentPool | undefined> {
  return firstNamed(client.agentPools.list(organization, { query: name }), name);
}

function checkInputs(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const name = news.name;
  if (name === undefined || name === null) failures.push({ property: "name", reason: "name is required" });
  else if (!isUnknown(name) && (typeof name !== "string" || name.trim() === ""))
    failures.push({ property: "name", reason: "name must be a non-empty string" });
  const scoped = news.organizationScoped;
  if (scoped !== undefined && scoped !== null && !isUnknown(scoped) && typeof scoped !== "boolean")
    failures.push({ property: "organizationScoped", reason: "organizationScoped must be true or false" });
  return failures;
}

function notAPoolId(id: string): ProviderError {
  return new ProviderError(
    `${JSON.stringify(id)} is not the id of an AgentPool: give its apool-<id> (apool-8bQwPz3YtLm6VnRs) or <organization>/<name>`,
  );
}

/** The pool of an import id `<organization>/<name>`, or the error that says what the id must be. */
async function importedByName(client: WorkspacesClient, id: string): Promise<ApiAgentPool | undefined> {
  const slash = id.indexOf("/");
  const organization = id.slice(0, slash);
  const name = id.slice(slash + 1);
  if (organization === "" || name === "" || name.includes("/")) throw notAPoolId(id);
  return poolByName(client, organization, name);
}

/** The workspaces that run on the pool, as far as the service names them. */
async function workspacesOn(client: WorkspacesClient, id: string): Promise<number> {
  const p = await client.agentPools.read(id, { include: ["workspaces"] });
  return p.workspaceIds.length;
}

function stillUsed(label: string, what: string): ProviderError {
  return new ProviderError(
    `cannot delete ${label}: ${what}. Move them to another execution mode or pool first (a WorkspaceSettings or ` +
      "Workspace with `executionMode` and `agentPoolId`, in this stack or the one that owns them), then run the destroy " +
      "again; or keep the pool and remove it from the stack with `pulumi state delete <urn>` (the URN is shown with this " +
      "error and by `pulumi stack --show-urns`).",
  );
}

const provider: ProviderImpl<AgentPoolInputs & Props, AgentPoolOutputs> = {
  async check(olds, news) {
    const inputs: Props = { ...news };
    const failures: CheckFailure[] = [];
    checkedOrganization(olds, news, inputs, failures);
    failures.push(...checkInputs(news));
    return { inputs: inputs as AgentPoolInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const name = String(inputs.name);
    const scoped = inputs.organizationScoped;
    const started = Date.now();
    const p = await client.agentPools
      .create(organization, { name, ...(typeof scoped === "boolean" ? { organizationScoped: scoped } : {}) })
      .catch((err: unknown) => {
        if (isNotFound(err))
          throw new ProviderError(
            `cannot create agent pool "${name}" in organization "${organization}": the service answered 404, so the organization does not exist or the token in use may not manage its agent pools (creating agent pools takes an owners token or an organization token).`,
          );
        // A create whose answer was lost: the pool of this name made since it started is its own.
        return recoverLostCreate(
          err,
          async () => {
            const found = await poolByName(client, organization, name);
            if (!found) throw err;
            return { ...found, createdAt: found.createdAt ?? "" };
          },
          started,
        );
      });
    return { id: p.id, outs: outputsOf(p, organization) };
  },

  async read(id, props) {
    const client = getClient();
    if (id.includes("/")) {
      const found = await importedByName(client, id);
      return found ? { id: found.id, props: outputsOf(found, props.organization) } : {};
    }
    if (!isId("agentPool", id)) throw notAPoolId(id);
    return unlessGone(
      client,
      missing(id, props),
      "refresh",
      async () => ({ id, props: outputsOf(await client.agentPools.read(id), props.organization) }),
      () => ({}),
    );
  },

  async update(id, olds, news) {
    const client = getClient();
    const { changed } = diffFields(olds, news, FIELDS);
    const options: { name?: string; organizationScoped?: boolean } = {};
    if (changed.includes("name")) options.name = String(news.name);
    if (changed.includes("organizationScoped")) options.organizationScoped = news.organizationScoped === true;
    const p = await updatedUnlessGone(client, missing(id, olds), () =>
      Object.keys(options).length > 0 ? client.agentPools.update(id, options) : client.agentPools.read(id),
    );
    return { outs: outputsOf(p, olds.organization ?? news.organization) };
  },

  async delete(id, props) {
    const client = getClient();
    const label = poolLabel(props.name, id);
    try {
      // Refused before any write: the service would refuse it too, after the engine had planned around it.
      const count = await workspacesOn(client, id);
      if (count > 0) throw stillUsed(label, `${count} workspace${count === 1 ? " still runs" : "s still run"} on it`);
      await client.agentPools.delete(id);
    } catch (err) {
      if (err instanceof ValidationError || err instanceof ConflictError)
        throw stillUsed(label, `the service refuses it while it is in use (${err.detail || err.message})`);
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "delete");
    }
  },
};

const agentPoolAdopter: Adopter = {
  noun: "agent pool",
  key: nameKey,
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const p = await poolByName(client, organization, String(inputs.name));
    if (!p) return undefined;
    return {
      id: p.id,
      label: `agent pool "${p.name}" (${p.id}) in organization "${organization}"`,
      seed: { organization },
    };
  },
  isTaken: nameTaken,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Programs on the provider plugin can instead `pulumi import workspaces:index:AgentPool` it by that apool- id. Otherwise choose another name.",
};

export const agentPoolProvider = adoptable(provider, agentPoolAdopter);
