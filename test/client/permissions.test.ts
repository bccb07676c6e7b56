import { describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from "../../src/client";
import { clientFor, failure, teamToken, uniqueName, uploadState, useServer } from "./helpers";

const t = useServer();

describe("conflicts and permissions from real responses", () => {
  it("ConflictError managing-resources when safe-deleting a workspace that manages resources; force delete works", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("managed") });
    await t.client.workspaces.lock(ws.id);
    await uploadState(t.server, ws.id, { serial: 1, resources: 3 });
    await t.client.workspaces.unlock(ws.id);
    expect((await t.client.workspaces.read(ws.id)).resourceCount).toBe(3);

    const err = await failure(t.client.workspaces.safeDelete(ws.id));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).reason).toBe("managing-resources");
    expect((err as ConflictError).path).toBe(`/workspaces/${ws.id}/actions/safe-delete`);
    await t.client.workspaces.forceDelete(ws.id);
    expect(await failure(t.client.workspaces.read(ws.id))).toBeInstanceOf(NotFoundError);
  });

  it("ForbiddenError when a team that may manage workspaces but not force delete tries to", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("forbid") });
    const { token } = await teamToken(t.server, uniqueName("managers"), { manageWorkspaces: true });
    const manager = clientFor(t.server, { token, rateLimit: false });
    expect((await manager.workspaces.read(ws.id)).id).toBe(ws.id);
    const err = await failure(manager.workspaces.forceDelete(ws.id));
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).status).toBe(403);
    expect((err as ForbiddenError).method).toBe("DELETE");
    expect(err.message).not.toContain(token);
    expect((await t.client.workspaces.read(ws.id)).id).toBe(ws.id);
  });

  it("ConflictError locked-by-another-user when unlocking someone else's lock", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("theirs") });
    const { token } = await teamToken(t.server, uniqueName("lockers"), { manageWorkspaces: true });
    const other = clientFor(t.server, { token, rateLimit: false });
    await t.client.workspaces.lock(ws.id, "mine");
    const err = await failure(other.workspaces.unlock(ws.id));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).reason).toBe("locked-by-another-user");
    await t.client.workspaces.unlock(ws.id);
  });

  it("NotFoundError for a workspace the token may not see", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("hidden") });
    const { token } = await teamToken(t.server, uniqueName("outsiders"));
    const outsider = clientFor(t.server, { token, rateLimit: false });
    expect(await failure(outsider.workspaces.read(ws.id))).toBeInstanceOf(NotFoundError);
  });
});

describe("unlock while state is being finalized", () => {
  it("retries the 503 until the latest intermediate state version is finalized", async () => {
    const lines: string[] = [];
    const client = clientFor(t.server, {
      rateLimit: false,
      logger: (l) => lines.push(l),
      retry: { baseDelayMs: 50, maxDelayMs: 100 },
    });
    const ws = await client.workspaces.create(t.org, { name: uniqueName("settling") });
    await client.workspaces.lock(ws.id);
    await uploadState(t.server, ws.id, { serial: 1, resources: 2, intermediate: true, finalized: false });

    const unlocking = client.workspaces.unlock(ws.id);
    await new Promise((r) => setTimeout(r, 400));
    await uploadState(t.server, ws.id, { serial: 2, resources: 5, intermediate: true, finalized: true });
    const unlocked = await unlocking;

    expect(unlocked.locked).toBe(false);
    expect(unlocked.resourceCount).toBe(5);
    expect(lines.filter((l) => /actions\/unlock -> 503/.test(l)).length).toBeGreaterThan(0);
  });

  it("gives up after the unlock window and says so", async () => {
    const client = clientFor(t.server, {
      rateLimit: false,
      retry: { baseDelayMs: 50, maxDelayMs: 100, unlockRetryMs: 500 },
    });
    const ws = await client.workspaces.create(t.org, { name: uniqueName("stuck") });
    await client.workspaces.lock(ws.id);
    await uploadState(t.server, ws.id, { serial: 1, resources: 1, intermediate: true, finalized: false });
    const started = Date.now();
    const err = await failure(client.workspaces.unlock(ws.id));
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).attempts).toBeGreaterThan(1);
    expect(err.message).toMatch(/attempts over .*not finalized at the end of the 500ms unlock window/);
    // It stops as soon as the next wait would pass the window, and never long after it.
    expect(elapsed).toBeGreaterThanOrEqual(400);
    // The default window is 30 s; this one is half a second.
    expect(elapsed).toBeLessThan(5000);
    expect((await client.workspaces.read(ws.id)).locked).toBe(true);
    await client.workspaces.forceUnlock(ws.id);
  });
});
