import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { RateLimitedError } from "../../src/client";
import { RateLimiter, limiterSettingsFor } from "../../src/client/limiter";
import { clientFor, failure, startTestServer, uniqueName } from "./helpers";
import { fakeClient, organizationDoc, reply, startFakeService, type FakeService } from "./fake-service";

let server: RunningServer | undefined;
let fake: FakeService | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await fake?.close();
  fake = undefined;
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
    const reads = await Promise.allSettled(
      Array.from({ length: 6 }, () => client.organizations.read(server!.organization)),
    );
    const failed = reads
      .filter((r): r is PromiseRejectedResult => r.status === "rejected")
      .map((r) => r.reason as Error);
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
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).workspaces.read(ws.id)));
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

describe("a 429 that asks for a long pause", () => {
  it("fails that call at once and never holds later calls past their own deadline, saying when to retry", async () => {
    let answer429 = true;
    fake = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined, { "X-RateLimit-Limit": "1000" });
      if (answer429) {
        answer429 = false;
        return reply(
          res,
          429,
          { errors: [{ status: "429", title: "Too many requests" }] },
          { "X-RateLimit-Reset": "86400" },
        );
      }
      reply(res, 200, organizationDoc());
    });
    const client = fakeClient(fake, { deadlineMs: 60_000 });
    const asked = Date.now();
    const first = await failure(client.organizations.read("acme"));
    expect(first).toBeInstanceOf(RateLimitedError);
    const retryAt = (first as RateLimitedError).retryAt!;
    expect(retryAt.getTime()).toBeGreaterThanOrEqual(asked + 86_400_000);
    expect(first.message).toContain(`retry after ${retryAt.toISOString()}`);

    // A later call whose deadline ends before the pause is refused without being sent.
    const later = await failure(client.with({ deadlineMs: 2_000 }).organizations.read("acme"));
    expect(later).toBeInstanceOf(RateLimitedError);
    expect((later as RateLimitedError).retryAt?.getTime()).toBe(retryAt.getTime());
    expect((later as RateLimitedError).attempts).toBe(0);
    expect(later.message).toMatch(
      /^GET \/organizations\/acme: not sent - rate limited: retry after .* \(the service asked for a pause until .*, past this call's deadline\)$/,
    );
    expect(fake.requests.filter((r) => r.startsWith("GET /api/v2/organizations"))).toHaveLength(1);
  });

  it("refuses calls already waiting for a slot when a pause outlasts their deadline", async () => {
    // The second request meets a day-long 429 while a third call waits for its slot.
    fake = await startFakeService((_req, res) =>
      fake!.requests.length === 2
        ? reply(res, 429, { errors: [{ status: "429", title: "Too many requests" }] }, { "X-RateLimit-Reset": "86400" })
        : reply(res, 200, organizationDoc()),
    );
    // One request every two seconds: the second and third calls wait in the queue.
    const client = fakeClient(fake, { rateLimit: { requestsPerSecond: 1 }, deadlineMs: 30_000 });
    await client.organizations.read("acme");
    const [second, third] = await Promise.all([
      failure(client.organizations.read("acme")),
      failure(client.organizations.read("acme")),
    ]);
    expect(second).toBeInstanceOf(RateLimitedError);
    expect((second as RateLimitedError).status).toBe(429);
    expect(third).toBeInstanceOf(RateLimitedError);
    expect((third as RateLimitedError).attempts).toBe(0);
    expect((third as RateLimitedError).retryAt!.getTime()).toBe((second as RateLimitedError).retryAt!.getTime());
    expect(fake.requests).toHaveLength(2);
  });
});

describe("pacing by what the service announces", () => {
  it("does not pace a service that announces no limit: 30 calls arrive together", async () => {
    // The fake service holds every answer until 30 requests wait, then answers them all;
    // requests still missing 750 ms after the first (paced at 30 per second without an
    // announcement, about 22 would have arrived) make it answer 404 instead.
    const held: ((status: number) => void)[] = [];
    let cutoff: ReturnType<typeof setTimeout> | undefined;
    fake = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      held.push((status) =>
        reply(res, status, status === 200 ? organizationDoc() : { errors: [{ status: "404", title: "not found" }] }),
      );
      cutoff ??= setTimeout(() => held.splice(0).forEach((answer) => answer(404)), 750);
      if (held.length === 30) {
        clearTimeout(cutoff);
        held.splice(0).forEach((answer) => answer(200));
      }
    });
    const client = fakeClient(fake);
    const results = await Promise.all(Array.from({ length: 30 }, () => client.organizations.read("acme")));
    expect(results.every((o) => o.name === "acme")).toBe(true);
    expect(fake.requests.filter((r) => r.endsWith("/ping"))).toHaveLength(1);
  });

  it("still paces at the announced 30 per second, and starts pacing when a later answer announces a limit", () => {
    const clock = { now: 0 };
    const limiter = new RateLimiter(undefined, () => clock.now);
    expect(limiter.settings).toBeUndefined();
    for (let i = 0; i < 1000; i++) expect(limiter.tryTake()).toBe(0);
    limiter.follow(30);
    expect(limiter.settings).toEqual(limiterSettingsFor(30));
    clock.now = 10_000;
    let sent = 0;
    while (limiter.tryTake() === 0) sent++;
    expect(sent).toBe(limiterSettingsFor(30).burst);
  });
});
