/**
 * Workspace behaviour that official clients (go-tfe, terraform-provider-tfe) rely on
 * and the hosted service shows: inherited execution defaults, version checks, the
 * locked safe-delete refusal, the lock holder's kind, the tag filter's empty value and
 * the "no pool" spelling.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, grant, makeTeam, start, wsBody, type TestServer } from "./helpers";

let t: TestServer;
beforeAll(async () => {
  t = await start();
});
afterAll(() => t.server.close());

async function newOrg(name: string, attributes: Record<string, unknown> = {}) {
  await expectStatus(
    t.api.post(`/organizations`, {
      data: { type: "organizations", attributes: { name, email: `${name}@example.com`, ...attributes } },
    }),
    201,
  );
  return name;
}

async function agentPool(org: string, name: string): Promise<string> {
  const r = await expectStatus(
    t.api.post(`/organizations/${org}/agent-pools`, { data: { type: "agent-pools", attributes: { name } } }),
    201,
  );
  return r.body.data.id;
}

describe("organization default execution mode (spec 4.2, setting-overwrites)", () => {
  it("is stored, shown, and inherited by workspaces that do not override it", async () => {
    const org = await newOrg("compat-local", { "default-execution-mode": "local" });
    expect((await t.api.get(`/organizations/${org}`)).body.data.attributes["default-execution-mode"]).toBe("local");

    const inherits = await createWorkspace(t.api, org, "inherits", {
      "setting-overwrites": { "execution-mode": false },
    });
    expect(inherits.attributes["execution-mode"]).toBe("local");
    const plain = await createWorkspace(t.api, org, "plain");
    expect(plain.attributes["execution-mode"]).toBe("local");
    const own = await createWorkspace(t.api, org, "own", { "execution-mode": "remote" });
    expect(own.attributes["execution-mode"]).toBe("remote");
    expect(own.attributes["setting-overwrites"]["execution-mode"]).toBe(true);
  });

  it("an agent default brings its pool; giving up an override on update returns to it", async () => {
    const org = await newOrg("compat-agent");
    const pool = await agentPool(org, "pool-a");
    const updated = await expectStatus(
      t.api.patch(`/organizations/${org}`, {
        data: {
          type: "organizations",
          attributes: { "default-execution-mode": "agent" },
          relationships: { "default-agent-pool": { data: { type: "agent-pools", id: pool } } },
        },
      }),
      200,
    );
    expect(updated.body.data.attributes["default-execution-mode"]).toBe("agent");
    expect(updated.body.data.relationships["default-agent-pool"].data).toEqual({ id: pool, type: "agent-pools" });

    const created = await createWorkspace(t.api, org, "w-agent", {
      "setting-overwrites": { "execution-mode": false, "agent-pool": false },
    });
    expect(created.attributes["execution-mode"]).toBe("agent");
    expect(created.relationships["agent-pool"].data).toEqual({ id: pool, type: "agent-pools" });

    const own = await createWorkspace(t.api, org, "w-remote", { "execution-mode": "remote" });
    expect(own.attributes["execution-mode"]).toBe("remote");
    const back = await expectStatus(
      t.api.patch(
        `/workspaces/${own.id}`,
        wsBody("w-remote", { "setting-overwrites": { "execution-mode": false, "agent-pool": false } }),
      ),
      200,
    );
    expect(back.body.data.attributes["execution-mode"]).toBe("agent");
    expect(back.body.data.relationships["agent-pool"].data.id).toBe(pool);
  });

  it("refuses an agent default without a pool of the organization", async () => {
    const org = await newOrg("compat-nopool");
    const r = await t.api.patch(`/organizations/${org}`, {
      data: { type: "organizations", attributes: { "default-execution-mode": "agent" } },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].source.pointer).toBe("/data/relationships/default-agent-pool");
  });
});

describe("engine-version (spec 4.2: exact version or constraint)", () => {
  it("accepts versions and constraints in either spelling", async () => {
    for (const [i, v] of ["1.9.8", "~> 1.9", ">= 1.5, < 2.0", "latest", "1.10.0-beta1"].entries()) {
      const ws = await createWorkspace(t.api, t.org, `ev-ok-${i}`, { "terraform-version": v });
      expect(ws.attributes["engine-version"]).toBe(v);
    }
  });

  it("rejects anything else with 422 naming the attribute, on create and on update", async () => {
    for (const [key, v] of [
      ["terraform-version", "nonexisting"],
      ["engine-version", "~> banana"],
      ["engine-version", "1.2.3.4"],
    ]) {
      const r = await t.api.post(`/organizations/${t.org}/workspaces`, wsBody(`ev-bad-${v.length}`, { [key]: v }));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe(`/data/attributes/${key}`);
    }
    const ws = await createWorkspace(t.api, t.org, "ev-update");
    const r = await t.api.patch(`/workspaces/${ws.id}`, wsBody("ev-update", { "terraform-version": "nonexisting" }));
    expect(r.status).toBe(422);
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes["engine-version"]).toBe(
      ws.attributes["engine-version"],
    );
  });
});

describe("agent-pool-id given as an empty string", () => {
  it("means no pool on create and on update, as the hosted service reads it", async () => {
    const ws = await createWorkspace(t.api, t.org, "empty-pool", { "agent-pool-id": "", "execution-mode": "remote" });
    expect(ws.relationships["agent-pool"].data).toBeNull();
    const r = await expectStatus(
      t.api.patch(`/workspaces/${ws.id}`, wsBody("empty-pool", { "agent-pool-id": "", description: "x" })),
      200,
    );
    expect(r.body.data.attributes.description).toBe("x");
  });
});

describe("safe delete of a locked workspace (spec 3, 4.6)", () => {
  it("answers 409 saying it is locked, and keeps the workspace; unlocked it goes", async () => {
    const ws = await createWorkspace(t.api, t.org, "locked-sd");
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/lock`, { reason: "busy" }), 200);
    for (const path of [
      `/workspaces/${ws.id}/actions/safe-delete`,
      `/organizations/${t.org}/workspaces/locked-sd/actions/safe-delete`,
    ]) {
      const r = await t.api.post(path);
      expect(r.status).toBe(409);
      expect(r.body.errors[0].detail).toMatch(/locked/);
    }
    await expectStatus(t.api.get(`/workspaces/${ws.id}`), 200);
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/unlock`), 200);
    await expectStatus(t.api.post(`/workspaces/${ws.id}/actions/safe-delete`), 204);
  });
});

describe("unlock of a workspace locked by someone else (spec 3)", () => {
  it("answers 409 naming the holder's kind and name", async () => {
    const ws = await createWorkspace(t.api, t.org, "held-by-team");
    const team = await makeTeam(t.api, t.org, "lockers");
    await grant(t.api, team.id, ws.id, "write");
    await expectStatus(t.api.as(team.token).post(`/workspaces/${ws.id}/actions/lock`), 200);
    const r = await t.api.post(`/workspaces/${ws.id}/actions/unlock`);
    expect(r.status).toBe(409);
    expect(r.body.errors[0].detail).toContain("is locked by Team lockers");
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes.locked).toBe(true);
  });
});

describe("filter[tagged] with an empty value (spec 4.4: the value filter is optional)", () => {
  it("matches on the key alone, as when the value parameter is absent", async () => {
    const a = await createWorkspace(
      t.api,
      t.org,
      "kv-a",
      {},
      { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] } },
    );
    const b = await createWorkspace(
      t.api,
      t.org,
      "kv-b",
      {},
      { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "env", value: "dev" } }] } },
    );
    await createWorkspace(t.api, t.org, "kv-c");
    const ids = async (q: string) =>
      (await expectStatus(t.api.get(`/organizations/${t.org}/workspaces?${q}`), 200)).body.data
        .map((w: any) => w.id)
        .sort();
    const keyOnly = await ids("filter%5Btagged%5D%5B0%5D%5Bkey%5D=env");
    expect(keyOnly).toEqual([a.id, b.id].sort());
    expect(await ids("filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=")).toEqual(keyOnly);
    expect(await ids("filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=dev")).toEqual([
      b.id,
    ]);
  });
});
