/** Projects of an organization (`client.projects`): a workspace belongs to one. */
import { projectDocumentSchema, projectListDocumentSchema, type ProjectResource } from "../api/organizations";
import { orUnavailable, organizationOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { relId, toWire } from "./wire";

/** A project: a group of workspaces that can share settings and tags. */
export interface Project {
  /** Project id (`prj-...`). */
  id: string;
  /** Project name. */
  name: string;
  /** Description, or null. */
  description: string | null;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A project to create. */
export interface ProjectCreateOptions {
  /** Project name, unique in the organization: letters, digits, spaces, `-` and `_`, at most 40 characters. */
  name: string;
  /** Description; left out, the project has none. */
  description?: string;
}

/** What to change: only the settings given change; an empty description clears it. */
export type ProjectUpdateOptions = Partial<ProjectCreateOptions>;

function projectBody(options: ProjectUpdateOptions) {
  return { data: { type: "projects", attributes: toWire(options, ["name", "description"]) } };
}

/** Filters of the project list. */
export interface ProjectListOptions {
  /** Exact project name (`filter[names]`). */
  name?: string;
}

function toProject(r: ProjectResource): Project {
  return {
    id: r.id,
    name: r.attributes.name,
    description: r.attributes.description ?? null,
    organization: relId(r, "organization"),
    attributes: r.attributes,
  };
}

/** Project calls of a {@link WorkspacesClient} (`client.projects`). */
export class Projects {
  constructor(private readonly transport: Transport) {}

  /** `GET /projects/:id`. */
  async read(projectId: string): Promise<Project> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("projects", projectId), repeat: "idempotent" },
      projectDocumentSchema,
    );
    return toProject(doc.data);
  }

  /** `GET /organizations/:org/projects`, 100 per page (FeatureUnavailableError from a server without projects). */
  list(organization: string, options: ProjectListOptions = {}): PagedList<Project> {
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "projects"),
      { "filter[names]": options.name },
      projectListDocumentSchema,
      toProject,
      (request) => orUnavailable(this.transport, "projects", organizationOwner(organization), request),
    );
  }

  /** `POST /organizations/:org/projects`; never repeated after it reached the service (a second would be refused by name). */
  async create(organization: string, options: ProjectCreateOptions): Promise<Project> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("organizations", organization, "projects"),
        body: projectBody(options),
        repeat: "once",
        conflict: "create",
      },
      projectDocumentSchema,
    );
    return toProject(doc.data);
  }

  /** `PATCH /projects/:id`: setting the same values twice leaves the same project, so it is retried like a read. */
  async update(projectId: string, options: ProjectUpdateOptions): Promise<Project> {
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path: urlPath("projects", projectId), body: projectBody(options), repeat: "idempotent" },
      projectDocumentSchema,
    );
    return toProject(doc.data);
  }

  /**
   * `DELETE /projects/:id`; a retry that finds the project gone means the first attempt
   * deleted it. The service refuses (409) the organization's default project and a
   * project that still holds workspaces.
   */
  async delete(projectId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("projects", projectId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
