import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { InconsistentPaginationError, PAGE_SIZE, type WorkspacesClient, type Workspace } from "../../src/client";
import { clientFor, failure, startTestServer } from "./helpers";
import { fakeClient, pageAsked, reply, startFakeService, tagPage, type FakeService } from "./fake-service";

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
      total = page.pagination!["total-count"] ?? 0;
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

describe("pages that contradict each other", () => {
  let fake: FakeService | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function listFrom(page: (asked: number) => unknown): Promise<{ err: Error; requests: number }> {
    fake = await startFakeService((req, res) =>
      req.url === "/api/v2/ping" ? reply(res, 204, undefined) : reply(res, 200, page(pageAsked(req))),
    );
    const client = fakeClient(fake);
    const err = await failure(client.tags.listOrganization("acme").all());
    return { err, requests: fake.requests.filter((r) => !r.endsWith("/ping")).length };
  }

  it("stops on an empty page that names a next page past the last", async () => {
    const { err, requests } = await listFrom((n) => tagPage([], { current: n, next: n + 1, totalPages: 1 }));
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect(err.message).toBe(
      "GET /organizations/acme/tags: the service's pagination is inconsistent at page 1: next-page 2 is past total-pages 1; the listing stopped there",
    );
    expect(requests).toBe(1);
  });

  it("stops on an empty page that names a next page", async () => {
    const { err, requests } = await listFrom((n) =>
      n === 1
        ? tagPage(["a"], { current: 1, next: 2, totalPages: 3 })
        : tagPage([], { current: n, next: n + 1, totalPages: 3 }),
    );
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect((err as InconsistentPaginationError).page).toBe(2);
    expect(err.message).toMatch(/at page 2: the page is empty but names page 3 as the next one/);
    expect(requests).toBe(2);
  });

  it("stops on a page that repeats the previous one", async () => {
    // The service ignores page[number] but counts the pages up.
    const { err, requests } = await listFrom((n) =>
      tagPage(["a", "b"], { current: n, next: n + 1, totalPages: 1_000 }),
    );
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect(err.message).toMatch(/at page 2: the page repeats page 1/);
    expect(requests).toBe(2);
  });

  it("stops on a cycle of pages longer than one, while total-pages keeps growing", async () => {
    // Pages alternate A, B, A, B, ... and each answer announces one more page than the last.
    const { err, requests } = await listFrom((n) =>
      tagPage(n % 2 === 1 ? ["a1", "a2"] : ["b1", "b2"], { current: n, next: n + 1, totalPages: n + 1 }),
    );
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect((err as InconsistentPaginationError).page).toBe(3);
    expect(err.message).toMatch(/at page 3: the page repeats page 1/);
    expect(requests).toBe(3);
  });

  it("stops on a page that repeats one from long before", async () => {
    // Fifty distinct pages, then page 1 again.
    const { err, requests } = await listFrom((n) =>
      tagPage([`t${n <= 50 ? n : 1}`], { current: n, next: n + 1, totalPages: 1_000 }),
    );
    expect(err.message).toMatch(/at page 51: the page repeats page 1/);
    expect(requests).toBe(51);
  });

  it("stops on a page that answers for another page number", async () => {
    const { err } = await listFrom(() => tagPage(["a"], { current: 1, next: 2, totalPages: 5 }));
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect(err.message).toMatch(/at page 2: page 2 was asked for and page 1 answered/);
  });

  it("stops on a next page that does not come after the current one", async () => {
    const { err } = await listFrom((n) => tagPage([`t${n}`], { current: n, next: n, totalPages: 5 }));
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect(err.message).toMatch(/at page 1: next-page 1 does not come after page 1/);
  });
});
