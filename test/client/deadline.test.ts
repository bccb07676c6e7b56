import { afterEach, describe, expect, it } from "vitest";
import {
  AbortedError,
  DeadlineExceededError,
  NetworkError,
  ServiceUnavailableError,
  WaitTimeoutError,
} from "../../src/client";
import { failure } from "./helpers";
import {
  fakeClient,
  organizationDoc,
  pageAsked,
  reply,
  startFakeService,
  tagPage,
  trickle,
  type FakeService,
} from "./fake-service";
import { movableClock } from "./test-clock";

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A valid organization document that takes minutes to trickle out at one byte per 100 ms. */
const SLOW_BODY = " ".repeat(5_000) + JSON.stringify(organizationDoc());

/**
 * How much later than its limit a call may end: the limits here are cut by real timers,
 * and a broken limit lets a call run on for minutes (a trickle of SLOW_BODY, or the
 * default five-minute deadline), far beyond this bound and far beyond what load adds.
 */
const LATE_MS = 20_000;

describe("every call ends by its deadline", () => {
  it("cuts off an answer that trickles one byte every 100 ms, naming the call and the deadline", async () => {
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping" ? reply(res, 204, undefined) : trickle(res, 200, SLOW_BODY, 100),
    );
    const client = fakeClient(service, { deadlineMs: 1_500 });
    const err = await failure(client.organizations.read("acme"));
    expect(err).toBeInstanceOf(DeadlineExceededError);
    // A deadline is a lost answer for the callers that recover from one (a create's outcome is unknown).
    expect(err).toBeInstanceOf(NetworkError);
    const e = err as DeadlineExceededError;
    expect(e.deadlineMs).toBe(1_500);
    expect(e.code).toBe("EDEADLINE");
    expect(e.message).toMatch(
      /^GET \/organizations\/acme: no response - did not finish within its deadline of 1\.5s \(deadlineMs\); ran out before the answer was complete/,
    );
    expect(e.elapsedMs).toBeGreaterThanOrEqual(1_500);
  });

  it("takes a deadline for one call from client.with, leaving the client's own for the others", async () => {
    let slow = true;
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      if (slow) return trickle(res, 200, SLOW_BODY, 100);
      reply(res, 200, organizationDoc());
    });
    const client = fakeClient(service, { deadlineMs: 60_000 });
    const err = await failure(client.with({ deadlineMs: 300 }).organizations.read("acme"));
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect((err as DeadlineExceededError).deadlineMs).toBe(300);
    expect(err.message).toMatch(/deadline of 0\.3s/);
    slow = false;
    expect((await client.organizations.read("acme")).name).toBe("acme");
  });

  it("counts retries and their waits against the deadline", async () => {
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping"
        ? reply(res, 204, undefined)
        : reply(res, 503, { errors: [{ status: "503", title: "busy" }] }, { "Retry-After": "1" }),
    );
    // The second 503 arrives when 59.5 of the call's 60 seconds are gone: a wait of one more passes the deadline.
    const advance = movableClock();
    let busy = 0;
    const client = fakeClient(service, {
      deadlineMs: 60_000,
      logger: (line) => line.includes("-> 503") && ++busy === 2 && advance(59_500),
    });
    const err = await failure(client.organizations.read("acme"));
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err.message).toMatch(/gave up: waiting \d+ms more would pass this call's deadline of 60000ms/);
    expect((err as ServiceUnavailableError).attempts).toBe(2);
  });

  it("counts the wait for a pacing slot against the deadline", async () => {
    service = await startFakeService((_req, res) => reply(res, 200, organizationDoc()));
    // One request every ten seconds or more: the second call cannot get a slot within 300 ms.
    const client = fakeClient(service, { rateLimit: { requestsPerSecond: 0.1 } });
    await client.organizations.read("acme");
    const err = await failure(client.with({ deadlineMs: 300 }).organizations.read("acme"));
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err.message).toMatch(/^GET \/organizations\/acme: not sent - .*ran out while waiting for a pacing slot/);
    expect(service.requests.filter((r) => r.startsWith("GET /api/v2/organizations"))).toHaveLength(1);
  });

  it("stops a call in flight when its signal aborts", async () => {
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping" ? reply(res, 204, undefined) : trickle(res, 200, SLOW_BODY, 100),
    );
    const client = fakeClient(service);
    const controller = new AbortController();
    const call = failure(client.with({ signal: controller.signal }).organizations.read("acme"));
    setTimeout(() => controller.abort(), 300);
    const err = await call;
    expect(err).toBeInstanceOf(AbortedError);
    expect((err as AbortedError).code).toBe("ABORTED");
    expect(err.message).toMatch(
      /^GET \/organizations\/acme: no response - aborted by the caller's signal while the answer was awaited/,
    );
  });

  it("stops a wait between retries when the client's signal aborts, and sends nothing after", async () => {
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping"
        ? reply(res, 204, undefined)
        : reply(res, 503, { errors: [{ status: "503", title: "busy" }] }, { "Retry-After": "5" }),
    );
    const controller = new AbortController();
    // Aborted the moment the client starts its five-second wait before the second attempt.
    const client = fakeClient(service, {
      signal: controller.signal,
      logger: (line) => line.includes("retrying in") && controller.abort(),
    });
    const err = await failure(client.organizations.read("acme"));
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toMatch(/aborted by the caller's signal while waiting to retry/);
    expect(service.requests.filter((r) => r.startsWith("GET /api/v2/organizations"))).toHaveLength(1);
    // An aborted signal ends later calls before they send anything, paced or not.
    expect(await failure(client.organizations.read("acme"))).toBeInstanceOf(AbortedError);
    const unpaced = await failure(
      fakeClient(service, { signal: controller.signal, rateLimit: false }).organizations.read("acme"),
    );
    expect(unpaced).toBeInstanceOf(AbortedError);
    expect(unpaced.message).toMatch(
      /^GET \/organizations\/acme: not sent - aborted by the caller's signal before the request was sent$/,
    );
    expect(service.requests.filter((r) => r.startsWith("GET /api/v2/organizations"))).toHaveLength(1);
  });

  it("bounds a call that sends several requests by one deadline", async () => {
    // The include is refused when the call's minute is over; the fallback's three reads would each trickle for minutes.
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      if (req.url?.includes("include=")) return reply(res, 400, { errors: [{ status: "400", title: "bad include" }] });
      trickle(res, 200, SLOW_BODY, 100);
    });
    const advance = movableClock();
    const client = fakeClient(service, {
      deadlineMs: 60_000,
      logger: (line) => line.includes("-> 400") && advance(60_001),
    });
    const started = performance.now();
    const err = await failure(client.tagBindings.readWithWorkspace("ws-1"));
    expect(err).toBeInstanceOf(DeadlineExceededError);
    // The fallback's reads had what was left of the call's minute, nothing, not a minute of their own each.
    expect(err.message).toMatch(/^GET \/workspaces\/ws-1\S*: not sent - .*ran out before the request was sent/);
    expect(service.requests.filter((r) => !r.includes("include=") && !r.endsWith("/ping"))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(LATE_MS);
  });

  it("gives each poll of an upgrade wait its own deadline, and ends the wait when the signal aborts", async () => {
    let polls = 0;
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      polls++;
      reply(res, 200, {
        data: { id: "run-1", type: "workspace-upgrade", attributes: { status: polls < 6 ? "planning" : "planned" } },
      });
    });
    // Ten minutes pass between polls: six polls outlast the one-minute deadline many times over; each poll is within it.
    const advance = movableClock();
    const client = fakeClient(service, {
      deadlineMs: 60_000,
      logger: (line) => line.includes("-> 200") && advance(600_000),
    });
    const settled = await client.noCode.upgrade.waitFor("nocode-1", "ws-1", "run-1", ["planned"], {
      intervalMs: 10,
      timeoutMs: 86_400_000,
    });
    expect(settled.status).toBe("planned");
    expect(polls).toBe(6);

    polls = 0;
    const controller = new AbortController();
    const waiting = failure(
      client
        .with({ signal: controller.signal })
        .noCode.upgrade.waitFor("nocode-1", "ws-1", "run-1", ["applied"], { intervalMs: 100, timeoutMs: 86_400_000 }),
    );
    while (polls < 2) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const pollsAtAbort = polls;
    const err = await waiting;
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toMatch(/^GET \/no-code-modules\/nocode-1\/workspaces\/ws-1\/upgrade\/run-1: /);
    // Nothing is sent after the abort (one poll may have been in flight).
    await new Promise((r) => setTimeout(r, 300));
    expect(polls).toBeLessThanOrEqual(pollsAtAbort + 1);
  });
});

describe("a trickling answer ends with the request's own time limits", () => {
  it("cuts off the answer when the retry budget runs out, although the deadline is minutes away", async () => {
    service = await startFakeService((req, res) =>
      req.url === "/api/v2/ping" ? reply(res, 204, undefined) : trickle(res, 200, SLOW_BODY, 100),
    );
    // A byte every 100 ms is never two seconds of silence: the idle timeout alone would wait for the whole body.
    const client = fakeClient(service, { timeoutMs: 2_000, retry: { maxAttempts: 2, maxElapsedMs: 2_500 } });
    const started = performance.now();
    const err = await failure(client.workspaces.read("ws-1"));
    const took = performance.now() - started;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).not.toBeInstanceOf(DeadlineExceededError);
    expect((err as NetworkError).code).toBe("ETIMEDOUT");
    expect(err.message).toMatch(
      /^GET \/workspaces\/ws-1: no response - cut off \(ETIMEDOUT\) \(after 1 attempt over \d+\.\ds; gave up: the answer was still arriving when the 2500ms retry budget \(retry\.maxElapsedMs\) ran out\)$/,
    );
    // Not before the budget ran out, and long before the five-minute deadline a broken budget would leave.
    expect(took).toBeGreaterThanOrEqual(2_400);
    expect(took).toBeLessThan(2_500 + LATE_MS);
    // The budget was spent on the one attempt: nothing is left for another.
    expect(service.requests.filter((r) => r.startsWith("GET /api/v2/workspaces"))).toHaveLength(1);
  });

  it("cuts off an unlock's answer at the end of its unlock window once the state was still being finalized", async () => {
    let unlocks = 0;
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      if (++unlocks === 1)
        return reply(res, 503, { errors: [{ status: "503", title: "state version not finalized" }] });
      trickle(res, 200, SLOW_BODY, 100);
    });
    const client = fakeClient(service, { retry: { baseDelayMs: 50, maxDelayMs: 50, unlockRetryMs: 800 } });
    const started = performance.now();
    const err = await failure(client.workspaces.unlock("ws-1"));
    const took = performance.now() - started;
    // The last answer the service gave was that the state is still settling: that is what the user reads.
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err.message).toMatch(
      /^POST \/workspaces\/ws-1\/actions\/unlock: 503 - state version not finalized \(after 2 attempts over .*still not finalized at the end of the 800ms unlock window; the attempt in flight was cut off\)$/,
    );
    expect(unlocks).toBe(2);
    expect(took).toBeLessThan(800 + LATE_MS);
  });

  it("ends an upgrade wait at its timeout while a poll's answer is still arriving", async () => {
    let polls = 0;
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      if (++polls === 1)
        return reply(res, 200, {
          data: { id: "run-1", type: "workspace-upgrade", attributes: { status: "planning" } },
        });
      trickle(res, 200, SLOW_BODY, 100);
    });
    // Each poll has a minute; the wait has two seconds, the second poll's answer minutes.
    const client = fakeClient(service, { deadlineMs: 60_000 });
    const started = performance.now();
    const err = await failure(
      client.noCode.upgrade.waitFor("nocode-1", "ws-1", "run-1", ["planned"], { intervalMs: 50, timeoutMs: 2_000 }),
    );
    const took = performance.now() - started;
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as WaitTimeoutError).lastStatus).toBe("planning");
    expect(err.message).toMatch(
      /^upgrade run-1 of workspace ws-1 still "planning" after \d+\.\ds \(the last poll's answer had not arrived\); expected one of planned$/,
    );
    expect(polls).toBe(2);
    expect(took).toBeLessThan(2_000 + LATE_MS);
  });
});

describe("a paged list is one call", () => {
  /** A list of a million pages, each answered after `delayMs` with items of its own. */
  function endlessPages(delayMs: number) {
    return startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      const n = pageAsked(req);
      setTimeout(
        () => reply(res, 200, tagPage([`t${n}`], { current: n, next: n + 1, totalPages: 1_000_000 })),
        delayMs,
      );
    });
  }
  const pageRequests = () => service!.requests.filter((r) => r.includes("/tags")).length;

  it("ends all() by the list's one deadline, however many pages the service announces", async () => {
    service = await endlessPages(0);
    // Each page takes 40 s of the client's time: page 3 starts at 80 s, page 4 would start after the list's 100 s.
    const advance = movableClock();
    const client = fakeClient(service, {
      deadlineMs: 100_000,
      logger: (line) => line.includes("-> 200") && advance(40_000),
    });
    const err = await failure(client.tags.listOrganization("acme").all());
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect((err as DeadlineExceededError).deadlineMs).toBe(100_000);
    expect(err.message).toMatch(/^GET \/organizations\/acme\/tags\S*: not sent - .*deadline of 100(\.0)?s/);
    expect(pageRequests()).toBe(3);
  });

  it("counts the caller's time between pages of a for await against the deadline", async () => {
    service = await endlessPages(0);
    const client = fakeClient(service);
    const advance = movableClock();
    const seen: string[] = [];
    const err = await failure(
      (async () => {
        for await (const tag of client.with({ deadlineMs: 60_000 }).tags.listOrganization("acme")) {
          seen.push(tag.name);
          // The caller spends an hour on each item; a list that let it go on would be stopped here.
          advance(3_600_000);
          if (seen.length === 5) break;
        }
      })(),
    );
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err.message).toMatch(/ran out before the request was sent/);
    expect(seen).toEqual(["t1"]);
    expect(pageRequests()).toBe(1);
  });

  it("ends a listing at any page when the list's signal aborts", async () => {
    service = await endlessPages(50);
    const client = fakeClient(service, { deadlineMs: 60_000 });
    const controller = new AbortController();
    const list = client.with({ signal: controller.signal }).tags.listOrganization("acme");
    let pages = 0;
    const err = await failure(
      (async () => {
        for await (const _page of list.pages()) if (++pages === 3) controller.abort();
      })(),
    );
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toMatch(/^GET \/organizations\/acme\/tags: not sent - aborted by the caller's signal/);
    expect(pageRequests()).toBe(3);
  });

  it("starts the deadline when the first page is asked for, not when the list is made", async () => {
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      const n = pageAsked(req);
      reply(res, 200, tagPage([`t${n}`], { current: n, next: n < 3 ? n + 1 : null, totalPages: 3 }));
    });
    const advance = movableClock();
    const list = fakeClient(service, { deadlineMs: 300 }).tags.listOrganization("acme");
    advance(3_600_000);
    expect((await list.all()).map((t) => t.name)).toEqual(["t1", "t2", "t3"]);
  });

  it("keeps a retry budget per page inside the list's deadline", async () => {
    // Every page fails once with 503 and is answered on the retry.
    const failed = new Set<number>();
    service = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      const n = pageAsked(req);
      if (!failed.has(n)) {
        failed.add(n);
        return reply(res, 503, { errors: [{ status: "503", title: "busy" }] });
      }
      reply(res, 200, tagPage([`t${n}`], { current: n, next: n < 4 ? n + 1 : null, totalPages: 4 }));
    });
    const client = fakeClient(service, { deadlineMs: 30_000, retry: { maxAttempts: 2, baseDelayMs: 10 } });
    expect(await client.tags.listOrganization("acme").all()).toHaveLength(4);
    expect(pageRequests()).toBe(8);
  });
});
