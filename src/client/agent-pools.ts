/**
 * Agent pools of an organization (`client.agentPools`): where the runs of the workspaces
 * on agent execution go, and which workspaces and projects may use each pool.
 */
import {
  AGENT_POOL_LIST_TYPES,
  agentPoolCreateRequestSchema,
  agentPoolDocumentSchema,
  agentPoolListDocumentSchema,
  agentPoolUpdateRequestSchema,
  type AGENT_POOL_INCLUDES,
  type AGENT_POOL_SORTS,
  type AgentPoolList,
  type AgentPoolResource,
} from "../api/agent-pools";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { checkedBody, relId, relIds } from "./wire";

/** An agent pool. */
export interface AgentPool {
  /** Agent pool id (`apool-...`). */
  id: string;
  /** Pool name, unique in the organization. */
  name: string;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /**
   * Whether every workspace of the organization may use the pool (`organization-scoped`);
   * null when the service does not say. When false, only the allowed workspaces and the
   * workspaces of the allowed projects may, never the excluded ones.
   */
  organizationScoped: boolean | null;
  /** When the pool was created (`created-at`, ISO 8601), or null when the service does not say. */
  createdAt: string | null;
  /** Agents connected to the pool (`agent-count`), or null when the service does not say. */
  agentCount: number | null;
  /** Workspaces the pool allows (`allowed-workspaces`). */
  allowedWorkspaceIds: string[];
  /** Projects whose workspaces the pool allows (`allowed-projects`). */
  allowedProjectIds: string[];
  /** Workspaces the pool never serves, whatever else allows them (`excluded-workspaces`). */
  excludedWorkspaceIds: string[];
  /** Workspaces that run on the pool (`workspaces`). */
  workspaceIds: string[];
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** An agent pool to create. */
export interface AgentPoolCreateOptions {
  /** Pool name, unique in the organization. */
  name: string;
  /** Whether every workspace of the organization may use it; the service's default is true. */
  organizationScoped?: boolean;
  /** Workspaces the pool allows (`ws-...`). */
  allowedWorkspaceIds?: string[];
  /** Projects whose workspaces the pool allows (`prj-...`). */
  allowedProjectIds?: string[];
  /** Workspaces the pool never serves (`ws-...`). */
  excludedWorkspaceIds?: string[];
}

/** What to change: only the settings given change. The lists change through their own calls. */
export interface AgentPoolUpdateOptions {
  /** A new name, unique in the organization. */
  name?: string;
  /** Whether every workspace of the organization may use it. */
  organizationScoped?: boolean;
}

/** Filters and order of the agent pool list. */
export interface AgentPoolListOptions {
  /** A part of the name (`q`). */
  query?: string;
  /** Only the pools that allow the workspace of this name (`filter[allowed_workspaces][name]`). */
  allowedWorkspaceName?: string;
  /** Only the pools that allow the project of this name (`filter[allowed_projects][name]`). */
  allowedProjectName?: string;
  /** Order (`sort`): `name`, `created-at`, or either with a leading `-` to reverse. */
  sort?: (typeof AGENT_POOL_SORTS)[number];
  /** Related records to include (`include`). */
  include?: (typeof AGENT_POOL_INCLUDES)[number][];
}

/** Options of an agent pool read. */
export interface AgentPoolReadOptions {
  /** Related records to include (`include`). */
  include?: (typeof AGENT_POOL_INCLUDES)[number][];
}

function toAgentPool(r: AgentPoolResource): AgentPool {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    organization: relId(r, "organization"),
    organizationScoped: a["organization-scoped"] ?? null,
    createdAt: a["created-at"] ?? null,
    agentCount: a["agent-count"] ?? null,
    allowedWorkspaceIds: relIds(r, "allowed-workspaces"),
    allowedProjectIds: relIds(r, "allowed-projects"),
    excludedWorkspaceIds: relIds(r, "excluded-workspaces"),
    workspaceIds: relIds(r, "workspaces"),
    attributes: a,
  };
}

/** A list relationship as the wire writes it: each id with the type the list holds. */
function listBody(list: AgentPoolList, ids: readonly string[]) {
  return { data: ids.map((id) => ({ type: AGENT_POOL_LIST_TYPES[list], id })) };
}

/** The relationships of the lists that are given. */
function listsOf(options: AgentPoolCreateOptions): Record<string, unknown> | undefined {
  const given: [AgentPoolList, string[] | undefined][] = [
    ["allowed-workspaces", options.allowedWorkspaceIds],
    ["allowed-projects", options.allowedProjectIds],
    ["excluded-workspaces", options.excludedWorkspaceIds],
  ];
  const out: Record<string, unknown> = {};
  for (const [list, ids] of given) if (ids !== undefined) out[list] = listBody(list, ids);
  return Object.keys(out).length > 0 ? out : undefined;
}

function attributesOf(options: AgentPoolUpdateOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (options.name !== undefined) out.name = options.name;
  if (options.organizationScoped !== undefined) out["organization-scoped"] = options.organizationScoped;
  return out;
}

/** Agent pool calls of a {@link WorkspacesClient} (`client.agentPools`). */
export class AgentPools {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /organizations/:org/agent-pools`, 100 per page. The name filter is applied to
   * what comes back as well, for servers that ignore it.
   */
  list(organization: string, options: AgentPoolListOptions = {}): PagedList<AgentPool> {
    const query = options.query?.toLowerCase();
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "agent-pools"),
      {
        q: options.query,
        "filter[allowed_workspaces][name]": options.allowedWorkspaceName,
        "filter[allowed_projects][name]": options.allowedProjectName,
        sort: options.sort,
        include: options.include?.join(","),
      },
      agentPoolListDocumentSchema,
      toAgentPool,
      undefined,
      query ? (p) => p.name.toLowerCase().includes(query) : undefined,
    );
  }

  /** `GET /agent-pools/:id`, with its lists. */
  async read(agentPoolId: string, options: AgentPoolReadOptions = {}): Promise<AgentPool> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("agent-pools", agentPoolId),
        query: { include: options.include?.join(",") },
        repeat: "idempotent",
      },
      agentPoolDocumentSchema,
    );
    return toAgentPool(doc.data);
  }

  /** `POST /organizations/:org/agent-pools`; never repeated after it reached the service (a second would be refused by name). */
  async create(organization: string, options: AgentPoolCreateOptions): Promise<AgentPool> {
    const path = urlPath("organizations", organization, "agent-pools");
    const relationships = listsOf(options);
    const body = checkedBody(agentPoolCreateRequestSchema, "POST", path, {
      data: { type: "agent-pools", attributes: attributesOf(options), ...(relationships ? { relationships } : {}) },
    });
    const doc = await this.transport.requestParsed(
      { method: "POST", path, body, repeat: "once", conflict: "create" },
      agentPoolDocumentSchema,
    );
    return toAgentPool(doc.data);
  }

  /** `PATCH /agent-pools/:id` of the name and scope: setting the same values twice leaves the same pool, so it is retried like a read. */
  async update(agentPoolId: string, options: AgentPoolUpdateOptions): Promise<AgentPool> {
    return this.patch(agentPoolId, { type: "agent-pools", attributes: attributesOf(options) });
  }

  /** `PATCH /agent-pools/:id` of `allowed-workspaces`: the whole list the pool then has; `[]` clears it. */
  updateAllowedWorkspaces(agentPoolId: string, workspaceIds: readonly string[]): Promise<AgentPool> {
    return this.updateList(agentPoolId, "allowed-workspaces", workspaceIds);
  }

  /** `PATCH /agent-pools/:id` of `allowed-projects`: the whole list the pool then has; `[]` clears it. */
  updateAllowedProjects(agentPoolId: string, projectIds: readonly string[]): Promise<AgentPool> {
    return this.updateList(agentPoolId, "allowed-projects", projectIds);
  }

  /** `PATCH /agent-pools/:id` of `excluded-workspaces`: the whole list the pool then has; `[]` clears it. */
  updateExcludedWorkspaces(agentPoolId: string, workspaceIds: readonly string[]): Promise<AgentPool> {
    return this.updateList(agentPoolId, "excluded-workspaces", workspaceIds);
  }

  /**
   * `DELETE /agent-pools/:id`; a retry that finds the pool gone means the first attempt
   * deleted it. The service refuses a pool that workspaces still run on.
   */
  async delete(agentPoolId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("agent-pools", agentPoolId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  private updateList(agentPoolId: string, list: AgentPoolList, ids: readonly string[]): Promise<AgentPool> {
    return this.patch(agentPoolId, { type: "agent-pools", relationships: { [list]: listBody(list, ids) } });
  }

  private async patch(agentPoolId: string, data: Record<string, unknown>): Promise<AgentPool> {
    const path = urlPath("agent-pools", agentPoolId);
    const body = checkedBody(agentPoolUpdateRequestSchema, "PATCH", path, { data });
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path, body, repeat: "idempotent" },
      agentPoolDocumentSchema,
    );
    return toAgentPool(doc.data);
  }
}
