import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import type { Db } from "../store/db";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId, newInternalId } from "../ids";
import { nameTaken, notFound, unprocessable } from "../http/errors";
import { API_PREFIX, noContent, parseBody, ref, send, targetId, type Resource } from "../http/jsonapi";
import { createTeamRecord } from "../organization/service";
import { findWorkspaceById } from "../workspace/store";
import { ACCESS_LEVELS, assertMember, assertOwner, issueToken, orgRole, renderUser, type Caller, type IssuedToken } from "./service";

/**
 * Administration in the hosted service's shapes (teams, team access, tokens), so tests
 * and users can build any permission setup: `POST /organizations/:org/teams`,
 * `POST /teams/:id/authentication-token`, `POST /organizations/:org/authentication-token`,
 * `POST /team-workspaces`, `POST /team-projects`, `POST /teams/:id/relationships/users`,
 * and, for a local server only, `POST /admin/users` and `POST /users/:id/authentication-tokens`.
 */

const teamAttributesSchema = z
  .object({
    name: z.string().min(1),
    "organization-access": z.object({ "manage-workspaces": z.boolean().optional(), "manage-projects": z.boolean().optional() }).loose().optional(),
  })
  .loose();

const teamCreateSchema = z.object({ data: z.object({ type: z.literal("teams"), attributes: teamAttributesSchema }).loose() }).loose();

const teamUpdateSchema = z.object({ data: z.object({ type: z.literal("teams"), attributes: teamAttributesSchema.partial().optional() }).loose() }).loose();

const idRef = z.object({ data: z.object({ id: z.string().min(1) }).loose() }).loose();

const teamWorkspaceAttributes = z
  .object({
    access: z.enum(ACCESS_LEVELS as [string, ...string[]]),
    runs: z.enum(["read", "plan", "apply"]).optional(),
    variables: z.enum(["none", "read", "write"]).optional(),
    "state-versions": z.enum(["none", "read-outputs", "read", "write"]).optional(),
    "workspace-locking": z.boolean().optional(),
    "run-tasks": z.boolean().optional(),
  })
  .loose();

const teamWorkspaceCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("team-workspaces"),
        attributes: teamWorkspaceAttributes,
        relationships: z.object({ workspace: idRef, team: idRef }).loose(),
      })
      .loose(),
  })
  .loose();

const teamWorkspaceUpdateSchema = z.object({ data: z.object({ type: z.literal("team-workspaces"), attributes: teamWorkspaceAttributes }).loose() }).loose();

const PROJECT_ACCESS_LEVELS = z.enum(["read", "write", "maintain", "admin"]);

const teamProjectUpdateSchema = z
  .object({ data: z.object({ type: z.literal("team-projects"), attributes: z.object({ access: PROJECT_ACCESS_LEVELS.optional() }).loose().optional() }).loose() })
  .loose();

const teamProjectCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("team-projects"),
        attributes: z.object({ access: PROJECT_ACCESS_LEVELS }).loose(),
        relationships: z.object({ project: idRef, team: idRef }).loose(),
      })
      .loose(),
  })
  .loose();

const userCreateSchema = z
  .object({ data: z.object({ type: z.literal("users"), attributes: z.object({ username: z.string().min(1), email: z.string().optional() }).loose() }).loose() })
  .loose();

const membersSchema = z.object({ data: z.array(z.object({ type: z.literal("users"), id: z.string().min(1) }).loose()) }).loose();

interface TeamRecord {
  id: string;
  organization: string;
  name: string;
  is_owners: number;
  manage_workspaces: number;
  manage_projects: number;
}

function renderTeam(db: Db, t: TeamRecord): Resource {
  const users = prepare(db, `SELECT user_id FROM team_members WHERE team_id = ?`).all(t.id) as { user_id: string }[];
  return {
    id: t.id,
    type: "teams",
    attributes: {
      name: t.name,
      "organization-access": { "manage-workspaces": t.manage_workspaces === 1, "manage-projects": t.manage_projects === 1 },
      "users-count": users.length,
    },
    relationships: {
      organization: ref("organizations", t.organization),
      users: { data: users.map((u) => ({ id: u.user_id, type: "users" })) },
    },
    links: { self: `${API_PREFIX}/teams/${t.id}` },
  };
}

function renderToken(t: IssuedToken, description: string | null = null): Resource {
  return { id: t.id, type: "authentication-tokens", attributes: { token: t.token, "created-at": t.createdAt, description, "last-used-at": null } };
}

function loadTeam(db: Db, caller: Caller, id: string, owner: boolean): TeamRecord {
  const t = prepare(db, `SELECT * FROM teams WHERE id = ?`).get(id) as TeamRecord | undefined;
  if (!t) throw notFound("team not found");
  (owner ? assertOwner : assertMember)(db, caller, t.organization);
  return t;
}

function requireSiteAdmin(caller: Caller): void {
  if (!caller.siteAdmin) throw notFound("not found");
}

export function adminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post<{ Params: { organization_name: string } }>("/organizations/:organization_name/teams", async (request, reply) => {
    const caller = requireCaller(request);
    const org = request.params.organization_name;
    assertOwner(db, caller, org);
    const a = parseBody(teamCreateSchema, request.body).data.attributes;
    let id: string;
    try {
      id = inTransaction(db, () =>
        createTeamRecord(db, org, a.name, {
          manageWorkspaces: a["organization-access"]?.["manage-workspaces"],
          manageProjects: a["organization-access"]?.["manage-projects"],
        }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    return send(reply, 201, { data: renderTeam(db, loadTeam(db, caller, id, true)) });
  });

  app.get<{ Params: { organization_name: string } }>("/organizations/:organization_name/teams", async (request, reply) => {
    const org = request.params.organization_name;
    assertMember(db, requireCaller(request), org);
    const rows = prepare(db, `SELECT * FROM teams WHERE organization = ? ORDER BY name`).all(org) as TeamRecord[];
    return send(reply, 200, { data: rows.map((t) => renderTeam(db, t)) });
  });

  app.get<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    return send(reply, 200, { data: renderTeam(db, loadTeam(db, requireCaller(request), request.params.id, false)) });
  });

  app.patch<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    const t = loadTeam(db, requireCaller(request), request.params.id, true);
    const a = parseBody(teamUpdateSchema, request.body).data.attributes ?? {};
    if (t.is_owners === 1 && a.name !== undefined && a.name !== t.name) throw unprocessable("the owners team cannot be renamed", "/data/attributes/name");
    const access = a["organization-access"];
    try {
      inTransaction(db, () =>
        prepare(db, `UPDATE teams SET name = ?, manage_workspaces = ?, manage_projects = ? WHERE id = ?`).run(
          a.name ?? t.name,
          t.is_owners === 1 || (access?.["manage-workspaces"] ?? t.manage_workspaces === 1) ? 1 : 0,
          t.is_owners === 1 || (access?.["manage-projects"] ?? t.manage_projects === 1) ? 1 : 0,
          t.id,
        ),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    return send(reply, 200, { data: renderTeam(db, loadTeam(db, requireCaller(request), t.id, true)) });
  });

  // Deleting a team revokes its token and its access; its locks stay until an admin force-unlocks.
  app.delete<{ Params: { id: string } }>("/teams/:id", async (request, reply) => {
    const t = loadTeam(db, requireCaller(request), request.params.id, true);
    if (t.is_owners === 1) throw unprocessable("the owners team cannot be deleted");
    inTransaction(db, () => {
      prepare(db, `DELETE FROM tokens WHERE team_id = ?`).run(t.id);
      prepare(db, `DELETE FROM teams WHERE id = ?`).run(t.id);
    });
    return noContent(reply);
  });

  app.delete<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    const t = loadTeam(db, requireCaller(request), request.params.id, true);
    const res = inTransaction(db, () => prepare(db, `DELETE FROM tokens WHERE kind = 'team' AND team_id = ? AND site_admin = 0`).run(t.id));
    if (res.changes === 0) throw notFound("the team has no token");
    return noContent(reply);
  });

  // A team has one token: issuing a new one revokes the previous (the bootstrap token excepted).
  app.post<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    const t = loadTeam(db, requireCaller(request), request.params.id, true);
    const issued = inTransaction(db, () => {
      prepare(db, `DELETE FROM tokens WHERE kind = 'team' AND team_id = ? AND site_admin = 0`).run(t.id);
      return issueToken(db, { kind: "team", organization: t.organization, teamId: t.id });
    });
    return send(reply, 201, { data: renderToken(issued) });
  });

  app.post<{ Params: { organization_name: string } }>("/organizations/:organization_name/authentication-token", async (request, reply) => {
    const org = request.params.organization_name;
    assertOwner(db, requireCaller(request), org);
    const issued = inTransaction(db, () => {
      prepare(db, `DELETE FROM tokens WHERE kind = 'organization' AND organization = ?`).run(org);
      return issueToken(db, { kind: "organization", organization: org });
    });
    return send(reply, 201, { data: renderToken(issued) });
  });

  app.post<{ Params: { id: string } }>("/teams/:id/relationships/users", async (request, reply) => {
    const t = loadTeam(db, requireCaller(request), request.params.id, true);
    const body = parseBody(membersSchema, request.body);
    inTransaction(db, () => {
      for (const item of body.data) {
        const u = prepare(db, `SELECT id FROM users WHERE (id = ? OR username = ?) AND service_account = 0`).get(item.id, item.id) as { id: string } | undefined;
        if (!u) throw notFound(`user "${item.id}" not found`);
        prepare(db, `INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)`).run(t.id, u.id);
      }
    });
    return noContent(reply);
  });

  app.post("/admin/users", async (request, reply) => {
    requireSiteAdmin(requireCaller(request));
    const a = parseBody(userCreateSchema, request.body).data.attributes;
    const id = newId("user");
    try {
      inTransaction(db, () => prepare(db, `INSERT INTO users (id, username, email, created_at) VALUES (?, ?, ?, ?)`).run(id, a.username, a.email ?? null, now()));
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken("/data/attributes/username");
      throw err;
    }
    return send(reply, 201, { data: { id, type: "users", attributes: { username: a.username, email: a.email ?? null }, links: { self: `${API_PREFIX}/users/${id}` } } });
  });

  // Users are visible to any authenticated caller, as `locked-by` links point here.
  // The caller's own user: a person for user tokens, the service user behind a team or organization token.
  app.get("/account/details", async (request, reply) => {
    const user = renderUser(db, requireCaller(request).principalId);
    if (!user) throw notFound("account not found");
    return send(reply, 200, { data: user });
  });

  app.get<{ Params: { id: string } }>("/users/:id", async (request, reply) => {
    requireCaller(request);
    const user = renderUser(db, request.params.id);
    if (!user) throw notFound("user not found");
    return send(reply, 200, { data: user });
  });

  app.post<{ Params: { id: string } }>("/users/:id/authentication-tokens", async (request, reply) => {
    const caller = requireCaller(request);
    if (!caller.siteAdmin && caller.userId !== request.params.id) throw notFound("user not found");
    const u = prepare(db, `SELECT id FROM users WHERE id = ? AND service_account = 0`).get(request.params.id);
    if (!u) throw notFound("user not found");
    const issued = inTransaction(db, () => issueToken(db, { kind: "user", userId: request.params.id }));
    return send(reply, 201, { data: renderToken(issued) });
  });

  const renderTeamWorkspace = (id: string): Resource => {
    const r = prepare(db, `SELECT * FROM team_workspaces WHERE id = ?`).get(id) as {
      id: string;
      team_id: string;
      workspace_id: string;
      access: string;
      runs: string;
      variables: string;
      state_versions: string;
      workspace_locking: number;
      run_tasks: number;
    };
    return {
      id: r.id,
      type: "team-workspaces",
      attributes: {
        access: r.access,
        runs: r.runs,
        variables: r.variables,
        "state-versions": r.state_versions,
        "workspace-locking": r.workspace_locking === 1,
        "run-tasks": r.run_tasks === 1,
      },
      relationships: { team: ref("teams", r.team_id), workspace: ref("workspaces", r.workspace_id) },
      links: { self: `${API_PREFIX}/team-workspaces/${r.id}` },
    };
  };

  const mayManageAccess = (caller: Caller, organization: string) => {
    if (!orgRole(db, caller, organization).manageWorkspaces) throw notFound("not found");
  };

  app.post("/team-workspaces", async (request, reply) => {
    const caller = requireCaller(request);
    const target = targetId(request.body, "workspace");
    const mayManage = (id: string) => {
      const found = findWorkspaceById(db, id);
      if (!found) throw notFound("workspace not found");
      mayManageAccess(caller, found.organization);
      return found;
    };
    if (target !== undefined) mayManage(target);
    const d = parseBody(teamWorkspaceCreateSchema, request.body).data;
    const ws = mayManage(d.relationships.workspace.data.id);
    const team = prepare(db, `SELECT id FROM teams WHERE id = ? AND organization = ?`).get(d.relationships.team.data.id, ws.organization);
    if (!team) throw notFound("team not found");
    const a = d.attributes;
    const id = newInternalId("tws-");
    try {
      inTransaction(db, () =>
        db
          .prepare(`INSERT INTO team_workspaces (id, team_id, workspace_id, access, runs, variables, state_versions, workspace_locking, run_tasks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
          .run(id, d.relationships.team.data.id, ws.id, a.access, a.runs ?? "read", a.variables ?? "none", a["state-versions"] ?? "none", a["workspace-locking"] ? 1 : 0, a["run-tasks"] ? 1 : 0),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken("/data/relationships/team");
      throw err;
    }
    return send(reply, 201, { data: renderTeamWorkspace(id) });
  });

  const loadTeamWorkspace = (caller: Caller, id: string) => {
    const r = prepare(db, `SELECT tw.id, w.organization FROM team_workspaces tw JOIN workspaces w ON w.id = tw.workspace_id WHERE tw.id = ?`).get(id) as
      | { id: string; organization: string }
      | undefined;
    if (!r) throw notFound("team access not found");
    mayManageAccess(caller, r.organization);
    return r;
  };

  app.get<{ Params: { id: string } }>("/team-workspaces/:id", async (request, reply) => {
    const r = loadTeamWorkspace(requireCaller(request), request.params.id);
    return send(reply, 200, { data: renderTeamWorkspace(r.id) });
  });

  app.patch<{ Params: { id: string } }>("/team-workspaces/:id", async (request, reply) => {
    const r = loadTeamWorkspace(requireCaller(request), request.params.id);
    const a = parseBody(teamWorkspaceUpdateSchema, request.body).data.attributes;
    inTransaction(db, () => {
      const cur = prepare(db, `SELECT * FROM team_workspaces WHERE id = ?`).get(r.id) as Record<string, unknown>;
      prepare(db, `UPDATE team_workspaces SET access = ?, runs = ?, variables = ?, state_versions = ?, workspace_locking = ?, run_tasks = ? WHERE id = ?`).run(
        a.access,
        a.runs ?? cur.runs,
        a.variables ?? cur.variables,
        a["state-versions"] ?? cur.state_versions,
        a["workspace-locking"] === undefined ? cur.workspace_locking : a["workspace-locking"] ? 1 : 0,
        a["run-tasks"] === undefined ? cur.run_tasks : a["run-tasks"] ? 1 : 0,
        r.id,
      );
    });
    return send(reply, 200, { data: renderTeamWorkspace(r.id) });
  });

  app.delete<{ Params: { id: string } }>("/team-workspaces/:id", async (request, reply) => {
    const r = loadTeamWorkspace(requireCaller(request), request.params.id);
    inTransaction(db, () => prepare(db, `DELETE FROM team_workspaces WHERE id = ?`).run(r.id));
    return noContent(reply);
  });

  app.post("/team-projects", async (request, reply) => {
    const caller = requireCaller(request);
    const manageable = (id: string) => {
      const found = prepare(db, `SELECT id, organization FROM projects WHERE id = ?`).get(id) as { id: string; organization: string } | undefined;
      if (!found || !orgRole(db, caller, found.organization).manageProjects) throw notFound("project not found");
      return found;
    };
    const target = targetId(request.body, "project");
    if (target !== undefined) manageable(target);
    const d = parseBody(teamProjectCreateSchema, request.body).data;
    const p = manageable(d.relationships.project.data.id);
    const team = prepare(db, `SELECT id FROM teams WHERE id = ? AND organization = ?`).get(d.relationships.team.data.id, p.organization);
    if (!team) throw notFound("team not found");
    const id = newInternalId("tprj-");
    try {
      inTransaction(db, () => prepare(db, `INSERT INTO team_projects (id, team_id, project_id, access) VALUES (?, ?, ?, ?)`).run(id, d.relationships.team.data.id, p.id, d.attributes.access));
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken("/data/relationships/team");
      throw err;
    }
    return send(reply, 201, { data: renderTeamProject({ id, team_id: d.relationships.team.data.id, project_id: p.id, access: d.attributes.access }) });
  });

  const loadTeamProject = (caller: Caller, id: string) => {
    const r = prepare(db, `SELECT tp.id, tp.team_id, tp.project_id, tp.access, p.organization FROM team_projects tp JOIN projects p ON p.id = tp.project_id WHERE tp.id = ?`).get(id) as
      | (TeamProjectRecord & { organization: string })
      | undefined;
    if (!r || !orgRole(db, caller, r.organization).manageProjects) throw notFound("team project access not found");
    return r;
  };

  app.get<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    return send(reply, 200, { data: renderTeamProject(loadTeamProject(requireCaller(request), request.params.id)) });
  });

  app.patch<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    const r = loadTeamProject(requireCaller(request), request.params.id);
    const access = parseBody(teamProjectUpdateSchema, request.body).data.attributes?.access;
    if (access !== undefined) inTransaction(db, () => prepare(db, `UPDATE team_projects SET access = ? WHERE id = ?`).run(access, r.id));
    return send(reply, 200, { data: renderTeamProject({ ...r, access: access ?? r.access }) });
  });

  app.delete<{ Params: { id: string } }>("/team-projects/:id", async (request, reply) => {
    const r = loadTeamProject(requireCaller(request), request.params.id);
    inTransaction(db, () => prepare(db, `DELETE FROM team_projects WHERE id = ?`).run(r.id));
    return noContent(reply);
  });
}

interface TeamProjectRecord {
  id: string;
  team_id: string;
  project_id: string;
  access: string;
}

function renderTeamProject(r: TeamProjectRecord): Resource {
  return {
    id: r.id,
    type: "team-projects",
    attributes: { access: r.access },
    relationships: { team: ref("teams", r.team_id), project: ref("projects", r.project_id) },
    links: { self: `${API_PREFIX}/team-projects/${r.id}` },
  };
}
