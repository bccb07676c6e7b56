import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, grant, makeTeam, start, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const tagsBody = (items: unknown[]) => ({ data: items });

describe("flat tags (spec 4.10)", () => {
  it("adds by name (lower-cased) and by id, lists with pagination, and removes", async () => {
    const ws = await createWorkspace(t.api, t.org, "tg1");
    await expectStatus(
      t.api.post(
        `/workspaces/${ws.id}/relationships/tags`,
        tagsBody([
          { type: "tags", attributes: { name: "Prod" } },
          { type: "tags", attributes: { name: "app" } },
        ]),
      ),
      204,
    );
    const list = await expectStatus(t.api.get(`/workspaces/${ws.id}/relationships/tags`), 200);
    expect(list.body.data.map((x: any) => x.attributes.name)).toEqual(["app", "prod"]);
    expect(list.body.data[0].id).toMatch(/^tag-/);
    expect(list.body.data[0].relationships.organization.data).toEqual({ id: t.org, type: "organizations" });
    expect(list.body.meta.pagination["total-count"]).toBe(2);
    const page = await t.api.get(`/workspaces/${ws.id}/relationships/tags?page[size]=1&page[number]=2`);
    expect(page.body.data.map((x: any) => x.attributes.name)).toEqual(["prod"]);
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["tag-names"]).toEqual(["app", "prod"]);

    const other = await createWorkspace(t.api, t.org, "tg2");
    const prodId = list.body.data[1].id;
    await expectStatus(
      t.api.post(
        `/workspaces/${other.id}/relationships/tags`,
        tagsBody([{ type: "tags", id: prodId, attributes: { name: "ignored-when-id-given" } }]),
      ),
      204,
    );
    const orgTags = await t.api.get(`/organizations/${t.org}/tags`);
    expect(orgTags.body.data.map((x: any) => [x.attributes.name, x.attributes["instance-count"]])).toEqual([
      ["app", 1],
      ["prod", 2],
    ]);

    // go-tfe sends whole tag objects: only type and id (or the name) count.
    await expectStatus(
      t.api.delete(
        `/workspaces/${ws.id}/relationships/tags`,
        tagsBody([
          { type: "tags", id: prodId, attributes: {} },
          { type: "tags", attributes: { name: "nomatch" } },
        ]),
      ),
      204,
    );
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["tag-names"]).toEqual(["app"]);
    await expectStatus(
      t.api.delete(
        `/workspaces/${ws.id}/relationships/tags`,
        tagsBody([{ type: "tags", attributes: { name: "app" } }]),
      ),
      204,
    );
    const after = await t.api.get(`/organizations/${t.org}/tags`);
    expect(after.body.data.map((x: any) => x.attributes.name)).toEqual(["prod"]);
  });

  it("rejects malformed items and unknown ids with 422, unknown workspaces with 404", async () => {
    const ws = await createWorkspace(t.api, t.org, "tg3");
    const r = await t.api.post(
      `/workspaces/${ws.id}/relationships/tags`,
      tagsBody([
        { type: "tags" },
        { type: "nope", attributes: { name: "a" } },
        { type: "tags", attributes: { name: "bad tag!" } },
      ]),
    );
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      "/data/0",
      "/data/1/type",
      "/data/2/attributes/name",
    ]);
    const unknown = await t.api.delete(
      `/workspaces/${ws.id}/relationships/tags`,
      tagsBody([{ type: "tags", id: "tag-nope" }]),
    );
    expect(unknown.status).toBe(422);
    expect(
      (
        await t.api.post(
          `/workspaces/ws-nope/relationships/tags`,
          tagsBody([{ type: "tags", attributes: { name: "a" } }]),
        )
      ).status,
    ).toBe(404);
    expect((await t.api.get(`/workspaces/ws-nope/relationships/tags`)).status).toBe(404);
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["tag-names"]).toEqual([]);
  });
});

describe("key-value tags and inheritance", () => {
  it("effective bindings are direct plus project, the workspace winning on a key", async () => {
    const p = await expectStatus(
      t.api.post(`/organizations/${t.org}/projects`, {
        data: {
          type: "projects",
          attributes: { name: "inherit" },
          relationships: {
            "tag-bindings": {
              data: [
                { type: "tag-bindings", attributes: { key: "team", value: "blue" } },
                { type: "tag-bindings", attributes: { key: "cost", value: "42" } },
              ],
            },
          },
        },
      }),
      201,
    );
    const ws = await createWorkspace(
      t.api,
      t.org,
      "kv1",
      {},
      {
        project: { data: { type: "projects", id: p.body.data.id } },
        "tag-bindings": {
          data: [
            { type: "tag-bindings", attributes: { key: "team", value: "red" } },
            { type: "tag-bindings", attributes: { key: "env", value: "dev" } },
          ],
        },
      },
    );
    const eff = await expectStatus(t.api.get(`/workspaces/${ws.id}/effective-tag-bindings`), 200);
    expect(eff.body.data.map((b: any) => `${b.attributes.key}=${b.attributes.value}`)).toEqual([
      "cost=42",
      "env=dev",
      "team=red",
    ]);
    for (const b of eff.body.data) {
      expect(b.type).toBe("effective-tag-bindings");
      // The id of the binding it comes from, so JSON:API clients can match included entries.
      expect(b.id).toMatch(/^tb-/);
    }
    const direct = await t.api.get(`/workspaces/${ws.id}/tag-bindings`);
    expect(direct.body.data.map((b: any) => b.attributes.key)).toEqual(["env", "team"]);
    await expectStatus(
      t.api.patch(`/projects/${p.body.data.id}`, {
        data: {
          type: "projects",
          relationships: {
            "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "region", value: "eu" } }] },
          },
        },
      }),
      200,
    );
    const eff2 = await t.api.get(`/workspaces/${ws.id}/effective-tag-bindings`);
    expect(eff2.body.data.map((b: any) => `${b.attributes.key}=${b.attributes.value}`)).toEqual([
      "env=dev",
      "region=eu",
      "team=red",
    ]);
    expect(
      (await t.api.get(`/projects/${p.body.data.id}/tag-bindings`)).body.data.map((b: any) => b.attributes.key),
    ).toEqual(["region"]);
    expect((await t.api.get(`/workspaces/ws-nope/effective-tag-bindings`)).status).toBe(404);
    expect((await t.api.get(`/workspaces/ws-nope/tag-bindings`)).status).toBe(404);
  });
});

describe("remote state consumers (spec 4.9)", () => {
  it("adds, ignores duplicates, lists, removes and replaces", async () => {
    const subject = await createWorkspace(t.api, t.org, "rs-subject");
    const [a, b, c] = [
      await createWorkspace(t.api, t.org, "rs-a"),
      await createWorkspace(t.api, t.org, "rs-b"),
      await createWorkspace(t.api, t.org, "rs-c"),
    ];
    const path = `/workspaces/${subject.id}/relationships/remote-state-consumers`;
    const body = (...ids: string[]) => ({
      data: ids.map((id) => ({ type: "workspaces", id, attributes: { name: "ignored" } })),
    });
    const names = async () => (await t.api.get(path)).body.data.map((w: any) => w.attributes.name);
    await expectStatus(t.api.post(path, body(a.id)), 204);
    await expectStatus(t.api.post(path, body(a.id, b.id)), 204);
    expect(await names()).toEqual(["rs-a", "rs-b"]);
    const listed = await t.api.get(`${path}?page[size]=1`);
    expect(listed.body.meta.pagination).toMatchObject({ "total-count": 2, "page-size": 1 });
    expect(listed.body.data[0]).toEqual((await t.api.get(`/workspaces/${a.id}`)).body.data);
    await expectStatus(t.api.delete(path, body(a.id, c.id)), 204);
    expect(await names()).toEqual(["rs-b"]);
    await expectStatus(t.api.patch(path, body(c.id, a.id)), 204);
    expect(await names()).toEqual(["rs-a", "rs-c"]);
    await expectStatus(t.api.patch(path, body()), 204);
    expect(await names()).toEqual([]);
  });

  it("refuses itself, unknown and unreadable consumers with 422 and changes nothing", async () => {
    const subject = await createWorkspace(t.api, t.org, "rs2");
    const a = await createWorkspace(t.api, t.org, "rs2-a");
    const path = `/workspaces/${subject.id}/relationships/remote-state-consumers`;
    const self = await t.api.post(path, { data: [{ type: "workspaces", id: subject.id }] });
    expect(self.status).toBe(422);
    const unknown = await t.api.post(path, {
      data: [
        { type: "workspaces", id: a.id },
        { type: "workspaces", id: "ws-nope" },
      ],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source.pointer).toBe("/data/1/id");
    const wrongType = await t.api.post(path, { data: [{ type: "tags", id: a.id }] });
    expect(wrongType.status).toBe(422);
    expect((await t.api.get(path)).body.data).toEqual([]);
    const team = await makeTeam(t.api, t.org, "rs-admins");
    await grant(t.api, team.id, subject.id, "admin");
    const unreadable = await t.api.as(team.token).post(path, { data: [{ type: "workspaces", id: a.id }] });
    expect(unreadable.status).toBe(422);
    expect((await t.api.post(`/workspaces/ws-nope/relationships/remote-state-consumers`, { data: [] })).status).toBe(
      404,
    );
  });

  it("with global-remote-state GET lists every other workspace and changes are 422", async () => {
    const t2 = await start({ organization: "solo" });
    try {
      const subject = await createWorkspace(t2.api, t2.org, "global", { "global-remote-state": true });
      await createWorkspace(t2.api, t2.org, "g1");
      await createWorkspace(t2.api, t2.org, "g2");
      const path = `/workspaces/${subject.id}/relationships/remote-state-consumers`;
      const r = await t2.api.get(path);
      expect(r.body.data.map((w: any) => w.attributes.name)).toEqual(["g1", "g2"]);
      const add = await t2.api.post(path, { data: [{ type: "workspaces", id: r.body.data[0].id }] });
      expect(add.status).toBe(422);
    } finally {
      await t2.server.close();
    }
  });
});

describe("data retention policy (spec 4.11)", () => {
  it("is 404 outside self-managed mode", async () => {
    const ws = await createWorkspace(t.api, t.org, "drp-hosted");
    expect((await t.api.get(`/workspaces/${ws.id}/relationships/data-retention-policy`)).status).toBe(404);
    expect(
      (
        await t.api.post(`/workspaces/${ws.id}/relationships/data-retention-policy`, {
          data: { type: "data-retention-policy-dont-deletes" },
        })
      ).status,
    ).toBe(404);
    expect((await t.api.delete(`/workspaces/${ws.id}/relationships/data-retention-policy`)).status).toBe(404);
  });

  it("in self-managed mode shows, sets, replaces and removes the policy", async () => {
    const sm = await start({ selfManaged: true });
    try {
      const ws = await createWorkspace(sm.api, sm.org, "drp");
      const path = `/workspaces/${ws.id}/relationships/data-retention-policy`;
      expect((await expectStatus(sm.api.get(path), 200)).body.data).toBeNull();
      const set = await expectStatus(
        sm.api.post(path, {
          data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 30 } },
        }),
        201,
      );
      expect(set.body.data.id).toMatch(/^drp-/);
      expect((await sm.api.get(path)).body.data).toEqual(set.body.data);
      const replaced = await expectStatus(
        sm.api.post(path, { data: { type: "data-retention-policy-dont-deletes" } }),
        201,
      );
      expect(replaced.body.data.type).toBe("data-retention-policy-dont-deletes");
      expect(replaced.body.data.id).toBe(set.body.data.id);
      const bad = await sm.api.post(path, {
        data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": "x" } },
      });
      expect(bad.status).toBe(422);
      await expectStatus(sm.api.delete(path), 204);
      expect((await sm.api.get(path)).body.data).toBeNull();
    } finally {
      await sm.server.close();
    }
  });
});

describe("organizations, projects and other prerequisites", () => {
  it("creates, reads and deletes an organization with a default project", async () => {
    const r = await expectStatus(
      t.api.post(`/organizations`, {
        data: { type: "organizations", attributes: { name: "second-org", email: "a@b.c" } },
      }),
      201,
    );
    expect(r.body.data.id).toBe("second-org");
    const projectId = r.body.data.relationships["default-project"].data.id;
    const p = await expectStatus(t.api.get(`/projects/${projectId}`), 200);
    expect(p.body.data.attributes.name).toBe("Default Project");
    expect(
      (await t.api.post(`/organizations`, { data: { type: "organizations", attributes: { name: "second-org" } } }))
        .status,
    ).toBe(422);
    expect(
      (await t.api.post(`/organizations`, { data: { type: "organizations", attributes: { name: "bad name" } } }))
        .status,
    ).toBe(422);
    await createWorkspace(t.api, "second-org", "inside");
    await expectStatus(t.api.delete(`/organizations/second-org`), 204);
    expect((await t.api.get(`/organizations/second-org`)).status).toBe(404);
    expect((await t.api.get(`/projects/${projectId}`)).status).toBe(404);
  });

  it("projects: create, list, read, update, delete; default and non-empty projects stay", async () => {
    const created = await expectStatus(
      t.api.post(`/organizations/${t.org}/projects`, {
        data: { type: "projects", attributes: { name: "pr-1", description: "d" } },
      }),
      201,
    );
    const id = created.body.data.id;
    expect(id).toMatch(/^prj-/);
    expect(
      (
        await t.api.post(`/organizations/${t.org}/projects`, {
          data: { type: "projects", attributes: { name: "pr-1" } },
        })
      ).status,
    ).toBe(422);
    const list = await t.api.get(`/organizations/${t.org}/projects`);
    expect(list.body.data.map((p: any) => p.attributes.name)).toContain("pr-1");
    expect(list.body.meta.pagination["total-count"]).toBe(list.body.data.length);
    const upd = await expectStatus(
      t.api.patch(`/projects/${id}`, { data: { type: "projects", attributes: { name: "pr-1b" } } }),
      200,
    );
    expect(upd.body.data.attributes.name).toBe("pr-1b");
    await createWorkspace(t.api, t.org, "in-pr", {}, { project: { data: { type: "projects", id } } });
    expect((await t.api.delete(`/projects/${id}`)).status).toBe(409);
    await expectStatus(t.api.delete(`/organizations/${t.org}/workspaces/in-pr`), 204);
    await expectStatus(t.api.delete(`/projects/${id}`), 204);
    const org = await t.api.get(`/organizations/${t.org}`);
    expect((await t.api.delete(`/projects/${org.body.data.relationships["default-project"].data.id}`)).status).toBe(
      409,
    );
  });

  it("ping answers 204 with the rate limit header, without a token", async () => {
    const limited = await start({ rateLimit: 30 });
    try {
      const r = await limited.api.as(null).get(`/ping`);
      expect(r.status).toBe(204);
      expect(r.headers.get("x-ratelimit-limit")).toBe("30");
    } finally {
      await limited.server.close();
    }
  });

  it("agent pools and OAuth tokens can be created and read", async () => {
    const pool = await expectStatus(
      t.api.post(`/organizations/${t.org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: "ap" } } }),
      201,
    );
    expect((await expectStatus(t.api.get(`/agent-pools/${pool.body.data.id}`), 200)).body.data).toEqual(pool.body.data);
    const oc = await expectStatus(
      t.api.post(`/organizations/${t.org}/oauth-clients`, {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "github",
            "http-url": "https://github.com",
            "api-url": "https://api.github.com",
            "oauth-token-string": "ghp_secret",
          },
        },
      }),
      201,
    );
    expect(oc.text).not.toContain("ghp_secret");
    const tokenId = oc.body.data.relationships["oauth-tokens"].data[0].id;
    const tok = await expectStatus(t.api.get(`/oauth-tokens/${tokenId}`), 200);
    expect(tok.body.data.relationships["oauth-client"].data.id).toBe(oc.body.data.id);
    expect((await t.api.get(`/oauth-tokens/ot-nope`)).status).toBe(404);
  });
});
