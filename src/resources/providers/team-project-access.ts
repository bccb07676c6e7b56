/** Provider of `TeamProjectAccess` (`/team-projects`), id `tprj-...`. */
import {
  PROJECT_ACCESS_LEVELS,
  PROJECT_ACCESS_PRESETS,
  PROJECT_PERMISSIONS,
  PROJECT_WORKSPACE_PERMISSIONS,
  type ProjectAccessLevel,
} from "../../api/team-access";
import type { TeamProjectAccess as ApiAccess, TeamProjectAccessOptions } from "../../client";
import { accessProvider } from "./team-access";
import type { Grant, GrantKind, Permissions } from "./team-access-grants";
import { explainingMissingFeatures } from "./user-errors";

const preset = (level: string) => PROJECT_ACCESS_PRESETS[level as ProjectAccessLevel];

/** A project grant: a level, and permissions on the project and on its workspaces. */
const PROJECT_GRANT: GrantKind = {
  levels: PROJECT_ACCESS_LEVELS,
  groups: [
    { input: "projectPermissions", list: PROJECT_PERMISSIONS, preset: (level) => preset(level).project },
    { input: "workspacePermissions", list: PROJECT_WORKSPACE_PERMISSIONS, preset: (level) => preset(level).workspace },
  ],
};

function grantOf(a: ApiAccess): Grant {
  return {
    id: a.id,
    access: a.access,
    groups: {
      projectPermissions: a.projectPermissions,
      workspacePermissions: a.workspacePermissions,
    },
    teamId: a.teamId,
    targetId: a.projectId,
  };
}

function options(access: string, groups: Record<string, Permissions>): TeamProjectAccessOptions {
  return {
    access: access as ProjectAccessLevel,
    ...(groups.projectPermissions ? { projectPermissions: groups.projectPermissions } : {}),
    ...(groups.workspacePermissions ? { workspacePermissions: groups.workspacePermissions } : {}),
  };
}

const provider = accessProvider({
  resource: "TeamProjectAccess",
  noun: "project",
  input: "projectId",
  idKind: "project",
  prefix: "tprj-",
  // Managing project access takes the organization's manage-projects permission, which also sees every project.
  visibility: "project",
  grant: PROJECT_GRANT,
  fields: [
    { name: "teamId", replaces: true },
    { name: "projectId", replaces: true },
  ],
  organizationOf: async (client, id) => (await client.projects.read(id)).organization ?? null,
  async *list(client, projectId) {
    for await (const a of client.teamProjectAccess.list(projectId)) yield grantOf(a);
  },
  read: async (client, id) => grantOf(await client.teamProjectAccess.read(id)),
  add: async (client, teamId, projectId, access, groups) =>
    grantOf(await client.teamProjectAccess.add(teamId, projectId, options(access, groups))),
  update: async (client, id, access, groups) =>
    grantOf(await client.teamProjectAccess.update(id, options(access, groups))),
  remove: (client, id) => client.teamProjectAccess.remove(id),
});

/** The provider, with one message (and the way out) for a server without projects or team access. */
export const teamProjectAccessProvider = explainingMissingFeatures(provider, "team project access");
