import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERMISSION_NAMES, workspaceDocumentSchema } from "../../src/api";
import { createWorkspace, expectStatus, start, wsBody, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

const org = () => t.org;

describe("create (spec 4.2)", () => {
  it("applies the defaults and returns every attribute, relationship and link of spec 2.2", async () => {
    const r = await expectStatus(t.api.post(`/organizations/${org()}/workspaces`, wsBody("defaults")), 201);
    expect(r.headers.get("content-type")).toContain("application/vnd.api+json");
    const ws = r.body.data;
    expect(workspaceDocumentSchema.safeParse(r.body).success).toBe(true);
    expect(ws.id).toMatch(/^ws-[A-Za-z0-9]+$/);
    const a = ws.attributes;
    expect(a).toMatchObject({
      name: "defaults",
      "allow-destroy-plan": true,
      "assessments-enabled": false,
      "auto-apply": false,
      "auto-apply-run-trigger": false,
      "execution-mode": "remote",
      operations: true,
      "file-triggers-enabled": true,
      "global-remote-state": false,
      "queue-all-runs": false,
      "speculative-enabled": true,
      "trigger-patterns": [],
      "trigger-prefixes": [],
      "vcs-repo": null,
      locked: false,
      "resource-count": 0,
      "tag-names": [],
      source: "tfe-api",
    });
    expect(a["engine-version"]).toBe(a["terraform-version"]);
    expect(a["latest-change-at"]).toBe(a["created-at"]);
    expect(Object.keys(a.permissions).sort()).toEqual([...PERMISSION_NAMES].sort());
    for (const rel of [
      "agent-pool",
      "current-configuration-version",
      "current-run",
      "latest-run",
      "current-state-version",
      "current-assessment-result",
      "effective-tag-bindings",
      "tag-bindings",
      "organization",
      "outputs",
      "project",
      "readme",
      "remote-state-consumers",
      "ssh-key",
      "locked-by",
      "vars",
    ]) {
      expect(ws.relationships, rel).toHaveProperty(rel);
    }
    expect(ws.relationships.organization.data).toEqual({ id: org(), type: "organizations" });
    expect(ws.relationships.project.data.id).toMatch(/^prj-/);
    expect(ws.relationships["tag-bindings"].links.related).toBe(`/api/v2/workspaces/${ws.id}/tag-bindings`);
    expect(ws.links.self).toBe(`/api/v2/organizations/${org()}/workspaces/defaults`);
    expect(ws.links["self-html"]).toContain("/workspaces/defaults");
  });

  it("puts the workspace in the organization's default project", async () => {
    const orgDoc = await t.api.get(`/organizations/${org()}`);
    const ws = await createWorkspace(t.api, org(), "in-default");
    expect(ws.relationships.project.data.id).toBe(orgDoc.body.data.relationships["default-project"].data.id);
  });

  it("accepts terraform-version as an alias and answers with both spellings", async () => {
    const ws = await createWorkspace(t.api, org(), "tfv", { "terraform-version": "~> 1.6.0" });
    expect(ws.attributes["engine-version"]).toBe("~> 1.6.0");
    expect(ws.attributes["terraform-version"]).toBe("~> 1.6.0");
  });

  it("maps operations=false to local execution", async () => {
    const ws = await createWorkspace(t.api, org(), "ops-false", { operations: false });
    expect(ws.attributes["execution-mode"]).toBe("local");
    expect(ws.attributes.operations).toBe(false);
  });

  it("returns 422 with one error per bad attribute and its pointer", async () => {
    const r = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("bad name!", { "auto-apply": "yes", "queue-all-runs": 3 }),
    );
    expect(r.status).toBe(422);
    const pointers = r.body.errors.map((e: any) => e.source.pointer).sort();
    expect(pointers).toEqual([
      "/data/attributes/auto-apply",
      "/data/attributes/name",
      "/data/attributes/queue-all-runs",
    ]);
    for (const e of r.body.errors) expect(e.status).toBe("422");
  });

  it("requires name and data.type", async () => {
    const noName = await t.api.post(`/organizations/${org()}/workspaces`, {
      data: { type: "workspaces", attributes: {} },
    });
    expect(noName.status).toBe(422);
    expect(noName.body.errors[0].source.pointer).toBe("/data/attributes/name");
    const wrongType = await t.api.post(`/organizations/${org()}/workspaces`, {
      data: { type: "projects", attributes: { name: "x" } },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0].source.pointer).toBe("/data/type");
  });

  it("refuses a duplicate name with 'Name has already been taken', whatever the case", async () => {
    await createWorkspace(t.api, org(), "dupe");
    for (const name of ["dupe", "DUPE"]) {
      const r = await t.api.post(`/organizations/${org()}/workspaces`, wsBody(name));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].detail).toBe("Name has already been taken");
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/name");
    }
  });

  it("checks agent-pool-id against execution-mode and operations", async () => {
    const pool = await expectStatus(
      t.api.post(`/organizations/${org()}/agent-pools`, {
        data: { type: "agent-pools", attributes: { name: "pool-a" } },
      }),
      201,
    );
    const poolId = pool.body.data.id;
    expect(poolId).toMatch(/^apool-/);
    const missing = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("agent-no-pool", { "execution-mode": "agent" }),
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source.pointer).toBe("/data/attributes/agent-pool-id");
    for (const attrs of [{ "execution-mode": "remote" }, { "execution-mode": "local" }, { operations: true }]) {
      const r = await t.api.post(
        `/organizations/${org()}/workspaces`,
        wsBody("pool-wrong", { ...attrs, "agent-pool-id": poolId }),
      );
      expect(r.status, JSON.stringify(attrs)).toBe(422);
    }
    const both = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("both", { operations: true, "execution-mode": "remote" }),
    );
    expect(both.status).toBe(422);
    const unknownPool = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("unknown-pool", { "execution-mode": "agent", "agent-pool-id": "apool-nope" }),
    );
    expect(unknownPool.status).toBe(422);
    const ok = await createWorkspace(t.api, org(), "agent-ok", { "execution-mode": "agent", "agent-pool-id": poolId });
    expect(ok.relationships["agent-pool"].data).toEqual({ id: poolId, type: "agent-pools" });
    expect(ok.attributes["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
  });

  it("validates auto-destroy-activity-duration", async () => {
    for (const bad of ["0d", "12345h", "14w", "d", "-1d"]) {
      const r = await t.api.post(
        `/organizations/${org()}/workspaces`,
        wsBody(`dur-${bad.length}`, { "auto-destroy-activity-duration": bad }),
      );
      expect(r.status, bad).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe("/data/attributes/auto-destroy-activity-duration");
    }
    const ok = await createWorkspace(t.api, org(), "dur-ok", { "auto-destroy-activity-duration": "14d" });
    expect(ok.attributes["auto-destroy-activity-duration"]).toBe("14d");
  });

  it("requires identifier and oauth-token-id in vcs-repo, and refuses both credentials", async () => {
    const client = await expectStatus(
      t.api.post(`/organizations/${org()}/oauth-clients`, {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "github",
            "http-url": "https://github.com",
            "api-url": "https://api.github.com",
            name: "gh",
          },
        },
      }),
      201,
    );
    const tokenId = client.body.data.relationships["oauth-tokens"].data[0].id;
    expect(tokenId).toMatch(/^ot-/);
    const noId = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("vcs-a", { "vcs-repo": { "oauth-token-id": tokenId } }),
    );
    expect(noId.status).toBe(422);
    expect(noId.body.errors[0].source.pointer).toBe("/data/attributes/vcs-repo/identifier");
    const noToken = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("vcs-b", { "vcs-repo": { identifier: "acme/app" } }),
    );
    expect(noToken.status).toBe(422);
    const both = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("vcs-c", {
        "vcs-repo": { identifier: "acme/app", "oauth-token-id": tokenId, "vcs-app-installation-id": "ghain-1" },
      }),
    );
    expect(both.status).toBe(422);
    const ws = await createWorkspace(t.api, org(), "vcs-ok", {
      "vcs-repo": { identifier: "acme/app", "oauth-token-id": tokenId },
    });
    expect(ws.attributes["vcs-repo"]).toMatchObject({
      identifier: "acme/app",
      "display-identifier": "acme/app",
      branch: "",
      "ingress-submodules": false,
      "oauth-token-id": tokenId,
      "repository-http-url": "https://github.com/acme/app",
      "service-provider": "github",
      "tags-regex": null,
    });
    expect(ws.attributes["vcs-repo"]["webhook-url"]).toMatch(/^http:\/\//);
    expect(ws.attributes["vcs-repo-identifier"]).toBe("acme/app");
    expect(ws.attributes["oauth-client-name"]).toBe("gh");
    const read = await t.api.get(`/workspaces/${ws.id}`);
    expect(read.body.data).toEqual(ws);
  });

  it("requires execution-mode when setting-overwrites.execution-mode is true", async () => {
    const r = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("so", { "setting-overwrites": { "execution-mode": true } }),
    );
    expect(r.status).toBe(422);
  });

  it("creates tag bindings and places the workspace in a named project", async () => {
    const p = await expectStatus(
      t.api.post(`/organizations/${org()}/projects`, { data: { type: "projects", attributes: { name: "team-a" } } }),
      201,
    );
    const ws = await createWorkspace(
      t.api,
      org(),
      "bound",
      {},
      {
        project: { data: { type: "projects", id: p.body.data.id } },
        "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] },
      },
    );
    expect(ws.relationships.project.data.id).toBe(p.body.data.id);
    const tb = await t.api.get(`/workspaces/${ws.id}/tag-bindings`);
    expect(tb.body.data.map((b: any) => [b.type, b.attributes.key, b.attributes.value])).toEqual([
      ["tag-bindings", "env", "prod"],
    ]);
    expect(tb.body.data[0].id).toMatch(/^tb-/);
    const singular = await createWorkspace(
      t.api,
      org(),
      "bound-singular",
      {},
      { project: { data: { type: "project", id: p.body.data.id } } },
    );
    expect(singular.relationships.project.data).toEqual({ id: p.body.data.id, type: "projects" });
    const unknown = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("bound-x", {}, { project: { data: { type: "projects", id: "prj-nope" } } }),
    );
    expect(unknown.status).toBe(404);
  });

  it("attaches flat tags given as a tags relationship (go-tfe's create shape)", async () => {
    const ws = await createWorkspace(
      t.api,
      org(),
      "flat-on-create",
      {},
      {
        tags: {
          data: [
            { type: "tags", attributes: { name: "Alpha" } },
            { type: "tags", attributes: { name: "beta" } },
          ],
        },
      },
    );
    expect(ws.attributes["tag-names"]).toEqual(["alpha", "beta"]);
    const bad = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("flat-bad", {}, { tags: { data: [{ type: "tags", id: "tag-nope" }] } }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/data/relationships/tags/data/0/id");
    const malformed = await t.api.post(
      `/organizations/${org()}/workspaces`,
      wsBody("flat-bad", {}, { tags: { data: [{ type: "tags" }] } }),
    );
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].source.pointer).toBe("/data/relationships/tags/data/0");
    expect((await t.api.get(`/organizations/${org()}/workspaces/flat-bad`)).status).toBe(404);
  });

  it("answers 404 for an unknown organization", async () => {
    const r = await t.api.post(`/organizations/nope/workspaces`, wsBody("x"));
    expect(r.status).toBe(404);
    expect(r.body.errors[0].status).toBe("404");
  });
});

describe("show (spec 4.5)", () => {
  it("serves the same document by id and by organization and name", async () => {
    const ws = await createWorkspace(t.api, org(), "shown");
    const byId = await t.api.get(`/workspaces/${ws.id}`);
    const byName = await t.api.get(`/organizations/${org()}/workspaces/shown`);
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(ws);
    expect(byName.body.data).toEqual(ws);
  });

  it("answers 404 for unknown ids and names", async () => {
    expect((await t.api.get(`/workspaces/ws-doesnotexist`)).status).toBe(404);
    expect((await t.api.get(`/organizations/${org()}/workspaces/missing`)).status).toBe(404);
  });

  it("includes related records and refuses unknown include values with 400", async () => {
    const ws = await createWorkspace(t.api, org(), "incl");
    const r = await t.api.get(`/workspaces/${ws.id}?include=organization,project,readme`);
    expect(r.status).toBe(200);
    expect(r.body.included.map((i: any) => i.type).sort()).toEqual(["organizations", "projects"]);
    const bad = await t.api.get(`/workspaces/${ws.id}?include=bogus`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe("include");
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/lock`, { reason: "x" }), 200);
    const locked = await t.api.get(`/workspaces/${ws.id}?include=locked_by`);
    expect(locked.body.included[0].type).toBe("users");
    expect(locked.body.included[0].id).toBe(locked.body.data.relationships["locked-by"].data.id);
  });
});

describe("update (spec 4.3)", () => {
  it("changes only the supplied attributes, by id and by name", async () => {
    const ws = await createWorkspace(t.api, org(), "upd", { description: "first", "auto-apply": true });
    const r = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { "queue-all-runs": true } } }),
      200,
    );
    expect(r.body.data.attributes).toMatchObject({ description: "first", "auto-apply": true, "queue-all-runs": true });
    const r2 = await expectStatus(
      t.api.patch(`/organizations/${org()}/workspaces/upd`, {
        data: { type: "workspaces", attributes: { description: "second", "engine-version": "1.7.0" } },
      }),
      200,
    );
    expect(r2.body.data.attributes).toMatchObject({
      description: "second",
      "queue-all-runs": true,
      "engine-version": "1.7.0",
      "terraform-version": "1.7.0",
    });
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data).toEqual(r2.body.data);
  });

  it("renames, keeping names unique", async () => {
    const ws = await createWorkspace(t.api, org(), "old-name");
    await createWorkspace(t.api, org(), "taken-name");
    const clash = await t.api.patch(`/workspaces/${ws.id}`, {
      data: { type: "workspaces", attributes: { name: "taken-name" } },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0].detail).toBe("Name has already been taken");
    const r = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { name: "new-name" } } }),
      200,
    );
    expect(r.body.data.links.self).toBe(`/api/v2/organizations/${org()}/workspaces/new-name`);
    expect((await t.api.get(`/organizations/${org()}/workspaces/old-name`)).status).toBe(404);
    expect((await t.api.get(`/organizations/${org()}/workspaces/new-name`)).body.data.id).toBe(ws.id);
  });

  it("requires data.type", async () => {
    const ws = await createWorkspace(t.api, org(), "needs-type");
    const r = await t.api.patch(`/workspaces/${ws.id}`, { data: { attributes: { description: "x" } } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].source.pointer).toBe("/data/type");
  });

  it("modifies, and with null removes, the VCS repo; the two credentials exclude each other", async () => {
    const client = await expectStatus(
      t.api.post(`/organizations/${org()}/oauth-clients`, {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "gitlab_hosted",
            "http-url": "https://gitlab.com",
            "api-url": "https://gitlab.com/api/v4",
          },
        },
      }),
      201,
    );
    const tokenId = client.body.data.relationships["oauth-tokens"].data[0].id;
    const ws = await createWorkspace(t.api, org(), "vcs-upd");
    const noToken = await t.api.patch(`/workspaces/${ws.id}`, {
      data: { type: "workspaces", attributes: { "vcs-repo": { identifier: "a/b" } } },
    });
    expect(noToken.status).toBe(422);
    const added = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, {
        data: { type: "workspaces", attributes: { "vcs-repo": { identifier: "a/b", "oauth-token-id": tokenId } } },
      }),
      200,
    );
    expect(added.body.data.attributes["vcs-repo"]["service-provider"]).toBe("gitlab_hosted");
    const branch = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, {
        data: { type: "workspaces", attributes: { "vcs-repo": { branch: "main" } } },
      }),
      200,
    );
    expect(branch.body.data.attributes["vcs-repo"]).toMatchObject({
      identifier: "a/b",
      branch: "main",
      "oauth-token-id": tokenId,
    });
    const both = await t.api.patch(`/workspaces/${ws.id}`, {
      data: {
        type: "workspaces",
        attributes: { "vcs-repo": { "oauth-token-id": tokenId, "vcs-app-installation-id": "ghain-x" } },
      },
    });
    expect(both.status).toBe(422);
    const removed = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { "vcs-repo": null } } }),
      200,
    );
    expect(removed.body.data.attributes["vcs-repo"]).toBeNull();
    expect(removed.body.data.attributes["vcs-repo-identifier"]).toBeNull();
  });

  it("switches execution modes with the agent pool rules", async () => {
    const pool = await expectStatus(
      t.api.post(`/organizations/${org()}/agent-pools`, {
        data: { type: "agent-pools", attributes: { name: "pool-upd" } },
      }),
      201,
    );
    const ws = await createWorkspace(t.api, org(), "modes");
    const noPool = await t.api.patch(`/workspaces/${ws.id}`, {
      data: { type: "workspaces", attributes: { "execution-mode": "agent" } },
    });
    expect(noPool.status).toBe(422);
    const agent = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, {
        data: { type: "workspaces", attributes: { "execution-mode": "agent", "agent-pool-id": pool.body.data.id } },
      }),
      200,
    );
    expect(agent.body.data.relationships["agent-pool"].data.id).toBe(pool.body.data.id);
    const local = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { operations: false } } }),
      200,
    );
    expect(local.body.data.attributes["execution-mode"]).toBe("local");
    expect(local.body.data.relationships["agent-pool"].data).toBeNull();
    const both = await t.api.patch(`/workspaces/${ws.id}`, {
      data: { type: "workspaces", attributes: { operations: true, "execution-mode": "remote" } },
    });
    expect(both.status).toBe(422);
  });

  it("replaces the direct tag bindings, and an empty list removes them all", async () => {
    const ws = await createWorkspace(
      t.api,
      org(),
      "tb-upd",
      {},
      { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "a", value: "1" } }] } },
    );
    const tb = (d: unknown[]) => ({ data: { type: "workspaces", relationships: { "tag-bindings": { data: d } } } });
    await expectStatus(
      t.api.patch(
        `/workspaces/${ws.id}`,
        tb([
          { type: "tag-bindings", attributes: { key: "b", value: "2" } },
          { type: "tag-bindings", attributes: { key: "c", value: "3" } },
        ]),
      ),
      200,
    );
    let list = await t.api.get(`/workspaces/${ws.id}/tag-bindings`);
    expect(list.body.data.map((b: any) => `${b.attributes.key}=${b.attributes.value}`)).toEqual(["b=2", "c=3"]);
    const dup = await t.api.patch(
      `/workspaces/${ws.id}`,
      tb([
        { type: "tag-bindings", attributes: { key: "b", value: "2" } },
        { type: "tag-bindings", attributes: { key: "b", value: "3" } },
      ]),
    );
    expect(dup.status).toBe(422);
    await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { description: "keep" } } }),
      200,
    );
    list = await t.api.get(`/workspaces/${ws.id}/tag-bindings`);
    expect(list.body.data).toHaveLength(2);
    await expectStatus(t.api.patch(`/workspaces/${ws.id}`, tb([])), 200);
    list = await t.api.get(`/workspaces/${ws.id}/tag-bindings`);
    expect(list.body.data).toEqual([]);
  });

  it("moves a workspace between projects; a blank project id is no move", async () => {
    const p = await expectStatus(
      t.api.post(`/organizations/${org()}/projects`, { data: { type: "projects", attributes: { name: "dest" } } }),
      201,
    );
    const ws = await createWorkspace(t.api, org(), "mover");
    const before = ws.relationships.project.data.id;
    const blank = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, {
        data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: "" } } } },
      }),
      200,
    );
    expect(blank.body.data.relationships.project.data.id).toBe(before);
    const moved = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, {
        data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: p.body.data.id } } } },
      }),
      200,
    );
    expect(moved.body.data.relationships.project.data.id).toBe(p.body.data.id);
  });

  it("answers 404 for an unknown workspace", async () => {
    expect((await t.api.patch(`/workspaces/ws-nope`, { data: { type: "workspaces", attributes: {} } })).status).toBe(
      404,
    );
  });
});

describe("SSH key assignment (spec 4.8)", () => {
  it("assigns, rejects an unknown key and unassigns", async () => {
    const key = await expectStatus(
      t.api.post(`/organizations/${org()}/ssh-keys`, {
        data: { type: "ssh-keys", attributes: { name: "deploy", value: "-----BEGIN KEY-----" } },
      }),
      201,
    );
    expect(key.body.data.id).toMatch(/^sshkey-/);
    expect(key.body.data.attributes).not.toHaveProperty("value");
    const ws = await createWorkspace(t.api, org(), "ssh");
    const body = (id: string | null) => ({ data: { type: "workspaces", attributes: { id } } });
    const a = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}/relationships/ssh-key`, body(key.body.data.id)),
      200,
    );
    expect(a.body.data.relationships["ssh-key"].data).toEqual({ id: key.body.data.id, type: "ssh-keys" });
    const bad = await t.api.patch(`/workspaces/${ws.id}/relationships/ssh-key`, body("sshkey-nope"));
    expect(bad.status).toBe(422);
    const missing = await t.api.patch(`/workspaces/${ws.id}/relationships/ssh-key`, {
      data: { type: "workspaces", attributes: {} },
    });
    expect(missing.status).toBe(422);
    const u = await expectStatus(t.api.patch(`/workspaces/${ws.id}/relationships/ssh-key`, body(null)), 200);
    expect(u.body.data.relationships["ssh-key"].data).toBeNull();
    await expectStatus(t.api.delete(`/ssh-keys/${key.body.data.id}`), 204);
    expect((await t.api.get(`/ssh-keys/${key.body.data.id}`)).status).toBe(404);
  });
});
