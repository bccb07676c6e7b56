import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { RateLimitedError } from "../../src/client";
import { clientFor, failure, startTestServer, uniqueName } from "./helpers";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("429 handling", () => {
  it("retries every 429 after X-RateLimit-Reset, so that all calls succeed", async () => {
    const limit = 10;
    server = await startTestServer({ rateLimit: limit });
    const lines: string[] = [];
    // No client-side pacing: every call goes at once and the service refuses most of them.
    const client = clientFor(server, { rateLimit: false, logger: (l) => lines.push(l) });
    const ws = await client.workspaces.create(server.organization, { name: uniqueName("rl") });

    const started = Date.now();
    const calls = 35;
    const results = await Promise.all(Array.from({ length: calls }, () => client.workspaces.read(ws.id)));
    const elapsed = Date.now() - started;

    expect(results.every((r) => r.id === ws.id)).toBe(true);
    expect(client.stats.rateLimited).toBeGreaterThan(0);
    expect(server.stats().byStatus["429"]).toBe(client.stats.rateLimited);
    // Every wait came from the reset header, and the calls could not have finished faster
    // than the limit allows: 36 requests at 10 per one-second window need three windows.
    const waits = lines.filter((l) => l.includes("retrying in"));
    expect(waits.length).toBe(client.stats.retries);
    expect(waits.every((l) => l.endsWith("(X-RateLimit-Reset)"))).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(Math.floor((calls + 1) / limit - 1) * 1000);
  });

  it("gives up when the budget cannot cover the wait, and says how many attempts over how long", async () => {
    server = await startTestServer({ rateLimit: 1 });
    const client = clientFor(server, { rateLimit: false, retry: { maxAttempts: 2, baseDelayMs: 10 } });
    const reads = await Promise.allSettled(Array.from({ length: 6 }, () => client.organizations.read(server!.organization)));
    const failed = reads.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as Error);
    expect(failed.length).toBeGreaterThan(0);
    for (const err of failed) {
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as RateLimitedError).status).toBe(429);
      expect((err as RateLimitedError).attempts).toBe(2);
      expect(err.message).toMatch(/after 2 attempts over \d+\.\ds; gave up after the maximum of 2 attempts/);
    }
  });

  it("paces one process under the announced limit: no 429 at all, one /ping for every client of the service", async () => {
    const limit = 20;
    server = await startTestServer({ rateLimit: limit });
    const a = clientFor(server);
    const b = clientFor(server);
    const ws = await a.workspaces.create(server.organization, { name: uniqueName("paced") });
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).workspaces.read(ws.id)),
    );
    const elapsed = Date.now() - started;
    expect(results).toHaveLength(60);
    expect(server.stats().byStatus["429"]).toBeUndefined();
    expect(a.stats.rateLimited + b.stats.rateLimited).toBe(0);
    expect(server.stats().byRoute["GET /api/v2/ping"]).toBe(1);
    // 60 requests under 20/s cannot take less than two seconds.
    expect(elapsed).toBeGreaterThanOrEqual(2000);
  });

  it("follows the limit announced on later answers when the /ping announcement was lost", async () => {
    const limit = 10;
    server = await startTestServer({ rateLimit: limit });
    const srv = server;
    // The first request of the process (the /ping announcement) is dropped; faults stop right after it.
    srv.setFaults({ failureRate: 1, failureMode: "drop" });
    const lines: string[] = [];
    const client = clientFor(srv, {
      retry: { baseDelayMs: 20 },
      logger: (l) => {
        lines.push(l);
        if (l.includes("no response")) srv.setFaults({});
      },
    });
    await client.organizations.read(srv.organization);
    expect(lines[0]).toMatch(/GET \/ping -> no response/);
    expect(srv.stats().byRoute["GET /api/v2/ping"]).toBeUndefined();

    await new Promise((r) => setTimeout(r, 1100));
    const before429 = srv.stats().byStatus["429"] ?? 0;
    const results = await Promise.all(Array.from({ length: 25 }, () => client.organizations.read(srv.organization)));
    expect(results).toHaveLength(25);
    // Paced at the default 30/s these 25 calls would meet 429s against a limit of 10.
    expect((srv.stats().byStatus["429"] ?? 0) - before429).toBe(0);
  });

  it("does not ask /ping when the client is given a fixed limit", async () => {
    server = await startTestServer({ rateLimit: 50 });
    const client = clientFor(server, { rateLimit: { requestsPerSecond: 5 } });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => client.organizations.read(server!.organization)));
    expect(server.stats().byRoute["GET /api/v2/ping"]).toBeUndefined();
    // Burst of 1, then about 3.6 per second: six requests take more than a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("sends no request when a client is constructed", async () => {
    server = await startTestServer();
    clientFor(server);
    clientFor(server);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.stats().total).toBe(0);
  });
});
