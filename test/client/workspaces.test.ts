import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import {
  ConflictError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
  type WorkspacesClient,
  type Workspace,
} from "../../src/client";
import { clientFor, failure, startTestServer, uniqueName } from "./helpers";

let server: RunningServer;
let client: WorkspacesClient;
let org: string;

beforeAll(async () => {
  server = await startTestServer();
  client = clientFor(server);
  org = server.organization;
  // The first request of a process to a service also asks /ping for the rate limit; do it
  // now so that the request counts below are those of the calls themselves.
  await client.ping();
});
afterAll(async () => {
  await server?.close();
});

describe("workspaces", () => {
  it("creates a workspace with every setting and its key-value tags in one request", async () => {
    const before = server.stats().total;
    const name = uniqueName("full");
    const ws = await client.workspaces.create(org, {
      name,
      description: "the web tier",
      executionMode: "remote",
      autoApply: true,
      autoApplyRunTrigger: true,
      allowDestroyPlan: false,
      fileTriggersEnabled: false,
      globalRemoteState: false,
      queueAllRuns: true,
      speculativeEnabled: false,
      engineVersion: "~> 1.6.0",
      triggerPrefixes: ["modules/"],
      triggerPatterns: ["**/*.tf"],
      workingDirectory: "envs/prod",
      autoDestroyActivityDuration: "14d",
      sourceName: "scripts",
      sourceUrl: "https://example.com/scripts",
      tagBindings: [
        { key: "env", value: "prod" },
        { key: "team", value: "web" },
      ],
    });
    expect(ws.id).toMatch(/^ws-/);
    expect(ws.name).toBe(name);
    expect(ws.organization).toBe(org);
    expect(ws.projectId).toMatch(/^prj-/);
    expect(ws.description).toBe("the web tier");
    expect(ws.autoApply).toBe(true);
    expect(ws.autoApplyRunTrigger).toBe(true);
    expect(ws.allowDestroyPlan).toBe(false);
    expect(ws.fileTriggersEnabled).toBe(false);
    expect(ws.queueAllRuns).toBe(true);
    expect(ws.speculativeEnabled).toBe(false);
    expect(ws.engineVersion).toBe("~> 1.6.0");
    expect(ws.triggerPrefixes).toEqual(["modules/"]);
    expect(ws.triggerPatterns).toEqual(["**/*.tf"]);
    expect(ws.workingDirectory).toBe("envs/prod");
    expect(ws.autoDestroyActivityDuration).toBe("14d");
    expect(ws.sourceName).toBe("scripts");
    expect(ws.locked).toBe(false);
    expect(ws.permissions.canUpdate).toBe(true);
    expect(ws.attributes["execution-mode"]).toBe("remote");
    expect(server.stats().total - before).toBe(1);

    const bindings = await client.tagBindings.list(ws.id);
    expect(bindings.map((b) => [b.key, b.value]).sort()).toEqual([
      ["env", "prod"],
      ["team", "web"],
    ]);
    expect(bindings.every((b) => b.id.startsWith("tb-"))).toBe(true);
  });

  it("updates only the given settings, renames, and clears with null", async () => {
    const created = await client.workspaces.create(org, {
      name: uniqueName("upd"),
      description: "before",
      autoApply: true,
      workingDirectory: "a",
    });
    const renamed = uniqueName("renamed");
    const updated = await client.workspaces.update(created.id, {
      name: renamed,
      description: null,
      workingDirectory: null,
    });
    expect(updated.name).toBe(renamed);
    expect(updated.description ?? "").toBe("");
    expect(updated.workingDirectory ?? "").toBe("");
    expect(updated.autoApply).toBe(true);

    const byName = await client.workspaces.updateByName(org, renamed, {
      autoApply: false,
      tagBindings: [{ key: "cost-center", value: "42" }],
    });
    expect(byName.id).toBe(created.id);
    expect(byName.autoApply).toBe(false);
    expect(await client.tagBindings.list(created.id)).toEqual([
      expect.objectContaining({ key: "cost-center", value: "42" }),
    ]);
  });

  it("keeps attributes it does not know and sends the engine version as terraform-version", async () => {
    const ws = await client.workspaces.create(org, { name: uniqueName("extra"), engineVersion: "1.7.2" });
    expect(ws.engineVersion).toBe("1.7.2");
    // The server answers with both spellings; the raw attributes keep whatever was sent.
    expect(ws.attributes["terraform-version"]).toBe("1.7.2");
    expect(ws.attributes["engine-version"]).toBe("1.7.2");
    expect(Object.keys(ws.attributes).length).toBeGreaterThan(20);
    const changed = await client.workspaces.update(ws.id, { engineVersion: "1.8.0" });
    expect(changed.engineVersion).toBe("1.8.0");
    expect((await client.workspaces.read(ws.id)).attributes["engine-version"]).toBe("1.8.0");
  });

  it("safe-deletes and force-deletes, by id and by name", async () => {
    const a = await client.workspaces.create(org, { name: uniqueName("del") });
    const b = await client.workspaces.create(org, { name: uniqueName("del") });
    const c = await client.workspaces.create(org, { name: uniqueName("del") });
    const d = await client.workspaces.create(org, { name: uniqueName("del") });
    await client.workspaces.safeDelete(a.id);
    await client.workspaces.safeDeleteByName(org, b.name);
    await client.workspaces.forceDelete(c.id);
    await client.workspaces.forceDeleteByName(org, d.name);
    for (const ws of [a, b, c, d]) {
      expect(await failure(client.workspaces.read(ws.id))).toBeInstanceOf(NotFoundError);
    }
  });
});

describe("locks", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await client.workspaces.create(org, { name: uniqueName("lock") });
  });

  it("locks with a reason and unlocks", async () => {
    const locked = await client.workspaces.lock(ws.id, "maintenance");
    expect(locked.locked).toBe(true);
    expect(locked.lockedReason).toBe("maintenance");
    expect(locked.lockedById).toMatch(/^user-/);
    const unlocked = await client.workspaces.unlock(ws.id);
    expect(unlocked.locked).toBe(false);
  });

  it("reports 409 with the reason already-locked, and not-locked on unlock and force-unlock", async () => {
    await client.workspaces.lock(ws.id);
    const again = await failure(client.workspaces.lock(ws.id));
    expect(again).toBeInstanceOf(ConflictError);
    expect((again as ConflictError).reason).toBe("already-locked");
    expect((again as ConflictError).status).toBe(409);
    expect((again as ConflictError).method).toBe("POST");
    expect((again as ConflictError).path).toBe(`/workspaces/${ws.id}/actions/lock`);
    expect((again as ConflictError).detail).toMatch(/already locked/);

    const forced = await client.workspaces.forceUnlock(ws.id);
    expect(forced.locked).toBe(false);

    const unlock = await failure(client.workspaces.unlock(ws.id));
    expect(unlock).toBeInstanceOf(ConflictError);
    expect((unlock as ConflictError).reason).toBe("not-locked");
    const force = await failure(client.workspaces.forceUnlock(ws.id));
    expect((force as ConflictError).reason).toBe("not-locked");
  });
});

describe("errors from real responses", () => {
  it("NotFoundError for a missing workspace, with method, path and detail", async () => {
    const err = await failure(client.workspaces.read("ws-doesnotexist"));
    expect(err).toBeInstanceOf(NotFoundError);
    const e = err as NotFoundError;
    expect(e.status).toBe(404);
    expect(e.method).toBe("GET");
    expect(e.path).toBe("/workspaces/ws-doesnotexist");
    expect(e.detail).toMatch(/not found/i);
    expect(e.message).toContain("GET /workspaces/ws-doesnotexist: 404");
    expect(e.attempts).toBe(1);
  });

  it("ValidationError lists each source.pointer with its detail", async () => {
    const err = await failure(
      client.workspaces.create(org, { name: "bad name!", executionMode: "agent", autoDestroyActivityDuration: "0d" }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.status).toBe(422);
    const pointers = e.problems.map((p) => p.pointer);
    expect(pointers).toContain("/data/attributes/name");
    expect(pointers).toContain("/data/attributes/auto-destroy-activity-duration");
    expect(e.problems.every((p) => p.detail.length > 0)).toBe(true);
  });

  it("ValidationError for a duplicate name, and the first workspace is untouched", async () => {
    const name = uniqueName("dup");
    const first = await client.workspaces.create(org, { name, description: "first" });
    const err = await failure(client.workspaces.create(org, { name, description: "second" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems[0]).toEqual({
      pointer: "/data/attributes/name",
      detail: expect.stringMatching(/already been taken/),
    });
    expect((await client.workspaces.read(first.id)).description).toBe("first");
  });

  it("UnauthorizedError for a token the service does not know", async () => {
    const stranger = clientFor(server, { token: "not-a-real-token-1234567890" });
    const err = await failure(stranger.workspaces.read("ws-any"));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.message).not.toContain("not-a-real-token-1234567890");
  });
});
