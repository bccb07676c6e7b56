/**
 * Tag endpoints in the shapes JSON:API clients decode (go-tfe): effective tag bindings
 * that can be matched from an `include`, inheritance named where go-tfe reads it,
 * adding bindings with PATCH, and the organization's tag administration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, start, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const bindings = (kv: Record<string, string>) => ({
  data: Object.entries(kv).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })),
});

async function project(name: string, kv: Record<string, string>): Promise<string> {
  const r = await expectStatus(
    t.api.post(`/organizations/${t.org}/projects`, {
      data: { type: "projects", attributes: { name }, relationships: { "tag-bindings": bindings(kv) } },
    }),
    201,
  );
  return r.body.data.id;
}

describe("effective tag bindings", () => {
  it("carry an id, and an inherited one names its project as relationship and as link", async () => {
    const prj = await project("etb-project", { team: "blue", cost: "1" });
    const ws = await createWorkspace(
      t.api,
      t.org,
      "etb-ws",
      {},
      { project: { data: { type: "projects", id: prj } }, "tag-bindings": bindings({ team: "red" }) },
    );
    const list = await expectStatus(t.api.get(`/workspaces/${ws.id}/effective-tag-bindings`), 200);
    const byKey = Object.fromEntries(list.body.data.map((b: any) => [b.attributes.key, b]));
    expect(Object.keys(byKey).sort()).toEqual(["cost", "team"]);
    expect(byKey.team.attributes.value).toBe("red");
    expect(byKey.team.id).toMatch(/^tb-/);
    expect(byKey.team.links).toBeUndefined();
    expect(byKey.team.relationships).toBeUndefined();
    expect(byKey.cost.id).toMatch(/^tb-/);
    expect(byKey.cost.links).toEqual({ "inherited-from": `/api/v2/projects/${prj}` });
    expect(byKey.cost.relationships["inherited-from"].data).toEqual({ id: prj, type: "projects" });
  });

  it("included with a workspace, are listed in its relationship and appear once in `included`", async () => {
    const prj = await project("etb-shared", { shared: "yes" });
    const rel = { project: { data: { type: "projects", id: prj } } };
    const a = await createWorkspace(t.api, t.org, "etb-a", {}, { ...rel, "tag-bindings": bindings({ own: "a" }) });
    await createWorkspace(t.api, t.org, "etb-b", {}, rel);
    const list = await expectStatus(
      t.api.get(`/organizations/${t.org}/workspaces?include=effective_tag_bindings&filter%5Bproject%5D%5Bid%5D=${prj}`),
      200,
    );
    const included = list.body.included as any[];
    const keyOf = new Map(included.map((r) => [`${r.type}/${r.id}`, r.attributes.key]));
    expect(keyOf.size).toBe(included.length);
    for (const w of list.body.data) {
      const refs = w.relationships["effective-tag-bindings"].data as { id: string; type: string }[];
      const keys = refs.map((r) => keyOf.get(`${r.type}/${r.id}`)).sort();
      expect(keys).toEqual(w.id === a.id ? ["own", "shared"] : ["shared"]);
    }
    // Without the include, the relationship stays links-only (spec 2.2).
    const plain = await expectStatus(t.api.get(`/workspaces/${a.id}`), 200);
    expect(plain.body.data.relationships["effective-tag-bindings"].data).toBeUndefined();
  });
});

describe("PATCH tag-bindings", () => {
  it("adds and changes workspace bindings, keeps the others, and answers all of them in binding order", async () => {
    const ws = await createWorkspace(
      t.api,
      t.org,
      "patch-tb",
      {},
      { "tag-bindings": bindings({ keep: "1", change: "old" }) },
    );
    const r = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}/tag-bindings`, bindings({ foo: "bar", change: "new", baz: "qux" })),
      200,
    );
    expect(r.body.data.map((b: any) => [b.attributes.key, b.attributes.value])).toEqual([
      ["keep", "1"],
      ["change", "new"],
      ["foo", "bar"],
      ["baz", "qux"],
    ]);
    const listed = await expectStatus(t.api.get(`/workspaces/${ws.id}/tag-bindings`), 200);
    expect(Object.fromEntries(listed.body.data.map((b: any) => [b.attributes.key, b.attributes.value]))).toEqual({
      keep: "1",
      change: "new",
      foo: "bar",
      baz: "qux",
    });
  });

  it("does the same for projects, and a key without value binds the empty value", async () => {
    const prj = await project("patch-prj", {});
    const r = await expectStatus(
      t.api.patch(`/projects/${prj}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "solo" } }] }),
      200,
    );
    expect(r.body.data.map((b: any) => [b.attributes.key, b.attributes.value])).toEqual([["solo", ""]]);
  });

  it("rejects a repeated key or a malformed item with 422 and changes nothing", async () => {
    const ws = await createWorkspace(t.api, t.org, "patch-bad", {}, { "tag-bindings": bindings({ a: "1" }) });
    const dup = await t.api.patch(`/workspaces/${ws.id}/tag-bindings`, {
      data: [...bindings({ b: "1" }).data, ...bindings({ b: "2" }).data],
    });
    expect(dup.status).toBe(422);
    const bad = await t.api.patch(`/workspaces/${ws.id}/tag-bindings`, {
      data: [{ type: "tags", attributes: { key: "x" } }],
    });
    expect(bad.status).toBe(422);
    const listed = await expectStatus(t.api.get(`/workspaces/${ws.id}/tag-bindings`), 200);
    expect(listed.body.data.map((b: any) => b.attributes.key)).toEqual(["a"]);
  });
});

describe("organization tags", () => {
  it("DELETE /organizations/:org/tags removes the tags from the organization and its workspaces", async () => {
    const ws = await createWorkspace(t.api, t.org, "orgtags-del");
    await expectStatus(
      t.api.post(`/workspaces/${ws.id}/relationships/tags`, {
        data: ["x1", "x2", "x3"].map((name) => ({ type: "tags", attributes: { name } })),
      }),
      204,
    );
    const tags = (await expectStatus(t.api.get(`/organizations/${t.org}/tags?q=x`), 200)).body.data as any[];
    const drop = tags.filter((x) => x.attributes.name !== "x2").map((x) => ({ type: "tags", id: x.id }));
    await expectStatus(t.api.delete(`/organizations/${t.org}/tags`, { data: drop }), 204);
    expect((await t.api.get(`/organizations/${t.org}/tags?q=x`)).body.data.map((x: any) => x.attributes.name)).toEqual([
      "x2",
    ]);
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["tag-names"]).toEqual(["x2"]);
    const unknown = await t.api.delete(`/organizations/${t.org}/tags`, { data: [{ type: "tags", id: "tag-missing" }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source.pointer).toBe("/data/0/id");
  });

  it("POST /tags/:id/relationships/workspaces attaches an existing tag to more workspaces", async () => {
    const first = await createWorkspace(t.api, t.org, "orgtags-add-1");
    const second = await createWorkspace(t.api, t.org, "orgtags-add-2");
    await expectStatus(
      t.api.post(`/workspaces/${first.id}/relationships/tags`, {
        data: [{ type: "tags", attributes: { name: "shared-tag" } }],
      }),
      204,
    );
    const tag = (await t.api.get(`/organizations/${t.org}/tags?q=shared-tag`)).body.data[0];
    await expectStatus(
      t.api.post(`/tags/${tag.id}/relationships/workspaces`, { data: [{ type: "workspaces", id: second.id }] }),
      204,
    );
    expect((await t.api.get(`/workspaces/${second.id}`)).body.data.attributes["tag-names"]).toEqual(["shared-tag"]);
    expect(
      (
        await t.api.post(`/tags/tag-missing/relationships/workspaces`, {
          data: [{ type: "workspaces", id: second.id }],
        })
      ).status,
    ).toBe(404);
  });
});
