/**
 * A token the service refuses: the first 401 is final for that token at that service in
 * this process, later calls fail without a request, and a throttle of invalid tokens is
 * never waited on. Against the real server, and a fake one for the throttle's answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { UnauthorizedError } from "../../src/client";
import { refusalKey, refusalOf, rememberRefusal } from "../../src/client/refused-tokens";
import { clientFor, failure, startTestServer } from "./helpers";
import { fakeClient, organizationDoc, reply, startFakeService, type FakeService } from "./fake-service";

let server: RunningServer | undefined;
let fake: FakeService | undefined;
afterEach(async () => {
  await server?.close();
  await fake?.close();
  server = undefined;
  fake = undefined;
});

const WRONG = "wrong-token-0123456789abcdefghij";

/** Answers the server gave with `status`, so far. */
const answered = (s: RunningServer, status: string) => s.stats().byStatus[status] ?? 0;

describe("a token the service refused", () => {
  it("is sent once: every later call with it fails at once with the service's answer, naming no token", async () => {
    server = await startTestServer();
    const stranger = clientFor(server, { token: WRONG });
    const first = await failure(stranger.workspaces.read("ws-any"));
    expect(first).toBeInstanceOf(UnauthorizedError);
    expect(first.message).toMatch(/^GET \/workspaces\/ws-any: 401 - A valid API token is required\.$/);

    // Another client object with the same token: the process knows the token is refused.
    const again = clientFor(server, { token: WRONG });
    const errors = await Promise.all([
      failure(stranger.workspaces.readByName(server.organization, "web")),
      failure(again.tags.listOrganization(server.organization).all()),
      failure(again.workspaces.create(server.organization, { name: "web" })),
    ]);
    for (const err of errors) {
      expect(err).toBeInstanceOf(UnauthorizedError);
      expect((err as UnauthorizedError).attempts).toBe(0);
      expect(err.message).toMatch(
        /: 401 - A valid API token is required\. \(not sent: the service refused this token \d+s ago \(401\), and no request with it can succeed\)$/,
      );
      expect(err.message).not.toContain(WRONG);
    }
    expect(answered(server, "401")).toBe(1);

    // The service's own token is not affected.
    expect((await clientFor(server).organizations.read(server.organization)).name).toBe(server.organization);
  });

  it("is refused per service: the same token is still sent to another address", async () => {
    server = await startTestServer();
    const other = await startTestServer();
    try {
      await failure(clientFor(server, { token: WRONG }).workspaces.read("ws-any"));
      expect(await failure(clientFor(other, { token: WRONG }).workspaces.read("ws-any"))).toBeInstanceOf(
        UnauthorizedError,
      );
      expect(answered(other, "401")).toBe(1);
    } finally {
      await other.close();
    }
  });

  it("is remembered for ten minutes at most, and only the 64 latest refusals are kept", () => {
    const key = refusalKey("http://127.0.0.1:1/api/v2", "t-expiring");
    rememberRefusal(key, [], 1_000);
    expect(refusalOf(key, 1_000 + 10 * 60_000)).toBeDefined();
    expect(refusalOf(key, 1_000 + 10 * 60_000 + 1)).toBeUndefined();

    const keys = Array.from({ length: 65 }, (_, i) => refusalKey("http://127.0.0.1:2/api/v2", `t-${i}`));
    for (const k of keys) rememberRefusal(k, [], 5_000);
    expect(refusalOf(keys[0], 5_000)).toBeUndefined();
    expect(refusalOf(keys[1], 5_000)).toBeDefined();
    expect(refusalOf(keys[64], 5_000)).toBeDefined();
    // The key holds a digest, not the token.
    expect(keys[0]).not.toContain("t-0");
  });
});

describe("the service's throttle of invalid tokens", () => {
  it("is not waited on, and holds back no other call", async () => {
    let throttled = true;
    fake = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined, { "X-RateLimit-Limit": "30" });
      if (throttled) {
        return reply(
          res,
          429,
          {
            errors: [
              {
                status: "429",
                title: "Too many requests",
                detail: "Too many requests with an invalid token from this address; retry after the reset.",
              },
            ],
          },
          { "Retry-After": "600", "X-RateLimit-Reset": "600" },
        );
      }
      reply(res, 200, organizationDoc());
    });
    const client = fakeClient(fake, { retry: { maxAttempts: 8 } });
    const started = Date.now();
    const err = await failure(client.organizations.read("acme"));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).status).toBe(429);
    expect(err.message).toMatch(
      /^GET \/organizations\/acme: 429 - Too many requests with an invalid token from this address; retry after the reset\. \(after 1 attempt over \d+\.\ds; not waited on: the service holds back requests with an invalid token, and this token is one of them\)$/,
    );
    expect(fake.requests.filter((r) => r.startsWith("GET /api/v2/organizations"))).toHaveLength(1);
    // Ten minutes were asked for; the next call is not held back by them.
    throttled = false;
    expect((await client.organizations.read("acme")).name).toBe("acme");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("is met at most once per call when the real server throttles a wrong token", async () => {
    server = await startTestServer({ rateLimit: 30 });
    // Earlier processes used up the address's allowance of invalid tokens (a raw client, not this one).
    for (let i = 0; i < 25; i++)
      await fetch(`${server.url}/api/v2/organizations/${server.organization}`, {
        headers: { Authorization: "Bearer another-wrong-token-xyz" },
      });
    const throttledBefore = answered(server, "429");
    const started = Date.now();
    const err = await failure(clientFor(server, { token: WRONG }).workspaces.read("ws-any"));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answered(server, "429") - throttledBefore).toBeLessThanOrEqual(1);
  });
});
