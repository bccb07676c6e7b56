/** Projects: the reads the resources need (a workspace belongs to one). */
import { projectDocumentSchema, projectListDocumentSchema, type ProjectResource } from "../api/organizations";
import { orUnavailable, organizationOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { relId } from "./wire";

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
}
