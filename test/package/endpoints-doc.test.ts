/**
 * docs/local-server.md lists every endpoint the local server serves, and nothing it does not:
 * the server is started with a first domain that records each route as it is registered.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server";
import { DOMAINS } from "../../src/server/domains";

const doc = fs.readFileSync(path.resolve(__dirname, "..", "..", "docs", "local-server.md"), "utf8");
const served: string[] = [];

beforeAll(async () => {
  const recorder = {
    name: "route-recorder",
    routes(api: FastifyInstance) {
      api.addHook("onRoute", (route) => {
        for (const method of ([] as string[]).concat(route.method)) {
          if (method !== "HEAD") served.push(`${method} ${route.url.replace(/^\/api\/v2/, "")}`);
        }
      });
    },
  };
  const server = await startServer({ port: 0, db: ":memory:" }, [recorder, ...DOMAINS]);
  await server.close();
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

  it("lists no route the server does not serve", () => {
    expect(listed.filter((r) => !served.includes(r))).toEqual([]);
  });
});
