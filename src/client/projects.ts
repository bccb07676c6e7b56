/** Projects: the reads the resources need (a workspace belongs to one). */
import { projectDocumentSchema, projectListDocumentSchema, type ProjectResource } from "../api/organizations";
import { PagedList, pagedGet } from "./pagination";
import { Transport, urlPath } from "./transport";
import { relId } from "./wire";

export interface Project {
  id: string;
  name: string;
  description: string | null;
  organization: string | null;
  attributes: Record<string, unknown>;
}

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
    attributes: r.attributes as Record<string, unknown>,
  };
}

export class Projects {
  constructor(private readonly transport: Transport) {}

  /** `GET /projects/:id`. */
  async read(projectId: string): Promise<Project> {
    const doc = await this.transport.requestParsed({ method: "GET", path: urlPath("projects", projectId), repeat: "idempotent" }, projectDocumentSchema);
    return toProject(doc.data);
  }

  /** `GET /organizations/:org/projects`, 100 per page. */
  list(organization: string, options: ProjectListOptions = {}): PagedList<Project> {
    return pagedGet(this.transport, urlPath("organizations", organization, "projects"), { "filter[names]": options.name }, projectListDocumentSchema, toProject);
  }
}
