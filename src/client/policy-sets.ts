/**
 * Policy sets of an organization (`client.policySets`): which policies run on which
 * workspaces. A set holds its policies attached individually (`addPolicies`) or as a
 * version uploaded from a folder (`client.policySetVersions`), and applies to the
 * workspaces and projects it lists, less its exclusions, or to every workspace when
 * `global`.
 */
import type { z } from "zod";
import {
  POLICY_SET_LIST_TYPES,
  policySetCreateRequestSchema,
  policySetDocumentSchema,
  policySetListDocumentSchema,
  policySetPoliciesBodySchema,
  policySetProjectsBodySchema,
  policySetUpdateRequestSchema,
  policySetWorkspacesBodySchema,
  type POLICY_SET_INCLUDES,
  type PolicySetList,
  type PolicySetResource,
} from "../api/policy-sets";
import { orUnavailable, organizationOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { checkedBody, relId, relIds, toWire } from "./wire";

/** A policy set. */
export interface PolicySet {
  /** Set id (`polset-...`). */
  id: string;
  /** Name, unique in the organization. */
  name: string;
  /** Description, or null. */
  description: string | null;
  /** `sentinel`, `opa`, or a kind this release does not know, as the service says it. */
  kind: string;
  /** OPA only: whether a member of the organization may override a failed mandatory policy; null for Sentinel. */
  overridable: boolean | null;
  /** Whether the set applies to every workspace of the organization. */
  global: boolean;
  /** The folder of a versioned set's policies inside its version, or null. */
  policiesPath: string | null;
  /** How many policies the set holds, or null when the service does not say. */
  policyCount: number | null;
  /** How many workspaces the set lists, or null when the service does not say. */
  workspaceCount: number | null;
  /** How many projects the set lists, or null when the service does not say. */
  projectCount: number | null;
  /** Whether the set's policies are evaluated by agents, or null when the service does not say. */
  agentEnabled: boolean | null;
  /** The policy tool version the set's policies run with, or null. */
  policyToolVersion: string | null;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** Policies attached individually (`policies`). */
  policyIds: string[];
  /** Workspaces the set lists (`workspaces`). */
  workspaceIds: string[];
  /** Projects whose workspaces the set applies to (`projects`). */
  projectIds: string[];
  /** Workspaces the set never applies to (`workspace-exclusions`). */
  workspaceExclusionIds: string[];
  /** Projects whose workspaces the set never applies to (`project-exclusions`). */
  projectExclusionIds: string[];
  /** The latest version that was ingested successfully (`current-version`), or null. */
  currentVersionId: string | null;
  /** The latest version, whatever its status (`newest-version`), or null. */
  newestVersionId: string | null;
  /** When the set was created (ISO 8601), or null when the service does not say. */
  createdAt: string | null;
  /** When the set last changed (ISO 8601), or null when the service does not say. */
  updatedAt: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** Settings a create and an update both take. */
interface PolicySetSettings {
  /** Description; `null` clears it on update. */
  description?: string | null;
  /** Whether the set applies to every workspace of the organization. */
  global?: boolean;
  /** OPA only: whether a member of the organization may override a failed mandatory policy. */
  overridable?: boolean;
  /** Whether the set's policies are evaluated by agents. */
  agentEnabled?: boolean;
  /** The policy tool version the set's policies run with. */
  policyToolVersion?: string;
  /** The folder of the policies inside a version (VCS sets). */
  policiesPath?: string;
}

/** A policy set to create. */
export interface PolicySetCreateOptions extends PolicySetSettings {
  /** Name, unique in the organization: letters, digits, `-`, `_` and `.`. */
  name: string;
  /** `sentinel` (the service's default) or `opa`; another kind is sent as given, and the service decides. */
  kind?: string;
  /** Policies to attach individually (`pol-...`). */
  policyIds?: string[];
  /** Workspaces the set applies to (`ws-...`). */
  workspaceIds?: string[];
  /** Projects whose workspaces the set applies to (`prj-...`). */
  projectIds?: string[];
  /** Workspaces the set never applies to (`ws-...`). */
  workspaceExclusionIds?: string[];
  /** Projects whose workspaces the set never applies to (`prj-...`). */
  projectExclusionIds?: string[];
}

/** What to change: only the settings given change. The kind never changes; the lists change through their own calls. */
export interface PolicySetUpdateOptions extends PolicySetSettings {
  /** A new name, unique in the organization. */
  name?: string;
}

/** Filters of the policy set list. */
export interface PolicySetListOptions {
  /** A part of the name (`search[name]`). */
  search?: string;
  /** Only sets of this kind (`filter[kind]`). */
  kind?: string;
  /** Related records to include (`include`). */
  include?: (typeof POLICY_SET_INCLUDES)[number][];
}

/** Options of a policy set read. */
export interface PolicySetReadOptions {
  /** Related records to include (`include`); the read answers every list without them. */
  include?: (typeof POLICY_SET_INCLUDES)[number][];
}

function toPolicySet(r: PolicySetResource): PolicySet {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    description: a.description ?? null,
    kind: a.kind,
    overridable: a.overridable ?? null,
    global: a.global ?? false,
    policiesPath: a["policies-path"] ?? null,
    policyCount: a["policy-count"] ?? null,
    workspaceCount: a["workspace-count"] ?? null,
    projectCount: a["project-count"] ?? null,
    agentEnabled: a["agent-enabled"] ?? null,
    policyToolVersion: a["policy-tool-version"] ?? null,
    organization: relId(r, "organization"),
    policyIds: relIds(r, "policies"),
    workspaceIds: relIds(r, "workspaces"),
    projectIds: relIds(r, "projects"),
    workspaceExclusionIds: relIds(r, "workspace-exclusions"),
    projectExclusionIds: relIds(r, "project-exclusions"),
    currentVersionId: relId(r, "current-version"),
    newestVersionId: relId(r, "newest-version"),
    createdAt: a["created-at"] ?? null,
    updatedAt: a["updated-at"] ?? null,
    attributes: a,
  };
}

/** A list relationship as the wire writes it: each id with the type the list holds. */
function listBody(list: PolicySetList, ids: readonly string[]) {
  return { data: ids.map((id) => ({ type: POLICY_SET_LIST_TYPES[list], id })) };
}

/** The relationships of the lists a create gives. */
function listsOf(options: PolicySetCreateOptions): Record<string, unknown> | undefined {
  const given: [PolicySetList, string[] | undefined][] = [
    ["policies", options.policyIds],
    ["workspaces", options.workspaceIds],
    ["projects", options.projectIds],
    ["workspace-exclusions", options.workspaceExclusionIds],
    ["project-exclusions", options.projectExclusionIds],
  ];
  const out: Record<string, unknown> = {};
  for (const [list, ids] of given) if (ids !== undefined && ids.length > 0) out[list] = listBody(list, ids);
  return Object.keys(out).length > 0 ? out : undefined;
}

const SETTINGS = ["description", "global", "overridable", "agentEnabled", "policyToolVersion", "policiesPath"] as const;

/** The request schema of each list's add and remove. */
const LIST_BODY_SCHEMAS: Readonly<Record<PolicySetList, z.ZodType<unknown>>> = {
  policies: policySetPoliciesBodySchema,
  workspaces: policySetWorkspacesBodySchema,
  "workspace-exclusions": policySetWorkspacesBodySchema,
  projects: policySetProjectsBodySchema,
  "project-exclusions": policySetProjectsBodySchema,
};

/** Policy set calls of a {@link WorkspacesClient} (`client.policySets`). */
export class PolicySets {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /organizations/:org/policy-sets`, 100 per page. The name filter is applied to
   * what comes back as well, for servers that ignore it. A server that does not offer
   * policy sets raises {@link FeatureUnavailableError}.
   */
  list(organization: string, options: PolicySetListOptions = {}): PagedList<PolicySet> {
    const search = options.search?.toLowerCase();
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "policy-sets"),
      { "search[name]": options.search, "filter[kind]": options.kind, include: options.include?.join(",") },
      policySetListDocumentSchema,
      toPolicySet,
      (request) => orUnavailable(this.transport, "policy sets", organizationOwner(organization), request),
      search || options.kind
        ? (s) => (!search || s.name.toLowerCase().includes(search)) && (!options.kind || s.kind === options.kind)
        : undefined,
    );
  }

  /** `GET /policy-sets/:id`, with every list it holds. */
  async read(policySetId: string, options: PolicySetReadOptions = {}): Promise<PolicySet> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("policy-sets", policySetId),
        query: { include: options.include?.join(",") },
        repeat: "idempotent",
      },
      policySetDocumentSchema,
    );
    return toPolicySet(doc.data);
  }

  /**
   * `POST /organizations/:org/policy-sets`; never repeated after it reached the service (a
   * second would be refused by name). A server that does not offer policy sets raises
   * {@link FeatureUnavailableError}.
   */
  async create(organization: string, options: PolicySetCreateOptions): Promise<PolicySet> {
    const path = urlPath("organizations", organization, "policy-sets");
    const relationships = listsOf(options);
    const attributes = toWire(options, ["name", "kind", ...SETTINGS]);
    const body = checkedBody(policySetCreateRequestSchema, "POST", path, {
      data: { type: "policy-sets", attributes, ...(relationships ? { relationships } : {}) },
    });
    const doc = await orUnavailable(this.transport, "policy sets", organizationOwner(organization), () =>
      this.transport.requestParsed(
        { method: "POST", path, body, repeat: "once", conflict: "create" },
        policySetDocumentSchema,
      ),
    );
    return toPolicySet(doc.data);
  }

  /** `PATCH /policy-sets/:id`: setting the same values twice leaves the same set, so it is retried like a read. */
  async update(policySetId: string, options: PolicySetUpdateOptions): Promise<PolicySet> {
    const path = urlPath("policy-sets", policySetId);
    const attributes = toWire(options, ["name", ...SETTINGS]);
    const body = checkedBody(policySetUpdateRequestSchema, "PATCH", path, {
      data: { type: "policy-sets", attributes },
    });
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path, body, repeat: "idempotent" },
      policySetDocumentSchema,
    );
    return toPolicySet(doc.data);
  }

  /**
   * `DELETE /policy-sets/:id`; a retry that finds the set gone means the first attempt
   * deleted it. Its parameters and versions go with it; its policies stay.
   */
  async delete(policySetId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("policy-sets", policySetId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `POST /policy-sets/:id/relationships/policies`: attaches policies (`pol-...`) individually. */
  addPolicies(policySetId: string, policyIds: readonly string[]): Promise<void> {
    return this.relate("POST", policySetId, "policies", policyIds);
  }

  /** `DELETE /policy-sets/:id/relationships/policies`: detaches policies; the policies stay. */
  removePolicies(policySetId: string, policyIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", policySetId, "policies", policyIds);
  }

  /** `POST /policy-sets/:id/relationships/workspaces`: applies the set to workspaces (`ws-...`). */
  addWorkspaces(policySetId: string, workspaceIds: readonly string[]): Promise<void> {
    return this.relate("POST", policySetId, "workspaces", workspaceIds);
  }

  /** `DELETE /policy-sets/:id/relationships/workspaces`. */
  removeWorkspaces(policySetId: string, workspaceIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", policySetId, "workspaces", workspaceIds);
  }

  /** `POST /policy-sets/:id/relationships/workspace-exclusions`: workspaces (`ws-...`) the set never applies to. */
  addWorkspaceExclusions(policySetId: string, workspaceIds: readonly string[]): Promise<void> {
    return this.relate("POST", policySetId, "workspace-exclusions", workspaceIds);
  }

  /** `DELETE /policy-sets/:id/relationships/workspace-exclusions`. */
  removeWorkspaceExclusions(policySetId: string, workspaceIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", policySetId, "workspace-exclusions", workspaceIds);
  }

  /** `POST /policy-sets/:id/relationships/projects`: applies the set to the workspaces of projects (`prj-...`). */
  addProjects(policySetId: string, projectIds: readonly string[]): Promise<void> {
    return this.relate("POST", policySetId, "projects", projectIds);
  }

  /** `DELETE /policy-sets/:id/relationships/projects`. */
  removeProjects(policySetId: string, projectIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", policySetId, "projects", projectIds);
  }

  /** `POST /policy-sets/:id/relationships/project-exclusions`: projects (`prj-...`) whose workspaces the set never applies to. */
  addProjectExclusions(policySetId: string, projectIds: readonly string[]): Promise<void> {
    return this.relate("POST", policySetId, "project-exclusions", projectIds);
  }

  /** `DELETE /policy-sets/:id/relationships/project-exclusions`. */
  removeProjectExclusions(policySetId: string, projectIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", policySetId, "project-exclusions", projectIds);
  }

  /**
   * Adds to or removes from one list. Adding what is there or removing what is not
   * changes nothing, so it is retried like a read; an empty list sends nothing.
   */
  private async relate(
    method: "POST" | "DELETE",
    policySetId: string,
    list: PolicySetList,
    ids: readonly string[],
  ): Promise<void> {
    if (ids.length === 0) return;
    const path = urlPath("policy-sets", policySetId, "relationships", list);
    const body = checkedBody(LIST_BODY_SCHEMAS[list], method, path, listBody(list, ids));
    await this.transport.request({ method, path, body, repeat: "idempotent" });
  }
}
