/**
 * A CI runner that dies in the middle of `pulumi up` (docs/interrupted-updates.md):
 * `pulumi up` of 80 workspaces against the local server with its rate limit, stopped once
 * a third of the creates reached the server, by SIGKILL to the CLI's process group (a
 * job timeout, a reclaimed machine) or by SIGINT to it (the engine's graceful cancel, as
 * Ctrl-C sends). Then `pulumi cancel` and one `pulumi up` converge: every workspace in
 * the state exactly once, no duplicate on the server, each record the interrupted run
 * left out of the state taken over with one info line, and a no-change preview after.
 * A copy of the program run against another state backend (same project, stack and
 * resource names) gets the `adopt: true` error and changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { recordFigures } from "../reliability/figures";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { upInterrupted } from "./interrupt";

const COUNT = 80;
const CREATE_ROUTE = "POST /api/v2/organizations/:organization_name/workspaces";

const program = (description: string) => `
import { Workspace } from "pulumi-workspaces";
for (let i = 0; i < ${COUNT}; i++) {
  new Workspace(\`ws-\${i}\`, {
    name: \`crash-\${i}\`,
    description: "${description}",
    tags: { fleet: "crash", shard: String(i % 4) },
  });
}
`;

/** A read that waits out the rate limit. */
async function read(server: RunningServer, p: string): Promise<any> {
  for (;;) {
    const r = await api<any>(server, p);
    if (r.status !== 429) {
      expect(r.status, p).toBe(200);
      return r.body;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function serverWorkspaces(
  server: RunningServer,
): Promise<Array<{ id: string; name: string; description: string }>> {
  const out: Array<{ id: string; name: string; description: string }> = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/organizations/${server.organization}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    for (const w of body.data) out.push({ id: w.id, name: w.attributes.name, description: w.attributes.description });
    if (!body.meta.pagination["next-page"]) return out;
  }
}

/** The server's workspaces once requests the stopped run had sent are all answered (two equal listings). */
async function settled(server: RunningServer): Promise<Array<{ id: string; name: string; description: string }>> {
  let last = await serverWorkspaces(server);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await serverWorkspaces(server);
    if (now.length === last.length) return now;
    last = now;
  }
}

const figures: Record<string, string | number> = {};
afterAll(() => recordFigures("interrupted-e2e", figures));

describe.each([
  { signal: "SIGKILL" as const, leavesOrphans: true },
  { signal: "SIGINT" as const, leavesOrphans: false },
])(`pulumi up of ${COUNT} workspaces stopped by $signal`, ({ signal, leavesOrphans }) => {
  let server: RunningServer;
  let stack: TestStack;
  let copy: TestStack | undefined;

  afterAll(async () => {
    stack?.dispose();
    copy?.dispose();
    await server?.close();
  });

  it(`converges after ${signal} with pulumi cancel and one pulumi up`, async () => {
    const t0 = Date.now();
    server = await startTestServer();
    stack = await TestStack.create({ project: "crash", files: { "index.ts": program("v1") }, env: serverEnv(server) });

    const stopped = await upInterrupted(
      stack,
      signal,
      () => (server.stats().byRoute[CREATE_ROUTE] ?? 0) >= Math.ceil(COUNT / 3),
    );
    expect(stopped.code, stopped.output).not.toBe(0);
    const inState = stack.resources("dynamic/workspaces:Workspace");
    const before = await settled(server);
    const orphans = before.filter((w) => !inState.some((r) => r.id === w.id));
    figures[`${signal}: workspaces on the server / in the state after the stop`] =
      `${before.length} / ${inState.length}`;
    expect(before.length).toBeLessThan(COUNT);
    // The kill lands between creates the server made and the checkpoints that record them.
    if (leavesOrphans) expect(orphans.length).toBeGreaterThan(0);
    expect(stack.resources("dynamic/workspaces:StackOrigin")).toHaveLength(1);

    // What the engine's lock message asks for; with nothing to cancel it says so and exits non-zero.
    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);

    const up = await stack.upWithEvents();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    const tookOver = up.diagnostics.filter((d) => /took over workspace "crash-\d+" \(ws-/.test(d.message));
    expect(tookOver.map((d) => /"(crash-\d+)"/.exec(d.message)![1]).sort()).toEqual(orphans.map((w) => w.name).sort());
    for (const d of tookOver) expect(d.message).toContain("created by an interrupted update of this stack");
    figures[`${signal}: workspaces taken over by the next up`] = tookOver.length;
    if (stopped.emptyAttrsRemoved) figures[`${signal}: empty checkpoint .attrs file removed after the stop`] = "yes";

    const after = await serverWorkspaces(server);
    const names = after.map((w) => w.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `crash-${i}`).sort());
    const ids = stack.resources("dynamic/workspaces:Workspace").map((r) => r.id!);
    expect(new Set(ids).size).toBe(COUNT);
    expect([...ids].sort()).toEqual(after.map((w) => w.id).sort());
    for (const w of orphans) expect(ids).toContain(w.id);
    for (const w of orphans) {
      const b = await read(server, `/workspaces/${w.id}/tag-bindings`);
      const i = Number(w.name.slice("crash-".length));
      expect(Object.fromEntries(b.data.map((x: any) => [x.attributes.key, x.attributes.value]))).toEqual({
        fleet: "crash",
        shard: String(i % 4),
      });
    }

    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    figures[`${signal}: test wall time (s)`] = ((Date.now() - t0) / 1000).toFixed(1);
  }, 300_000);

  if (leavesOrphans)
    it("a copy of the program in another state backend gets the adopt: true error and changes nothing", async () => {
      const t0 = Date.now();
      // The same project, stack and resource names: only the stack's origin key differs.
      copy = await TestStack.create({
        project: "crash",
        files: { "index.ts": program("copied") },
        env: serverEnv(server),
      });
      const up = await copy.upWithEvents();
      expect(up.code).not.toBe(0);
      const errors = up.diagnostics.filter((d) => d.severity === "error" && /already exists/.test(d.message));
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(e.message).toMatch(/workspace "crash-\d+" \(ws-\w+\).*set adopt: true/s);
      expect(up.output).not.toMatch(/took over/);
      expect(copy.resources("dynamic/workspaces:Workspace")).toEqual([]);
      const after = await serverWorkspaces(server);
      expect(after).toHaveLength(COUNT);
      for (const w of after) expect(w.description, w.name).toBe("v1");
      figures["copied program: test wall time (s)"] = ((Date.now() - t0) / 1000).toFixed(1);
    }, 120_000);
});
