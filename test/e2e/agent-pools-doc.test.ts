/**
 * The programs of docs/agent-pools.md "One `up`", as the page shows them, through the real
 * engine against the local server: the TypeScript block from the dynamic door and the YAML
 * block through the provider plugin. Each goes up in one `pulumi up` (the workspace on a
 * pool that allows it only through the list the same program declares, with no
 * `dependsOn`), previews with no change, and is destroyed in one `pulumi destroy`. A page
 * whose program stops working, or that declares the workspace's pool on the `Workspace`
 * itself, fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { blockUnder } from "./doc-steps";
import { poolGone, poolOnServer } from "./agent-pool-steps";
import { workspaceByName } from "./server-helpers";

const PAGE = "docs/agent-pools.md";
const SECTION = "One `up`";

/** The program's pool and workspace on the server: the pool allows the workspace, which runs on it. */
async function expectOnPool(server: RunningServer, stack: TestStack): Promise<{ poolId: string; appId: string }> {
  const pools = stack.resources(":AgentPool");
  expect(pools).toHaveLength(1);
  const poolId = pools[0].id as string;
  const ws = await workspaceByName(server, "app");
  expect(ws.attributes["execution-mode"]).toBe("agent");
  expect(ws.relationships["agent-pool"].data.id).toBe(poolId);
  const pool = await poolOnServer(server, poolId);
  expect(pool).toMatchObject({ name: "private-net", organizationScoped: false, allowedWorkspaceIds: [ws.id] });
  return { poolId, appId: ws.id };
}

async function expectDestroyed(server: RunningServer, stack: TestStack, ids: { poolId: string; appId: string }) {
  const r = await stack.destroy();
  expect(r.code, r.output).toBe(0);
  expect(await poolGone(server, ids.poolId)).toBe(true);
  expect((await api(server, `/workspaces/${ids.appId}`)).status).toBe(404);
}

describe("docs/agent-pools.md: the one-up programs as the page shows them", () => {
  let server: RunningServer;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await server?.close();
  });

  it("TypeScript: one up, no change, one destroy", async () => {
    const program = blockUnder(PAGE, SECTION, "ts");
    expect(program).not.toMatch(/dependsOn/);
    const stack = await TestStack.create({
      project: "doc-one-up-ts",
      files: { "index.ts": program },
      env: serverEnv(server),
    });
    stacks.push(stack);
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const ids = await expectOnPool(server, stack);
    await stack.expectNoChanges();
    await expectDestroyed(server, stack, ids);
  });

  it("YAML: one up, no change, one destroy", async () => {
    const block = blockUnder(PAGE, SECTION, "yaml");
    expect(block).not.toMatch(/dependsOn/);
    // The page's Pulumi.yaml; the harness writes its own name and runtime lines.
    const program = block.replace(/^name: .*\nruntime: yaml\n/, "");
    expect(program).not.toBe(block);
    const stack = await TestStack.create({
      project: "doc-one-up-yaml",
      files: {},
      yaml: program,
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    stacks.push(stack);
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const ids = await expectOnPool(server, stack);
    await stack.expectNoChanges();
    await expectDestroyed(server, stack, ids);
  });
});
