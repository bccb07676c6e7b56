import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { userCreateSchema } from "../../api/admin";
import { teamCreateSchema, teamUpdateSchema } from "../../api/teams";
import {
  teamProjectCreateSchema,
  teamProjectUpdateSchema,
  type teamWorkspaceAttributes,
  teamWorkspaceCreateSchema,
  teamWorkspaceUpdateSchema,
} from "../../api/team-access";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { NotFound } from "../domain-errors";
import {
  API_PREFIX,
  commaList,
  noContent,
  paginationEnvelope,
  parseBody,
  parseInclude,
  parsePage,
  queryText,
  send,
  targetId,
  type Resource,
} from "../http/jsonapi";
import { Invalid } from "../domain-errors";
import { findProject } from "../project/service";
import { findWorkspace } from "../workspace/service";
import {
  renderMembership,
  renderTeam,
  renderTeamProject,
  renderTeamWorkspace,
  renderToken,
  renderUser,
} from "./render";
import { includedUser, peopleRoutes } from "./routes-people";
import { tokenRoutes } from "./routes-tokens";
import {
  createTeam,
  deleteTeam,
  listTeams,
  loadTeam,
  teamPermissions,
  updateTeam,
  type TeamInput,
  type TeamRecord,
} from "./service/teams";
import {
  createTeamProject,
  createTeamWorkspace,
  deleteTeamProject,
  deleteTeamWorkspace,
  loadTeamProject,
  listTeamProjects,
  listTeamWorkspaces,
  loadTeamWorkspace,
  updateTeamProject,
  updateTeamWorkspace,
  type TeamProjectInput,
  type TeamWorkspaceInput,
} from "./service/access";
import { createUser } from "./service/users";
import { issueUserToken } from "./service/tokens";
import { teamMembersView } from "./service/team-members";
import { membershipTeamIds } from "./service/memberships";

/**
 * Administration in the hosted service's shapes (teams, team access, tokens), so tests
 * and users can build any permission setup: `POST /organizations/:org/teams`,
 * `POST /teams/:id/authentication-token`, `POST /organizations/:org/authentication-token`,
 * `POST /team-workspaces`, `POST /team-projects`, `POST /teams/:id/relationships/users`,
 * and, for a local server only, `POST /admin/users` and `POST /users/:id/authentication-tokens`.
 */

function teamWorkspaceInput(a: z.infer<typeof teamWorkspaceAttributes> | undefined): TeamWorkspaceInput {
  return {
    access: a?.access,
    runs: a?.runs,
    variables: a?.variables,
    "state-versions": a?.["state-versions"],
    "sentinel-mocks": a?.["sentinel-mocks"],
    "workspace-locking": a?.["workspace-locking"],
    "run-tasks": a?.["run-tasks"],
    "policy-overrides": a?.["policy-overrides"],
  };
}

function teamInput(a: Partial<z.infer<typeof teamCreateSchema>["data"]["attributes"]>): TeamInput {
  return {
    name: a.name,
    organizationAccess: a["organization-access"],
    visibility: a.visibility,
    ssoTeamId: a["sso-team-id"],
    allowMemberTokenManagement: a["allow-member-token-management"],
  };
}

function projectAccessInput(
  a: { access?: TeamProjectInput["access"]; "project-access"?: unknown; "workspace-access"?: unknown } | undefined,
): TeamProjectInput {
  return {
    access: a?.access,
    project: a?.["project-access"] ?? undefined,
    workspace: a?.["workspace-access"] ?? undefined,
  };
}

/** The one id a list of team access is filtered by (`filter[workspace][id]`, `filter[project][id]`): required. */
function requiredFilter(query: Record<string, unknown>, name: string): string {
  const value = queryText(query[name] ?? "");
  if (!value) throw new Invalid(`${name} is required`, { parameter: name });
  return value;
}

export function adminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  peopleRoutes(app, ctx);
  tokenRoutes(app, ctx);

  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/teams",
    async (request, reply) => {
      const caller = requireCaller(request);
      const team = createTeam(db, caller, request.params.organization_name, () => {
        const a = parseBody(teamCreateSchema, request.body).data.attributes;
        return { ...teamInput(a), name: a.name };
      });
      return send(reply, 201, { data: renderTeam(db, team, teamPermissions(db, caller, team)) });
    },
  );

  app.get<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/teams",
    async (request, reply) => {
      const caller = requireCaller(request);
      const q = request.query as Record<string, unknown>;
      const { rows, total, page } = listTeams(db, caller, request.params.organization_name, () => ({
        filter: { names: commaList(q["filter[names]"], "filter[names]"), query: queryText(q["q"] ?? "") || undefined },
        page: parsePage(q),
      }));
      return send(reply, 200, {
        data: rows.map((t) => renderTeam(db, t, teamPermissions(db, caller, t))),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  const teamDocument = (caller: ReturnType<typeof requireCaller>, team: TeamRecord, include = new Set<string>()) => {
    const included: Resource[] = [];
    if (include.size) {
      const { users, memberships } = teamMembersView(db, team.id);
      if (include.has("users")) for (const id of users) included.push(...includedUser(db, id));
      if (include.has("organization-memberships"))
        for (const m of memberships) included.push(renderMembership(m, membershipTeamIds(db, m)));
    }
    return { data: renderTeam(db, team, teamPermissions(db, caller, team)), ...(include.size ? { included } : {}) };
  };

  app.get<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const team = loadTeam(db, caller, request.params.id, false);
    const include = parseInclude(request.query as Record<string, unknown>, ["users", "organization-memberships"]);
    return send(reply, 200, teamDocument(caller, team, include));
  });

  app.patch<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const team = updateTeam(db, caller, request.params.id, () =>
      teamInput(parseBody(teamUpdateSchema, request.body).data.attributes ?? {}),
    );
    return send(reply, 200, teamDocument(caller, team));
  });

  app.delete<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    deleteTeam(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.post("/admin/users", async (request, reply) => {
    const { id, username, email } = createUser(db, requireCaller(request), () => {
      const a = parseBody(userCreateSchema, request.body).data.attributes;
      return { username: a.username, email: a.email ?? null };
    });
    return send(reply, 201, {
      data: {
        id,
        type: "users",
        attributes: { username, email },
        links: { self: `${API_PREFIX}/users/${id}` },
      },
    });
  });

  // Users are visible to any authenticated caller, as `locked-by` links point here.
  // The caller's own user: a person for user tokens, the service user behind a team or organization token.
  app.get("/account/details", async (request, reply) => {
    const user = renderUser(db, requireCaller(request).principalId);
    if (!user) throw new NotFound("account not found");
    return send(reply, 200, { data: user });
  });

  app.get<{ Params: { id: string } }>("/users/:id", async (request, reply) => {
    requireCaller(request);
    const user = renderUser(db, request.params.id);
    if (!user) throw new NotFound("user not found");
    return send(reply, 200, { data: user });
  });

  app.post<{ Params: { id: string } }>("/users/:id/authentication-tokens", async (request, reply) => {
    return send(reply, 201, { data: renderToken(issueUserToken(db, requireCaller(request), request.params.id)) });
  });

  app.post("/team-workspaces", async (request, reply) => {
    const r = createTeamWorkspace(db, requireCaller(request), (id) => findWorkspace(ctx, id), {
      target: targetId(request.body, "workspace"),
      read: () => {
        const d = parseBody(teamWorkspaceCreateSchema, request.body).data;
        return {
          targetId: d.relationships.workspace.data.id,
          teamId: d.relationships.team.data.id,
          input: teamWorkspaceInput(d.attributes),
        };
      },
    });
    return send(reply, 201, { data: renderTeamWorkspace(r) });
  });

  app.get("/team-workspaces", async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const { rows, total, page } = listTeamWorkspaces(
      db,
      requireCaller(request),
      (id) => findWorkspace(ctx, id),
      requiredFilter(q, "filter[workspace][id]"),
      () => parsePage(q),
    );
    return send(reply, 200, { data: rows.map(renderTeamWorkspace), ...paginationEnvelope(request, page, total) });
  });

  app.get<{ Params: { id: string } }>("/team-workspaces/:id", async (request, reply) => {
    return send(reply, 200, {
      data: renderTeamWorkspace(loadTeamWorkspace(db, requireCaller(request), request.params.id)),
    });
  });

  app.patch<{ Params: { id: string } }>("/team-workspaces/:id", async (request, reply) => {
    const r = updateTeamWorkspace(db, requireCaller(request), request.params.id, () =>
      teamWorkspaceInput(parseBody(teamWorkspaceUpdateSchema, request.body).data.attributes),
    );
    return send(reply, 200, { data: renderTeamWorkspace(r) });
  });

  app.delete<{ Params: { id: string } }>("/team-workspaces/:id", async (request, reply) => {
    deleteTeamWorkspace(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.post("/team-projects", async (request, reply) => {
    const r = createTeamProject(db, requireCaller(request), (id) => findProject(db, id), {
      target: targetId(request.body, "project"),
      read: () => {
        const d = parseBody(teamProjectCreateSchema, request.body).data;
        return {
          targetId: d.relationships.project.data.id,
          teamId: d.relationships.team.data.id,
          input: { ...projectAccessInput(d.attributes), access: d.attributes.access },
        };
      },
    });
    return send(reply, 201, { data: renderTeamProject(r) });
  });

  app.get("/team-projects", async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const { rows, total, page } = listTeamProjects(
      db,
      requireCaller(request),
      (id) => findProject(db, id),
      requiredFilter(q, "filter[project][id]"),
      () => parsePage(q),
    );
    return send(reply, 200, { data: rows.map(renderTeamProject), ...paginationEnvelope(request, page, total) });
  });

  app.get<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    return send(reply, 200, {
      data: renderTeamProject(loadTeamProject(db, requireCaller(request), request.params.id)),
    });
  });

  app.patch<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    const r = updateTeamProject(db, requireCaller(request), request.params.id, () =>
      projectAccessInput(parseBody(teamProjectUpdateSchema, request.body).data.attributes),
    );
    return send(reply, 200, { data: renderTeamProject(r) });
  });

  app.delete<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    deleteTeamProject(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });
}
