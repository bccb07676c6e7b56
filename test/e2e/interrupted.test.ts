/**
 * A CI runner that dies in the middle of `pulumi up` (docs/interrupted-updates.md):
 * `pulumi up` of 40 workspaces against the local server with its rate limit, stopped once
 * a third of the creates reached the server, by SIGKILL to the CLI's process group (a
 * job timeout, a reclaimed machine) or by SIGINT to it (the engine's graceful cancel, as
 * Ctrl-C sends). Then the documented recovery, each step asserted (interrupt.ts
 * `recover`): `pulumi cancel --yes`, one `pulumi up` that converges (every workspace in
 * the state exactly once, no duplicate on the server, each record the interrupted run
 * left out of the state taken over with one info line) while the engine keeps the
 * killed run's pending creates, `pulumi refresh --clear-pending-creates --yes` that
 * clears them, and a no-change preview. The same with the engine's checkpoints skipped:
 * interrupted-skip.test.ts.
 * A copy of the program run against another state backend (same project, stack and
 * resource names) gets the `adopt: true` error and changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { recordFigures } from "../reliability/figures";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { expectCopyRefused, read, recover, settled, upInterrupted } from "./interrupt";

const COUNT = 40;
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

  it(`converges after ${signal} with pulumi cancel, one pulumi up and a refresh of the pending creates`, async () => {
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

    const names = Array.from({ length: COUNT }, (_, i) => `crash-${i}`);
    const recovered = await recover(stack, server, { names, orphans });
    // Each record left out of the state was a create the engine had begun: pending until the refresh.
    expect(recovered.pendingAfterUp).toBeGreaterThanOrEqual(orphans.length);
    figures[`${signal}: workspaces taken over by the next up`] = recovered.tookOver.length;
    figures[`${signal}: pending creates kept by that up, cleared by the refresh`] = recovered.pendingAfterUp;
    if (stopped.emptyAttrsRemoved) figures[`${signal}: empty checkpoint .attrs file removed after the stop`] = "yes";
    for (const w of orphans) {
      const b = await read(server, `/workspaces/${w.id}/tag-bindings`);
      const i = Number(w.name.slice("crash-".length));
      expect(Object.fromEntries(b.data.map((x: any) => [x.attributes.key, x.attributes.value]))).toEqual({
        fleet: "crash",
        shard: String(i % 4),
      });
    }
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
      await expectCopyRefused(copy, server, { count: COUNT, description: "v1" });
      figures["copied program: test wall time (s)"] = ((Date.now() - t0) / 1000).toFixed(1);
    }, 120_000);
});
