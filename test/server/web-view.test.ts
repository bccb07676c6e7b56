/**
 * The local server's web view, over real HTTP: served only when asked for, with its
 * security headers; signing in with a one-time code or a pasted token into an HttpOnly
 * cookie; the cookie reads /api/v2 as its token would and never writes; only this
 * machine may use it; a session's reads have a bucket of their own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILED_AUTH_LIMIT } from "../../src/server/ratelimit";
import { isLoopbackAddress, isLoopbackHost, sessionIdOf, ViewSessions } from "../../src/server/web/session";
import { createWorkspace, expectStatus, grant, makeTeam, MEDIA, start, type TestServer } from "./helpers";

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

/** One request with exactly these headers (a `Host` of our choosing included), through node:http. */
function raw(
  base: string,
  method: string,
  path: string,
  options: { cookie?: string; host?: string; body?: unknown; text?: string; headers?: Record<string, string> } = {},
): Promise<Raw> {
  const url = new URL(path, base);
  const payload = options.body === undefined ? options.text : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.host !== undefined) headers.host = options.host;
  if (payload !== undefined) headers["content-type"] ??= "application/json";
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The `name=value` of the view's cookie a response sets, or undefined. */
function cookieOf(r: Raw): string | undefined {
  const set = r.headers["set-cookie"]?.find((c) => c.startsWith("workspaces-view="));
  return set?.split(";")[0];
}

/** The origin of a running server (its URL without /api/v2). */
const originOf = (t: TestServer) => t.server.url.replace(/\/api\/v2$/, "");

async function signInWithCode(t: TestServer): Promise<string> {
  const address = new URL(t.server.viewUrl());
  const code = new URLSearchParams(address.hash.slice(1)).get("code")!;
  const r = await raw(address.origin, "POST", "/app/session", { body: { code } });
  expect(r.status, r.text).toBe(204);
  return cookieOf(r)!;
}

describe("the web view, off (the default)", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t.server.close());

  it("answers every /app path 404 as an unknown route does, and viewUrl() says how to turn it on", async () => {
    for (const path of ["/app/", "/app/app.js", "/app/app.css", "/app/session"]) {
      const r = await raw(originOf(t), "GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body.errors[0].detail).toBe(`No route for GET ${path}`);
      expect(r.headers["content-security-policy"]).toBeUndefined();
    }
    expect((await raw(originOf(t), "POST", "/app/session", { body: { token: t.server.token } })).status).toBe(404);
    expect(() => t.server.viewUrl()).toThrow(/web view is off.*webView: true.*--web-view/);
  });
});

describe("the web view, on", () => {
  let t: TestServer;
  let dir: string;
  let file: string;
  let origin: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ws-web-view-"));
    file = join(dir, "server.db");
    t = await start({ webView: true, db: file });
    origin = originOf(t);
  });
  afterAll(async () => {
    await t.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page, its script and its style with the security headers, and no other file", async () => {
    const page = await raw(origin, "GET", "/app/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.text).toMatch(/<html/i);
    for (const r of [page, await raw(origin, "GET", "/app/app.js"), await raw(origin, "GET", "/app/app.css")]) {
      expect(r.headers["content-security-policy"]).toBe(CSP);
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["referrer-policy"]).toBe("no-referrer");
      expect(r.headers["cache-control"]).toBe("no-store");
    }
    const script = await raw(origin, "GET", "/app/app.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.text.length).toBeGreaterThan(0);
    // The graph layout library ships inside the script, with its licence (MIT) at the end.
    expect(script.text).toMatch(/\/\*! @dagrejs\/dagre [\d.]+\n\nCopyright \(c\) 2012-2014 Chris Pettitt\n[^]*\*\/\n$/);
    expect((await raw(origin, "GET", "/app/app.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    const bare = await raw(origin, "GET", "/app");
    expect([bare.status, bare.headers.location]).toEqual([308, "/app/"]);
    for (const path of ["/app/index.html", "/app/main.ts", "/app/page/app.js", "/app/../package.json", "/app/x"])
      expect((await raw(origin, "GET", path)).status, path).toBe(404);
  });

  it("signs in once with the code of viewUrl(): an HttpOnly, SameSite=Strict cookie and no token in the answer", async () => {
    const address = t.server.viewUrl();
    expect(address).toMatch(new RegExp(`^${origin}/app/#code=[A-Za-z0-9_-]{43}$`));
    const code = new URLSearchParams(new URL(address).hash.slice(1)).get("code")!;
    const first = await raw(origin, "POST", "/app/session", { body: { code } });
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    const set = first.headers["set-cookie"]!;
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/^workspaces-view=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(JSON.stringify(first.headers)).not.toContain(t.server.token);

    const again = await raw(origin, "POST", "/app/session", { body: { code } });
    expect(again.status).toBe(401);
    expect(again.headers["set-cookie"]).toBeUndefined();
    expect(again.body.errors[0].detail).toMatch(/code is unknown, used or expired/);

    const cookie = cookieOf(first)!;
    expect((await raw(origin, "GET", "/app/session", { cookie })).body).toEqual({ signedIn: true });
    expect((await raw(origin, "GET", "/app/session")).body).toEqual({ signedIn: false });
  });

  it("reads /api/v2 with the cookie exactly as the owners token does", async () => {
    await createWorkspace(t.api, t.org, "seen-by-cookie");
    const cookie = await signInWithCode(t);
    for (const path of [`/organizations/${t.org}/workspaces`, `/organizations/${t.org}/workspaces/seen-by-cookie`]) {
      const byCookie = await raw(origin, "GET", `/api/v2${path}`, { cookie });
      const byToken = await t.api.get(path);
      expect(byCookie.status).toBe(200);
      expect(byCookie.body).toEqual(byToken.body);
    }
    expect((await raw(origin, "HEAD", `/api/v2/organizations/${t.org}/workspaces`, { cookie })).status).toBe(200);
    // Without the cookie (and without a token), the API still asks for a token; a header
    // beside the cookie is the request's credential, and a bad one is not rescued by it.
    expect((await raw(origin, "GET", `/api/v2/organizations/${t.org}/workspaces`)).status).toBe(401);
    const headerWins = await raw(origin, "GET", `/api/v2/organizations/${t.org}/workspaces`, {
      cookie,
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(headerWins.status).toBe(401);
  });

  it("refuses every write with only the cookie (403) and commits nothing", async () => {
    const ws = await createWorkspace(t.api, t.org, "not-written");
    const cookie = await signInWithCode(t);
    const read = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const dump = () =>
        (read.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[])
          .map(({ name }) => `${name}:${JSON.stringify(read.prepare(`SELECT * FROM "${name}"`).raw(true).all())}`)
          .join("\n");
      const before = { version: read.pragma("data_version", { simple: true }), dump: dump() };
      const writes: Array<[string, string, unknown]> = [
        [
          "POST",
          `/api/v2/organizations/${t.org}/workspaces`,
          { data: { type: "workspaces", attributes: { name: "w" } } },
        ],
        ["PATCH", `/api/v2/workspaces/${ws.id}`, { data: { type: "workspaces", attributes: { description: "x" } } }],
        ["DELETE", `/api/v2/workspaces/${ws.id}`, undefined],
        ["POST", `/api/v2/workspaces/${ws.id}/actions/lock`, undefined],
        ["POST", `/api/v2/organizations/${t.org}/authentication-token`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const r = await raw(origin, method, path, { cookie, body, headers: body ? { "content-type": MEDIA } : {} });
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body.errors[0].detail).toMatch(/web view is read-only.*API token in the Authorization header/);
      }
      expect(read.pragma("data_version", { simple: true })).toBe(before.version);
      expect(dump()).toBe(before.dump);
    } finally {
      read.close();
    }
    expect((await t.api.get(`/workspaces/${ws.id}`)).body.data.attributes.locked).toBe(false);
  });

  it("reads records but not their contents: state, output values and policy code answer 403", async () => {
    const ws = await createWorkspace(t.api, t.org, "contents-kept");
    const cookie = await signInWithCode(t);
    for (const path of [
      `/api/v2/workspaces/${ws.id}/current-state-version-outputs`,
      `/api/v2/state-versions/sv-unknown/download`,
      `/api/v2/state-versions/sv-unknown/outputs`,
      `/api/v2/state-version-outputs/wsout-unknown`,
      `/api/v2/policies/pol-unknown/download`,
    ]) {
      const r = await raw(origin, "GET", path, { cookie });
      expect(r.status, path).toBe(403);
      expect(r.body.errors[0].detail).toMatch(/reads records, not their contents/);
    }
    const record = await raw(origin, "GET", `/api/v2/workspaces/${ws.id}`, { cookie });
    expect(record.status).toBe(200);
  });

  it("signs in with a pasted token, which keeps its own visibility; a bad token gets 401 and no cookie", async () => {
    const seen = await createWorkspace(t.api, t.org, "member-sees");
    const hidden = await createWorkspace(t.api, t.org, "member-hidden");
    const team = await makeTeam(t.api, t.org, "view-readers");
    await grant(t.api, team.id, seen.id, "read");
    const r = await raw(origin, "POST", "/app/session", { body: { token: team.token } });
    expect(r.status).toBe(204);
    const cookie = cookieOf(r)!;
    expect((await raw(origin, "GET", `/api/v2/workspaces/${seen.id}`, { cookie })).status).toBe(200);
    const refused = await raw(origin, "GET", `/api/v2/workspaces/${hidden.id}`, { cookie });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual((await t.api.as(team.token).get(`/workspaces/${hidden.id}`)).body);

    for (const body of [{ token: "not-a-token" }, { token: `${team.token}x` }, { code: "nope" }]) {
      const bad = await raw(origin, "POST", "/app/session", { body });
      expect(bad.status, JSON.stringify(body)).toBe(401);
      expect(bad.headers["set-cookie"]).toBeUndefined();
    }
    expect((await raw(origin, "POST", "/app/session", { body: {} })).status).toBe(400);
    expect((await raw(origin, "POST", "/app/session", { body: { code: "a", token: "b" } })).status).toBe(400);
  });

  it("answers a malformed sign-in with a JSON:API error and no cookie (a form post from another site included)", async () => {
    const attempts: Array<[number, string, string]> = [
      [415, "application/x-www-form-urlencoded", `token=${t.server.token}`],
      [415, "text/plain", JSON.stringify({ token: t.server.token })],
      [400, "application/json", "{not json"],
      [400, "application/json", "[]"],
      [400, "application/json", JSON.stringify({ token: 42 })],
      [401, "application/json", JSON.stringify({ token: "x".repeat(1_000_000) })],
    ];
    for (const [status, type, text] of attempts) {
      const sent = await raw(origin, "POST", "/app/session", { headers: { "content-type": type }, text });
      expect(sent.status, `${type} ${text.slice(0, 20)}`).toBe(status);
      expect(sent.body.errors[0].status).toBe(String(status));
      expect(sent.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("ends the session on sign-out and when its token is deleted", async () => {
    const cookie = await signInWithCode(t);
    const out = await raw(origin, "DELETE", "/app/session", { cookie });
    expect(out.status).toBe(204);
    expect(out.headers["set-cookie"]?.[0]).toMatch(/^workspaces-view=; .*Max-Age=0/);
    expect((await raw(origin, "GET", "/app/session", { cookie })).body).toEqual({ signedIn: false });
    expect((await raw(origin, "GET", `/api/v2/organizations/${t.org}/workspaces`, { cookie })).status).toBe(401);

    const team = await makeTeam(t.api, t.org, "short-lived");
    const session = cookieOf(await raw(origin, "POST", "/app/session", { body: { token: team.token } }))!;
    expect((await raw(origin, "GET", "/app/session", { cookie: session })).body).toEqual({ signedIn: true });
    await expectStatus(t.api.delete(`/teams/${team.id}/authentication-token`), 204);
    expect((await raw(origin, "GET", `/api/v2/teams/${team.id}`, { cookie: session })).status).toBe(401);
    expect((await raw(origin, "GET", "/app/session", { cookie: session })).body).toEqual({ signedIn: false });
  });

  it("answers 404 to a Host that is not this machine at this port (DNS rebinding), on the page and the API", async () => {
    const cookie = await signInWithCode(t);
    const port = new URL(origin).port;
    const api = `/api/v2/organizations/${t.org}/workspaces`;
    for (const host of ["evil.example", `evil.example:${port}`, `127.0.0.1:1`, `127.0.0.2:${port}`]) {
      const page = await raw(origin, "GET", "/app/", { host });
      expect(page.status, host).toBe(404);
      expect(page.text).not.toMatch(/<html/i);
      expect((await raw(origin, "GET", api, { host, cookie })).status, host).toBe(404);
      expect((await raw(origin, "POST", "/app/session", { host, body: { token: t.server.token } })).status).toBe(404);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await raw(origin, "GET", "/app/", { host })).status, host).toBe(200);
      expect((await raw(origin, "GET", api, { host, cookie })).status, host).toBe(200);
    }
    // A token in the Authorization header is the API as ever, whatever the Host.
    expect((await t.api.request("GET", `/organizations/${t.org}/workspaces`, undefined, {})).status).toBe(200);
  });
});

/** A non-loopback IPv4 address of this machine, if it has one: requests to it come from it. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === "IPv4" && !i.internal)?.address;

describe.skipIf(outside === undefined)("the web view from a non-loopback address", () => {
  it("answers 404 to the page, a sign-in and a cookie's read that come from it, whatever the Host", async () => {
    const t = await start({ webView: true, host: "0.0.0.0" });
    try {
      const port = new URL(t.server.url).port;
      const local = `http://127.0.0.1:${port}`;
      const remote = `http://${outside}:${port}`;
      const cookie = await signInWithCode(t);
      const api = `/api/v2/organizations/${t.org}/workspaces`;
      const host = `127.0.0.1:${port}`;
      expect((await raw(local, "GET", "/app/")).status).toBe(200);
      expect((await raw(local, "GET", api, { cookie })).status).toBe(200);
      expect((await raw(remote, "GET", "/app/", { host })).status).toBe(404);
      expect((await raw(remote, "GET", "/app/app.js", { host })).status).toBe(404);
      expect((await raw(remote, "POST", "/app/session", { host, body: { token: t.server.token } })).status).toBe(404);
      expect((await raw(remote, "GET", api, { host, cookie })).status).toBe(404);
      // The API with a token in its header is served to any address, as ever.
      const byToken = await raw(remote, "GET", api, { headers: { authorization: `Bearer ${t.server.token}` } });
      expect(byToken.status).toBe(200);
    } finally {
      await t.server.close();
    }
  });
});

describe("the web view's log", () => {
  it("carries no token, code or session id of a sign-in or a read", async () => {
    let log = "";
    const t = await start({ webView: true, logLevel: "debug", logDestination: { write: (l: string) => (log += l) } });
    try {
      const origin = originOf(t);
      const address = new URL(t.server.viewUrl());
      const code = new URLSearchParams(address.hash.slice(1)).get("code")!;
      const byCode = cookieOf(await raw(origin, "POST", "/app/session", { body: { code } }))!;
      const byToken = cookieOf(await raw(origin, "POST", "/app/session", { body: { token: t.server.token } }))!;
      for (const cookie of [byCode, byToken])
        expect((await raw(origin, "GET", `/api/v2/organizations/${t.org}`, { cookie })).status).toBe(200);
      expect(log).toMatch(/"path":"\/app\/session"/);
      for (const secret of [t.server.token, code, byCode.split("=")[1], byToken.split("=")[1]])
        expect(log).not.toContain(secret);
    } finally {
      await t.server.close();
    }
  });
});

describe("the web view's rate limits", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await start({ webView: true, rateLimit: 30 });
  });
  afterAll(() => t.server.close());

  it("lets a burst of 400 reads of one session through where a token's bucket answers 429", async () => {
    const cookie = await signInWithCode(t);
    const origin = originOf(t);
    const path = `/api/v2/organizations/${t.org}`;
    const burst = async (headers: { cookie?: string; headers?: Record<string, string> }) =>
      (await Promise.all(Array.from({ length: 400 }, () => raw(origin, "GET", path, headers)))).map((r) => r.status);
    const bySession = await burst({ cookie });
    expect(bySession.filter((s) => s === 429)).toHaveLength(0);
    expect(bySession.every((s) => s === 200)).toBe(true);
    const byToken = await burst({ headers: { authorization: `Bearer ${t.server.token}` } });
    expect(byToken.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  it("throttles failed sign-ins as it throttles invalid tokens", async () => {
    const origin = originOf(t);
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++)
      expect((await raw(origin, "POST", "/app/session", { body: { token: `guess-${i}` } })).status).toBe(401);
    const refused = await raw(origin, "POST", "/app/session", { body: { token: "guess-last" } });
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.headers["set-cookie"]).toBeUndefined();
  });
});

describe("the web view's rules, as functions", () => {
  it("counts only this machine's addresses as loopback", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "::ffff:127.0.0.1", "::FFFF:127.9.9.9"])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of [
      undefined,
      "",
      "10.0.0.1",
      "128.0.0.1",
      "1127.0.0.1",
      "127.0.0.256",
      "127.0.0",
      "::2",
      "fe80::1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "0.0.0.0",
      "192.168.1.127",
    ])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
  });

  it("accepts only 127.0.0.1, localhost and [::1] at the server's port as the Host", () => {
    for (const h of ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"])
      expect(isLoopbackHost(h, 8080), h).toBe(true);
    for (const h of [undefined, "", "127.0.0.1", "localhost", "127.0.0.1:8081", "evil.example:8080", "127.0.0.2:8080"])
      expect(isLoopbackHost(h, 8080), String(h)).toBe(false);
  });

  it("reads the session id from a Cookie header among others", () => {
    expect(sessionIdOf("a=1; workspaces-view=abc; b=2")).toBe("abc");
    expect(sessionIdOf("xworkspaces-view=abc")).toBeUndefined();
    expect(sessionIdOf("workspaces-view=")).toBeUndefined();
    expect(sessionIdOf(undefined)).toBeUndefined();
  });

  it("lets a code open one session within ten minutes", () => {
    let now = 0;
    const sessions = new ViewSessions(() => now);
    const code = sessions.mintCode("token-1");
    expect(sessions.redeemCode(code)).toBe("token-1");
    expect(sessions.redeemCode(code)).toBeUndefined();
    const late = sessions.mintCode("token-2");
    now += 10 * 60_000;
    expect(sessions.redeemCode(late)).toBeUndefined();
    const id = sessions.open("token-3");
    expect(sessions.tokenOf(id)).toBe("token-3");
    sessions.close(id);
    expect(sessions.tokenOf(id)).toBeUndefined();
  });
});
