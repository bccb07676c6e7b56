import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { NotFoundError, WorkspacesClient, type Workspace } from "../../src/client";
import { clientFor, failure, startTestServer, uniqueName } from "./helpers";

let server: RunningServer;
let client: WorkspacesClient;
let org: string;

beforeAll(async () => {
  server = await startTestServer();
  client = clientFor(server, { rateLimit: false });
  org = server.organization;
});
afterAll(async () => {
  await server?.close();
});

function routeCount(key: string): number {
  return server.stats().byRoute[key] ?? 0;
}

describe("tags and tag bindings", () => {
  it("creates a workspace with key-value and flat tags in two requests", async () => {
    const before = server.stats().total;
    const ws = await client.workspaces.create(org, { name: uniqueName("two"), tagBindings: [{ key: "env", value: "prod" }] });
    await client.tags.add(ws.id, ["web", "Critical"]);
    expect(server.stats().total - before).toBe(2);
    const read = await client.workspaces.read(ws.id);
    expect(read.tagNames.sort()).toEqual(["critical", "web"]);
  });

  it("lists, adds and removes flat tags by name and by id; an unknown name is ignored on removal", async () => {
    const ws = await client.workspaces.create(org, { name: uniqueName("flat") });
    await client.tags.add(ws.id, ["one", "two", { name: "three" }]);
    const tags = await client.tags.list(ws.id).all();
    expect(tags.map((t) => t.name).sort()).toEqual(["one", "three", "two"]);
    expect(tags.every((t) => t.id.startsWith("tag-"))).toBe(true);
    const two = tags.find((t) => t.name === "two")!;
    await client.tags.remove(ws.id, [{ id: two.id }, "one", "never-existed"]);
    expect((await client.workspaces.read(ws.id)).tagNames).toEqual(["three"]);
    // Adding again what is already there changes nothing.
    await client.tags.add(ws.id, ["three"]);
    expect((await client.workspaces.read(ws.id)).tagNames).toEqual(["three"]);
  });

  it("pages through a workspace's flat tags and the organization's tags", async () => {
    const ws = await client.workspaces.create(org, { name: uniqueName("many") });
    const prefix = `t${process.pid}x`;
    const names = Array.from({ length: 130 }, (_, i) => `${prefix}-${i}`);
    await client.tags.add(ws.id, names);
    const listRoute = "GET /api/v2/workspaces/:workspace_id/relationships/tags";
    const before = routeCount(listRoute);
    const listed = await client.tags.list(ws.id).all();
    expect(listed).toHaveLength(130);
    expect(routeCount(listRoute) - before).toBe(2);
    const orgTags = await client.tags.listOrganization(org, { search: prefix }).all();
    expect(orgTags.map((t) => t.name).sort()).toEqual([...names].sort());
    expect(orgTags.every((t) => t.instanceCount === 1)).toBe(true);
  });

  it("NotFoundError when adding tags to a missing workspace", async () => {
    expect(await failure(client.tags.add("ws-missing", ["x"]))).toBeInstanceOf(NotFoundError);
  });
  it("reads by id and by name with one request each, and the document carries the flat tag names", async () => {
    const created = await client.workspaces.create(org, { name: uniqueName("read") });
    await client.tags.add(created.id, ["alpha", "beta"]);
    const beforeId = routeCount("GET /api/v2/workspaces/:workspace_id");
    const byId = await client.workspaces.read(created.id);
    expect(routeCount("GET /api/v2/workspaces/:workspace_id") - beforeId).toBe(1);
    expect(byId.tagNames.sort()).toEqual(["alpha", "beta"]);
    const byName = await client.workspaces.readByName(org, created.name);
    expect(byName.id).toBe(created.id);
    expect(byName.tagNames.sort()).toEqual(["alpha", "beta"]);
  });


  it("sets key-value tags with one PATCH and lists effective bindings separately", async () => {
    const created = await client.workspaces.create(org, { name: uniqueName("kv") });
    const beforePatch = routeCount("PATCH /api/v2/workspaces/:workspace_id");
    await client.tagBindings.set(created.id, [{ key: "owner", value: "platform" }]);
    expect(routeCount("PATCH /api/v2/workspaces/:workspace_id") - beforePatch).toBe(1);
    const effective = await client.tagBindings.listEffective(created.id);
    expect(effective).toContainEqual({ key: "owner", value: "platform" });
  });


});

describe("listing", () => {
  it("filters by name, flat tags, excluded tags, key-value tags and wildcard, and sorts", async () => {
    const prefix = uniqueName("flt");
    const a = await client.workspaces.create(org, { name: `${prefix}-a`, tagBindings: [{ key: "env", value: "prod" }] });
    const b = await client.workspaces.create(org, { name: `${prefix}-b`, tagBindings: [{ key: "env", value: "dev" }] });
    const c = await client.workspaces.create(org, { name: `${prefix}-c` });
    await client.tags.add(a.id, ["web", "critical"]);
    await client.tags.add(b.id, ["web"]);

    const names = async (it: AsyncIterable<Workspace>) => {
      const out: string[] = [];
      for await (const w of it) out.push(w.name);
      return out;
    };
    expect((await names(client.workspaces.list(org, { search: prefix }))).sort()).toEqual([a.name, b.name, c.name]);
    expect(await names(client.workspaces.list(org, { search: prefix, tags: ["web", "critical"] }))).toEqual([a.name]);
    expect((await names(client.workspaces.list(org, { search: prefix, excludeTags: ["critical"] }))).sort()).toEqual([b.name, c.name]);
    expect(await names(client.workspaces.list(org, { search: prefix, tagged: [{ key: "env", value: "dev" }] }))).toEqual([b.name]);
    expect((await names(client.workspaces.list(org, { search: prefix, tagged: [{ key: "env" }] }))).sort()).toEqual([a.name, b.name]);
    expect(await names(client.workspaces.list(org, { wildcardName: `*${prefix}-c` }))).toEqual([c.name]);
    expect(await names(client.workspaces.list(org, { search: prefix, sort: "-name" }))).toEqual([c.name, b.name, a.name]);
    expect((await names(client.workspaces.list(org, { search: prefix, projectId: a.projectId! }))).length).toBe(3);
  });
});
