/** A team's access to workspaces (`client.teamAccess`) and to projects (`client.teamProjectAccess`). */
import {
  teamProjectDocumentSchema,
  teamProjectListDocumentSchema,
  teamWorkspaceDocumentSchema,
  teamWorkspaceListDocumentSchema,
  type ProjectAccessLevel,
  type ProjectPermissionValues,
  type ProjectWorkspacePermissionValues,
  type TeamProjectResource,
  type TeamWorkspaceResource,
  type WorkspaceAccessLevel,
  type WorkspacePermissionValues,
} from "../api/team-access";
import { orUnavailable, workspaceOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { camelKeys, relId, toWire } from "./wire";

/** `state-versions` read as `stateVersions`, and so on. */
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type CamelValues<V> = { [K in keyof V & string as Camel<K>]: V[K] };

/** A team's permissions on a workspace in the client's spelling (`stateVersions`, `workspaceLocking`, ...). */
export type WorkspacePermissions = CamelValues<WorkspacePermissionValues>;
/** A team's permissions on a project itself. */
export type ProjectPermissions = CamelValues<ProjectPermissionValues>;
/** A team's permissions on every workspace of a project. */
export type ProjectWorkspacePermissions = CamelValues<ProjectWorkspacePermissionValues>;

/** A team's access to a workspace. */
export interface TeamWorkspaceAccess {
  /** Record id (`tws-...`). */
  id: string;
  /** Access level: `read`, `plan`, `write`, `admin` or `custom` (as the service sends it; "" when it does not). */
  access: string;
  /** The permissions the access holds (a preset level's, or the custom ones); what the service leaves out is absent. */
  permissions: Partial<WorkspacePermissions>;
  /** The team's id (`team-...`), or null when the service does not say. */
  teamId: string | null;
  /** The workspace's id (`ws-...`), or null when the service does not say. */
  workspaceId: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A team's access to a project. */
export interface TeamProjectAccess {
  /** Record id (`tprj-...`). */
  id: string;
  /** Access level: `read`, `write`, `maintain`, `admin` or `custom` (as the service sends it; "" when it does not). */
  access: string;
  /** Permissions on the project itself (`project-access`); what the service leaves out is absent. */
  projectPermissions: Partial<ProjectPermissions>;
  /** Permissions on every workspace of the project (`workspace-access`); what the service leaves out is absent. */
  workspacePermissions: Partial<ProjectWorkspacePermissions>;
  /** The team's id (`team-...`), or null when the service does not say. */
  teamId: string | null;
  /** The project's id (`prj-...`), or null when the service does not say. */
  projectId: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** Access to grant or set: a level, and for `custom` the permissions (a preset level refuses any it does not hold). */
export interface TeamWorkspaceAccessOptions {
  /** Access level: `read`, `plan`, `write`, `admin`, or `custom` for the permissions given. */
  access: WorkspaceAccessLevel;
  /** Permissions to set under `custom` (each sent as its own attribute: `state-versions`, ...); a preset level refuses a value other than its own. */
  permissions?: Partial<WorkspacePermissions>;
}

/** Project access to grant or set: a level, and for `custom` the permissions (a preset level refuses any it does not hold). */
export interface TeamProjectAccessOptions {
  /** Access level: `read`, `write`, `maintain`, `admin`, or `custom` for the permissions given. */
  access: ProjectAccessLevel;
  /** Permissions on the project itself to set under `custom` (sent as `project-access`); a preset level refuses a value other than its own. */
  projectPermissions?: Partial<ProjectPermissions>;
  /** Permissions on every workspace of the project to set under `custom` (sent as `workspace-access`); a preset level refuses a value other than its own. */
  workspacePermissions?: Partial<ProjectWorkspacePermissions>;
}

function toWorkspaceAccess(r: TeamWorkspaceResource): TeamWorkspaceAccess {
  const { access, ...rest } = r.attributes;
  return {
    id: r.id,
    access,
    permissions: camelKeys(rest as Record<string, never>),
    teamId: relId(r, "team"),
    workspaceId: relId(r, "workspace"),
    attributes: r.attributes,
  };
}

function toProjectAccess(r: TeamProjectResource): TeamProjectAccess {
  const a = r.attributes;
  return {
    id: r.id,
    access: a.access,
    projectPermissions: camelKeys(a["project-access"] as Record<string, never>),
    workspacePermissions: camelKeys(a["workspace-access"] as Record<string, never>),
    teamId: relId(r, "team"),
    projectId: relId(r, "project"),
    attributes: a,
  };
}

const keysOf = <T extends object>(o: T | undefined) => (o ? (Object.keys(o) as (keyof T & string)[]) : []);

function workspaceAttributes(o: Partial<TeamWorkspaceAccessOptions>) {
  return { ...(o.access ? { access: o.access } : {}), ...toWire(o.permissions ?? {}, keysOf(o.permissions)) };
}

function projectAttributes(o: Partial<TeamProjectAccessOptions>) {
  return {
    ...(o.access ? { access: o.access } : {}),
    ...(o.projectPermissions ? { "project-access": toWire(o.projectPermissions, keysOf(o.projectPermissions)) } : {}),
    ...(o.workspacePermissions
      ? { "workspace-access": toWire(o.workspacePermissions, keysOf(o.workspacePermissions)) }
      : {}),
  };
}

const relation = (type: string, id: string) => ({ data: { type, id } });

/** Team access to workspaces (`/team-workspaces`). */
export class TeamAccesses {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /team-workspaces?filter[workspace][id]=`, 100 per page. A server without the
   * route (OTF) fails with a {@link FeatureUnavailableError} for `team workspace access`.
   */
  list(workspaceId: string): PagedList<TeamWorkspaceAccess> {
    return pagedGet(
      this.transport,
      urlPath("team-workspaces"),
      { "filter[workspace][id]": workspaceId },
      teamWorkspaceListDocumentSchema,
      toWorkspaceAccess,
      (request) => orUnavailable(this.transport, "team workspace access", workspaceOwner(workspaceId), request),
    );
  }

  /**
   * `POST /team-workspaces`; never repeated after it reached the service (a second is
   * refused: the team already has access). A 404 while the team and the workspace both
   * read is a server without the route: a {@link FeatureUnavailableError}.
   */
  async add(teamId: string, workspaceId: string, options: TeamWorkspaceAccessOptions): Promise<TeamWorkspaceAccess> {
    const owners = [urlPath("teams", teamId), workspaceOwner(workspaceId)];
    const doc = await orUnavailable(this.transport, "team workspace access", owners, () =>
      this.transport.requestParsed(
        {
          method: "POST",
          path: urlPath("team-workspaces"),
          body: {
            data: {
              type: "team-workspaces",
              attributes: workspaceAttributes(options),
              relationships: { team: relation("teams", teamId), workspace: relation("workspaces", workspaceId) },
            },
          },
          repeat: "once",
          conflict: "create",
        },
        teamWorkspaceDocumentSchema,
      ),
    );
    return toWorkspaceAccess(doc.data);
  }

  /** `GET /team-workspaces/:id`. */
  async read(id: string): Promise<TeamWorkspaceAccess> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("team-workspaces", id), repeat: "idempotent" },
      teamWorkspaceDocumentSchema,
    );
    return toWorkspaceAccess(doc.data);
  }

  /** `PATCH`: the level given, or the current one; permissions not given keep their values under `custom`. */
  async update(id: string, options: Partial<TeamWorkspaceAccessOptions>): Promise<TeamWorkspaceAccess> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("team-workspaces", id),
        body: { data: { type: "team-workspaces", attributes: workspaceAttributes(options) } },
        repeat: "idempotent",
      },
      teamWorkspaceDocumentSchema,
    );
    return toWorkspaceAccess(doc.data);
  }

  /** `DELETE`; a retry that finds the access gone means the first attempt removed it. */
  async remove(id: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("team-workspaces", id),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}

/** Team access to projects (`/team-projects`). */
export class TeamProjectAccesses {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /team-projects?filter[project][id]=`, 100 per page. A 404 while the project reads
   * is a server without the route: a {@link FeatureUnavailableError} for `team project access`.
   */
  list(projectId: string): PagedList<TeamProjectAccess> {
    return pagedGet(
      this.transport,
      urlPath("team-projects"),
      { "filter[project][id]": projectId },
      teamProjectListDocumentSchema,
      toProjectAccess,
      (request) => orUnavailable(this.transport, "team project access", urlPath("projects", projectId), request),
    );
  }

  /**
   * `POST /team-projects`; never repeated after it reached the service. A 404 while the
   * team and the project both read is a server without the route: a {@link FeatureUnavailableError}.
   */
  async add(teamId: string, projectId: string, options: TeamProjectAccessOptions): Promise<TeamProjectAccess> {
    const owners = [urlPath("teams", teamId), urlPath("projects", projectId)];
    const doc = await orUnavailable(this.transport, "team project access", owners, () =>
      this.transport.requestParsed(
        {
          method: "POST",
          path: urlPath("team-projects"),
          body: {
            data: {
              type: "team-projects",
              attributes: projectAttributes(options),
              relationships: { team: relation("teams", teamId), project: relation("projects", projectId) },
            },
          },
          repeat: "once",
          conflict: "create",
        },
        teamProjectDocumentSchema,
      ),
    );
    return toProjectAccess(doc.data);
  }

  /** `GET /team-projects/:id`. */
  async read(id: string): Promise<TeamProjectAccess> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("team-projects", id), repeat: "idempotent" },
      teamProjectDocumentSchema,
    );
    return toProjectAccess(doc.data);
  }

  /** `PATCH /team-projects/:id`: the level given, or the current one; permissions not given keep their values under `custom`. */
  async update(id: string, options: Partial<TeamProjectAccessOptions>): Promise<TeamProjectAccess> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("team-projects", id),
        body: { data: { type: "team-projects", attributes: projectAttributes(options) } },
        repeat: "idempotent",
      },
      teamProjectDocumentSchema,
    );
    return toProjectAccess(doc.data);
  }

  /** `DELETE /team-projects/:id`; a retry that finds the access gone means the first attempt removed it. */
  async remove(id: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("team-projects", id),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
