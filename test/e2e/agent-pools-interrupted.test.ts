/**
 * A CI runner killed in the middle of `pulumi up` of agent pools and their tokens (SIGKILL
 * to the CLI's process group once a third of the token creates reached the local server,
 * with its rate limit), then the documented recovery: `pulumi cancel --yes`, one `pulumi
 * up`, `pulumi refresh --clear-pending-creates`. A token has no unique name and its secret
 * is answered once: each token the killed run created and left out of the state carries the
 * stack's origin in its description, and the next `up` recognises it by that origin,
 * deletes it (its secret is lost) and mints the declared one, with one info line naming it.
 * Afterwards no pool and no token is on the server twice, the state holds exactly the
 * server's pools and tokens, and a preview changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { settledList } from "./engine-steps";
import { upInterrupted } from "./interrupt";
import { poolsOnServer, tokensOnServer, type ServerToken } from "./agent-pool-steps";

const POOLS = 4;
const PER_POOL = 8;
const COUNT = POOLS * PER_POOL;

const program = `
import { AgentPool, AgentToken } from "pulumi-workspaces";
for (let p = 0; p < ${POOLS}; p++) {
  const pool = new AgentPool(\`pool-\${p}\`, { name: \`crash-pool-\${p}\` });
  for (let t = 0; t < ${PER_POOL}; t++)
    new AgentToken(\`token-\${p}-\${t}\`, { agentPoolId: pool.id, description: \`agents \${p}-\${t}\` });
}
`;

describe(`pulumi up of ${POOLS} agent pools and ${COUNT} tokens, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges: the tokens it created are recognised by their origin and replaced, none twice", async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "crash-agent-pools",
      files: { "index.ts": program },
      env: serverEnv(server),
    });
    const creates = () =>
      Object.entries(server.stats().byRoute)
        .filter(([route]) => /^POST .*\/agent-pools\/:\w+\/authentication-tokens$/.test(route))
        .reduce((n, [, c]) => n + c, 0);

    const stopped = await upInterrupted(stack, "SIGKILL", () => creates() >= Math.ceil(COUNT / 3));
    expect(stopped.code, stopped.output).not.toBe(0);

    const tokens = async (): Promise<Array<ServerToken & { pool: string }>> => {
      const all: Array<ServerToken & { pool: string }> = [];
      for (const pool of await poolsOnServer(server))
        for (const t of await tokensOnServer(server, pool.id)) all.push({ ...t, pool: pool.name });
      return all;
    };
    // Creates in flight when the CLI died still land: wait until the server settles.
    const before = await settledList(tokens, "the pools' tokens");
    const inState = stack.resources("dynamic/workspaces:AgentToken").map((r) => r.id);
    const orphans = before.filter((t) => !inState.includes(t.id));
    expect(before.length).toBeLessThan(COUNT);
    expect(orphans.length).toBeGreaterThan(0);
    for (const o of orphans) expect(o.description).toMatch(/^agents \d+-\d+/);

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    const up = await stack.upWithEvents();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // One line for each token the killed run left out of the state, naming it.
    for (const o of orphans)
      expect(
        up.diagnostics.filter((d) => d.message.includes(o.id)),
        o.id,
      ).toHaveLength(1);

    const pools = await poolsOnServer(server);
    expect(pools.map((p) => p.name)).toEqual(Array.from({ length: POOLS }, (_, p) => `crash-pool-${p}`));
    expect(
      stack
        .resources("dynamic/workspaces:AgentPool")
        .map((r) => r.id)
        .sort(),
    ).toEqual(pools.map((p) => p.id).sort());
    const after = await settledList(tokens, "the pools' tokens");
    for (const o of orphans) expect(after.map((t) => t.id)).not.toContain(o.id);
    // Each declared token once: per pool, the declared number; each description once.
    for (let p = 0; p < POOLS; p++) expect(after.filter((t) => t.pool === `crash-pool-${p}`)).toHaveLength(PER_POOL);
    const declared = after.map((t) => /^agents \d+-\d+/.exec(t.description)?.[0]);
    expect(new Set(declared).size).toBe(COUNT);
    const ids = stack.resources("dynamic/workspaces:AgentToken").map((r) => r.id);
    expect([...ids].sort()).toEqual(after.map((t) => t.id).sort());

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.previewJson(["--expect-no-changes"]);
    expect(preview.code, preview.raw.output.slice(-4000)).toBe(0);
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
