/**
 * Variable sets (`/organizations/:org/varsets`, `/varsets/:id`): named groups of
 * variables applied to workspaces, to projects or to every workspace of the
 * organization (`global`); their variables (`/varsets/:id/relationships/vars`); where
 * they apply; and a workspace's effective variables with where each comes from.
 */
import {
  effectiveVariablesOf,
  variableSetDocumentSchema,
  variableSetListDocumentSchema,
  type EffectiveVariable,
  type PrecedenceSet,
  type VariableSetResource,
  type VariableSetScope,
} from "../api/variable-sets";
import { orUnavailable, organizationOwner, workspaceOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { NotFoundError } from "./typed-errors";
import {
  VariableCollection,
  type Variable,
  type VariableCreateOptions,
  type VariableUpdateOptions,
  type Variables,
} from "./variables";
import { relId, relIds } from "./wire";
import type { Workspaces } from "./workspaces";

export type { EffectiveVariable, VariableSetScope, VariableSource } from "../api/variable-sets";

/** A variable set. */
export interface VariableSet {
  /** Set id (`varset-...`). */
  id: string;
  /** Name, unique in the organization. */
  name: string;
  /** Description, or null. */
  description: string | null;
  /** Applied to every workspace of the organization. */
  global: boolean;
  /** Its variables override the workspaces' own. */
  priority: boolean;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** The project that owns the set, or null when the organization does. */
  parentProjectId: string | null;
  /** Workspaces it is applied to (when the service says). */
  workspaceIds: string[];
  /** Projects it is applied to (when the service says). */
  projectIds: string[];
  /** Ids of its variables (when the service says). */
  variableIds: string[];
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A variable set to create. */
export interface VariableSetCreateOptions {
  /** Name, unique in the organization. */
  name: string;
  /** Description, at most 512 characters. */
  description?: string | null;
  /** Apply the set to every workspace of the organization (default false). */
  global?: boolean;
  /** Make its variables override the workspaces' own (default false). */
  priority?: boolean;
  /** A project to own the set (its admins then manage it); absent: the organization owns it. */
  parentProjectId?: string;
  /** Workspaces to apply it to at once. */
  workspaceIds?: string[];
  /** Projects to apply it to at once. */
  projectIds?: string[];
}

/** Changes to a variable set: only the given settings change; a list given replaces where the set applies. */
export interface VariableSetUpdateOptions {
  /** New name, unique in the organization. */
  name?: string;
  /** New description, at most 512 characters; null clears it. */
  description?: string | null;
  /** Apply the set to every workspace of the organization, or stop doing so. */
  global?: boolean;
  /** Make its variables override the workspaces' own, or stop doing so. */
  priority?: boolean;
  /** Replaces the workspaces the set is applied to. */
  workspaceIds?: string[];
  /** Replaces the projects the set is applied to. */
  projectIds?: string[];
}

/** Filters of a variable set list. */
export interface VariableSetListOptions {
  /** Only the sets whose name contains this text (`q`). */
  query?: string;
}

/** A workspace's effective variables, as {@link VariableSets.effectiveVariables} reads them. */
export interface EffectiveVariables {
  /** The workspace's id. */
  workspaceId: string;
  /** One per key and category: the variable that applies, where it comes from, and those it overrides. */
  variables: EffectiveVariable<Variable>[];
  /** The sets that reach the workspace, with how. */
  sets: { set: VariableSet; scopes: VariableSetScope[] }[];
}

function toVariableSet(r: VariableSetResource): VariableSet {
  const a = r.attributes;
  const parent = r.relationships?.parent?.data;
  const parentRef = parent && !Array.isArray(parent) ? parent : null;
  return {
    id: r.id,
    name: a.name,
    description: a.description ?? null,
    global: a.global ?? false,
    priority: a.priority ?? false,
    organization: relId(r, "organization") ?? (parentRef?.type === "organizations" ? parentRef.id : null),
    parentProjectId: parentRef?.type === "projects" ? parentRef.id : null,
    workspaceIds: relIds(r, "workspaces"),
    projectIds: relIds(r, "projects"),
    variableIds: relIds(r, "vars"),
    attributes: a,
  };
}

const identifiers = (type: string, ids: readonly string[]) => ({ data: ids.map((id) => ({ type, id })) });

function setRequestBody(options: VariableSetUpdateOptions & { parentProjectId?: string }): unknown {
  const attributes: Record<string, unknown> = {};
  if (options.name !== undefined) attributes.name = options.name;
  if (options.description !== undefined) attributes.description = options.description;
  if (options.global !== undefined) attributes.global = options.global;
  if (options.priority !== undefined) attributes.priority = options.priority;
  const relationships: Record<string, unknown> = {};
  if (options.workspaceIds) relationships.workspaces = identifiers("workspaces", options.workspaceIds);
  if (options.projectIds) relationships.projects = identifiers("projects", options.projectIds);
  if (options.parentProjectId) relationships.parent = { data: { type: "projects", id: options.parentProjectId } };
  return { data: { type: "varsets", attributes, ...(Object.keys(relationships).length ? { relationships } : {}) } };
}

/** Variable set calls of a {@link WorkspacesClient} (`client.variableSets`). */
export class VariableSets extends VariableCollection {
  constructor(
    transport: Transport,
    private readonly workspaces: Workspaces,
    private readonly variables: Variables,
  ) {
    super(transport, (setId) => urlPath("varsets", setId, "relationships", "vars"));
  }

  /** `GET /organizations/:org/varsets`, 100 per page (FeatureUnavailableError from a server without variable sets). */
  list(organization: string, options: VariableSetListOptions = {}): PagedList<VariableSet> {
    return this.pagedSets(urlPath("organizations", organization, "varsets"), options, organizationOwner(organization));
  }

  /** `GET /workspaces/:id/varsets`: the sets that reach the workspace. */
  listForWorkspace(workspaceId: string, options: VariableSetListOptions = {}): PagedList<VariableSet> {
    return this.pagedSets(urlPath("workspaces", workspaceId, "varsets"), options, workspaceOwner(workspaceId));
  }

  /** `GET /projects/:id/varsets`: the sets applied to the project. */
  listForProject(projectId: string, options: VariableSetListOptions = {}): PagedList<VariableSet> {
    return this.pagedSets(urlPath("projects", projectId, "varsets"), options, urlPath("projects", projectId));
  }

  /** `POST /organizations/:org/varsets`. Never repeated after it reached the service; a name taken is a 422. */
  async create(organization: string, options: VariableSetCreateOptions): Promise<VariableSet> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("organizations", organization, "varsets"),
        body: setRequestBody({ global: false, ...options }),
        repeat: "once",
        conflict: "create",
      },
      variableSetDocumentSchema,
    );
    return toVariableSet(doc.data);
  }

  /** `GET /varsets/:id`. */
  async read(variableSetId: string): Promise<VariableSet> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("varsets", variableSetId), repeat: "idempotent" },
      variableSetDocumentSchema,
    );
    return toVariableSet(doc.data);
  }

  /** `PATCH /varsets/:id`: only the given settings change. */
  async update(variableSetId: string, options: VariableSetUpdateOptions): Promise<VariableSet> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("varsets", variableSetId),
        body: setRequestBody(options),
        repeat: "idempotent",
      },
      variableSetDocumentSchema,
    );
    return toVariableSet(doc.data);
  }

  /** `DELETE /varsets/:id`: the set, its variables and where it applies. */
  async delete(variableSetId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("varsets", variableSetId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `POST /varsets/:id/relationships/workspaces`: workspaces it already applies to are left as they are. */
  applyToWorkspaces(variableSetId: string, workspaceIds: readonly string[]): Promise<void> {
    return this.relate("POST", variableSetId, "workspaces", workspaceIds);
  }

  /** `DELETE /varsets/:id/relationships/workspaces`: only the given workspaces. */
  removeFromWorkspaces(variableSetId: string, workspaceIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", variableSetId, "workspaces", workspaceIds);
  }

  /**
   * `POST /varsets/:id/relationships/projects`. A server without projects (its sets have
   * no `projects` relationship) fails with a FeatureUnavailableError naming `projects`.
   */
  applyToProjects(variableSetId: string, projectIds: readonly string[]): Promise<void> {
    return this.relate("POST", variableSetId, "projects", projectIds);
  }

  /** `DELETE /varsets/:id/relationships/projects`: only the given projects. */
  removeFromProjects(variableSetId: string, projectIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", variableSetId, "projects", projectIds);
  }

  /** `GET /varsets/:id/relationships/vars`: every variable of the set, all pages read. */
  listVariables(variableSetId: string): Promise<Variable[]> {
    return this.listOf(variableSetId);
  }

  /** `POST /varsets/:id/relationships/vars`: a key already taken in the set and category is a 422. */
  createVariable(variableSetId: string, options: VariableCreateOptions): Promise<Variable> {
    return this.createIn(variableSetId, options);
  }

  /** `GET /varsets/:id/relationships/vars/:variable_id`. */
  readVariable(variableSetId: string, variableId: string): Promise<Variable> {
    return this.readIn(variableSetId, variableId);
  }

  /** `PATCH /varsets/:id/relationships/vars/:variable_id`: only the given attributes change. */
  updateVariable(variableSetId: string, variableId: string, options: VariableUpdateOptions): Promise<Variable> {
    return this.updateIn(variableSetId, variableId, options);
  }

  /** `DELETE /varsets/:id/relationships/vars/:variable_id`. */
  deleteVariable(variableSetId: string, variableId: string): Promise<void> {
    return this.deleteIn(variableSetId, variableId);
  }

  /**
   * A workspace's effective variables: its own and those of every set that reaches it
   * (applied to it, to its project, or global), one per key and category, resolved by
   * the service's precedence (`effectiveVariablesOf`), each with where it comes from and
   * what it overrides. It reads the workspace, its variables, the sets that reach it and
   * each set's variables: 3 requests, 4 with a project, plus one per set.
   */
  async effectiveVariables(workspaceId: string): Promise<EffectiveVariables> {
    const [workspace, own, forWorkspace] = await Promise.all([
      this.workspaces.read(workspaceId),
      this.variables.list(workspaceId),
      this.listForWorkspace(workspaceId).all(),
    ]);
    const projectId = workspace.projectId;
    const forProject = projectId ? await this.listForProject(projectId).all() : [];
    const listed = new Map<string, { set: VariableSet; listedFor: VariableSetScope }>();
    for (const set of forProject) listed.set(set.id, { set, listedFor: "project" });
    for (const set of forWorkspace) listed.set(set.id, { set, listedFor: "workspace" });
    const reaching = [...listed.values()].map(({ set, listedFor }) => ({
      set,
      scopes: scopesOf(set, workspaceId, projectId, listedFor),
    }));
    const withVariables = await Promise.all(
      reaching.map(async ({ set, scopes }) => ({
        set: precedenceOf(set, scopes),
        variables: await this.listVariables(set.id),
      })),
    );
    return { workspaceId, variables: effectiveVariablesOf(own, withVariables), sets: reaching };
  }

  private pagedSets(path: string, options: VariableSetListOptions, owner: string): PagedList<VariableSet> {
    return pagedGet(
      this.transport,
      path,
      { q: options.query },
      variableSetListDocumentSchema,
      toVariableSet,
      (request) => orUnavailable(this.transport, "variable sets", owner, request),
    );
  }

  /** Adding or removing items already in place changes nothing, so it is retried like a read. */
  private async relate(
    method: "POST" | "DELETE",
    variableSetId: string,
    kind: "workspaces" | "projects",
    ids: readonly string[],
  ): Promise<void> {
    const call = () =>
      this.transport.request({
        method,
        path: urlPath("varsets", variableSetId, "relationships", kind),
        body: identifiers(kind, ids),
        repeat: "idempotent",
      });
    if (kind === "workspaces") {
      await call();
      return;
    }
    try {
      await call();
    } catch (err) {
      // A 404 is a missing set or project, unless the set reads without a `projects`
      // relationship: then the server has no projects (OTF answers 404 on the route).
      if (err instanceof NotFoundError && (await this.rendersProjects(variableSetId))) throw err;
      await orUnavailable(this.transport, "projects", urlPath("varsets", variableSetId), () => Promise.reject(err));
    }
  }

  /** Whether the set reads with a `projects` relationship, as every set does on a server with projects; true when it does not read. */
  private async rendersProjects(variableSetId: string): Promise<boolean> {
    try {
      const doc = await this.transport.requestParsed(
        { method: "GET", path: urlPath("varsets", variableSetId), repeat: "idempotent" },
        variableSetDocumentSchema,
      );
      return doc.data.relationships?.projects !== undefined;
    } catch {
      return true;
    }
  }
}

/**
 * How a set reaches the workspace. A server that lists a set without saying where it
 * applies is taken at its word: the set applies where it was listed for.
 */
function scopesOf(
  set: VariableSet,
  workspaceId: string,
  projectId: string | null,
  listedFor: VariableSetScope,
): VariableSetScope[] {
  const scopes: VariableSetScope[] = [];
  if (set.workspaceIds.includes(workspaceId)) scopes.push("workspace");
  if (projectId && set.projectIds.includes(projectId)) scopes.push("project");
  if (set.global) scopes.push("global");
  if (scopes.length === 0) scopes.push(listedFor);
  return scopes;
}

function precedenceOf(set: VariableSet, scopes: VariableSetScope[]): PrecedenceSet {
  return { id: set.id, name: set.name, priority: set.priority, ownedByProject: set.parentProjectId !== null, scopes };
}
