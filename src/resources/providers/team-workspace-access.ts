/** Provider of `TeamWorkspaceAccess` (`/team-workspaces`), id `tws-...`. */
import { WORKSPACE_ACCESS_LEVELS, WORKSPACE_ACCESS_PRESETS, WORKSPACE_PERMISSIONS } from "../../api/team-access";
import type { TeamWorkspaceAccess as ApiAccess } from "../../client";
import { accessProvider } from "./team-access";
import type { Grant, GrantKind } from "./team-access-grants";
import { explainingMissingFeatures } from "./user-errors";

/** A workspace grant: a level, and one group of permissions. */
const WORKSPACE_GRANT: GrantKind = {
  levels: WORKSPACE_ACCESS_LEVELS,
  groups: [
    {
      input: "permissions",
      list: WORKSPACE_PERMISSIONS,
      preset: (level) => WORKSPACE_ACCESS_PRESETS[level as keyof typeof WORKSPACE_ACCESS_PRESETS],
    },
  ],
};

function grantOf(a: ApiAccess): Grant {
  return {
    id: a.id,
    access: a.access,
    groups: { permissions: a.permissions },
    teamId: a.teamId,
    targetId: a.workspaceId,
  };
}

const provider = accessProvider({
  resource: "TeamWorkspaceAccess",
  noun: "workspace",
  input: "workspaceId",
  idKind: "workspace",
  prefix: "tws-",
  // Managing team access takes the organization's manage-workspaces permission, which also sees every workspace.
  visibility: "workspace",
  grant: WORKSPACE_GRANT,
  fields: [
    { name: "teamId", replaces: true },
    { name: "workspaceId", replaces: true },
  ],
  organizationOf: async (client, id) => (await client.workspaces.read(id)).organization ?? null,
  async *list(client, workspaceId) {
    for await (const a of client.teamAccess.list(workspaceId)) yield grantOf(a);
  },
  read: async (client, id) => grantOf(await client.teamAccess.read(id)),
  add: async (client, teamId, workspaceId, access, groups) =>
    grantOf(
      await client.teamAccess.add(teamId, workspaceId, {
        access: access as WorkspaceLevel,
        ...(groups.permissions ? { permissions: groups.permissions } : {}),
      }),
    ),
  update: async (client, id, access, groups) =>
    grantOf(
      await client.teamAccess.update(id, {
        access: access as WorkspaceLevel,
        ...(groups.permissions ? { permissions: groups.permissions } : {}),
      }),
    ),
  remove: (client, id) => client.teamAccess.remove(id),
});

type WorkspaceLevel = (typeof WORKSPACE_ACCESS_LEVELS)[number];

/** The provider, with one message (and the way out) for a server without team access. */
export const teamWorkspaceAccessProvider = explainingMissingFeatures(provider, "team workspace access");
