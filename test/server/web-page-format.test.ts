/**
 * The web view page's pure parts (src/server/web/page/: router.ts, api.ts's helpers,
 * format.ts), run in Node. What the page makes of the service's documents is checked on
 * documents the real local server answers over HTTP (variable sets, team grants), so a
 * change of their shape shows here; the page as a whole runs in Chromium in
 * test/e2e/web-view.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORGANIZATION_FLAGS_ON_WORKSPACES, WORKSPACE_PERMISSIONS } from "../../src/api/team-access";
import { errorMessage, getJson, inParallel, listAll, retryDelay, withQuery } from "../../src/server/web/page/api";
import {
  accessRows,
  matchesFilter,
  overriddenBy,
  precedenceRows,
  precedenceSetOf,
} from "../../src/server/web/page/format";
import { codeOf, homeHash, mapHash, parseRoute, workspaceHash } from "../../src/server/web/page/router";
import { createWorkspace, expectStatus, grant, makeTeam, start, type TestServer } from "./helpers";

describe("the page's routes", () => {
  it("reads each route from the fragment and writes it back", () => {
    expect(parseRoute("")).toEqual({ kind: "organizations" });
    expect(parseRoute("#/")).toEqual({ kind: "organizations" });
    expect(parseRoute(homeHash("my org"))).toEqual({ kind: "home", org: "my org" });
    expect(parseRoute("#/o/acme/")).toEqual({ kind: "home", org: "acme" });
    expect(parseRoute(workspaceHash("acme", "ws-1/2"))).toEqual({ kind: "workspace", org: "acme", id: "ws-1/2" });
    expect(parseRoute(mapHash("acme"))).toEqual({ kind: "map", org: "acme" });
    for (const odd of ["#/x", "#/o", "#/o/acme/map/more", "#/o/acme/workspaces", "#/o/acme/runs/1", "#/o/%E0%A4%A"])
      expect(parseRoute(odd).kind, odd).toBe("unknown");
  });

  it("takes a sign-in code only from a fragment that is exactly #code=<code>", () => {
    expect(codeOf("#code=AbC_-123")).toBe("AbC_-123");
    expect(codeOf("#/o/acme")).toBeNull();
    expect(codeOf("#code=a b")).toBeNull();
    expect(codeOf("#code=")).toBeNull();
  });
});

describe("the page's reads", () => {
  it("says the service's error detail, else the status", () => {
    expect(errorMessage(404, { errors: [{ status: "404", title: "not found", detail: "workspace not found" }] })).toBe(
      "workspace not found",
    );
    expect(errorMessage(422, { errors: [{ title: "invalid" }, { detail: "name is taken" }] })).toBe(
      "invalid; name is taken",
    );
    expect(errorMessage(502, null)).toBe("the service answered HTTP 502");
  });

  it("waits what retry-after says, within bounds", () => {
    expect(retryDelay("2")).toBe(2000);
    expect(retryDelay(null)).toBe(1000);
    expect(retryDelay("soon")).toBe(1000);
    expect(retryDelay("3600")).toBe(10_000);
  });

  it("adds query parameters to a path with or without a query", () => {
    expect(withQuery("/a", "page[size]", 100)).toBe("/a?page%5Bsize%5D=100");
    expect(withQuery("/a?x=1", "page[number]", 2)).toBe("/a?x=1&page%5Bnumber%5D=2");
  });

  it("runs at most `limit` calls at a time and keeps the items' order", async () => {
    let running = 0;
    let most = 0;
    const out = await inParallel([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
    expect(await inParallel([], 4, async () => 1)).toEqual([]);
  });
});

describe("the home's filter", () => {
  it("keeps a workspace when every word is in its name, a tag or its project", () => {
    const fields = ["app-0", "platform", "critical", "web"];
    expect(matchesFilter("", fields)).toBe(true);
    expect(matchesFilter("APP plat", fields)).toBe(true);
    expect(matchesFilter("crit", fields)).toBe(true);
    expect(matchesFilter("app payments", fields)).toBe(false);
  });
});

describe("what the workspace page makes of the server's documents", () => {
  let t: TestServer;
  let projectId: string;
  let wsId: string;

  beforeAll(async () => {
    t = await start();
    const { api, org } = t;
    projectId = (
      await expectStatus(
        api.post(`/organizations/${org}/projects`, { data: { type: "projects", attributes: { name: "page-prj" } } }),
        201,
      )
    ).body.data.id;
    wsId = (await createWorkspace(api, org, "page-ws", {}, { project: { data: { type: "projects", id: projectId } } }))
      .id;
  });

  afterAll(async () => {
    await t?.server.close();
  });

  it("lists the sets that reach a workspace by precedence, its own variables in their place", async () => {
    const { api, org } = t;
    const mkSet = async (name: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      (
        await expectStatus(
          api.post(`/organizations/${org}/varsets`, {
            data: { type: "varsets", attributes: { name, ...attributes }, ...(relationships ? { relationships } : {}) },
          }),
          201,
        )
      ).body.data.id as string;
    const onWs = { workspaces: { data: [{ type: "workspaces", id: wsId }] } };
    const onProject = { projects: { data: [{ type: "projects", id: projectId }] } };
    await mkSet("z-global", { global: true });
    await mkSet("b-project", {}, onProject);
    await mkSet("c-workspace", {}, onWs);
    await mkSet("a-priority", { priority: true }, onWs);
    await mkSet("d-project-owned", {}, { ...onWs, parent: { data: { type: "projects", id: projectId } } });
    await mkSet("elsewhere", {});
    const listed = (await expectStatus(api.get(`/workspaces/${wsId}/varsets`), 200)).body.data;
    const rows = precedenceRows(listed.map((s: any) => precedenceSetOf(s, wsId, projectId)));
    expect(rows.map((r) => (r.kind === "own" ? "own" : `${r.set.name}:${r.scope}`))).toEqual([
      "a-priority:workspace",
      "own",
      "d-project-owned:workspace",
      "c-workspace:workspace",
      "b-project:project",
      "z-global:global",
    ]);
    // One key in the workspace, the priority set and a plain set: the priority set's wins.
    const addVar = async (path: string, key: string, category = "terraform") =>
      (await expectStatus(api.post(path, { data: { type: "vars", attributes: { key, value: "v", category } } }), 201))
        .body.data.id as string;
    const byName = new Map<string, string>(listed.map((s: any) => [s.attributes.name, s.id]));
    const own = await addVar(`/workspaces/${wsId}/vars`, "k");
    const ownEnv = await addVar(`/workspaces/${wsId}/vars`, "k", "env");
    const priority = await addVar(`/varsets/${byName.get("a-priority")}/relationships/vars`, "k", "engine");
    const plain = await addVar(`/varsets/${byName.get("c-workspace")}/relationships/vars`, "k");
    const setVars = async (id: string) =>
      (await expectStatus(api.get(`/varsets/${id}/relationships/vars`), 200)).body.data;
    const sets = await Promise.all(
      listed.map(async (s: any) => ({ set: precedenceSetOf(s, wsId, projectId), variables: await setVars(s.id) })),
    );
    const overridden = overriddenBy((await expectStatus(api.get(`/workspaces/${wsId}/vars`), 200)).body.data, sets);
    expect(Object.fromEntries(overridden)).toEqual({ [own]: "a-priority", [plain]: "a-priority" });
    expect(overridden.has(priority) || overridden.has(ownEnv)).toBe(false);
    // No set at all: the workspace's own variables alone.
    expect(precedenceRows([])).toEqual([{ kind: "own", rank: expect.any(Number) }]);
  });

  it("lists each team's access from the workspace, its project and the organization", async () => {
    const { api, org } = t;
    const ops = await makeTeam(api, org, "ops");
    const readers = await makeTeam(api, org, "readers", { flags: { "read-workspaces": true } });
    await grant(api, ops.id, wsId, "custom", { runs: "plan", variables: "read", "workspace-locking": true });
    await expectStatus(
      api.post("/team-projects", {
        data: {
          type: "team-projects",
          attributes: { access: "maintain" },
          relationships: {
            project: { data: { type: "projects", id: projectId } },
            team: { data: { type: "teams", id: readers.id } },
          },
        },
      }),
      201,
    );
    const list = async (path: string) => (await expectStatus(api.get(path), 200)).body.data;
    const rows = accessRows(
      await list(`/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${wsId}`),
      await list(`/team-projects?filter%5Bproject%5D%5Bid%5D=${projectId}`),
      await list(`/organizations/${org}/teams`),
    );
    expect(rows.map((r) => [r.team, r.access, r.source])).toEqual([
      ["ops", "custom", "workspace"],
      ["owners", "admin", "organization"],
      ["readers", "maintain", "project"],
      ["readers", "read", "organization"],
    ]);
    expect(rows[0].details).toEqual(["runs: plan", "variables: read", "workspace locking"]);
    expect(rows[3].details).toEqual(["read-workspaces"]);
  });

  it("gives each organization-wide flag the level the service documents, and shows every custom permission", () => {
    const teams = Object.keys(ORGANIZATION_FLAGS_ON_WORKSPACES).map((flag) => ({
      id: `team-${flag}`,
      attributes: { name: flag, "organization-access": { [flag]: true, "manage-policies": true } },
    }));
    const rows = accessRows([], [], teams);
    expect(Object.fromEntries(rows.map((r) => [r.team, [r.access, r.source, r.details]]))).toEqual({
      "manage-projects": ["admin", "organization", ["manage-projects"]],
      "manage-workspaces": ["admin", "organization", ["manage-workspaces"]],
      "read-projects": ["read", "organization", ["read-projects"]],
      "read-workspaces": ["read", "organization", ["read-workspaces"]],
    });
    // A custom grant with every permission on: each one named.
    const everything = Object.fromEntries(
      Object.entries(WORKSPACE_PERMISSIONS).map(([k, v]) => [k, v === "boolean" ? true : v[v.length - 1]]),
    );
    const [custom] = accessRows(
      [
        {
          id: "tws-1",
          attributes: { access: "custom", ...everything },
          relationships: { team: { data: { id: "t" } } },
        },
      ],
      [],
      [{ id: "t", attributes: { name: "ops" } }],
    );
    expect(custom.details).toEqual([
      "runs: apply",
      "variables: write",
      "state versions: write",
      "sentinel mocks: read",
      "workspace locking",
      "run tasks",
      "policy overrides",
    ]);
  });
});

describe("the page's reads against the real server", () => {
  let t: TestServer;
  const realFetch = globalThis.fetch;
  /** 429s the page's reads met. */
  let limited = 0;

  beforeAll(async () => {
    // A low rate limit, so that a burst of reads meets 429s the page must wait out.
    t = await start({ rateLimit: 20 });
    // The page's fetch is relative to its origin and signed in by its cookie: in Node, the
    // same request goes to the server's address with the token.
    const origin = new URL(t.server.url).origin;
    globalThis.fetch = (input, init) =>
      typeof input === "string" && input.startsWith("/")
        ? realFetch(`${origin}${input}`, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${t.server.token}` },
          }).then((res) => {
            if (res.status === 429) limited++;
            return res;
          })
        : realFetch(input, init);
  });

  afterAll(async () => {
    globalThis.fetch = realFetch;
    await t?.server.close();
  });

  it("lists every page, waits out 429s, and throws the service's detail", async () => {
    const { api, org } = t;
    // More workspaces than one page of 100 holds; the writes wait out the rate limit too.
    for (let i = 0; i < 103;) {
      const r = await api.post(`/organizations/${org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: `w-${i}` } },
      });
      if (r.status === 429) {
        await new Promise((done) => setTimeout(done, 1000));
        continue;
      }
      expect(r.status).toBe(201);
      i++;
    }
    await new Promise((done) => setTimeout(done, 1000));
    const names = await inParallel([...Array(16).keys()], 16, async () =>
      (await listAll(`/organizations/${org}/workspaces`)).map((w) => w.attributes.name as string),
    );
    for (const list of names) expect(new Set(list).size).toBe(103);
    expect(limited).toBeGreaterThan(0);
    await expect(getJson("/workspaces/ws-nothere")).rejects.toThrow(/not found/);
    await expect(getJson("/workspaces/ws-nothere")).rejects.toMatchObject({ status: 404 });
  }, 60_000);
});
