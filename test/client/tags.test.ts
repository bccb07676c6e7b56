import { describe, expect, it } from "vitest";
import { NotFoundError, type Workspace } from "../../src/client";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

function routeCount(key: string): number {
  return t.server.stats().byRoute[key] ?? 0;
}

describe("tags and tag bindings", () => {
  it("creates a workspace with key-value and flat tags in two requests", async () => {
    const before = t.server.stats().total;
    const ws = await t.client.workspaces.create(t.org, {
      name: uniqueName("two"),
      tagBindings: [{ key: "env", value: "prod" }],
    });
    await t.client.tags.add(ws.id, ["web", "Critical"]);
    expect(t.server.stats().total - before).toBe(2);
    const read = await t.client.workspaces.read(ws.id);
    expect(read.tagNames.sort()).toEqual(["critical", "web"]);
  });

  it("lists, adds and removes flat tags by name and by id; an unknown name is ignored on removal", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("flat") });
    await t.client.tags.add(ws.id, ["one", "two", { name: "three" }]);
    const tags = await t.client.tags.list(ws.id).all();
    expect(tags.map((t) => t.name).sort()).toEqual(["one", "three", "two"]);
    expect(tags.every((t) => t.id.startsWith("tag-"))).toBe(true);
    const two = tags.find((t) => t.name === "two")!;
    await t.client.tags.remove(ws.id, [{ id: two.id }, "one", "never-existed"]);
    expect((await t.client.workspaces.read(ws.id)).tagNames).toEqual(["three"]);
    // Adding again what is already there changes nothing.
    await t.client.tags.add(ws.id, ["three"]);
    expect((await t.client.workspaces.read(ws.id)).tagNames).toEqual(["three"]);
  });

  it("pages through a workspace's flat tags and the organization's tags", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("many") });
    const prefix = `t${process.pid}x`;
    const names = Array.from({ length: 130 }, (_, i) => `${prefix}-${i}`);
    await t.client.tags.add(ws.id, names);
    const listRoute = "GET /api/v2/workspaces/:workspace_id/relationships/tags";
    const before = routeCount(listRoute);
    const listed = await t.client.tags.list(ws.id).all();
    expect(listed).toHaveLength(130);
    expect(routeCount(listRoute) - before).toBe(2);
    const orgTags = await t.client.tags.listOrganization(t.org, { search: prefix }).all();
    expect(orgTags.map((t) => t.name).sort()).toEqual([...names].sort());
    expect(orgTags.every((t) => t.instanceCount === 1)).toBe(true);
  });

  it("NotFoundError when adding tags to a missing workspace", async () => {
    expect(await failure(t.client.tags.add("ws-missing", ["x"]))).toBeInstanceOf(NotFoundError);
  });
  it("reads by id and by name with one request each, and the document carries the flat tag names", async () => {
    const created = await t.client.workspaces.create(t.org, { name: uniqueName("read") });
    await t.client.tags.add(created.id, ["alpha", "beta"]);
    const beforeId = routeCount("GET /api/v2/workspaces/:workspace_id");
    const byId = await t.client.workspaces.read(created.id);
    expect(routeCount("GET /api/v2/workspaces/:workspace_id") - beforeId).toBe(1);
    expect(byId.tagNames.sort()).toEqual(["alpha", "beta"]);
    const byName = await t.client.workspaces.readByName(t.org, created.name);
    expect(byName.id).toBe(created.id);
    expect(byName.tagNames.sort()).toEqual(["alpha", "beta"]);
  });

  it("sets key-value tags with one PATCH and lists effective bindings separately", async () => {
    const created = await t.client.workspaces.create(t.org, { name: uniqueName("kv") });
    const beforePatch = routeCount("PATCH /api/v2/workspaces/:workspace_id");
    await t.client.tagBindings.set(created.id, [{ key: "owner", value: "platform" }]);
    expect(routeCount("PATCH /api/v2/workspaces/:workspace_id") - beforePatch).toBe(1);
    const effective = await t.client.tagBindings.listEffective(created.id);
    expect(effective).toContainEqual({ key: "owner", value: "platform" });
  });
});

describe("listing", () => {
  it("filters by name, flat tags, excluded tags, key-value tags and wildcard, and sorts", async () => {
    const prefix = uniqueName("flt");
    const a = await t.client.workspaces.create(t.org, {
      name: `${prefix}-a`,
      tagBindings: [{ key: "env", value: "prod" }],
    });
    const b = await t.client.workspaces.create(t.org, {
      name: `${prefix}-b`,
      tagBindings: [{ key: "env", value: "dev" }],
    });
    const c = await t.client.workspaces.create(t.org, { name: `${prefix}-c` });
    await t.client.tags.add(a.id, ["web", "critical"]);
    await t.client.tags.add(b.id, ["web"]);

    const names = async (it: AsyncIterable<Workspace>) => {
      const out: string[] = [];
      for await (const w of it) out.push(w.name);
      return out;
    };
    expect((await names(t.client.workspaces.list(t.org, { search: prefix }))).sort()).toEqual([a.name, b.name, c.name]);
    expect(await names(t.client.workspaces.list(t.org, { search: prefix, tags: ["web", "critical"] }))).toEqual([
      a.name,
    ]);
    expect(
      (await names(t.client.workspaces.list(t.org, { search: prefix, excludeTags: ["critical"] }))).sort(),
    ).toEqual([b.name, c.name]);
    expect(
      await names(t.client.workspaces.list(t.org, { search: prefix, tagged: [{ key: "env", value: "dev" }] })),
    ).toEqual([b.name]);
    expect((await names(t.client.workspaces.list(t.org, { search: prefix, tagged: [{ key: "env" }] }))).sort()).toEqual(
      [a.name, b.name],
    );
    expect(await names(t.client.workspaces.list(t.org, { wildcardName: `*${prefix}-c` }))).toEqual([c.name]);
    expect(await names(t.client.workspaces.list(t.org, { search: prefix, sort: "-name" }))).toEqual([
      c.name,
      b.name,
      a.name,
    ]);
    expect((await names(t.client.workspaces.list(t.org, { search: prefix, projectId: a.projectId! }))).length).toBe(3);
  });
});
