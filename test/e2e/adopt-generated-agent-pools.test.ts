/**
 * Adopting where an organization's runs execute from the program the generator writes,
 * through the real engine and the real server under its default rate limit: an
 * organization-scoped pool with workspaces on it, a pool that is not, with its three lists
 * and a workspace moved onto it, agent tokens (two sharing a description), and a
 * module-made workspace that runs locally (a setting NoCodeWorkspace cannot state) ->
 * `pulumi-workspaces generate` -> the passwords its README names set as stack config -> `pulumi up` (adopts everything without one write, and no
 * token's secret anywhere) -> `pulumi preview` (no change) -> a workspace added to a list
 * in the program -> `pulumi up` (one write, of that list).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import type { RunningServer } from "../../src/server";
import { seedOrganization, workspaceName, type Seeded } from "../generate/seed";
import { seedAgentPools, type SeededPools } from "../generate/seed-agent-pools";
import { writesSince } from "./doc-steps";
import { generateWithCli } from "./generate-cli";
import { serverEnv, startTestServer, TestStack } from "./harness";

const COUNT = 15;
// The third module-made workspace (net-2) runs locally: a WorkspaceSettings states it.
const NO_CODE = 3;

describe("adopting an organization's agent pools, their lists and tokens from the generated program", () => {
  let server: RunningServer;
  let seeded: Seeded;
  let pools: SeededPools;
  let client: WorkspacesClient;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
    pools = await seedAgentPools(client, seeded);
    stack = await TestStack.create({
      project: "adopt-pools-e2e",
      files: { "index.ts": "// replaced by the generator\n" },
      env: serverEnv(server),
    });
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("generates the program, reading only", async () => {
    const before = server.stats().byRoute;
    const r = await generateWithCli(server, path.join(stack.dir, "index.ts"));
    expect(r.code, r.stderr).toBe(0);
    expect(writesSince(server, before)).toEqual([]);
    expect(r.stderr).toContain("2 agent pools, 3 pool lists, 3 agent tokens");
    const program = fs.readFileSync(path.join(stack.dir, "index.ts"), "utf8");
    expect(program).toContain('new WorkspaceSettings("net-2-settings"');
    for (const secret of pools.secrets) expect(program).not.toContain(secret);
    // The module-made workspaces' passwords, which the README asks for.
    for (const [name, password] of seeded.passwords)
      await stack.ok(["config", "set", "--secret", `${name}-password`, password]);
  });

  it("pulumi up adopts every pool, list, token and setting and sends no write", async () => {
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual([]);

    const ids = (kind: string) =>
      stack
        .resources(`workspaces:${kind}`)
        .map((res) => res.id)
        .sort();
    expect(ids("AgentPool")).toEqual([pools.onPrem, pools.private].sort());
    expect(ids("AgentToken")).toEqual([...pools.tokens.values()].sort());
    expect(ids("AgentPoolAllowedWorkspaces")).toHaveLength(1);
    expect(ids("WorkspaceSettings")).toEqual([seeded.ids.get("net-2")]);
    // Adopted tokens have no secret: none is in the state, the output or the server's answers.
    const text = stack.stateText();
    for (const secret of pools.secrets) {
      expect(text).not.toContain(secret);
      expect(r.output).not.toContain(secret);
    }
    // The pools keep their tokens: adoption made none and deleted none.
    for (const pool of [pools.onPrem, pools.private]) {
      const tokens = await client.agentTokens.list(pool).all();
      expect(tokens, pool).toHaveLength(pool === pools.onPrem ? 2 : 3);
    }
  });

  it("a following preview shows no change and writes nothing", async () => {
    const before = server.stats().byRoute;
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writesSince(server, before)).toEqual([]);
  });

  it("a workspace added to a pool's list in the program is one write, of that list", async () => {
    const file = path.join(stack.dir, "index.ts");
    const program = fs.readFileSync(file, "utf8");
    const start = program.indexOf('new AgentPoolAllowedWorkspaces("private-allowed-workspaces",');
    const end = program.indexOf(");", start);
    const statement = program.slice(start, end);
    expect(statement).toContain("workspaceIds: [app10.id, app5.id]");
    fs.writeFileSync(
      file,
      program.slice(0, start) +
        statement.replace("workspaceIds: [app10.id, app5.id]", "workspaceIds: [app10.id, app11.id, app5.id]") +
        program.slice(end),
    );
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual(["PATCH /api/v2/agent-pools/:id x1"]);
    const pool = await client.agentPools.read(pools.private);
    expect(pool.allowedWorkspaceIds.sort()).toEqual([10, 11, 5].map((i) => seeded.ids.get(workspaceName(i))!).sort());
  });
});
