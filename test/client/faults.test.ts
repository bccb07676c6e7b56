import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { NetworkError, NotFoundError, ServiceUnavailableError, type WorkspacesClient } from "../../src/client";
import { clientFor, failure, startTestServer, uniqueName } from "./helpers";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function namesIn(client: WorkspacesClient, org: string, search: string): Promise<string[]> {
  const out: string[] = [];
  for await (const w of client.workspaces.list(org, { search })) out.push(w.name);
  return out;
}

describe("5xx and dropped connections", () => {
  it("retries safe requests through injected 503s and dropped connections until they succeed", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 12 } });
    const ws = await client.workspaces.create(server.organization, { name: uniqueName("flaky") });
    server.setFaults({ failureRate: 0.4, failureMode: "mixed" });

    const reads = await Promise.all(Array.from({ length: 25 }, () => client.workspaces.read(ws.id)));
    const updated = await client.workspaces.update(ws.id, { description: "changed under faults" });
    await client.workspaces.lock(ws.id).catch(() => undefined);
    server.setFaults({});

    expect(reads.every((r) => r.id === ws.id)).toBe(true);
    expect(updated.description).toBe("changed under faults");
    expect(client.stats.retries).toBeGreaterThan(0);
    expect(server.stats().byStatus["503"] ?? 0).toBeGreaterThan(0);
  });

  it("reports a create that met a 503 after one attempt, and creates nothing twice", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5 } });
    const org = server.organization;
    await client.ping();
    const name = uniqueName("once");
    server.setFaults({ failureRate: 1, failureMode: "503" });
    const err = await failure(client.workspaces.create(org, { name }));
    server.setFaults({});

    expect(err).toBeInstanceOf(ServiceUnavailableError);
    const e = err as ServiceUnavailableError;
    expect(e.attempts).toBe(1);
    expect(e.method).toBe("POST");
    expect(e.path).toBe(`/organizations/${org}/workspaces`);
    expect(e.message).toMatch(/not repeated: the request may already have taken effect/);
    // The one attempt reached the route and was refused before any handler ran; it was not sent again.
    expect(server.stats().byRoute["POST /api/v2/organizations/:organization_name/workspaces"]).toBe(1);
    expect(await namesIn(client, org, name)).toEqual([]);
  });

  it("reports a create whose connection dropped, without repeating it", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5 } });
    const org = server.organization;
    await client.ping();
    const name = uniqueName("drop");
    const before = server.stats().total;
    const sentBefore = client.stats.requests;
    server.setFaults({ failureRate: 1, failureMode: "drop" });
    const err = await failure(client.workspaces.create(org, { name }));
    server.setFaults({});

    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).attempts).toBe(1);
    expect((err as NetworkError).code).toMatch(/ECONNRESET|EPIPE|ERR_NETWORK|socket/i);
    expect(client.stats.requests - sentBefore).toBe(1);
    expect(server.stats().total - before).toBeLessThanOrEqual(1);
    expect(await namesIn(client, org, name)).toEqual([]);
  });

  it.each(["503", "drop"] as const)(
    "does not repeat a create whose answer was lost (%s) after the service processed it",
    async (mode) => {
      server = await startTestServer();
      const org = server.organization;
      const client = clientFor(server, { retry: { baseDelayMs: 5 } });
      await client.ping();
      const name = uniqueName("lost");
      const sentBefore = client.stats.requests;
      // The service creates the workspace, then the answer is replaced by a 503 or a dropped connection.
      server.setFaults({ failureRate: 1, failureMode: mode, failureStage: "after" });
      const err = await failure(client.workspaces.create(org, { name }));
      server.setFaults({});

      expect(err).toBeInstanceOf(mode === "503" ? ServiceUnavailableError : NetworkError);
      expect((err as ServiceUnavailableError | NetworkError).attempts).toBe(1);
      expect(err.message).toMatch(/not repeated: the request may already have taken effect/);
      expect(client.stats.requests - sentBefore).toBe(1);
      // Exactly one workspace, and a repeat would have met "name already taken" rather than succeeding.
      expect(await namesIn(client, org, name)).toEqual([name]);
    },
  );

  it("retries a read whose answer was lost after processing, since reading twice changes nothing", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 30 } });
    const ws = await client.workspaces.create(server.organization, { name: uniqueName("lostread") });
    server.setFaults({ failureRate: 0.5, failureMode: "mixed", failureStage: "after" });
    const reads = await Promise.all(Array.from({ length: 10 }, () => client.workspaces.read(ws.id)));
    server.setFaults({});
    expect(reads.every((r) => r.id === ws.id)).toBe(true);
    expect(client.stats.retries).toBeGreaterThan(0);
  });

  it("repeats relationship changes through lost answers, leaving exactly the intended tags and consumers", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 30 } });
    const org = server.organization;
    const subject = await client.workspaces.create(org, { name: uniqueName("rel") });
    const readers = await Promise.all([1, 2, 3].map(() => client.workspaces.create(org, { name: uniqueName("relr") })));
    server.setFaults({ failureRate: 0.5, failureMode: "mixed", failureStage: "after" });
    await client.tags.add(subject.id, ["a", "b", "c"]);
    await client.tags.remove(subject.id, ["b"]);
    await client.remoteStateConsumers.add(
      subject.id,
      readers.map((r) => r.id),
    );
    await client.remoteStateConsumers.remove(subject.id, [readers[0].id]);
    await client.tagBindings.set(subject.id, [{ key: "env", value: "prod" }]);
    server.setFaults({});

    expect((await client.workspaces.read(subject.id)).tagNames.sort()).toEqual(["a", "c"]);
    expect((await client.remoteStateConsumers.listIds(subject.id)).sort()).toEqual(
      [readers[1].id, readers[2].id].sort(),
    );
    expect(await client.tagBindings.list(subject.id)).toEqual([expect.objectContaining({ key: "env", value: "prod" })]);
  });

  it("reports a lock whose answer was lost instead of repeating it into a 409", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5 } });
    const ws = await client.workspaces.create(server.organization, { name: uniqueName("lostlock") });
    server.setFaults({ failureRate: 1, failureMode: "drop", failureStage: "after" });
    const err = await failure(client.workspaces.lock(ws.id, "deploy"));
    server.setFaults({});
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).attempts).toBe(1);
    // The lock did happen: the caller learns that by reading, not from a confusing 409.
    const read = await client.workspaces.read(ws.id);
    expect(read.locked).toBe(true);
    expect(read.lockedReason).toBe("deploy");
  });

  it.each(["safeDelete", "forceDelete"] as const)(
    "%s succeeds when the first attempt deleted the workspace but its answer was lost",
    async (method) => {
      server = await startTestServer();
      const srv = server;
      const lines: string[] = [];
      const client = clientFor(srv, {
        retry: { baseDelayMs: 300, maxDelayMs: 300 },
        // Stop the faults as soon as the first attempt has failed, so the retry meets the real outcome.
        logger: (l) => {
          lines.push(l);
          if (/-> (503|no response)/.test(l)) srv.setFaults({});
        },
      });
      const ws = await client.workspaces.create(srv.organization, { name: uniqueName("gone") });
      srv.setFaults({ failureRate: 1, failureMode: "503", failureStage: "after" });
      await client.workspaces[method](ws.id);
      expect(lines.some((l) => /-> 404 after an attempt with no answer: already deleted/.test(l))).toBe(true);
      expect(await failure(client.workspaces.read(ws.id))).toBeInstanceOf(NotFoundError);
    },
  );

  it("still reports a 404 for a workspace that never existed", async () => {
    server = await startTestServer();
    const client = clientFor(server);
    expect(await failure(client.workspaces.safeDelete("ws-neverexisted"))).toBeInstanceOf(NotFoundError);
  });

  it("stops retrying a safe request when attempts run out, naming attempts and elapsed time", async () => {
    server = await startTestServer();
    const client = clientFor(server, { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 } });
    await client.ping();
    server.setFaults({ failureRate: 1, failureMode: "503" });
    const err = await failure(client.organizations.read(server.organization));
    server.setFaults({});
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).attempts).toBe(4);
    expect(err.message).toMatch(/after 4 attempts over \d+\.\ds; gave up after the maximum of 4 attempts/);
    expect(err.message).toContain("Injected fault");
  });

  it("bounds a call by its time budget", async () => {
    server = await startTestServer();
    const client = clientFor(server, {
      retry: { baseDelayMs: 200, maxDelayMs: 200, maxAttempts: 100, maxElapsedMs: 700 },
    });
    await client.ping();
    server.setFaults({ failureRate: 1, failureMode: "drop" });
    const started = Date.now();
    const err = await failure(client.organizations.read(server.organization));
    server.setFaults({});
    expect(err).toBeInstanceOf(NetworkError);
    // Without the budget, 100 attempts 200 ms apart would take twenty seconds.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err.message).toMatch(/budget/);
  });

  it("times out a request that takes longer than the per-request timeout", async () => {
    server = await startTestServer();
    const client = clientFor(server, { timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 5 } });
    await client.ping();
    server.setFaults({ latencyMs: 400 });
    const err = await failure(client.organizations.read(server.organization));
    server.setFaults({});
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe("ETIMEDOUT");
    expect((err as NetworkError).attempts).toBe(2);
  });
});
