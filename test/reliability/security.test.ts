/**
 * Security: tokens stay secret (client errors and logs, server logs, serialized
 * providers), organizations are sealed from each other, team tokens without admin get
 * exactly the refusals of spec section 5, organization tokens are refused on the no-code
 * endpoints, the rate limit holds per user with several clients at once, an upgrade
 * with any guessed value of a sensitive no-code variable plans the same as any other
 * (generated guesses, the right value among them), a flood of wrong tokens from an
 * address locks out none of its valid tokens, and no sensitive value is in the bytes of
 * the database files.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WorkspacesClient } from "../../src/client";
import { providerText } from "../../src/resources/provider-text";
import { typeTokens } from "../../src/resources/tokens";
import { FAILED_AUTH_LIMIT } from "../../src/server/ratelimit";
import { Api, createWorkspace, expectStatus, grant, makeTeam, start } from "../server/helpers";
import { createFromModule, enableModule, pollUpgrade, publishModule, upgradePath } from "../server/no-code-support";
import { startChildServer } from "./child";
import { recordFigures } from "./figures";
import { wrongAuthorization } from "./generators";
import { registeredRoutes, SPEC_ROUTES, type Route } from "./routes";
import { OTHER_ORG, startWorld, type World } from "./world";

let world: World;
let routes: Route[];
const figures: Record<string, number> = {};
const bump = (k: string, n = 1) => (figures[k] = (figures[k] ?? 0) + n);

beforeAll(async () => {
  world = await startWorld();
  routes = await registeredRoutes();
}, 60_000);

afterAll(async () => {
  await world?.close();
  recordFigures("security", figures);
});

/** Every way an error can be turned into text: what a log line, a crash report or a state file would hold. */
function renderings(err: unknown): string[] {
  const e = err as Error & { cause?: unknown };
  const out = [String(e), e?.message ?? "", e?.stack ?? "", inspect(e, { depth: 20, showHidden: true, getters: true })];
  try {
    out.push(JSON.stringify(e, Object.getOwnPropertyNames(e ?? {})));
    out.push(JSON.stringify(e));
  } catch {
    // A cycle: the inspect rendering above already walked it.
  }
  return out;
}

function expectNoSecret(texts: string[], secrets: string[], where: string): void {
  for (const text of texts) for (const s of secrets) expect(text.includes(s), `${where} contains a token`).toBe(false);
}

const body = (type: string, attributes: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  data: { type, attributes, ...extra },
});

describe("tokens never leak", () => {
  test("client errors and client log lines never hold the token, whatever failed", async () => {
    const token = world.tokens.owner;
    const lines: string[] = [];
    const client = new WorkspacesClient({
      address: world.test.server.url,
      token,
      organization: world.org,
      env: {},
      homeDir: "/nonexistent",
      logger: (l: string) => lines.push(l),
      retry: { maxAttempts: 2 },
    });
    const wrong = `wrong-${randomBytes(12).toString("hex")}`;
    const stranger = new WorkspacesClient({
      address: world.test.server.url,
      token: wrong,
      organization: world.org,
      env: {},
      homeDir: "/nonexistent",
      logger: (l: string) => lines.push(l),
    });
    const nowhere = new WorkspacesClient({
      address: "http://127.0.0.1:9/api/v2",
      token,
      organization: world.org,
      env: {},
      homeDir: "/nonexistent",
      logger: (l: string) => lines.push(l),
      retry: { maxAttempts: 1 },
      timeoutMs: 2000,
    });
    const ws = world.fixtures.workspaces[0];
    const failures: Array<() => Promise<unknown>> = [
      () => client.workspaces.read("ws-doesnotexist"),
      () => client.workspaces.create(world.org, { name: "has space" }),
      () => client.workspaces.create(world.org, { name: world.workspaceName(ws)! }),
      () => client.workspaces.lock(world.fixtures.workspaces[1]),
      () => client.workspaces.unlock(ws),
      () => client.workspaces.readByName(OTHER_ORG, "x"),
      () => client.workspaces.forceDelete("ws-doesnotexist"),
      () => stranger.workspaces.read(ws),
      () => nowhere.workspaces.read(ws),
    ];
    let caught = 0;
    for (const call of failures) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, "every call above must fail").not.toBeNull();
      caught++;
      expectNoSecret(renderings(err), [token, wrong], `client error ${String(err)}`);
    }
    expectNoSecret(lines, [token, wrong], "client log");
    bump("client errors scanned for the token", caught);
    bump("client log lines scanned", lines.length);
  });

  test("the server process logs nothing of any token, over good, bad and failing requests", async () => {
    const token = `srv-${randomBytes(16).toString("hex")}`;
    const dir = mkdtempSync(join(tmpdir(), "ws-security-"));
    const child = await startChildServer(["--db", join(dir, "db.sqlite"), "--token", token, "--rate-limit", "5"]);
    try {
      const api = new Api(child.url, token);
      const ws = await createWorkspace(api, "example-org", "logged");
      const team = await makeTeam(api, "example-org", "readers");
      await grant(api, team.id, ws.id, "read");
      const others = [team.token, "Bearer-lookalike-" + token.slice(4)];
      const requests = [
        () => api.get(`/workspaces/${ws.id}`),
        () => api.post(`/workspaces/${ws.id}/actions/lock`, "{not json"),
        () => api.post(`/organizations/example-org/workspaces`, body("workspaces", { name: "bad name" })),
        () => api.as(team.token).patch(`/workspaces/${ws.id}`, body("workspaces", { description: "x" })),
        () => api.as(token + "x").get(`/workspaces/${ws.id}`),
        () => api.get(`/workspaces/${ws.id}?include=nonsense`),
      ];
      // Forty rounds at a limit of 5/s also drive the 429 path.
      const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => requests[i % requests.length]()));
      expect(replies.some((r) => r.status === 429)).toBe(true);
      for (const r of replies) expectNoSecret([r.text], [token, ...others], `server answer ${r.status}`);
      await child.stop();
      expectNoSecret([child.output()], [token, ...others], "server log");
      bump("server answers scanned", replies.length);
    } finally {
      await child.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("serialized providers hold no token, also after they have served calls with it", async () => {
    const token = world.tokens.owner;
    const saved = { ...process.env };
    process.env.WORKSPACES_ADDRESS = world.test.server.url.replace(/\/api\/v2$/, "");
    process.env.WORKSPACES_TOKEN = token;
    process.env.WORKSPACES_ORGANIZATION = world.org;
    try {
      const { dispatch } = await import("../../src/resources/entry");
      const created = (await dispatch(1, "Workspace", "create", [
        { name: "closure-scan", organization: world.org },
      ])) as { id: string };
      expect(created.id).toMatch(/^ws-/);
      await dispatch(1, "Workspace", "read", [created.id, { name: "closure-scan", organization: world.org }]);
      for (const kind of Object.keys(typeTokens) as (keyof typeof typeTokens)[]) {
        expectNoSecret([providerText(kind)], [token], `serialized ${kind} provider`);
        bump("serialized providers scanned");
      }
      const failure = await dispatch(1, "Workspace", "create", [
        { name: "closure-scan", organization: world.org },
      ]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).not.toBeNull();
      expectNoSecret(renderings(failure), [token], "provider error");
    } finally {
      process.env = saved;
    }
  });
});

const workspaceRoutes = () =>
  routes.filter(
    (r) => r.params.includes("workspace_id") || (r.params.includes("name") && r.url.startsWith("/organizations/")),
  );

function pathFor(route: Route, ws: { id: string; name: string; org: string }): string {
  return route.url
    .replace(":organization_name", ws.org)
    .replace(":workspace_id", ws.id)
    .replace(":name", ws.name)
    .replace(":no_code_module_id", world.fixtures.noCodeModules[0])
    .replace(":variable_id", "var-x")
    .replace(":id", world.fixtures.upgradeRuns[0]);
}

/** A body that would pass validation on the route, so a refusal is about the caller, not the payload. */
function plausibleBody(route: Route, consumerId: string): unknown {
  if (route.method === "GET" || (route.method === "DELETE" && !route.url.includes("relationships"))) return undefined;
  if (route.url.endsWith("/remote-state-consumers")) return { data: [{ type: "workspaces", id: consumerId }] };
  if (route.url.endsWith("/relationships/tags")) return { data: [{ type: "tags", attributes: { name: "sealed" } }] };
  if (route.url.endsWith("/ssh-key")) return body("workspaces", { id: null });
  if (route.url.endsWith("/actions/lock")) return { reason: "intruder" };
  if (route.url.endsWith("/state-versions")) return body("state-versions", { serial: 1, md5: "0".repeat(32) });
  if (route.url.endsWith("/data-retention-policy"))
    return body("data-retention-policies", { "delete-older-than-n-days": 3 });
  if (route.url.includes("/upgrade")) return body("workspaces", {}, { relationships: { vars: { data: [] } } });
  if (route.method === "PATCH") return body("workspaces", { description: "intruder" });
  return undefined;
}

describe("organizations are sealed from each other", () => {
  test("tokens of another organization get 404 on every workspace route, and change nothing", async () => {
    const target = {
      id: world.fixtures.workspaces[0],
      name: world.workspaceName(world.fixtures.workspaces[0])!,
      org: world.org,
    };
    const outsider = await makeTeam(world.api, OTHER_ORG, `outsiders-${Date.now()}`, { manageWorkspaces: true });
    const callers = {
      "organization token": world.tokens.otherOrg,
      "team token that manages all workspaces": outsider.token,
    };
    const version = world.dataVersion();
    const before = world.dump();
    let n = 0;
    for (const [who, token] of Object.entries(callers)) {
      for (const route of workspaceRoutes()) {
        const r = await world.api
          .as(token)
          .request(route.method, pathFor(route, target), plausibleBody(route, world.fixtures.otherWorkspaces[0]));
        expect(r.status, `${who}: ${route.method} ${route.url} -> ${r.text}`).toBe(404);
        n++;
      }
    }
    expect(world.dataVersion()).toBe(version);
    expect(world.dump() === before).toBe(true);
    bump("cross-organization requests, all 404", n);
  });
});

describe("team tokens without admin (spec 5)", () => {
  /**
   * What a team that can read the workspace but lacks admin gets, per spec 5 and 7:
   * reads succeed, locking needs the lock permission (write access has it), force delete
   * is a 403 for anyone who can see the workspace, everything else is a 404.
   */
  function expected(level: "read" | "plan" | "write", route: Route): number | "read" {
    if (route.method === "GET") return "read";
    if (route.url.endsWith("/actions/lock") || route.url.endsWith("/actions/unlock"))
      return level === "write" ? 200 : 404;
    if (route.method === "DELETE" && !route.url.includes("/relationships/")) return 403;
    return 404;
  }

  test.each(["read", "plan", "write"] as const)(
    "%s access: every spec workspace route answers exactly as the matrix says",
    async (level) => {
      const ws = await createWorkspace(world.api, world.org, `matrix-${level}-${Date.now()}`);
      const consumer = await createWorkspace(world.api, world.org, `matrix-c-${level}-${Date.now()}`);
      const team = await makeTeam(world.api, world.org, `matrix-${level}-${Date.now()}`);
      await grant(world.api, team.id, ws.id, level);
      await grant(world.api, team.id, consumer.id, level);
      const api = world.api.as(team.token);
      const target = { id: ws.id, name: ws.attributes.name as string, org: world.org };
      const specOnly = SPEC_ROUTES.filter(
        (r) =>
          (r.params.includes("workspace_id") || r.params.includes("name")) && !r.url.startsWith("/no-code-modules"),
      );
      // Lock before unlock, so each answers about the caller and not the lock state.
      specOnly.sort((a, b) => Number(b.url.endsWith("/lock")) - Number(a.url.endsWith("/lock")));
      let n = 0;
      for (const route of specOnly) {
        const version = world.dataVersion();
        const r = await api.request(route.method, pathFor(route, target), plausibleBody(route, consumer.id));
        const want = expected(level, route);
        const where = `${level}: ${route.method} ${route.url} -> ${r.status} ${r.text.slice(0, 200)}`;
        if (want === "read") {
          // Retention policies are a self-managed admin setting; every other read is allowed.
          expect([200, 404].includes(r.status), where).toBe(true);
          if (!route.url.includes("data-retention")) expect(r.status, where).toBe(200);
        } else {
          expect(r.status, where).toBe(want);
          if (want >= 400) {
            expect(r.body.errors?.length, where).toBeGreaterThan(0);
            expect(world.dataVersion(), `refused but committed: ${where}`).toBe(version);
          }
        }
        n++;
      }
      bump("requests of team tokens without admin, each as the matrix says", n);
    },
  );

  test("organization tokens are refused on every no-code endpoint, and change nothing", async () => {
    const api = world.api.as(world.tokens.org);
    const noCode = world.fixtures.noCodeModules[0];
    const ws = world.fixtures.workspaces[world.fixtures.workspaces.length - 1];
    const run = world.fixtures.upgradeRuns[0];
    const calls: Array<[string, string, unknown]> = [
      [
        "POST",
        `/organizations/${world.org}/no-code-modules`,
        body(
          "no-code-modules",
          { enabled: true },
          { relationships: { "registry-module": { data: { type: "registry-modules", id: "mod-x" } } } },
        ),
      ],
      ["PATCH", `/no-code-modules/${noCode}`, body("no-code-modules", { enabled: false })],
      ["POST", `/no-code-modules/${noCode}/workspaces`, body("workspaces", { name: "from-org-token" })],
      [
        "POST",
        `/no-code-modules/${noCode}/workspaces/${ws}/upgrade`,
        body("workspaces", {}, { relationships: { vars: { data: [] } } }),
      ],
      ["POST", `/no-code-modules/${noCode}/workspaces/${ws}/upgrade/${run}`, undefined],
    ];
    const version = world.dataVersion();
    for (const [method, path, b] of calls) {
      const r = await api.request(method, path, b);
      expect([403, 404].includes(r.status), `${method} ${path} -> ${r.status}`).toBe(true);
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    expect(world.dataVersion()).toBe(version);
    // The same token is fine elsewhere: the refusal is about the endpoint, not the token.
    await expectStatus(api.get(`/workspaces/${ws}`), 200);
    bump("no-code requests with an organization token, all refused", calls.length);
  });
});

describe("rate limit", () => {
  test("holds per user with four concurrent clients: none exceeds its budget, none is starved", async () => {
    const LIMIT = 30;
    const SECONDS = 3;
    const t = await start({ rateLimit: LIMIT });
    try {
      const tokens: string[] = [];
      for (let i = 0; i < 3; i++) tokens.push((await makeTeam(t.api, t.org, `rl-${i}`)).token);
      // The fourth client is the owner token, also used by a fifth client: one user, one budget.
      const users = [...tokens, t.server.token, t.server.token];
      const ws = await createWorkspace(t.api, t.org, "rate-limited");
      // Start on a fresh window for every user.
      await new Promise((r) => setTimeout(r, 1100));
      const accepted = users.map(() => 0);
      const refused = users.map(() => 0);
      const started = Date.now();
      // Each client keeps four requests in flight, so every one of them asks for more than its share.
      await Promise.all(
        users
          .flatMap((token, i) => [0, 1, 2, 3].map(() => ({ token, i })))
          .map(async ({ token, i }) => {
            const api = t.api.as(token);
            while (Date.now() - started < SECONDS * 1000) {
              const r = await api.get(`/workspaces/${ws.id}`);
              if (r.status === 429) {
                refused[i]++;
                expect(r.body.errors[0].status).toBe("429");
                expect(Number(r.headers.get("x-ratelimit-remaining"))).toBe(0);
              } else accepted[i]++;
            }
          }),
      );
      const elapsed = (Date.now() - started) / 1000;
      const where = `accepted ${accepted.join(",")} refused ${refused.join(",")} in ${elapsed}s`;
      const windows = Math.ceil(elapsed) + 1;
      // Not starved: a user gets its whole budget, or every request it managed to send when
      // a busy machine let it send fewer (the bound depends on what was asked, not on speed).
      const fairShare = (sent: number) => Math.min(sent, LIMIT * Math.floor(elapsed)) * 0.8;
      // Teams with read access only get 404 on the workspace: still counted by the limit.
      for (let i = 0; i < 3; i++) {
        expect(accepted[i], where).toBeLessThanOrEqual(LIMIT * windows);
        expect(accepted[i], where).toBeGreaterThanOrEqual(fairShare(accepted[i] + refused[i]));
      }
      // Two clients of one user share one budget.
      expect(accepted[3] + accepted[4], where).toBeLessThanOrEqual(LIMIT * windows);
      expect(accepted[3] + accepted[4], where).toBeGreaterThanOrEqual(
        fairShare(accepted[3] + accepted[4] + refused[3] + refused[4]),
      );
      // Every client asked for more than its share, so the limit refused some of each user's requests.
      expect(
        refused.reduce((a, b) => a + b, 0),
        where,
      ).toBeGreaterThan(0);
      bump(
        "rate-limited requests from 5 clients of 4 users",
        accepted.concat(refused).reduce((a, b) => a + b, 0),
      );
      bump(
        "of which refused with 429",
        refused.reduce((a, b) => a + b, 0),
      );
    } finally {
      await t.server.close();
    }
  });
});

describe("a sensitive no-code variable cannot be guessed", () => {
  const SECRET = "s3cret-Value_42";
  /** A guess: the right value, a near miss (one character off, a prefix, another case), or any text. */
  const guessedValue = fc.oneof(
    { weight: 2, arbitrary: fc.constant(SECRET) },
    {
      weight: 2,
      arbitrary: fc
        .nat(SECRET.length - 1)
        .chain((i) =>
          fc.constantFrom(
            SECRET.slice(0, i),
            SECRET.slice(0, i) + "x" + SECRET.slice(i + 1),
            SECRET.toUpperCase(),
            SECRET + " ",
            " " + SECRET,
            SECRET.slice(i),
          ),
        ),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "\u0000", "s3cret", "null", "a".repeat(5000)) },
  );
  const guess = fc.record({
    value: guessedValue,
    /** Said sensitive, said not sensitive, or not said: the stored variable is sensitive either way. */
    sensitive: fc.option(fc.boolean(), { nil: undefined }),
    hcl: fc.option(fc.boolean(), { nil: undefined }),
    /** Also send the non-sensitive variable, unchanged. */
    withRegion: fc.boolean(),
  });

  test("an upgrade with any guessed value plans the same, right or wrong", async () => {
    const api = world.api;
    const moduleId = await publishModule(api, world.org, `guarded-${Date.now()}`, ["1.0.0"]);
    const noCode = await enableModule(api, world.org, moduleId, { "version-pin": "1.0.0" });
    const ws = await createFromModule(api, noCode.id, `guarded-${Date.now()}`, [
      { key: "secret", value: SECRET, sensitive: true },
      { key: "region", value: "eu" },
    ]);
    /** What an upgrade's answer shows, without what differs between any two runs (ids, times). */
    const outcome = async (vars: object[]) => {
      const r = await api.post(upgradePath(noCode.id, ws.id), {
        data: { type: "workspaces", relationships: { vars: { data: vars } } },
      });
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      const settled = await pollUpgrade(api, noCode.id, ws.id, r.body.data.id as string, [
        "planned",
        "planned_and_finished",
        "errored",
      ]);
      const { status, "error-message": error } = settled.doc.attributes as Record<string, unknown>;
      return { status, error: error ?? null, seen: settled.seen.join(" > ") };
    };
    const region = { type: "vars", attributes: { key: "region", value: "eu", category: "engine" } };
    const secretVar = (g: { value: string; sensitive?: boolean; hcl?: boolean }) => ({
      type: "vars",
      attributes: {
        key: "secret",
        value: g.value,
        category: "engine",
        ...(g.sensitive === undefined ? {} : { sensitive: g.sensitive }),
        ...(g.hcl === undefined ? {} : { hcl: g.hcl }),
      },
    });
    // A guess that is certainly wrong sets what every guess must look like.
    const baseline = await outcome([secretVar({ value: `${SECRET}-certainly-wrong`, sensitive: true })]);
    expect(baseline.status).toBe("planned");
    let guesses = 0;
    let right = 0;
    await fc.assert(
      fc.asyncProperty(guess, async (g) => {
        const got = await outcome(g.withRegion ? [region, secretVar(g)] : [secretVar(g)]);
        expect(got, `guess ${JSON.stringify(g).slice(0, 200)}`).toEqual(baseline);
        guesses++;
        if (g.value === SECRET) right++;
      }),
      { numRuns: Number(process.env.SECRET_GUESS_RUNS ?? 150) },
    );
    // The stored value is still the secret: no guess overwrote it (the upgrades were never confirmed).
    const stored = world.read
      .prepare(`SELECT value, sensitive FROM vars WHERE workspace_id = ? AND key = 'secret'`)
      .get(ws.id) as { value: string; sensitive: number };
    expect(stored.sensitive).toBe(1);
    expect(stored.value).not.toContain(SECRET);
    expect(world.secrets.open(stored.value, "vars.value")).toBe(SECRET);
    bump(
      "generated guesses of a sensitive no-code variable in an upgrade, all planned as a certainly wrong guess",
      guesses,
    );
    bump("of which the right value", right);
  }, 120_000);
});

/**
 * One request from a chosen source address on the loopback network (any 127.x.y.z
 * reaches a server on 127.0.0.1), so every generated case starts from an address with
 * its own failed-authentication budget.
 */
function fromAddress(
  url: string,
  localAddress: string,
  method: string,
  authorization: string | undefined,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.authorization = authorization;
    if (body !== undefined)
      Object.assign(headers, {
        "content-type": "application/vnd.api+json",
        "content-length": String(Buffer.byteLength(body)),
      });
    const req = http.request(url, { method, headers, localAddress, agent: false, timeout: 10_000 }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within 10 s: ${method} ${url}`)));
    req.on("error", reject);
    req.end(body);
  });
}

describe("a flood of wrong tokens from an address locks out none of its valid tokens", () => {
  let limited: World;
  beforeAll(async () => {
    // A per-user limit far above what a case sends: only the failed-authentication bound refuses.
    limited = await startWorld({ rateLimit: 100_000 });
  }, 60_000);
  afterAll(() => limited?.close());

  const kinds = ["owner", "org", "teamRead", "teamWrite", "user", "otherOrg"] as const;
  const floodCase = fc.record({
    flood: fc.array(
      fc.record({
        authorization: wrongAuthorization,
        target: fc.constantFrom("list", "show", "lock", "ping", "unknown"),
      }),
      {
        minLength: FAILED_AUTH_LIMIT,
        maxLength: 3 * FAILED_AUTH_LIMIT,
      },
    ),
    /** Valid requests at generated places in the flood (as a fraction of it), and all of them again after it. */
    valid: fc.array(fc.record({ kind: fc.constantFrom(...kinds), at: fc.double({ min: 0, max: 1, noNaN: true }) }), {
      minLength: 1,
      maxLength: 8,
    }),
  });

  test("generated floods of any wrong token, then and amid them every kind of valid token from the same address", async () => {
    const w = limited;
    const ws = w.fixtures.workspaces[0];
    const base = w.test.server.url;
    const paths: Record<string, [string, string, string | undefined]> = {
      list: ["GET", `/organizations/${w.org}/workspaces`, undefined],
      show: ["GET", `/workspaces/${ws}`, undefined],
      lock: ["POST", `/workspaces/${ws}/actions/lock`, JSON.stringify({ reason: "flood" })],
      ping: ["GET", `/ping`, undefined],
      unknown: ["GET", `/nowhere`, undefined],
    };
    let n = 0;
    const nextAddress = () => {
      n++;
      return `127.1.${(n >> 8) & 255}.${n & 255 || 1}`;
    };
    // What each valid token gets for a read of the workspace, from an address that sent nothing else.
    const baseline: Record<string, number> = {};
    for (const kind of kinds)
      baseline[kind] = (
        await fromAddress(`${base}/workspaces/${ws}`, nextAddress(), "GET", `Bearer ${w.tokens[kind]}`)
      ).status;
    expect(Object.values(baseline).every((s) => s === 200 || s === 404)).toBe(true);
    const counts = { flood: 0, refused: 0, valid: 0, cases: 0 };
    await fc.assert(
      fc.asyncProperty(floodCase, async ({ flood, valid }) => {
        const address = nextAddress();
        const at = new Map<number, (typeof kinds)[number][]>();
        for (const v of valid) {
          const i = Math.floor(v.at * flood.length);
          at.set(i, [...(at.get(i) ?? []), v.kind]);
        }
        const checkValid = async (kind: (typeof kinds)[number], where: string) => {
          const r = await fromAddress(`${base}/workspaces/${ws}`, address, "GET", `Bearer ${w.tokens[kind]}`);
          expect(r.status, `${kind} token ${where}: ${r.text.slice(0, 200)}`).toBe(baseline[kind]);
          counts.valid++;
        };
        let failed = 0;
        for (let i = 0; i < flood.length; i++) {
          for (const kind of at.get(i) ?? []) await checkValid(kind, `after ${i} wrong tokens`);
          const [method, path, body] = paths[flood[i].target];
          const r = await fromAddress(base + path, address, method, flood[i].authorization, body);
          const where = `wrong token ${i} ${JSON.stringify(flood[i].authorization).slice(0, 60)} ${method} ${path} -> ${r.status} ${r.text.slice(0, 200)}`;
          expect(r.status, where).not.toBe(200);
          expect(r.status, where).toBeLessThan(500);
          if (r.status === 401) failed++;
          // The throttle holds: past the bound every wrong token is refused.
          if (failed >= FAILED_AUTH_LIMIT && r.status !== 401) expect(r.status, where).toBe(429);
          if (r.status === 429) counts.refused++;
          counts.flood++;
        }
        expect(failed).toBeLessThanOrEqual(FAILED_AUTH_LIMIT);
        for (const v of valid) await checkValid(v.kind, "after the flood");
        // The address is still throttled for wrong tokens.
        const after = await fromAddress(`${base}/workspaces/${ws}`, address, "GET", "Bearer still-wrong");
        expect(after.status).toBe(failed >= FAILED_AUTH_LIMIT ? 429 : 401);
        counts.cases++;
      }),
      {
        numRuns: Number(process.env.FLOOD_RUNS ?? 30),
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
      },
    );
    bump("generated floods of wrong tokens, each from an address of its own", counts.cases);
    bump("wrong-token requests in them", counts.flood);
    bump("of which refused with 429 by the failed-authentication bound", counts.refused);
    bump("valid-token requests amid and after the floods, each answered as from a quiet address", counts.valid);
  }, 180_000);
});

describe("sensitive values are not in the database files", () => {
  /** A value to look for in the files: a random nonce (so a find means a leak) and any text after it. */
  const secretValue = fc
    .tuple(fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.string({ unit: "grapheme", maxLength: 24 }))
    .map(([nonce, tail]) => `${Buffer.from(nonce).toString("hex")}${tail}`);
  const keys = ["alpha", "beta", "gamma", "delta"];
  const secretsCase = fc.record({
    created: fc.uniqueArray(fc.record({ key: fc.constantFrom(...keys), value: secretValue }), {
      minLength: 1,
      maxLength: 3,
      selector: (v) => v.key,
    }),
    upgraded: fc.uniqueArray(
      fc.record({
        key: fc.constantFrom(...keys),
        value: secretValue,
        sensitive: fc.option(fc.boolean(), { nil: undefined }),
      }),
      {
        minLength: 1,
        maxLength: 4,
        selector: (v) => v.key,
      },
    ),
    /** Leave a second upgrade planned, so its row keeps the values it would apply. */
    pending: fc.boolean(),
  });

  /** Every byte SQLite keeps of the database: the file, its WAL and shared-memory index. */
  const fileBytes = () =>
    Buffer.concat(
      ["", "-wal", "-shm"].map((s) => {
        try {
          return readFileSync(world.file + s);
        } catch {
          return Buffer.alloc(0);
        }
      }),
    );

  test("generated sensitive no-code variables, created and upgraded: no value is in the files' bytes, a plain one is", async () => {
    const api = world.api;
    const moduleId = await publishModule(api, world.org, `at-rest-${Date.now()}`, ["1.0.0"]);
    const noCode = await enableModule(api, world.org, moduleId, { "version-pin": "1.0.0" });
    const counts = { cases: 0, values: 0 };
    await fc.assert(
      fc.asyncProperty(secretsCase, async ({ created, upgraded, pending }) => {
        const control = `plain-${randomBytes(8).toString("hex")}`;
        const ws = await createFromModule(api, noCode.id, `at-rest-${Date.now()}-${counts.cases}`, [
          ...created.map((v) => ({ ...v, sensitive: true })),
          { key: "control", value: control },
        ]);
        // Variables created sensitive stay sensitive whatever an upgrade says; new keys are sensitive only when said so.
        const createdKeys = new Set(created.map((v) => v.key));
        const sensitive = [
          ...created.map((v) => v.value),
          ...upgraded.filter((v) => v.sensitive === true || createdKeys.has(v.key)).map((v) => v.value),
        ];
        const upgrade = async (vars: typeof upgraded) => {
          const items = vars.map((v) => ({
            type: "vars",
            attributes: {
              key: v.key,
              value: v.value,
              category: "engine",
              ...(v.sensitive === undefined ? {} : { sensitive: v.sensitive }),
            },
          }));
          const r = await expectStatus(
            api.post(upgradePath(noCode.id, ws.id), {
              data: { type: "workspaces", relationships: { vars: { data: items } } },
            }),
            200,
          );
          return r.body.data.id as string;
        };
        const runId = await upgrade(upgraded);
        await pollUpgrade(api, noCode.id, ws.id, runId, ["planned"]);
        await expectStatus(api.post(upgradePath(noCode.id, ws.id, runId)), 200);
        await pollUpgrade(api, noCode.id, ws.id, runId, ["applied"]);
        if (pending) {
          const again = upgraded.map((v) => ({ ...v, value: `${v.value}-again` }));
          sensitive.push(...again.filter((v) => v.sensitive === true || createdKeys.has(v.key)).map((v) => v.value));
          await pollUpgrade(api, noCode.id, ws.id, await upgrade(again), ["planned"]);
        }
        await world.settle();
        const bytes = fileBytes();
        for (const value of sensitive) {
          expect(
            bytes.includes(Buffer.from(value)),
            `the database files hold the sensitive value ${JSON.stringify(value)}`,
          ).toBe(false);
          expect(
            bytes.includes(Buffer.from(value.slice(0, 16))),
            `the database files hold the nonce of ${JSON.stringify(value)}`,
          ).toBe(false);
          counts.values++;
        }
        expect(bytes.includes(Buffer.from(control)), "the read sees what the server stored").toBe(true);
        counts.cases++;
      }),
      { numRuns: Number(process.env.AT_REST_RUNS ?? 25) },
    );
    bump(
      "generated no-code workspaces with sensitive variables, created, upgraded and read from the database files",
      counts.cases,
    );
    bump("sensitive values looked for in the files' bytes, none found", counts.values);
  }, 180_000);
});
