/**
 * Reading an organization a page at a time (src/resources/process/snapshot.ts), through
 * the real engine and the real server under its default rate limit (30 requests per
 * second): an organization of 200 workspaces seeded over the API (several projects,
 * key-value and flat tags, consumers, two no-code modules with ten workspaces made from
 * them) is generated, adopted with `pulumi up` and refreshed, and the requests of each
 * phase are counted at the server. Before the shared listing: the generator sent about
 * 400 requests, the adopting `up` about 690 and the refresh about 230.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { seedOrganization, type Seeded } from "../generate/seed";
import { WorkspacesClient } from "../../src/client";
import { generate } from "../../src/generate";
import { serverEnv, startTestServer, TestStack } from "./harness";

const COUNT = 200;
const NO_CODE = 10;

/** Requests by route since `since`, the server's own `/_stats` left out. */
function routesSince(server: RunningServer, since: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, n] of Object.entries(server.stats().byRoute)) {
    if (route.includes("/_stats")) continue;
    const d = n - (since[route] ?? 0);
    if (d > 0) out[route] = d;
  }
  return out;
}

const sum = (routes: Record<string, number>) => Object.values(routes).reduce((a, b) => a + b, 0);
const writes = (routes: Record<string, number>) =>
  sum(Object.fromEntries(Object.entries(routes).filter(([r]) => !r.startsWith("GET "))));

const figures: string[] = [];
function figure(phase: string, seconds: number, routes: Record<string, number>): void {
  const line = `${phase}: ${sum(routes)} requests in ${seconds.toFixed(1)} s ${JSON.stringify(routes)}`;
  figures.push(line);
  console.log(`[shared reads] ${line}`);
}

describe(`an organization of ${COUNT} workspaces read a page at a time`, () => {
  let server: RunningServer;
  let seeded: Seeded;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    stack = await TestStack.create({
      project: "shared-reads-e2e",
      files: { "index.ts": "// replaced by the generator\n" },
      env: serverEnv(server),
    });
  });

  afterAll(async () => {
    if (figures.length) console.log(`\nshared reads figures:\n  ${figures.join("\n  ")}`);
    stack?.dispose();
    await server?.close();
  });

  it("the generator lists the workspaces with their tags: five requests per workspace at most, its consumers, variables, access, triggers and notifications", async () => {
    const before = server.stats().byRoute;
    const t0 = Date.now();
    // In this process, with a client of the server (as the packaged command builds one from the settings).
    await generate({
      organization: server.organization,
      out: path.join(stack.dir, "index.ts"),
      force: true,
      client: new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization }),
    });
    const routes = routesSince(server, before);
    figure("generate", (Date.now() - t0) / 1000, routes);
    expect(writes(routes)).toBe(0);
    // Tags come with the list: no per-workspace tag read.
    expect(routes["GET /api/v2/workspaces/:workspace_id/tag-bindings"]).toBeUndefined();
    expect(routes["GET /api/v2/organizations/:organization_name/workspaces"]).toBe(COUNT / 100);
    // The API has no organization-wide list of consumers, variables, team access, run
    // triggers nor notification configurations: one read per workspace for each is the
    // floor, and one per project for the teams' access to it.
    expect(sum(routes)).toBeLessThanOrEqual(5 * COUNT + NO_CODE + seeded.projects.length + 1 + 10);
    for (const [name, password] of seeded.passwords) {
      await stack.ok(["config", "set", "--secret", `${name}-password`, password]);
    }
  });

  it(`the adopting pulumi up sends at most 120 requests`, async () => {
    const before = server.stats().byRoute;
    const t0 = Date.now();
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const routes = routesSince(server, before);
    figure(`pulumi up (adopt ${COUNT})`, (Date.now() - t0) / 1000, routes);
    expect(writes(routes)).toBe(0);
    expect(stack.resources("workspaces:Workspace").length + stack.resources("workspaces:NoCodeWorkspace").length).toBe(
      COUNT,
    );
    // Read by id: only a workspace whose tags a WorkspaceTags just wrote (the write drops it
    // from the listing). A RemoteStateConsumers learns its workspace's organization from the listing.
    expect(routes["GET /api/v2/workspaces/:workspace_id"] ?? 0).toBeLessThanOrEqual(seeded.noCodeTags.size);
    expect(sum(routes)).toBeLessThanOrEqual(120);
  });

  it("a refresh sends a request per hundred workspaces, per consumer set and per no-code workspace, and a few more", async () => {
    const before = server.stats().byRoute;
    const t0 = Date.now();
    const r = await stack.refresh(["--expect-no-changes"]);
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const routes = routesSince(server, before);
    figure(`pulumi refresh (${COUNT})`, (Date.now() - t0) / 1000, routes);
    expect(writes(routes)).toBe(0);
    // The organization's pages, and the listings of at most two projects a process reads on
    // their own (workspaces that name their project: a stack split by project reads only those).
    const listings = routes["GET /api/v2/organizations/:organization_name/workspaces"] ?? 0;
    expect(listings).toBeGreaterThanOrEqual(COUNT / 100);
    expect(listings).toBeLessThanOrEqual(COUNT / 100 + 2);
    expect(sum(routes)).toBeLessThanOrEqual(COUNT / 100 + 2 + seeded.consumers.size + NO_CODE + 5);
  });
});
