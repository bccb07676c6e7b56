/**
 * Agent pools over real HTTP: the lists of who may use a pool (replaced when given,
 * cleared by `[]`, kept when absent, only the organization's ids, emptied of deleted
 * workspaces and projects), the list's filters, order and include, the service's 422 for a
 * workspace put on a pool that does not allow it (directly, through its project's default,
 * excluded beating allowed), and 404 for what the caller may not manage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_POOL_NOT_ALLOWED_DETAIL } from "../../src/api/agent-pools";
import { createWorkspace, expectStatus, makeTeam, makeUser, start, wsBody, type Api, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const ids = (type: "workspaces" | "projects", list: string[]) => ({ data: list.map((id) => ({ type, id })) });

function poolBody(attributes: Record<string, unknown>, lists: Record<string, { data: unknown[] }> = {}) {
  return { data: { type: "agent-pools", attributes, relationships: lists } };
}

async function createPool(
  name: string,
  lists: { allowed?: string[]; projects?: string[]; excluded?: string[] } = {},
  organizationScoped = false,
) {
  const r = await expectStatus(
    t.api.post(
      `/organizations/${t.org}/agent-pools`,
      poolBody(
        { name, "organization-scoped": organizationScoped },
        {
          ...(lists.allowed ? { "allowed-workspaces": ids("workspaces", lists.allowed) } : {}),
          ...(lists.projects ? { "allowed-projects": ids("projects", lists.projects) } : {}),
          ...(lists.excluded ? { "excluded-workspaces": ids("workspaces", lists.excluded) } : {}),
        },
      ),
    ),
    201,
  );
  return r.body.data as { id: string; relationships: Record<string, { data: { id: string }[] }> };
}

async function createProject(name: string, attributes: Record<string, unknown> = {}) {
  const r = await expectStatus(
    t.api.post(`/organizations/${t.org}/projects`, { data: { type: "projects", attributes: { name, ...attributes } } }),
    201,
  );
  return r.body.data.id as string;
}

const listIds = (doc: { relationships: Record<string, { data: { id: string }[] }> }, list: string) =>
  doc.relationships[list].data.map((d) => d.id);

const onPool = (poolId: string) => ({ "execution-mode": "agent", "agent-pool-id": poolId });

function expectNotAllowed(r: { status: number; body: any }) {
  expect(r.status).toBe(422);
  expect(r.body.errors).toEqual([
    {
      status: "422",
      title: "invalid attribute",
      detail: AGENT_POOL_NOT_ALLOWED_DETAIL,
      source: { pointer: "/data/attributes/agent-pool-id" },
    },
  ]);
}

describe("an agent pool's lists", () => {
  it("are set on create, replaced by a PATCH that gives them, kept when absent, cleared by []", async () => {
    const a = await createWorkspace(t.api, t.org, "lists-a");
    const b = await createWorkspace(t.api, t.org, "lists-b");
    const c = await createWorkspace(t.api, t.org, "lists-c");
    const prj = await createProject("lists-prj");
    const pool = await createPool("lists", { allowed: [a.id, b.id], projects: [prj], excluded: [c.id] });
    expect(listIds(pool, "allowed-workspaces")).toEqual([a.id, b.id]);
    expect(listIds(pool, "allowed-projects")).toEqual([prj]);
    expect(listIds(pool, "excluded-workspaces")).toEqual([c.id]);

    const renamed = await expectStatus(
      t.api.patch(
        `/agent-pools/${pool.id}`,
        poolBody({ name: "lists-renamed" }, { "allowed-workspaces": ids("workspaces", [c.id]) }),
      ),
      200,
    );
    expect(renamed.body.data.attributes.name).toBe("lists-renamed");
    expect(listIds(renamed.body.data, "allowed-workspaces")).toEqual([c.id]);
    expect(listIds(renamed.body.data, "allowed-projects")).toEqual([prj]);
    expect(listIds(renamed.body.data, "excluded-workspaces")).toEqual([c.id]);

    await expectStatus(
      t.api.patch(
        `/agent-pools/${pool.id}`,
        poolBody({}, { "allowed-projects": { data: [] }, "excluded-workspaces": { data: [] } }),
      ),
      200,
    );
    const read = await expectStatus(t.api.get(`/agent-pools/${pool.id}`), 200);
    expect(listIds(read.body.data, "allowed-workspaces")).toEqual([c.id]);
    expect(listIds(read.body.data, "allowed-projects")).toEqual([]);
    expect(listIds(read.body.data, "excluded-workspaces")).toEqual([]);
    expect(read.body.data.attributes).toMatchObject({ "organization-scoped": false, "agent-count": 0 });
  });

  it("take only the organization's workspaces and projects: 422 at each unknown id, and nothing is written", async () => {
    await expectStatus(
      t.api.post(`/organizations`, {
        data: { type: "organizations", attributes: { name: "pool-other", email: "o@example.com" } },
      }),
      201,
    );
    const foreign = await createWorkspace(t.api, "pool-other", "foreign");
    const own = await createWorkspace(t.api, t.org, "lists-own");
    const refused = await t.api.post(
      `/organizations/${t.org}/agent-pools`,
      poolBody(
        { name: "refused" },
        {
          "allowed-workspaces": ids("workspaces", [own.id, foreign.id]),
          "allowed-projects": ids("projects", ["prj-unknown"]),
        },
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => e.source.pointer)).toEqual([
      "/data/relationships/allowed-workspaces/data/1/id",
      "/data/relationships/allowed-projects/data/0/id",
    ]);
    const list = await expectStatus(t.api.get(`/organizations/${t.org}/agent-pools?q=refused`), 200);
    expect(list.body.data).toEqual([]);

    const pool = await createPool("lists-kept", { allowed: [own.id] });
    const patch = await t.api.patch(
      `/agent-pools/${pool.id}`,
      poolBody({ name: "lists-kept-2" }, { "excluded-workspaces": ids("workspaces", [foreign.id]) }),
    );
    expect(patch.status).toBe(422);
    expect(patch.body.errors[0].source.pointer).toBe("/data/relationships/excluded-workspaces/data/0/id");
    const read = await expectStatus(t.api.get(`/agent-pools/${pool.id}`), 200);
    expect(read.body.data.attributes.name).toBe("lists-kept");
    expect(listIds(read.body.data, "excluded-workspaces")).toEqual([]);
  });

  it("of any length are checked: more ids than SQLite binds at once, repeats kept once", async () => {
    const ws = await createWorkspace(t.api, t.org, "lists-long");
    const pool = await createPool("lists-long", { allowed: Array.from({ length: 33_000 }, () => ws.id) });
    expect(listIds(pool, "allowed-workspaces")).toEqual([ws.id]);
  });

  it("lose a workspace or project when it is deleted", async () => {
    const ws = await createWorkspace(t.api, t.org, "lists-gone");
    const stays = await createWorkspace(t.api, t.org, "lists-stays");
    const prj = await createProject("lists-gone-prj");
    const pool = await createPool("lists-gone", { allowed: [ws.id, stays.id], projects: [prj], excluded: [ws.id] });
    await expectStatus(t.api.delete(`/workspaces/${ws.id}`), 204);
    await expectStatus(t.api.delete(`/projects/${prj}`), 204);
    const read = await expectStatus(t.api.get(`/agent-pools/${pool.id}`), 200);
    expect(listIds(read.body.data, "allowed-workspaces")).toEqual([stays.id]);
    expect(listIds(read.body.data, "allowed-projects")).toEqual([]);
    expect(listIds(read.body.data, "excluded-workspaces")).toEqual([]);
  });
});

describe("the list of agent pools", () => {
  it("filters by name, by the workspace or project that may use a pool, orders and includes workspaces", async () => {
    await expectStatus(
      t.api.post(`/organizations`, {
        data: { type: "organizations", attributes: { name: "pool-list", email: "l@example.com" } },
      }),
      201,
    );
    const org = "pool-list";
    const ws = await createWorkspace(t.api, org, "filter-ws");
    const prj = (
      await expectStatus(
        t.api.post(`/organizations/${org}/projects`, {
          data: { type: "projects", attributes: { name: "filter-prj" } },
        }),
        201,
      )
    ).body.data.id as string;
    const create = async (name: string, scoped: boolean, rel: Record<string, unknown> = {}) =>
      (
        await expectStatus(
          t.api.post(`/organizations/${org}/agent-pools`, {
            data: { type: "agent-pools", attributes: { name, "organization-scoped": scoped }, relationships: rel },
          }),
          201,
        )
      ).body.data.id as string;
    const scoped = await create("c-scoped", true);
    await create("a-by-ws", false, { "allowed-workspaces": ids("workspaces", [ws.id]) });
    await create("b-by-prj", false, { "allowed-projects": ids("projects", [prj]) });
    const names = async (query: string) =>
      (await expectStatus(t.api.get(`/organizations/${org}/agent-pools${query}`), 200)).body.data.map(
        (d: any) => d.attributes.name,
      );
    expect(await names("")).toEqual(["a-by-ws", "b-by-prj", "c-scoped"]);
    expect(await names("?sort=-name")).toEqual(["c-scoped", "b-by-prj", "a-by-ws"]);
    expect(await names("?sort=created-at")).toEqual(["c-scoped", "a-by-ws", "b-by-prj"]);
    expect(await names("?sort=-created-at")).toEqual(["b-by-prj", "a-by-ws", "c-scoped"]);
    expect(await names("?q=BY")).toEqual(["a-by-ws", "b-by-prj"]);
    expect(await names("?filter[allowed_workspaces][name]=filter-ws")).toEqual(["a-by-ws", "c-scoped"]);
    expect(await names("?filter[allowed_projects][name]=filter-prj")).toEqual(["b-by-prj", "c-scoped"]);
    const counted = await expectStatus(
      t.api.get(`/organizations/${org}/agent-pools?filter[allowed_workspaces][name]=filter-ws&page[size]=1`),
      200,
    );
    expect(counted.body.meta.pagination["total-count"]).toBe(2);

    const bad = await t.api.get(`/organizations/${org}/agent-pools?sort=agent-count`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: "sort" });
    expect((await t.api.get(`/organizations/${org}/agent-pools?include=agents`)).status).toBe(400);

    // The workspaces running on a pool show only when included.
    const running = await createWorkspace(t.api, org, "filter-running", onPool(scoped));
    const plain = await expectStatus(t.api.get(`/agent-pools/${scoped}`), 200);
    expect(plain.body.data.relationships.workspaces).toBeUndefined();
    expect(plain.body.included).toBeUndefined();
    const withWs = await expectStatus(t.api.get(`/agent-pools/${scoped}?include=workspaces`), 200);
    expect(listIds(withWs.body.data, "workspaces")).toEqual([running.id]);
    expect(withWs.body.included.map((d: any) => [d.type, d.id])).toEqual([["workspaces", running.id]]);
    const listed = await expectStatus(t.api.get(`/organizations/${org}/agent-pools?include=workspaces`), 200);
    expect(listed.body.included.map((d: any) => d.id)).toEqual([running.id]);
  });
});

describe("a workspace on a pool that does not allow it", () => {
  it("is refused with the service's 422 on create and on PATCH; allowed through its list or its project's", async () => {
    const closed = await createPool("closed");
    expectNotAllowed(await t.api.post(`/organizations/${t.org}/workspaces`, wsBody("na-direct", onPool(closed.id))));
    const ws = await createWorkspace(t.api, t.org, "na-patch");
    expectNotAllowed(await t.api.patch(`/workspaces/${ws.id}`, wsBody("na-patch", onPool(closed.id))));
    const unchanged = await expectStatus(t.api.get(`/workspaces/${ws.id}`), 200);
    expect(unchanged.body.data.attributes["execution-mode"]).toBe("remote");

    // Allowed by name on the list: the PATCH goes through.
    const byList = await createPool("by-list", { allowed: [ws.id] });
    const moved = await expectStatus(t.api.patch(`/workspaces/${ws.id}`, wsBody("na-patch", onPool(byList.id))), 200);
    expect(moved.body.data.relationships["agent-pool"].data.id).toBe(byList.id);

    // Allowed through the project: a new workspace in it may be created on the pool.
    const prj = await createProject("na-prj");
    const byProject = await createPool("by-project", { projects: [prj] });
    await createWorkspace(t.api, t.org, "na-in-prj", onPool(byProject.id), {
      project: { data: { type: "projects", id: prj } },
    });
    expectNotAllowed(
      await t.api.post(`/organizations/${t.org}/workspaces`, wsBody("na-outside-prj", onPool(byProject.id))),
    );

    // An organization-scoped pool takes any workspace.
    const scoped = await createPool("scoped", {}, true);
    await createWorkspace(t.api, t.org, "na-scoped", onPool(scoped.id));
  });

  it("is refused when excluded, even if allowed by name or by its project", async () => {
    const prj = await createProject("ex-prj");
    const ws = await createWorkspace(t.api, t.org, "ex-ws", {}, { project: { data: { type: "projects", id: prj } } });
    const pool = await createPool("ex-pool", { allowed: [ws.id], projects: [prj], excluded: [ws.id] });
    expectNotAllowed(await t.api.patch(`/workspaces/${ws.id}`, wsBody("ex-ws", onPool(pool.id))));
    const scoped = await createPool("ex-scoped", { excluded: [ws.id] }, true);
    expectNotAllowed(await t.api.patch(`/workspaces/${ws.id}`, wsBody("ex-ws", onPool(scoped.id))));
  });

  it("is refused when it would inherit the pool from its project's default", async () => {
    const closed = await createPool("default-closed");
    const prj = await createProject("default-prj", {
      "default-execution-mode": "agent",
      "default-agent-pool-id": closed.id,
    });
    const inProject = { project: { data: { type: "projects", id: prj } } };
    expectNotAllowed(await t.api.post(`/organizations/${t.org}/workspaces`, wsBody("inherits", {}, inProject)));
    await expectStatus(
      t.api.patch(`/agent-pools/${closed.id}`, poolBody({}, { "allowed-projects": ids("projects", [prj]) })),
      200,
    );
    const ws = await createWorkspace(t.api, t.org, "inherits", {}, inProject);
    expect(ws.relationships["agent-pool"].data.id).toBe(closed.id);
  });

  it("already running on it stays when the pool stops allowing it, and its other settings still change", async () => {
    const ws = await createWorkspace(t.api, t.org, "stays-ws");
    const pool = await createPool("stays-pool", { allowed: [ws.id] });
    await expectStatus(t.api.patch(`/workspaces/${ws.id}`, wsBody("stays-ws", onPool(pool.id))), 200);
    await expectStatus(
      t.api.patch(`/agent-pools/${pool.id}`, poolBody({}, { "allowed-workspaces": { data: [] } })),
      200,
    );
    const patched = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, wsBody("stays-ws", { description: "still here", ...onPool(pool.id) })),
      200,
    );
    expect(patched.body.data.attributes.description).toBe("still here");
    expect(patched.body.data.relationships["agent-pool"].data.id).toBe(pool.id);
  });
});

describe("who may manage a pool", () => {
  it("a team with manage-agent-pools manages pools and their tokens, as on the service", async () => {
    const team = await makeTeam(t.api, t.org, "pool-managers", { flags: { "manage-agent-pools": true } });
    const asManager: Api = t.api.as(team.token);
    const created = await expectStatus(
      asManager.post(`/organizations/${t.org}/agent-pools`, poolBody({ name: "managed-by-team" })),
      201,
    );
    const id = created.body.data.id as string;
    await expectStatus(asManager.patch(`/agent-pools/${id}`, poolBody({ name: "renamed-by-team" })), 200);
    const token = await expectStatus(
      asManager.post(`/agent-pools/${id}/authentication-tokens`, {
        data: { type: "authentication-tokens", attributes: { description: "from the team" } },
      }),
      201,
    );
    await expectStatus(asManager.delete(`/authentication-tokens/${token.body.data.id}`), 204);
    await expectStatus(asManager.delete(`/agent-pools/${id}`), 204);
  });

  it("owners and the organization token; another organization's user gets what an unknown id gets", async () => {
    const pool = await createPool("guarded");
    const member = await makeTeam(t.api, t.org, "pool-members", { manageWorkspaces: true });
    const asMember: Api = t.api.as(member.token);
    await expectStatus(asMember.get(`/agent-pools/${pool.id}`), 200);
    for (const r of [
      await asMember.patch(`/agent-pools/${pool.id}`, poolBody({ name: "taken-over" })),
      await asMember.delete(`/agent-pools/${pool.id}`),
      await asMember.post(`/organizations/${t.org}/agent-pools`, poolBody({ name: "not-mine" })),
    ])
      expect(r.status).toBe(404);

    const outsider = await makeUser(t.api, "pool-outsider");
    const asOutsider = t.api.as(outsider.token);
    for (const [method, path] of [
      ["GET", `/agent-pools/${pool.id}`],
      ["PATCH", `/agent-pools/${pool.id}`],
      ["DELETE", `/agent-pools/${pool.id}`],
    ] as const) {
      const real = await asOutsider.request(method, path, method === "PATCH" ? poolBody({}) : undefined);
      const unknown = await asOutsider.request(
        method,
        path.replace(pool.id, "apool-QQQQQQQQQQQQQQQQ"),
        method === "PATCH" ? poolBody({}) : undefined,
      );
      expect(real.status).toBe(404);
      expect(real.text).toBe(unknown.text);
    }
  });
});
