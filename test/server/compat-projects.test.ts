/**
 * Projects as official clients set them up (go-tfe): execution defaults that their
 * workspaces inherit, the name rule, list filters and included effective tag bindings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, start, type TestServer } from "./helpers";

let t: TestServer;
let pool: string;
beforeAll(async () => {
  t = await start();
  pool = (
    await expectStatus(
      t.api.post(`/organizations/${t.org}/agent-pools`, {
        data: { type: "agent-pools", attributes: { name: "prj-pool" } },
      }),
      201,
    )
  ).body.data.id;
});
afterAll(() => t.server.close());

function projectBody(name: string, attributes: Record<string, unknown> = {}, bindings?: Record<string, string>) {
  return {
    data: {
      type: "projects",
      attributes: { name, ...attributes },
      ...(bindings
        ? {
            relationships: {
              "tag-bindings": {
                data: Object.entries(bindings).map(([key, value]) => ({
                  type: "tag-bindings",
                  attributes: { key, value },
                })),
              },
            },
          }
        : {}),
    },
  };
}

async function createProject(
  name: string,
  attributes: Record<string, unknown> = {},
  bindings?: Record<string, string>,
) {
  return (
    await expectStatus(t.api.post(`/organizations/${t.org}/projects`, projectBody(name, attributes, bindings)), 201)
  ).body.data;
}

describe("project execution defaults", () => {
  it("a project's own default is shown with its pool and inherited by its workspaces", async () => {
    const p = await createProject("agent-project", {
      "default-execution-mode": "agent",
      "default-agent-pool-id": pool,
    });
    expect(p.attributes["default-execution-mode"]).toBe("agent");
    expect(p.attributes["setting-overwrites"]).toEqual({ "default-execution-mode": true, "default-agent-pool": true });
    expect(p.relationships["default-agent-pool"].data).toEqual({ id: pool, type: "agent-pools" });
    const ws = await createWorkspace(
      t.api,
      t.org,
      "in-agent-project",
      {},
      { project: { data: { type: "projects", id: p.id } } },
    );
    expect(ws.attributes["execution-mode"]).toBe("agent");
    expect(ws.relationships["agent-pool"].data).toEqual({ id: pool, type: "agent-pools" });
  });

  it("without its own default a project follows the organization's, and can return to it", async () => {
    const p = await createProject("follows-org", {
      "setting-overwrites": { "default-execution-mode": false, "default-agent-pool": false },
    });
    expect(p.attributes["default-execution-mode"]).toBe("remote");
    expect(p.attributes["setting-overwrites"]["default-execution-mode"]).toBe(false);
    const local = await expectStatus(
      t.api.patch(`/projects/${p.id}`, projectBody("follows-org", { "default-execution-mode": "local" })),
      200,
    );
    expect(local.body.data.attributes["default-execution-mode"]).toBe("local");
    const back = await expectStatus(
      t.api.patch(
        `/projects/${p.id}`,
        projectBody("follows-org", { "setting-overwrites": { "default-execution-mode": false } }),
      ),
      200,
    );
    expect(back.body.data.attributes["default-execution-mode"]).toBe("remote");
  });

  it("refuses a pool without agent mode, and agent mode without a pool", async () => {
    const p = await createProject("strict-project");
    const poolNoAgent = await t.api.patch(
      `/projects/${p.id}`,
      projectBody("strict-project", { "default-execution-mode": "local", "default-agent-pool-id": pool }),
    );
    expect(poolNoAgent.status).toBe(422);
    expect(poolNoAgent.body.errors[0].detail).toContain("must not be specified unless using 'agent' execution mode");
    const agentNoPool = await t.api.post(
      `/organizations/${t.org}/projects`,
      projectBody("agent-without-pool", { "default-execution-mode": "agent" }),
    );
    expect(agentNoPool.status).toBe(422);
    expect((await t.api.get(`/projects/${p.id}`)).body.data.attributes["default-execution-mode"]).toBe("remote");
  });
});

describe("project names", () => {
  it("may hold letters, digits, spaces, - and _ only", async () => {
    await createProject("Team Blue_2-a");
    const p = await createProject("renameable");
    const bad = await t.api.patch(`/projects/${p.id}`, projectBody("! / nope"));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].detail).toMatch(/^Name may only contain/);
    expect((await t.api.post(`/organizations/${t.org}/projects`, projectBody("a/b"))).status).toBe(422);
  });
});

describe("project list", () => {
  it("filters by `q` (part of the name, any case) and by bound tags (empty value = key only)", async () => {
    const a = await createProject("Filter Alpha", {}, { tier: "gold", zone: "eu" });
    const b = await createProject("filter-beta", {}, { tier: "silver" });
    const names = async (q: string) =>
      (await expectStatus(t.api.get(`/organizations/${t.org}/projects?${q}`), 200)).body.data
        .map((p: any) => p.id)
        .sort();
    expect(await names("q=FILTER")).toEqual([a.id, b.id].sort());
    expect(await names("q=alpha")).toEqual([a.id]);
    expect(await names("filter%5Btagged%5D%5B0%5D%5Bkey%5D=tier&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=")).toEqual(
      [a.id, b.id].sort(),
    );
    expect(await names("filter%5Btagged%5D%5B0%5D%5Bkey%5D=tier&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=silver")).toEqual([
      b.id,
    ]);
    expect(await names("filter%5Btagged%5D%5B0%5D%5Bkey%5D=tier&filter%5Btagged%5D%5B1%5D%5Bkey%5D=zone")).toEqual([
      a.id,
    ]);
  });

  it("includes effective tag bindings, listed in each project's relationship", async () => {
    const p = await createProject("included-tags", {}, { k1: "v1", k2: "v2" });
    const read = await expectStatus(t.api.get(`/projects/${p.id}?include=effective_tag_bindings`), 200);
    const refs = read.body.data.relationships["effective-tag-bindings"].data;
    expect(refs).toHaveLength(2);
    const included = new Map(read.body.included.map((r: any) => [r.id, r.attributes]));
    expect(refs.map((r: any) => included.get(r.id))).toEqual([
      { key: "k1", value: "v1" },
      { key: "k2", value: "v2" },
    ]);
    const list = await expectStatus(
      t.api.get(`/organizations/${t.org}/projects?include=effective_tag_bindings&q=included-tags`),
      200,
    );
    expect(list.body.data[0].relationships["effective-tag-bindings"].data).toEqual(refs);
    expect((await t.api.get(`/projects/${p.id}?include=bogus`)).status).toBe(400);
  });
});
