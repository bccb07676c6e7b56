import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server";
import type { ServerOptions } from "../../src/server/context";
import { Api, expectStatus } from "./helpers";
import { createFromModule, enableModule, publishModule } from "./no-code-support";

/** Per-request log lines: the fields a user needs to see what reached the server, and no secret. */
const TOKEN = "logging-test-owners-token-5f2c";
const SENSITIVE = "do-not-log-this-value-81d3";

async function serve(
  options: ServerOptions,
): Promise<{ server: RunningServer; lines: () => Record<string, unknown>[]; raw: () => string }> {
  let raw = "";
  const server = await startServer({
    port: 0,
    db: ":memory:",
    rateLimit: false,
    token: TOKEN,
    runSpeed: 1000,
    ...options,
    logDestination: { write: (l) => (raw += l) },
  });
  return {
    server,
    raw: () => raw,
    lines: () =>
      raw
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe("per-request logging (at trace, the most verbose level)", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  let api: Api;
  beforeAll(async () => {
    s = await serve({ logLevel: "trace" });
    api = new Api(s.server.url, s.server.token);
  });
  afterAll(() => s.server.close());

  it("writes one line per request with its id, method, route, path, status and time", async () => {
    const before = s.lines().length;
    await expectStatus(api.get(`/organizations/${s.server.organization}`), 200);
    await expectStatus(api.get(`/workspaces/ws-doesnotexist`), 404);
    await expectStatus(api.get(`/no/such/route`), 404);
    await expectStatus(api.as("not-a-token").get(`/organizations/${s.server.organization}`), 401);
    const lines = s
      .lines()
      .slice(before)
      .filter((l) => l.msg === "request");
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => [l.method, l.route, l.path, l.status, l.msg])).toEqual([
      [
        "GET",
        "/api/v2/organizations/:organization_name",
        `/api/v2/organizations/${s.server.organization}`,
        200,
        "request",
      ],
      ["GET", "/api/v2/workspaces/:workspace_id", "/api/v2/workspaces/ws-doesnotexist", 404, "request"],
      ["GET", null, "/api/v2/no/such/route", 404, "request"],
      [
        "GET",
        "/api/v2/organizations/:organization_name",
        `/api/v2/organizations/${s.server.organization}`,
        401,
        "request",
      ],
    ]);
    for (const l of lines) {
      expect(l.level).toBe(30);
      expect(typeof l.time).toBe("number");
      expect(typeof l.ms).toBe("number");
      expect(l.requestId).toMatch(/\S/);
      expect(Object.keys(l).sort()).toEqual([
        "hostname",
        "level",
        "method",
        "ms",
        "msg",
        "path",
        "pid",
        "requestId",
        "route",
        "status",
        "time",
      ]);
    }
    expect(new Set(lines.map((l) => l.requestId)).size).toBe(4);
  });

  it("never writes the token, a sensitive value, a request body or a query string", async () => {
    const org = s.server.organization;
    const moduleId = await publishModule(api, org, "logged", ["1.0.0"]);
    const noCode = await enableModule(api, org, moduleId);
    await createFromModule(api, noCode.id, "with-secret", [{ key: "password", value: SENSITIVE, sensitive: true }]);
    // A body the server refuses, carrying the value, and the value in a query string.
    await expectStatus(
      api.post(`/organizations/${org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: 7, description: SENSITIVE } },
      }),
      422,
    );
    await expectStatus(api.get(`/organizations/${org}/workspaces?search[name]=${SENSITIVE}`), 200);
    await api.as(`${TOKEN}-wrong`).get(`/organizations/${org}`);
    const raw = s.raw();
    expect(raw).toContain('"status":422');
    expect(raw).toContain(`"path":"/api/v2/organizations/${org}/workspaces"`);
    expect(raw).not.toContain(TOKEN);
    expect(raw).not.toContain(SENSITIVE);
    expect(raw.toLowerCase()).not.toContain("authorization");
    expect(raw.toLowerCase()).not.toContain("bearer");
  });
});

describe("log levels", () => {
  it("an embedded server logs nothing unless asked", async () => {
    const s = await serve({});
    try {
      await expectStatus(new Api(s.server.url, s.server.token).get(`/organizations/${s.server.organization}`), 200);
      expect(s.raw()).toBe("");
    } finally {
      await s.server.close();
    }
  });

  it("at warn, answered requests are not written and a 5xx is, at error", async () => {
    const s = await serve({ logLevel: "warn" });
    try {
      const api = new Api(s.server.url, s.server.token);
      await expectStatus(api.get(`/organizations/${s.server.organization}`), 200);
      await expectStatus(api.get(`/workspaces/ws-missing`), 404);
      expect(s.raw()).toBe("");
      s.server.setFaults({ failureRate: 1, failureMode: "503" });
      await expectStatus(api.get(`/organizations/${s.server.organization}`), 503);
      expect(s.lines().map((l) => [l.level, l.status, l.route, l.msg])).toEqual([
        [50, 503, "/api/v2/organizations/:organization_name", "request failed"],
      ]);
    } finally {
      await s.server.close();
    }
  });
});
