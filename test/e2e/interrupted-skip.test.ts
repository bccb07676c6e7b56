/**
 * A CI runner killed in the middle of `pulumi up` while the engine skips its checkpoints
 * (`PULUMI_SKIP_CHECKPOINTS=true`, docs/interrupted-updates.md): such an engine writes the
 * state only when the update ends, so a kill loses the record of everything the update
 * did, the stack's origin key included when it was the stack's first update.
 *
 * Both cases, 30 workspaces against the local server with its rate limit, SIGKILL to the
 * CLI's process group once a third of the creates reached the server, then the
 * documented recovery, each step asserted (interrupt.ts `recover`): `pulumi cancel
 * --yes`, one `pulumi up` that takes every left-out record over and converges, `pulumi
 * refresh --clear-pending-creates --yes`, a no-change preview.
 *
 * - A stack whose earlier `up` finished: the state still holds the key, and the records
 *   of the killed update carry its digest.
 * - The stack's very first `up`: the state holds nothing, not even the key; the records
 *   also carry the digest of the stack's state backend, which the next `up` of the same
 *   stack computes again. A copy of the program in another state backend (same project,
 *   stack and resource names) then gets the `adopt: true` error and changes nothing.
 * - The same first `up` through the provider plugin (a YAML program, as Go and Python
 *   reach it): the plugin's origin key lives with the provider in the state and is lost
 *   the same way; the plugin finds the backend from the directory and environment the
 *   engine starts it in.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { recordFigures } from "../reliability/figures";
import { serverEnv, startTestServer, TestStack, type StackOptions } from "./harness";
import { expectCopyRefused, recover, settled, upInterrupted } from "./interrupt";

const COUNT = 30;
const EARLIER = 10;
const CREATE_ROUTE = "POST /api/v2/organizations/:organization_name/workspaces";
const SKIP = { PULUMI_SKIP_CHECKPOINTS: "true" };

const program = (count: number, description = "v1") => `
import { Workspace } from "pulumi-workspaces";
for (let i = 0; i < ${count}; i++) {
  new Workspace(\`ws-\${i}\`, { name: \`skip-\${i}\`, description: "${description}", tags: { fleet: "skip" } });
}
`;
/** The same workspaces as a YAML program, for the provider plugin. */
const yamlProgram = (count: number, description = "v1") =>
  "resources:\n" +
  names(count)
    .map(
      (name, i) =>
        `  ws-${i}:\n    type: workspaces:index:Workspace\n    properties:\n      name: ${name}\n` +
        `      description: ${description}\n      tags:\n        fleet: skip\n`,
    )
    .join("");
const PLUGIN_TYPE = "workspaces:index:Workspace";
function names(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `skip-${i}`);
}
const figures: Record<string, string | number> = {};
afterAll(() => recordFigures("interrupted-skip-e2e", figures));

/** `pulumi up` killed once `creates` more creates than `already` reached the server; what it left. */
async function killedUp(
  stack: TestStack,
  server: RunningServer,
  creates: number,
  type = "dynamic/workspaces:Workspace",
) {
  const already = server.stats().byRoute[CREATE_ROUTE] ?? 0;
  const stopped = await upInterrupted(
    stack,
    "SIGKILL",
    () => (server.stats().byRoute[CREATE_ROUTE] ?? 0) - already >= creates,
  );
  expect(stopped.code, stopped.output).not.toBe(0);
  const inState = stack.resources(type);
  const onServer = await settled(server);
  return { stopped, inState, onServer, orphans: onServer.filter((w) => !inState.some((r) => r.id === w.id)) };
}

describe(`pulumi up of ${COUNT} workspaces killed while checkpoints are skipped`, () => {
  let server: RunningServer;
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await server?.close();
  });

  it("a stack whose earlier up finished converges with pulumi cancel, one pulumi up and a refresh", async () => {
    const t0 = Date.now();
    server = await startTestServer();
    const stack = await TestStack.create({
      project: "skip-later",
      files: { "index.ts": program(EARLIER) },
      env: { ...serverEnv(server), ...SKIP },
    });
    stacks.push(stack);
    const first = await stack.up();
    expect(first.code, first.output).toBe(0);
    const key = stack.resources("dynamic/workspaces:StackOrigin")[0]?.outputs?.key;
    expect(key).toMatch(/^[0-9a-f]{32}$/);

    stack.writeFiles({ "index.ts": program(COUNT) });
    const killed = await killedUp(stack, server, Math.ceil((COUNT - EARLIER) / 3));
    // The engine wrote nothing: the state is the earlier update's, with its key.
    expect(killed.inState).toHaveLength(EARLIER);
    expect(stack.resources("dynamic/workspaces:StackOrigin")[0]?.outputs?.key).toBe(key);
    expect(killed.onServer.length).toBeGreaterThan(EARLIER);
    expect(killed.onServer.length).toBeLessThan(COUNT);
    figures["earlier up finished: workspaces on the server / in the state after the kill"] =
      `${killed.onServer.length} / ${killed.inState.length}`;

    const recovered = await recover(stack, server, { names: names(COUNT), orphans: killed.orphans });
    expect(recovered.tookOver.length).toBeGreaterThan(0);
    expect(recovered.pendingAfterUp).toBe(0);
    figures["earlier up finished: workspaces taken over by the next up"] = recovered.tookOver.length;
    figures["earlier up finished: test wall time (s)"] = ((Date.now() - t0) / 1000).toFixed(1);
  }, 300_000);

  /**
   * A stack's first up killed, then recovered, then a copy of the program in another state
   * backend (same project, stack and resource names, another key and another backend),
   * which finds every name taken by a record of the stack.
   */
  async function firstUpKilled(
    label: string,
    door: { project: string; code: (description?: string) => Pick<StackOptions, "files" | "yaml">; type: string },
  ) {
    const t0 = Date.now();
    await server?.close();
    server = await startTestServer();
    const stackOf = (description?: string) =>
      TestStack.create({ project: door.project, ...door.code(description), env: { ...serverEnv(server), ...SKIP } });
    const stack = await stackOf();
    stacks.push(stack);
    const killed = await killedUp(stack, server, Math.ceil(COUNT / 3), door.type);
    // Not even the origin key is in the state (the StackOrigin's, or the plugin's provider
    // resource's): the records' key digest names a key no state holds.
    expect(stack.resources()).toEqual([]);
    expect(killed.orphans.length).toBeGreaterThan(0);
    expect(killed.orphans.length).toBeLessThan(COUNT);
    figures[`${label}: workspaces on the server / in the state after the kill`] = `${killed.onServer.length} / 0`;

    const recovered = await recover(stack, server, { names: names(COUNT), orphans: killed.orphans, type: door.type });
    expect(recovered.pendingAfterUp).toBe(0);
    figures[`${label}: workspaces taken over by the next up`] = recovered.tookOver.length;

    const copy = await stackOf("copied");
    stacks.push(copy);
    await expectCopyRefused(copy, server, { count: COUNT, description: "v1", type: door.type });
    figures[`${label}: test wall time (s)`] = ((Date.now() - t0) / 1000).toFixed(1);
  }

  it(
    "a stack's first up: the state holds nothing, yet one pulumi up takes every record over",
    () =>
      firstUpKilled("first up", {
        project: "skip-first",
        code: (description) => ({ files: { "index.ts": program(COUNT, description) } }),
        type: "dynamic/workspaces:Workspace",
      }),
    300_000,
  );

  it(
    "a YAML stack's first up through the provider plugin: one pulumi up takes every record over",
    () =>
      firstUpKilled("plugin, first up", {
        project: "skip-plugin",
        code: (description) => ({ files: {}, yaml: yamlProgram(COUNT, description) }),
        type: PLUGIN_TYPE,
      }),
    300_000,
  );
});
