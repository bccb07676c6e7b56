import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import type { Db } from "../store/db";
import { findUser } from "./service/users";
import { lastUseOf } from "./service/authn";
import type { TeamPermissions, TeamRecord } from "./service/teams";
import { teamMembersView } from "./service/team-members";
import type { MembershipRecord } from "./service/memberships";
import type { AuthTokenRecord } from "./service/auth-tokens";
import { organizationAccessOf } from "./service/presets";
import type { IssuedToken } from "./service/tokens";
import { workspaceGrantPermissions, type TeamProjectRecord, type TeamWorkspaceRecord } from "./service/access";
import { projectGrantPermissions } from "./service/presets";

export function renderTeam(db: Db, t: TeamRecord, permissions: TeamPermissions): Resource {
  const { users, memberships } = teamMembersView(db, t.id);
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
      "organization-memberships": { data: memberships.map((m) => ({ id: m.id, type: "organization-memberships" })) },
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

/**
 * A user document (`users`): service accounts stand for team and organization tokens.
 * `email` is shown where the caller sees the person as a member of its organization.
 */
export function renderUser(db: Db, id: string, email?: string | null): Resource | undefined {
  const u = findUser(db, id);
  if (!u) return undefined;
  return {
    id: u.id,
    type: "users",
    attributes: {
      username: u.username,
      "is-service-account": u.service_account === 1,
      ...(email === undefined ? {} : { email }),
    },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}

export function renderMembership(m: MembershipRecord, teamIds: ReadonlyArray<string>): Resource {
  return {
    id: m.id,
    type: "organization-memberships",
    attributes: { status: m.status, email: m.email, "created-at": m.created_at },
    relationships: {
      user: ref("users", m.user_id),
      organization: ref("organizations", m.organization),
      teams: { data: teamIds.map((id) => ({ id, type: "teams" })) },
    },
    links: { self: `${API_PREFIX}/organization-memberships/${m.id}` },
  };
}

/**
 * A token's document (`authentication-tokens`): a team's, an organization's, or an agent
 * pool's (which has no expiry and no team). `token` (the secret) only in the create's answer.
 */
export function renderAuthToken(
  t: Pick<AuthTokenRecord, "id" | "created_at" | "last_used_at" | "description" | "created_by"> &
    Partial<Pick<AuthTokenRecord, "expired_at" | "team_id">>,
  token?: string,
): Resource {
  return {
    id: t.id,
    type: "authentication-tokens",
    attributes: {
      "created-at": t.created_at,
      "last-used-at": lastUseOf(t.id) ?? t.last_used_at,
      ...(t.expired_at === undefined ? {} : { "expired-at": t.expired_at }),
      description: t.description,
      ...(token === undefined ? {} : { token }),
    },
    relationships: {
      ...(t.team_id ? { team: ref("teams", t.team_id) } : {}),
      "created-by": ref("users", t.created_by),
    },
    links: { self: `${API_PREFIX}/authentication-tokens/${t.id}` },
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
