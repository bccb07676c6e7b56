/**
 * Bad input: generated bodies, query strings, ids, tokens, media types and headers
 * against every route the server registers (and every route of the spec's index,
 * registered or not), including the hostile classes of generators.ts (any header value,
 * any body depth, any number of filter values, oversized bodies with and without
 * `Expect: 100-continue`, repeated parameters, control characters, a read-only caller
 * with invalid bodies on write routes). Every answer must reach the client and be a
 * success or a 4xx JSON:API error document, never a 5xx; links must point to the
 * server's own address; the server must stay up; and a rejected request must leave the
 * database byte-for-byte as it was. Requests run in independent lanes (one server and
 * database each) so the dump before and after a request belongs to that request alone.
 * A lane of its own, with the server's rate limit on, sends every generated request with
 * a wrong token: after the bound on failed authentications every answer is a 429.
 * Another sends bodies nested past the depth bound (up to 100,000 levels) to every
 * registered route: a well-formed one is a 422 naming the bound, a broken one a 400.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { errorDocumentSchema } from "../../src/api/common";
import { MAX_JSON_DEPTH } from "../../src/server/http/json";
import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS } from "../../src/server/ratelimit";
import {
  HOSTILE_CLASSES,
  nesting,
  WRITE_METHODS,
  requestArbitrary,
  resolveBody,
  resolvePath,
  tokenHeader,
  wrongTokenArbitrary,
  type GeneratedRequest,
  type HostileClass,
} from "./generators";
import { registeredRoutes, SPEC_ROUTES, type Route } from "./routes";
import { recordFigures } from "./figures";
import { startWorld, type World } from "./world";

const LANES = 6;
/** One request in this many (of those that must change nothing) is also checked by a full dump. */
const DUMP_EVERY = 8;
const RUNS_PER_LANE = Number(process.env.FUZZ_RUNS_PER_LANE ?? 1700);

interface Tally {
  requests: number;
  rejected: number;
  succeeded: number;
  /** Rejected requests and reads after which SQLite reported no commit. */
  verifiedNoCommit: number;
  /** Of those, the ones also compared with a full dump of the database. */
  verifiedByDump: number;
  byStatus: Record<string, number>;
  routesHit: Set<string>;
  /** Requests of each hostile class (a request may be of several). */
  byClass: Record<HostileClass, number>;
  /** Requests of no hostile class. */
  ordinary: number;
  /** Successful answers whose links were checked to point to the server's own address. */
  linksChecked: number;
  /** Write routes a read-only caller sent an invalid body to. */
  readOnlyRoutes: Set<string>;
}

const timing = { send: 0, dump: 0, repair: 0 };
const byRoute: Record<string, Record<number, number>> = {};
let routes: Route[] = [];
let worlds: World[] = [];
const tally: Tally = {
  requests: 0,
  rejected: 0,
  succeeded: 0,
  verifiedNoCommit: 0,
  verifiedByDump: 0,
  byStatus: {},
  routesHit: new Set(),
  byClass: Object.fromEntries(HOSTILE_CLASSES.map((c) => [c, 0])) as Record<HostileClass, number>,
  ordinary: 0,
  linksChecked: 0,
  readOnlyRoutes: new Set(),
};

beforeAll(async () => {
  const registered = await registeredRoutes();
  const known = new Set(registered.map((r) => `${r.method} ${r.url}`));
  routes = [...registered, ...SPEC_ROUTES.filter((r) => !known.has(`${r.method} ${r.url}`))];
  worlds = await Promise.all(Array.from({ length: LANES }, () => startWorld()));
}, 60_000);

afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request over node:http (lighter than fetch, and it sends a body with any method).
 * With `expectContinue` the body goes out only if the server says continue; an error
 * before the answer (a reset, EPIPE) fails the request: every answer must reach the client.
 */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  expectContinue = false,
): Promise<{ status: number; contentType: string; text: string; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers, agent: expectContinue ? false : agent, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
            retryAfter,
          });
          if (expectContinue) req.destroy();
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within 10 s: ${method} ${url.slice(0, 200)}`)));
    req.on("error", reject);
    if (expectContinue) {
      req.on("continue", () => req.end(body));
      req.flushHeaders();
    } else {
      req.end(body);
    }
  });
}

async function send(world: World, req: GeneratedRequest, seed: number) {
  const path = resolvePath(world, req);
  const headers: Record<string, string> = { ...req.headers };
  const auth = req.authorization ?? tokenHeader(world, req.token);
  if (auth) headers.authorization = auth;
  const body: string | Buffer | undefined = req.oversized
    ? Buffer.alloc(req.oversized.bytes, 0x20)
    : resolveBody(world, req.body, seed);
  if (req.contentType && body !== undefined) headers["content-type"] = req.contentType;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  if (req.oversized?.expect) headers.expect = "100-continue";
  const res = await rawRequest(
    world.test.server.url + path + req.query,
    req.method,
    headers,
    body,
    req.oversized?.expect ?? false,
  );
  return { path, ...res };
}

/** Every link of a JSON:API document (top-level and per resource), for the check that they point to the server itself. */
function linksOf(doc: unknown): string[] {
  const out: string[] = [];
  const collect = (links: unknown) => {
    if (links && typeof links === "object")
      for (const v of Object.values(links)) if (typeof v === "string") out.push(v);
  };
  const d = doc as { links?: unknown; data?: unknown } | null;
  if (!d || typeof d !== "object") return out;
  collect(d.links);
  for (const r of Array.isArray(d.data) ? d.data : [d.data])
    if (r && typeof r === "object") collect((r as { links?: unknown }).links);
  return out;
}

describe("bad input never breaks the server or the data", () => {
  test(`${LANES * RUNS_PER_LANE} generated requests: no 5xx, JSON:API errors, rejected requests change nothing`, async () => {
    expect(routes.length).toBeGreaterThanOrEqual(SPEC_ROUTES.length);
    await Promise.all(
      worlds.map(async (world, lane) => {
        let before = world.dump();
        let version = world.dataVersion();
        const recent: string[] = [];
        let seed = lane * 1_000_000;
        await fc.assert(
          fc.asyncProperty(requestArbitrary(routes), async (req) => {
            let t0 = performance.now();
            const r = await send(world, req, seed++);
            recent.push(`${req.method} ${req.route.url} -> ${r.status}`);
            if (recent.length > 6) recent.shift();
            timing.send += performance.now() - t0;
            tally.requests++;
            tally.byStatus[r.status] = (tally.byStatus[r.status] ?? 0) + 1;
            tally.routesHit.add(`${req.route.method} ${req.route.url}`);
            for (const c of req.classes) tally.byClass[c]++;
            if (req.classes.length === 0) tally.ordinary++;
            if (process.env.FUZZ_VERBOSE) {
              const k = `${req.route.method} ${req.route.url}`;
              const h = (byRoute[k] ??= {});
              h[r.status] = (h[r.status] ?? 0) + 1;
            }
            const where = `${req.method} ${(r.path + req.query).slice(0, 300)} [${req.classes.join(",")}${Object.keys(req.headers).length ? ` ${JSON.stringify(req.headers).slice(0, 200)}` : ""}] -> ${r.status} ${r.text.slice(0, 300)}`;
            expect(r.status, where).toBeLessThan(500);
            // A caller that may only read gets the answer a valid body would get: never a verdict on the body.
            if (req.classes.includes("readOnlyWrite")) {
              expect([403, 404], where).toContain(r.status);
              tally.readOnlyRoutes.add(`${req.route.method} ${req.route.url}`);
            }
            // An oversized body is never accepted (GET routes read no body at all).
            if (req.oversized && req.method !== "GET") expect(r.status, where).toBeGreaterThanOrEqual(400);
            // No answer repeats a token, except the endpoints that issue one.
            if (!req.route.url.includes("authentication-token")) {
              for (const t of Object.values(world.tokens))
                expect(r.text.includes(t), `an answer holds a token: ${where}`).toBe(false);
            }
            if (r.status >= 400) {
              tally.rejected++;
              expect(r.contentType, where).toContain("application/vnd.api+json");
              const doc = errorDocumentSchema.safeParse(JSON.parse(r.text));
              expect(doc.success, where).toBe(true);
              expect(doc.data!.errors.length, where).toBeGreaterThan(0);
              expect(
                doc.data!.errors.every((e) => e.status === undefined || e.status === String(r.status)),
                where,
              ).toBe(true);
            } else {
              tally.succeeded++;
              if (r.text !== "") {
                // Links are paths or URLs on the server's own address, whatever Host the request named.
                const links = linksOf(JSON.parse(r.text));
                const origin = new URL(world.test.server.url).origin;
                for (const link of links)
                  expect(
                    (link.startsWith("/") && !link.startsWith("//")) || link.startsWith(`${origin}/`),
                    `${where}\nlink: ${link}`,
                  ).toBe(true);
                if (links.length) tally.linksChecked++;
              }
            }
            if (r.status < 400 && req.method !== "GET") {
              t0 = performance.now();
              await world.repair();
              await world.settle();
              before = world.dump();
              version = world.dataVersion();
              timing.repair += performance.now() - t0;
              return;
            }
            // A rejected request, or a read: nothing may have been committed...
            if (world.dataVersion() !== version) {
              const now = world.dump().split("\n\n");
              const was = before.split("\n\n");
              const changed = now.filter((part, i) => part !== was[i]).map((part) => part.slice(0, 400));
              expect.fail(
                `a ${r.status >= 400 ? "rejected request" : "read"} committed a change: ${where}\nrecent requests: ${recent.join(" | ")}\nchanged: ${changed.join("\n")}`,
              );
            }
            tally.verifiedNoCommit++;
            // ...and, on a sample, the full dump proves it row by row.
            if (tally.verifiedNoCommit % DUMP_EVERY === 0) {
              t0 = performance.now();
              expect(world.dump() === before, `the database changed: ${where}`).toBe(true);
              timing.dump += performance.now() - t0;
              tally.verifiedByDump++;
            }
          }),
          {
            numRuns: RUNS_PER_LANE,
            seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) + lane : undefined,
            endOnFailure: false,
            interruptAfterTimeLimit: 240_000,
          },
        );
      }),
    );
    // Still up: every server answers and still serves its data.
    for (const world of worlds) {
      const ping = await fetch(`${world.test.server.url}/ping`);
      expect(ping.status).toBeLessThan(300);
      const show = await world.api.get(`/workspaces/${world.fixtures.workspaces[0]}`);
      expect(show.status).toBe(200);
    }
    if (process.env.FUZZ_VERBOSE)
      console.log(JSON.stringify({ ...tally, routesHit: tally.routesHit.size, timing, byRoute }, null, 1));
    expect(tally.requests).toBeGreaterThanOrEqual(LANES * RUNS_PER_LANE);
    expect(tally.verifiedNoCommit).toBeGreaterThan(tally.requests / 2);
    const writeRoutes = routes.filter((r) => WRITE_METHODS.has(r.method));
    if (RUNS_PER_LANE >= 1000)
      expect(
        writeRoutes.filter((r) => !tally.readOnlyRoutes.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`),
      ).toEqual([]);
    recordFigures("fuzz", {
      "generated requests": tally.requests,
      ...hostileFigures(),
      "routes fuzzed": routes.length,
      "routes reached": tally.routesHit.size,
      "rejected (4xx)": tally.rejected,
      "succeeded (2xx)": tally.succeeded,
      "rejected or read, checked: no commit": tally.verifiedNoCommit,
      "of those, also compared by a full database dump": tally.verifiedByDump,
      "successful answers whose links were checked": tally.linksChecked,
      "write routes a read-only caller sent invalid bodies to, all answered 403 or 404": `${tally.readOnlyRoutes.size} of ${routes.filter((r) => WRITE_METHODS.has(r.method)).length}`,
      ...statusFigures(tally.byStatus),
    });
  }, 300_000);
});

/** Runs of the wrong-token lane: enough to pass the bound many times over, well within one window. */
const WRONG_TOKEN_RUNS = Number(process.env.FUZZ_WRONG_TOKEN_RUNS ?? 400);

describe("wrong tokens with the rate limit on", () => {
  test(`${WRONG_TOKEN_RUNS} generated requests with wrong tokens: never a 5xx, and 429 once ${FAILED_AUTH_LIMIT} have failed`, async () => {
    // Per-user limit far above what one lane sends, so only the failed-authentication bound refuses.
    const world = await startWorld({ rateLimit: 100_000 });
    try {
      const version = world.dataVersion();
      const started = Date.now();
      const counts = {
        requests: 0,
        unauthorized: 0,
        refused: 0,
        afterBound: 0,
        beforeHook: 0,
        byStatus: {} as Record<string, number>,
      };
      let seed = 0;
      await fc.assert(
        fc.asyncProperty(wrongTokenArbitrary(routes), async (req) => {
          const bound = counts.unauthorized >= FAILED_AUTH_LIMIT;
          const r = await send(world, req, seed++);
          counts.requests++;
          counts.byStatus[r.status] = (counts.byStatus[r.status] ?? 0) + 1;
          const where = `${req.method} ${(r.path + req.query).slice(0, 200)} [authorization ${JSON.stringify(req.authorization).slice(0, 60)}] -> ${r.status} ${r.text.slice(0, 200)}`;
          expect(r.status, where).toBeLessThan(500);
          if (r.status === 401) counts.unauthorized++;
          // Within one window, no more wrong tokens are looked at than the bound allows.
          expect(counts.unauthorized, where).toBeLessThanOrEqual(FAILED_AUTH_LIMIT);
          if (!bound) return;
          counts.afterBound++;
          // Past the bound only what is answered before any token is read is not a 429:
          // a request that cannot be parsed (headers past Node's size limit, a path that is
          // not valid percent-encoding), an expectation the server cannot meet, or a body
          // announced over the limit.
          const unparsable =
            r.status === 400 && /could not be parsed as HTTP|is not a valid url component/.test(r.text);
          // The Expect header may come from the generated headers too, not only with the oversized body.
          const continues = req.oversized?.expect === true || /^\s*100-continue\s*$/i.test(req.headers?.expect ?? "");
          const early =
            unparsable || r.status === 417 || (r.status === 413 && req.oversized !== undefined && continues);
          if (early) return void counts.beforeHook++;
          expect(r.status, where).toBe(429);
          expect(Number(r.retryAfter), where).toBeGreaterThan(0);
          expect(errorDocumentSchema.safeParse(JSON.parse(r.text)).success, where).toBe(true);
          counts.refused++;
        }),
        { numRuns: WRONG_TOKEN_RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
      );
      // The counts above hold for one window of the bound.
      expect(Date.now() - started).toBeLessThan(FAILED_AUTH_WINDOW_MS);
      expect(counts.unauthorized).toBe(FAILED_AUTH_LIMIT);
      expect(counts.refused).toBeGreaterThan(0);
      // Wrong tokens change nothing.
      expect(world.dataVersion()).toBe(version);
      recordFigures("wrong-tokens", {
        "generated requests with a wrong token (any route, header, query and body of the bad-input suite)":
          counts.requests,
        [`answered 401 (the bound is ${FAILED_AUTH_LIMIT} per address per ${FAILED_AUTH_WINDOW_MS / 1000} s)`]:
          counts.unauthorized,
        "requests after the bound": counts.afterBound,
        "of those, answered 429 with Retry-After": counts.refused,
        "of those, answered before any token is read (unparsable HTTP, 417, or 413 to Expect: 100-continue)":
          counts.beforeHook,
        ...statusFigures(counts.byStatus),
      });
    } finally {
      await world.close();
    }
  }, 120_000);
});

/** The 5xx count (which must be 0) and every status seen, from a count per status. */
function statusFigures(byStatus: Record<string, number>): Record<string, string | number> {
  return {
    "5xx answers": Object.entries(byStatus)
      .filter(([s]) => Number(s) >= 500)
      .reduce((n, [, c]) => n + c, 0),
    "statuses seen": Object.entries(byStatus)
      .sort()
      .map(([s, c]) => `${s}: ${c}`)
      .join(", "),
  };
}

const CLASS_TITLES: Record<HostileClass, string> = {
  headers: "any header value (Host and others)",
  depth: `body nested past the depth bound`,
  listLength: "list filter with more values than the limit",
  oversized: "body over the size limit",
  oversizedExpect: "body over the size limit, with Expect: 100-continue",
  repeated: "repeated query parameter",
  control: "control characters in the query",
  readOnlyWrite: "read-only caller, invalid body, write route",
};

function hostileFigures(): Record<string, string> {
  const share = (n: number) => `${n} (${((100 * n) / Math.max(1, tally.requests)).toFixed(1)}%)`;
  const out: Record<string, string> = { "of no hostile class": share(tally.ordinary) };
  for (const c of HOSTILE_CLASSES) out[`hostile: ${CLASS_TITLES[c]}`] = share(tally.byClass[c]);
  return out;
}

/** Cases of the depth lane: enough for every route a few times over. */
const DEPTH_RUNS = Number(process.env.FUZZ_DEPTH_RUNS ?? 400);

describe("a body nested past the bound, on every route", () => {
  test(`about ${DEPTH_RUNS} generated bodies up to 100,000 levels deep, shared by every registered route: 422 when well-formed, 400 when not, never a 5xx, nothing committed`, async () => {
    const world = await startWorld();
    // Routes the server registers: an unregistered one answers 404 before any body is read.
    const registered = await registeredRoutes();
    try {
      const ws = world.fixtures.workspaces[0];
      const values: Record<string, string> = {
        organization_name: world.org,
        workspace_id: ws,
        name: world.workspaceName(ws)!,
        no_code_module_id: world.fixtures.noCodeModules[0],
        project_id: world.fixtures.projects[0],
      };
      const pathOf = (route: Route) =>
        route.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
          encodeURIComponent(values[name] ?? world.liveId(name.length) ?? "missing"),
        );
      const deepCase = fc.record({
        depth: fc.oneof(
          fc.integer({ min: MAX_JSON_DEPTH + 1, max: MAX_JSON_DEPTH + 10 }),
          fc.integer({ min: MAX_JSON_DEPTH + 1, max: 100_000 }),
          fc.constant(100_000),
        ),
        kind: fc.constantFrom("array", "object", "mixed"),
        /** Where the nesting sits: the whole document, under data, or under an attribute. */
        at: fc.constantFrom("document", "data", "attribute"),
        /** Broken after the nesting (a closing bracket missing, a trailing comma): no longer JSON. */
        broken: fc.constantFrom(null, "unclosed", "comma"),
      });
      const counts = { requests: 0, byStatus: {} as Record<string, number>, routes: new Set<string>() };
      let version = world.dataVersion();
      // Every route gets its share of the cases, so none is left out by chance.
      for (const route of registered) {
        await fc.assert(
          fc.asyncProperty(deepCase, async ({ depth, kind, at, broken }) => {
            const { open, close } = nesting(depth, kind);
            let nested = `${open}1${close}`;
            if (broken === "unclosed") nested = nested.slice(0, -1);
            if (broken === "comma") nested = `${open}1,${close}`;
            const body =
              at === "document"
                ? nested
                : at === "data"
                  ? `{"data":${nested}}`
                  : `{"data":{"type":"workspaces","attributes":{"name":${nested}}}}`;
            const headers = {
              authorization: `Bearer ${world.tokens.owner}`,
              "content-type": "application/vnd.api+json",
              "content-length": String(Buffer.byteLength(body)),
            };
            const r = await rawRequest(world.test.server.url + pathOf(route), route.method, headers, body);
            const where = `${route.method} ${route.url} depth ${depth} ${kind} at ${at}${broken ? ` ${broken}` : ""} -> ${r.status} ${r.text.slice(0, 300)}`;
            counts.requests++;
            counts.byStatus[r.status] = (counts.byStatus[r.status] ?? 0) + 1;
            counts.routes.add(`${route.method} ${route.url}`);
            expect(r.status, where).toBeLessThan(500);
            if (route.method !== "GET") {
              expect(r.status, where).toBe(broken ? 400 : 422);
              const doc = errorDocumentSchema.parse(JSON.parse(r.text));
              if (!broken) {
                expect(doc.errors[0].detail, where).toContain(String(MAX_JSON_DEPTH));
                const pointer = (doc.errors[0].source as { pointer?: string } | undefined)?.pointer ?? "";
                expect(pointer.split("/").length - 1, where).toBe(MAX_JSON_DEPTH);
              }
              expect(world.dataVersion(), `a refused body committed: ${where}`).toBe(version);
            } else {
              // A GET reads no body: it answers as it would without one.
              version = world.dataVersion();
            }
          }),
          {
            numRuns: Math.max(2, Math.ceil(DEPTH_RUNS / registered.length)),
            seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
          },
        );
      }
      expect(counts.routes.size).toBe(registered.length);
      recordFigures("depth", {
        "generated bodies nested past the bound (up to 100,000 levels)": counts.requests,
        "routes reached": `${counts.routes.size} of ${registered.length}`,
        ...statusFigures(counts.byStatus),
      });
    } finally {
      await world.close();
    }
  }, 300_000);
});
