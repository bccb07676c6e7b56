/**
 * docs/local-server.md lists every endpoint the local server serves, and nothing it does not.
 * The routes are read from Fastify itself: Fastify announces every instance it creates on the
 * `fastify.initialization` diagnostics channel, before any route is added, so an `onRoute`
 * hook placed there sees the routes of the root app (`/api/v2/_stats`) as well as those the
 * domains register under the prefix.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server";

const doc = fs.readFileSync(path.resolve(__dirname, "..", "..", "docs", "local-server.md"), "utf8");
const served: string[] = [];

beforeAll(async () => {
  const record = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook("onRoute", (route) => {
      for (const method of ([] as string[]).concat(route.method)) {
        if (method !== "HEAD") served.push(`${method} ${route.url.replace(/^\/api\/v2/, "")}`);
      }
    });
  };
  subscribe("fastify.initialization", record);
  try {
    const server = await startServer({ port: 0, db: ":memory:" });
    await server.close();
  } finally {
    unsubscribe("fastify.initialization", record);
  }
});

describe("docs/local-server.md, section Endpoints", () => {
  const start = doc.indexOf("\n## Endpoints");
  const end = doc.indexOf("\n## ", start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const listed = [...section.matchAll(/^- `([A-Z]+ \/[^`]*)`/gm)].map((m) => m[1]);

  it("lists every route the server registers", () => {
    expect(served.length).toBeGreaterThan(50);
    expect(served.filter((r) => !listed.includes(r))).toEqual([]);
  });

  it("sees the routes of the root app, not only the domains'", () => {
    expect(served).toContain("GET /_stats");
  });

  it("lists no route the server does not serve", () => {
    expect(listed.filter((r) => !served.includes(r))).toEqual([]);
  });
});
