import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { PAGE_SIZE, WorkspacesClient, type Workspace } from "../../src/client";
import { clientFor, startTestServer } from "./helpers";

let server: RunningServer;
let client: WorkspacesClient;
const TOTAL = 250;
const prefix = `pg-${process.pid}`;

beforeAll(async () => {
  server = await startTestServer();
  // The server has no rate limit here; pacing would only slow the setup down.
  client = clientFor(server, { rateLimit: false });
  for (let start = 0; start < TOTAL; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, TOTAL - start) }, (_, i) =>
        client.workspaces.create(server.organization, { name: `${prefix}-${String(start + i).padStart(3, "0")}` }),
      ),
    );
  }
});
afterAll(async () => {
  await server?.close();
});

const LIST_ROUTE = "GET /api/v2/organizations/:organization_name/workspaces";

describe("pagination", () => {
  it("iterates all 250 workspaces in pages of 100, three requests in all", async () => {
    const before = server.stats().byRoute[LIST_ROUTE] ?? 0;
    const seen = new Set<string>();
    for await (const ws of client.workspaces.list(server.organization, { search: prefix })) seen.add(ws.name);
    expect(seen.size).toBe(TOTAL);
    expect((server.stats().byRoute[LIST_ROUTE] ?? 0) - before).toBe(3);
  });

  it("exposes the pages and their counters", async () => {
    const sizes: number[] = [];
    let total = 0;
    for await (const page of client.workspaces.list(server.organization, { search: prefix }).pages()) {
      sizes.push(page.items.length);
      total = page.pagination!["total-count"];
      expect(page.pagination!["page-size"]).toBe(PAGE_SIZE);
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(total).toBe(TOTAL);
  });

  it("fetches only the pages the caller reads", async () => {
    const before = server.stats().byRoute[LIST_ROUTE] ?? 0;
    let first: Workspace | undefined;
    for await (const ws of client.workspaces.list(server.organization, { search: prefix, sort: "name" })) {
      first = ws;
      break;
    }
    expect(first?.name).toBe(`${prefix}-000`);
    expect((server.stats().byRoute[LIST_ROUTE] ?? 0) - before).toBe(1);
  });

  it("collects everything with all(), in the requested order", async () => {
    const all = await client.workspaces.list(server.organization, { search: prefix, sort: "-name" }).all();
    expect(all).toHaveLength(TOTAL);
    expect(all[0].name).toBe(`${prefix}-249`);
    expect(all[TOTAL - 1].name).toBe(`${prefix}-000`);
  });
});
