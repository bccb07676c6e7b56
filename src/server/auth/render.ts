import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { Db } from "../store/db";
import { findUser } from "./service/users";
import { teamMemberIds, type TeamPermissions, type TeamRecord } from "./service/teams";
import { organizationAccessOf } from "./service/presets";
import type { IssuedToken } from "./service/tokens";
import { workspaceGrantPermissions, type TeamProjectRecord, type TeamWorkspaceRecord } from "./service/access";
import { projectGrantPermissions } from "./service/presets";

export function renderTeam(db: Db, t: TeamRecord, permissions: TeamPermissions): Resource {
  const users = teamMemberIds(db, t.id);
  return {
    id: t.id,
    type: "teams",
    attributes: {
      name: t.name,
      "organization-access": organizationAccessOf(t),
      visibility: t.visibility,
      "sso-team-id": t.sso_team_id,
      "allow-member-token-management": t.allow_member_token_management === 1,
      "is-unified": false,
      permissions: { "can-update-membership": permissions.canUpdate, "can-destroy": permissions.canDestroy },
      "users-count": users.length,
    },
    relationships: {
      organization: ref("organizations", t.organization),
      users: { data: users.map((id) => ({ id, type: "users" })) },
    },
    links: { self: `${API_PREFIX}/teams/${t.id}` },
  };
}

/** The token itself appears here once, in the response that creates it. */
export function renderToken(t: IssuedToken, description: string | null = null): Resource {
  return {
    id: t.id,
    type: "authentication-tokens",
    attributes: { token: t.token, "created-at": t.createdAt, description, "last-used-at": null },
  };
}

/** A user document (`users`): service accounts stand for team and organization tokens. */
export function renderUser(db: Db, id: string): Resource | undefined {
  const u = findUser(db, id);
  if (!u) return undefined;
  return {
    id: u.id,
    type: "users",
    attributes: { username: u.username, "is-service-account": u.service_account === 1 },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}

export function renderTeamWorkspace(r: TeamWorkspaceRecord): Resource {
  return {
    id: r.id,
    type: "team-workspaces",
    attributes: { access: r.access, ...workspaceGrantPermissions(r) },
    relationships: { team: ref("teams", r.team_id), workspace: ref("workspaces", r.workspace_id) },
    links: { self: `${API_PREFIX}/team-workspaces/${r.id}` },
  };
}

export function renderTeamProject(r: TeamProjectRecord): Resource {
  const permissions = projectGrantPermissions(r.access, r.custom_access);
  return {
    id: r.id,
    type: "team-projects",
    attributes: {
      access: r.access,
      "project-access": permissions.project,
      "workspace-access": permissions.workspace,
    },
    relationships: { team: ref("teams", r.team_id), project: ref("projects", r.project_id) },
    links: { self: `${API_PREFIX}/team-projects/${r.id}` },
  };
}
