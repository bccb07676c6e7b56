import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, createWorkspace, expectStatus, grant, makeTeam, makeUser, start, type TestServer } from "./helpers";

/**
 * The permission matrix of spec 5: which caller gets 200/204, 403 or 404 on which
 * endpoint, and whether each workspace's `permissions` object predicts it.
 */
let t: TestServer;
type Role = { name: string; api: Api; grantTo?: { team: string; access: string; extra?: Record<string, unknown> } };
const roles: Role[] = [];

beforeAll(async () => {
  t = await start();
  const owners = (await t.api.get(`/organizations/${t.org}/teams`)).body.data.find(
    (x: any) => x.attributes.name === "owners",
  );
  const owner = await makeUser(t.api, "owner-user");
  await expectStatus(
    t.api.post(`/teams/${owners.id}/relationships/users`, { data: [{ type: "users", id: owner.id }] }),
    204,
  );
  const mw = await makeTeam(t.api, t.org, "managers", { manageWorkspaces: true });
  const mp = await makeTeam(t.api, t.org, "project-managers", { manageProjects: true });
  const rw = await makeTeam(t.api, t.org, "all-readers", { flags: { "read-workspaces": true } });
  const rp = await makeTeam(t.api, t.org, "project-readers", { flags: { "read-projects": true } });
  const orgToken = await expectStatus(t.api.post(`/organizations/${t.org}/authentication-token`), 201);
  const levels = ["admin", "write", "plan", "read"];
  for (const level of levels) {
    const team = await makeTeam(t.api, t.org, `ws-${level}`);
    roles.push({ name: `team:${level}`, api: t.api.as(team.token), grantTo: { team: team.id, access: level } });
  }
  const lockers = await makeTeam(t.api, t.org, "lockers");
  const nobody = await makeTeam(t.api, t.org, "nobody");
  const outsider = await makeUser(t.api, "outsider");
  const member = await makeUser(t.api, "member");
  const readers = await makeTeam(t.api, t.org, "readers-users");
  await expectStatus(
    t.api.post(`/teams/${readers.id}/relationships/users`, { data: [{ type: "users", id: member.id }] }),
    204,
  );
  roles.push(
    { name: "user:owner", api: t.api.as(owner.token) },
    { name: "team:manage-workspaces", api: t.api.as(mw.token) },
    { name: "team:manage-projects", api: t.api.as(mp.token) },
    { name: "team:read-workspaces", api: t.api.as(rw.token) },
    { name: "team:read-projects", api: t.api.as(rp.token) },
    {
      name: "team:read-workspaces+write",
      api: t.api.as(rw.token),
      grantTo: { team: rw.id, access: "write" },
    },
    { name: "organization-token", api: t.api.as(orgToken.body.data.attributes.token) },
    {
      name: "team:custom-lock",
      api: t.api.as(lockers.token),
      grantTo: { team: lockers.id, access: "custom", extra: { "workspace-locking": true } },
    },
    { name: "user:read-through-team", api: t.api.as(member.token), grantTo: { team: readers.id, access: "read" } },
    { name: "team:no-access", api: t.api.as(nobody.token) },
    { name: "user:outsider", api: t.api.as(outsider.token) },
    { name: "no-token", api: t.api.as(null) },
    { name: "bad-token", api: t.api.as("not-a-real-token") },
  );
});
afterAll(() => t.server.close());

let n = 0;
async function workspaceFor(role: Role) {
  const ws = await createWorkspace(t.api, t.org, `pm-${n++}`);
  if (role.grantTo) await grant(t.api, role.grantTo.team, ws.id, role.grantTo.access, role.grantTo.extra);
  return ws;
}

/** What a caller that may read a workspace, and do nothing else to it, gets. */
const READS_ONLY = {
  read: 200,
  update: 404,
  lock: 404,
  forceUnlock: 404,
  safeDelete: 404,
  forceDelete: 403,
  replaceConsumers: 404,
  addConsumers: 404,
  tags: 404,
  create: 404,
};

const EXPECTED: Record<
  string,
  {
    read: number;
    update: number;
    lock: number;
    forceUnlock: number;
    safeDelete: number;
    forceDelete: number;
    replaceConsumers: number;
    addConsumers: number;
    tags: number;
    create: number;
  }
> = {
  "team:admin": {
    read: 200,
    update: 200,
    lock: 200,
    forceUnlock: 200,
    safeDelete: 204,
    forceDelete: 403,
    replaceConsumers: 404,
    addConsumers: 204,
    tags: 204,
    create: 404,
  },
  "team:write": { ...READS_ONLY, lock: 200 },
  "team:plan": READS_ONLY,
  "team:read": READS_ONLY,
  "user:owner": {
    read: 200,
    update: 200,
    lock: 200,
    forceUnlock: 200,
    safeDelete: 204,
    forceDelete: 204,
    replaceConsumers: 204,
    addConsumers: 204,
    tags: 204,
    create: 201,
  },
  "team:manage-workspaces": {
    read: 200,
    update: 200,
    lock: 200,
    forceUnlock: 200,
    safeDelete: 204,
    forceDelete: 403,
    replaceConsumers: 204,
    addConsumers: 204,
    tags: 204,
    create: 201,
  },
  // Organization-wide flags (ORGANIZATION_FLAGS_ON_WORKSPACES): manage-projects is admin on
  // every project and so on every workspace, but replacing consumers still takes manage-workspaces.
  "team:manage-projects": {
    read: 200,
    update: 200,
    lock: 200,
    forceUnlock: 200,
    safeDelete: 204,
    forceDelete: 403,
    replaceConsumers: 404,
    addConsumers: 204,
    tags: 204,
    create: 201,
  },
  // read-workspaces and read-projects read every workspace, with no grant of their own.
  "team:read-workspaces": READS_ONLY,
  "team:read-projects": READS_ONLY,
  // A grant adds to what the flag gives.
  "team:read-workspaces+write": { ...READS_ONLY, lock: 200 },
  "organization-token": {
    read: 200,
    update: 200,
    lock: 200,
    forceUnlock: 200,
    safeDelete: 204,
    forceDelete: 403,
    replaceConsumers: 204,
    addConsumers: 204,
    tags: 204,
    create: 201,
  },
  "team:custom-lock": { ...READS_ONLY, lock: 200 },
  "user:read-through-team": READS_ONLY,
  "team:no-access": {
    read: 404,
    update: 404,
    lock: 404,
    forceUnlock: 404,
    safeDelete: 404,
    forceDelete: 404,
    replaceConsumers: 404,
    addConsumers: 404,
    tags: 404,
    create: 404,
  },
  "user:outsider": {
    read: 404,
    update: 404,
    lock: 404,
    forceUnlock: 404,
    safeDelete: 404,
    forceDelete: 404,
    replaceConsumers: 404,
    addConsumers: 404,
    tags: 404,
    create: 404,
  },
  "no-token": {
    read: 401,
    update: 401,
    lock: 401,
    forceUnlock: 401,
    safeDelete: 401,
    forceDelete: 401,
    replaceConsumers: 401,
    addConsumers: 401,
    tags: 401,
    create: 401,
  },
  "bad-token": {
    read: 401,
    update: 401,
    lock: 401,
    forceUnlock: 401,
    safeDelete: 401,
    forceDelete: 401,
    replaceConsumers: 401,
    addConsumers: 401,
    tags: 401,
    create: 401,
  },
};

describe("permission matrix (spec 5, 7)", () => {
  it("covers every role", () => {
    expect(roles.map((r) => r.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))(
    "%s gets the expected statuses, and its permissions object predicts them",
    async (name) => {
      const role = roles.find((r) => r.name === name)!;
      const want = EXPECTED[name];
      const got: Record<string, number> = {};
      const ws = await workspaceFor(role);
      const consumer = await workspaceFor(role);
      const read = await role.api.get(`/workspaces/${ws.id}`);
      got.read = read.status;
      const perms = read.status === 200 ? read.body.data.attributes.permissions : null;

      got.update = (
        await role.api.patch(`/workspaces/${ws.id}`, {
          data: { type: "workspaces", attributes: { description: "changed" } },
        })
      ).status;
      const lock = await role.api.post(`/workspaces/${ws.id}/actions/lock`);
      got.lock = lock.status;
      if (lock.status === 200) await expectStatus(role.api.post(`/workspaces/${ws.id}/actions/unlock`), 200);
      await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/lock`), 200);
      got.forceUnlock = (await role.api.post(`/workspaces/${ws.id}/actions/force-unlock`)).status;
      if (got.forceUnlock !== 200) await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/force-unlock`), 200);
      const consumers = { data: [{ type: "workspaces", id: consumer.id }] };
      got.replaceConsumers = (
        await role.api.patch(`/workspaces/${ws.id}/relationships/remote-state-consumers`, consumers)
      ).status;
      got.addConsumers = (
        await role.api.post(`/workspaces/${ws.id}/relationships/remote-state-consumers`, consumers)
      ).status;
      got.tags = (
        await role.api.post(`/workspaces/${ws.id}/relationships/tags`, {
          data: [{ type: "tags", attributes: { name: "perm" } }],
        })
      ).status;
      got.create = (
        await role.api.post(`/organizations/${t.org}/workspaces`, {
          data: { type: "workspaces", attributes: { name: `made-by-${name.replace(/[^a-z-]/g, "-")}` } },
        })
      ).status;
      got.forceDelete = (await role.api.delete(`/workspaces/${consumer.id}`)).status;
      got.safeDelete = (await role.api.post(`/workspaces/${ws.id}/actions/safe-delete`)).status;
      expect(got).toEqual(want);

      if (perms) {
        expect(perms["can-update"]).toBe(want.update === 200);
        expect(perms["can-lock"]).toBe(want.lock === 200);
        expect(perms["can-unlock"]).toBe(want.lock === 200);
        expect(perms["can-force-unlock"]).toBe(want.forceUnlock === 200);
        expect(perms["can-destroy"]).toBe(want.safeDelete === 204);
        expect(perms["can-force-delete"]).toBe(want.forceDelete === 204);
        expect(perms["can-manage-tags"]).toBe(want.tags === 204);
        expect(perms["can-read-settings"]).toBe(true);
      }
    },
  );

  it("401 bodies are JSON:API and leak nothing of the token", async () => {
    const r = await t.api.as("secret-token-value").get(`/workspaces/ws-x`);
    expect(r.status).toBe(401);
    expect(r.body.errors[0].status).toBe("401");
    expect(r.text).not.toContain("secret-token-value");
  });

  it("lists show only readable workspaces, with true totals", async () => {
    const team = await makeTeam(t.api, t.org, "list-scope");
    const a = await createWorkspace(t.api, t.org, "scope-a");
    await createWorkspace(t.api, t.org, "scope-b");
    await grant(t.api, team.id, a.id, "read");
    const r = await t.api.as(team.token).get(`/organizations/${t.org}/workspaces`);
    expect(r.body.data.map((w: any) => w.id)).toEqual([a.id]);
    expect(r.body.meta.pagination["total-count"]).toBe(1);
  });

  it("project access gives access to the project's workspaces; moving needs admin on both projects", async () => {
    const p1 = (
      await expectStatus(
        t.api.post(`/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: "pa-1" } } }),
        201,
      )
    ).body.data.id;
    const p2 = (
      await expectStatus(
        t.api.post(`/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name: "pa-2" } } }),
        201,
      )
    ).body.data.id;
    const team = await makeTeam(t.api, t.org, "project-admins");
    const tp = (project: string, access: string) =>
      expectStatus(
        t.api.post(`/team-projects`, {
          data: {
            type: "team-projects",
            attributes: { access },
            relationships: {
              project: { data: { id: project, type: "projects" } },
              team: { data: { id: team.id, type: "teams" } },
            },
          },
        }),
        201,
      );
    await tp(p1, "admin");
    const api = t.api.as(team.token);
    const ws = await expectStatus(
      api.post(`/organizations/${t.org}/workspaces`, {
        data: {
          type: "workspaces",
          attributes: { name: "pa-ws" },
          relationships: { project: { data: { type: "projects", id: p1 } } },
        },
      }),
      201,
    );
    const move = { data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: p2 } } } } };
    expect((await api.patch(`/workspaces/${ws.body.data.id}`, move)).status).toBe(404);
    expect((await t.api.get(`/workspaces/${ws.body.data.id}`)).body.data.relationships.project.data.id).toBe(p1);
    await tp(p2, "admin");
    const moved = await expectStatus(api.patch(`/workspaces/${ws.body.data.id}`, move), 200);
    expect(moved.body.data.relationships.project.data.id).toBe(p2);
  });
});
