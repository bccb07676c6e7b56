/**
 * The shared listing of an organization's workspaces (src/resources/process/snapshot.ts)
 * against the real server over HTTP: concurrent first reads share one listing, a write
 * through the process drops what it touched, a listing is bounded in time and never
 * crosses organizations or tokens, and a workspace the listing lacks is read by id,
 * the 404 rule included. Requests are counted at the server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { configureFromStack } from "../../src/resources/provider-settings";
import { getClient, readWorkspaceWithTags, resetClients } from "../../src/resources/providers/client";
import { SNAPSHOT_LIFETIME_MS } from "../../src/resources/process/snapshot";
import { NotVisibleError } from "../../src/resources/providers/gone";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { workspaceTagsProvider } from "../../src/resources/providers/workspace-tags";
import { remoteStateConsumersProvider } from "../../src/resources/providers/remote-state-consumers";
import { api, createProject, startHarness, uniqueName, type Harness } from "./helpers";

const LIST = "GET /api/v2/organizations/:organization_name/workspaces";
const SHOW = "GET /api/v2/workspaces/:workspace_id";
const COUNT = 150;

let h: Harness;
let ids: string[];
let tagged: { id: string; name: string };
let project: string;

beforeAll(async () => {
  h = await startHarness();
  project = await createProject(h, uniqueName("prj"), { team: "core" });
  ids = [];
  for (let i = 0; i < COUNT; i++) {
    const ws = await h.client.workspaces.create(h.org, {
      name: uniqueName(`snap-${String(i).padStart(3, "0")}`),
      description: `n${i}`,
      ...(i % 3 === 0 ? { projectId: project } : {}),
      ...(i % 2 === 0 ? { tagBindings: [{ key: "env", value: `e${i}` }] } : {}),
      ...(i % 5 === 0 ? { tagNames: ["web"] } : {}),
    });
    ids.push(ws.id);
    if (i === 0) tagged = { id: ws.id, name: ws.name };
  }
}, 120_000);
afterAll(async () => h.close());

/** Points the providers at the server with this token (a new client, so a new snapshot). */
function as(token: string): void {
  const config = new Map([
    ["workspaces:address", h.server.url],
    ["workspaces:token", token],
    ["workspaces:organization", h.org],
  ]);
  configureFromStack({ config: { get: (k: string) => config.get(k) } });
  resetClients();
}
afterEach(() => {
  vi.restoreAllMocks();
  as(h.server.token);
});

/** Requests per route sent while `fn` runs. */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; routes: Record<string, number> }> {
  const before = { ...h.server.stats().byRoute };
  const result = await fn();
  const routes: Record<string, number> = {};
  for (const [route, n] of Object.entries(h.server.stats().byRoute)) {
    const d = n - (before[route] ?? 0);
    if (d > 0) routes[route] = d;
  }
  return { result, routes };
}

const total = (routes: Record<string, number>) => Object.values(routes).reduce((a, b) => a + b, 0);
const readAll = (list: string[]) => Promise.all(list.map((id) => workspaceProvider.read(id, { organization: h.org })));

describe("the first read of an organization", () => {
  it("lists it once for every concurrent read, and answers as a read by id would", async () => {
    const { result, routes } = await counting(() => readAll(ids));
    expect(routes[LIST]).toBe(2); // 150 workspaces, 100 a page
    expect(routes[SHOW]).toBeUndefined();
    // Others: at most the rate-limit announcement.
    expect(total(routes)).toBeLessThanOrEqual(3);
    expect(result.map((r) => r.id)).toEqual(ids);

    // Later reads, lookups by name and WorkspaceTags reads are answered from it.
    const later = await counting(async () => {
      await readAll(ids.slice(0, 20));
      await readWorkspaceWithTags(getClient(), `${h.org}/${tagged.name.toUpperCase()}`);
      await workspaceTagsProvider.read(`${tagged.id}/tags`, { organization: h.org } as never);
    });
    expect(total(later.routes)).toBe(0);

    // Exactly the outputs of the read by id (a new client holds no listing, and without an
    // organization in state none is made).
    as(h.server.token);
    const byId = await counting(async () => {
      for (const i of [0, 1, 2, 3, 5, 10, 149]) {
        const alone = await workspaceProvider.read(ids[i], {});
        expect({ ...result[i].props, organization: undefined }).toEqual({ ...alone.props, organization: undefined });
      }
    });
    expect(byId.routes[SHOW]).toBe(7);
    // And the same tags as the client's own read (another client: no snapshot).
    for (const i of [0, 1, 3, 5, 149]) {
      const alone = await readWorkspaceWithTags(h.client, ids[i]);
      const props = result[i].props as Record<string, unknown>;
      expect(props.tags).toEqual(alone.tags);
      expect(props.effectiveTags).toEqual(alone.effectiveTags);
      expect(props.tagNames).toEqual(alone.workspace.tagNames);
      expect(props.description).toBe(alone.workspace.description);
    }
    expect((result[0].props as Record<string, unknown>).effectiveTags).toEqual({ env: "e0", team: "core" });
    expect((result[0].props as Record<string, unknown>).tags).toEqual({ env: "e0" });
  });
});

describe("remote state consumers", () => {
  it("learn their workspace's organization from the listing, and by a read without one", async () => {
    await readAll(ids);
    const inputs = { workspaceId: ids[11], consumerIds: [ids[12]], mode: "authoritative" } as const;
    const listed = await counting(() => remoteStateConsumersProvider.create(inputs as never));
    expect(listed.result.outs).toMatchObject({ organization: h.org, consumerIds: [ids[12]] });
    expect(listed.routes[SHOW]).toBeUndefined();

    // A new client holds no listing: the organization costs one read by id.
    as(h.server.token);
    const unlisted = await counting(() =>
      remoteStateConsumersProvider.update(`${ids[11]}/remote-state-consumers`, listed.result.outs as never, {
        ...inputs,
        consumerIds: [ids[13]],
      }),
    );
    expect(unlisted.result.outs).toMatchObject({ organization: h.org, consumerIds: [ids[13]] });
    expect(unlisted.routes[SHOW]).toBeUndefined(); // the recorded organization is kept
    const fresh = await counting(() => remoteStateConsumersProvider.create({ ...inputs, consumerIds: [] }));
    expect(fresh.result.outs).toMatchObject({ organization: h.org, consumerIds: [] });
    expect(fresh.routes[SHOW]).toBe(1);
  });
});

describe("a write through the process", () => {
  it("drops the workspace it touched, which is then read by id; the others stay shared", async () => {
    await readAll(ids);
    await getClient().workspaces.update(ids[7], { description: "changed" });
    const { result, routes } = await counting(() => readAll(ids.slice(0, 30)));
    expect(routes).toEqual({ [SHOW]: 1 });
    expect((result[7].props as Record<string, unknown>).description).toBe("changed");
  });

  it("drops the whole listing when it cannot tell which workspaces it touched", async () => {
    await readAll(ids);
    // Out of band, then any write through the process that names no workspace.
    const patched = await api(h, "PATCH", `/projects/${project}/tag-bindings`, {
      data: [{ type: "tag-bindings", attributes: { key: "team", value: "platform" } }],
    });
    expect(patched.status).toBeLessThan(300);
    await getClient().registryModules.create(h.org, { name: uniqueName("mod"), provider: "aws" });
    const { result, routes } = await counting(() => readAll(ids.slice(0, 10)));
    expect(routes[LIST]).toBe(2);
    expect(routes[SHOW]).toBeUndefined();
    expect((result[0].props as Record<string, unknown>).effectiveTags).toMatchObject({ team: "platform" });
  });

  it("a write by another client (another process) is seen once the listing's lifetime is over", async () => {
    await readAll(ids);
    await h.client.workspaces.update(ids[9], { description: "elsewhere" });
    const stale = await workspaceProvider.read(ids[9], { organization: h.org });
    expect((stale.props as Record<string, unknown>).description).toBe("n9");
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + SNAPSHOT_LIFETIME_MS + 1);
    const { result, routes } = await counting(() => workspaceProvider.read(ids[9], { organization: h.org }));
    expect(routes).toEqual({ [LIST]: 2 });
    expect((result.props as Record<string, unknown>).description).toBe("elsewhere");
  });
});

describe("a listing never crosses", () => {
  it("organizations: each has its own", async () => {
    await readAll(ids.slice(0, 5));
    const other = uniqueName("snaporg");
    expect(
      (
        await api(h, "POST", "/organizations", {
          data: { type: "organizations", attributes: { name: other, email: "ops@example.com" } },
        })
      ).status,
    ).toBe(201);
    const ws = await h.client.workspaces.create(other, { name: "elsewhere" });
    const { result, routes } = await counting(() =>
      Promise.all([
        workspaceProvider.read(ws.id, { organization: other }),
        workspaceProvider.read(ids[0], { organization: h.org }),
      ]),
    );
    expect(routes).toEqual({ [LIST]: 1 });
    expect(result[0].id).toBe(ws.id);
    // A workspace of the first organization read as if of the other: not in its listing, read by id.
    const crossed = await counting(() => workspaceProvider.read(ids[1], { organization: other }));
    expect(crossed.routes).toEqual({ [SHOW]: 1 });
  });

  it("tokens: a team token lists what it may see, and what its listing lacks is read by id", async () => {
    await readAll(ids);
    const team = await api(h, "POST", `/organizations/${h.org}/teams`, {
      data: { type: "teams", attributes: { name: uniqueName("team") } },
    });
    await api(h, "POST", "/team-workspaces", {
      data: {
        type: "team-workspaces",
        attributes: { access: "read" },
        relationships: {
          team: { data: { type: "teams", id: team.json.data.id } },
          workspace: { data: { type: "workspaces", id: ids[4] } },
        },
      },
    });
    const token = (await api(h, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes
      .token as string;
    as(token);
    const { result, routes } = await counting(() => workspaceProvider.read(ids[4], { organization: h.org }));
    expect(routes[LIST]).toBe(1); // its own listing: one workspace
    expect(result.id).toBe(ids[4]);
    // Hidden from this token: not in its listing, read by id, and the 404 is judged by the rule.
    const err = await workspaceProvider.read(ids[5], { organization: h.org }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(NotVisibleError);
  });
});

describe("a workspace the listing lacks", () => {
  it("is read by id: one created since, and one deleted (gone for the owners, by the 404 rule)", async () => {
    await readAll(ids);
    const made = await h.client.workspaces.create(h.org, { name: uniqueName("since") });
    const doomed = await h.client.workspaces.create(h.org, { name: uniqueName("doomed") });
    await h.client.workspaces.forceDelete(doomed.id);
    const { result, routes } = await counting(() =>
      Promise.all([
        workspaceProvider.read(made.id, { organization: h.org }),
        workspaceProvider.read(doomed.id, { organization: h.org }),
      ]),
    );
    expect(result[0].id).toBe(made.id);
    expect(result[1]).toEqual({});
    expect(routes[SHOW]).toBe(2);
    expect(routes[LIST]).toBeUndefined();
    expect(routes["GET /api/v2/organizations/:organization_name"]).toBeLessThanOrEqual(1);
  });

  it("without an organization in state, goes by id unless a listing of this client holds it", async () => {
    const unlisted = await counting(() => workspaceProvider.read(ids[2], {}));
    expect(unlisted.routes).toEqual({ [SHOW]: 1 });
    await readAll(ids);
    const listed = await counting(() => workspaceProvider.read(ids[2], {}));
    expect(listed.routes).toEqual({});
    expect(listed.result.props).toEqual(unlisted.result.props);
  });
});
