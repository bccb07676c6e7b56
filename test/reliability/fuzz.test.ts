/**
 * Bad input: generated bodies, query strings, ids, tokens and media types against every
 * route the server registers (and every route of the spec's index, registered or not).
 * Every answer must be a success or a 4xx JSON:API error document, never a 5xx; the
 * server must stay up; and a rejected request must leave the database byte-for-byte as
 * it was. Requests run in independent lanes (one server and database each) so the dump
 * before and after a request belongs to that request alone.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { errorDocumentSchema } from "../../src/api/common";
import { requestArbitrary, resolveBody, resolvePath, tokenHeader, type GeneratedRequest } from "./generators";
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
}

const timing = { send: 0, dump: 0, repair: 0 };
const byRoute: Record<string, Record<number, number>> = {};
let routes: Route[] = [];
let worlds: World[] = [];
const tally: Tally = { requests: 0, rejected: 0, succeeded: 0, verifiedNoCommit: 0, verifiedByDump: 0, byStatus: {}, routesHit: new Set() };

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

/** One request over node:http (lighter than fetch, and it sends a body with any method). */
function rawRequest(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within 10 s: ${method} ${url.slice(0, 200)}`)));
    req.on("error", reject);
    req.end(body);
  });
}

async function send(world: World, req: GeneratedRequest, seed: number) {
  const path = resolvePath(world, req);
  const headers: Record<string, string> = {};
  const auth = tokenHeader(world, req.token);
  if (auth) headers.authorization = auth;
  const body = resolveBody(world, req.body, seed);
  if (req.contentType && body !== undefined) headers["content-type"] = req.contentType;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  const res = await rawRequest(world.test.server.url + path + req.query, req.method, headers, body);
  return { path, ...res };
}

describe("bad input never breaks the server or the data", () => {
  test(
    `${LANES * RUNS_PER_LANE} generated requests: no 5xx, JSON:API errors, rejected requests change nothing`,
    async () => {
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
              if (process.env.FUZZ_VERBOSE) {
                const k = `${req.route.method} ${req.route.url}`;
                const h = (byRoute[k] ??= {});
                h[r.status] = (h[r.status] ?? 0) + 1;
              }
              const where = `${req.method} ${(r.path + req.query).slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`;
              expect(r.status, where).toBeLessThan(500);
              // No answer repeats a token, except the endpoints that issue one.
              if (!req.route.url.includes("authentication-token")) {
                for (const t of Object.values(world.tokens)) expect(r.text.includes(t), `an answer holds a token: ${where}`).toBe(false);
              }
              if (r.status >= 400) {
                tally.rejected++;
                expect(r.contentType, where).toContain("application/vnd.api+json");
                const doc = errorDocumentSchema.safeParse(JSON.parse(r.text));
                expect(doc.success, where).toBe(true);
                expect(doc.data!.errors.length, where).toBeGreaterThan(0);
                expect(doc.data!.errors.every((e) => e.status === undefined || e.status === String(r.status)), where).toBe(true);
              } else {
                tally.succeeded++;
                if (r.text !== "") JSON.parse(r.text);
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
                expect.fail(`a ${r.status >= 400 ? "rejected request" : "read"} committed a change: ${where}\nrecent requests: ${recent.join(" | ")}\nchanged: ${changed.join("\n")}`);
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
            { numRuns: RUNS_PER_LANE, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) + lane : undefined, endOnFailure: false, interruptAfterTimeLimit: 240_000 },
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
      if (process.env.FUZZ_VERBOSE) console.log(JSON.stringify({ ...tally, routesHit: tally.routesHit.size, timing, byRoute }, null, 1));
      expect(tally.requests).toBeGreaterThanOrEqual(LANES * RUNS_PER_LANE);
      expect(tally.verifiedNoCommit).toBeGreaterThan(tally.requests / 2);
      recordFigures("fuzz", {
        "generated requests": tally.requests,
        "routes fuzzed": routes.length,
        "routes reached": tally.routesHit.size,
        "rejected (4xx)": tally.rejected,
        "succeeded (2xx)": tally.succeeded,
        "rejected or read, checked: no commit": tally.verifiedNoCommit,
        "of those, also compared by a full database dump": tally.verifiedByDump,
        "5xx answers": Object.entries(tally.byStatus).filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0),
        "statuses seen": Object.entries(tally.byStatus)
          .sort()
          .map(([s, c]) => `${s}: ${c}`)
          .join(", "),
      });
    },
    300_000,
  );
});
