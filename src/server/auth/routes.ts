import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import {
  membersSchema,
  teamCreateSchema,
  teamProjectCreateSchema,
  teamProjectUpdateSchema,
  teamUpdateSchema,
  type teamWorkspaceAttributes,
  teamWorkspaceCreateSchema,
  teamWorkspaceUpdateSchema,
  userCreateSchema,
} from "../../api/admin";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { NotFound } from "../domain-errors";
import { API_PREFIX, noContent, parseBody, send, targetId } from "../http/jsonapi";
import { findProject } from "../project/service";
import { findWorkspace } from "../workspace/service";
import { renderTeam, renderTeamProject, renderTeamWorkspace, renderToken, renderUser } from "./render";
import { addTeamMembers, createTeam, deleteTeam, listTeams, loadTeam, updateTeam } from "./service/teams";
import {
  createTeamProject,
  createTeamWorkspace,
  deleteTeamProject,
  deleteTeamWorkspace,
  loadTeamProject,
  loadTeamWorkspace,
  updateTeamProject,
  updateTeamWorkspace,
  type TeamWorkspaceInput,
} from "./service/access";
import { createUser } from "./service/users";
import { issueOrganizationToken, issueTeamToken, issueUserToken, revokeTeamToken } from "./service/tokens";

/**
 * Administration in the hosted service's shapes (teams, team access, tokens), so tests
 * and users can build any permission setup: `POST /organizations/:org/teams`,
 * `POST /teams/:id/authentication-token`, `POST /organizations/:org/authentication-token`,
 * `POST /team-workspaces`, `POST /team-projects`, `POST /teams/:id/relationships/users`,
 * and, for a local server only, `POST /admin/users` and `POST /users/:id/authentication-tokens`.
 */

function teamWorkspaceInput(a: z.infer<typeof teamWorkspaceAttributes>): TeamWorkspaceInput {
  return {
    access: a.access,
    runs: a.runs,
    variables: a.variables,
    stateVersions: a["state-versions"],
    workspaceLocking: a["workspace-locking"],
    runTasks: a["run-tasks"],
  };
}

export function adminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/teams",
    async (request, reply) => {
      const team = createTeam(db, requireCaller(request), request.params.organization_name, () => {
        const a = parseBody(teamCreateSchema, request.body).data.attributes;
        return {
          name: a.name,
          manageWorkspaces: a["organization-access"]?.["manage-workspaces"],
          manageProjects: a["organization-access"]?.["manage-projects"],
        };
      });
      return send(reply, 201, { data: renderTeam(db, team) });
    },
  );

  app.get<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/teams",
    async (request, reply) => {
      const rows = listTeams(db, requireCaller(request), request.params.organization_name);
      return send(reply, 200, { data: rows.map((t) => renderTeam(db, t)) });
    },
  );

  app.get<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    return send(reply, 200, { data: renderTeam(db, loadTeam(db, requireCaller(request), request.params.id, false)) });
  });

  app.patch<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    const team = updateTeam(db, requireCaller(request), request.params.id, () => {
      const a = parseBody(teamUpdateSchema, request.body).data.attributes ?? {};
      const access = a["organization-access"];
      return {
        name: a.name,
        manageWorkspaces: access?.["manage-workspaces"],
        manageProjects: access?.["manage-projects"],
      };
    });
    return send(reply, 200, { data: renderTeam(db, team) });
  });

  app.delete<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    deleteTeam(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.delete<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    revokeTeamToken(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.post<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    return send(reply, 201, { data: renderToken(issueTeamToken(db, requireCaller(request), request.params.id)) });
  });

  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/authentication-token",
    async (request, reply) => {
      return send(reply, 201, {
        data: renderToken(issueOrganizationToken(db, requireCaller(request), request.params.organization_name)),
      });
    },
  );

  app.post<{ Params: { id: string } }>("/teams/:id/relationships/users", async (request, reply) => {
    addTeamMembers(db, requireCaller(request), request.params.id, () =>
      parseBody(membersSchema, request.body).data.map((item) => item.id),
    );
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
          input: d.attributes.access,
        };
      },
    });
    return send(reply, 201, { data: renderTeamProject(r) });
  });

  app.get<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    return send(reply, 200, {
      data: renderTeamProject(loadTeamProject(db, requireCaller(request), request.params.id)),
    });
  });

  app.patch<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    const r = updateTeamProject(
      db,
      requireCaller(request),
      request.params.id,
      () => parseBody(teamProjectUpdateSchema, request.body).data.attributes?.access,
    );
    return send(reply, 200, { data: renderTeamProject(r) });
  });

  app.delete<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    deleteTeamProject(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });
}
