/**
 * Adopting where an organization's runs execute, through the real engine and the real
 * server under its default rate limit: two pools (one organization-scoped, one not, with
 * allowed workspaces, allowed projects and excluded workspaces), three agent tokens and a
 * workspace running on the private pool, all made out of band. A program declaring them as
 * they are (`adopt: true` on the pools, the tokens and the settings; the lists equal to the
 * pool's) takes everything over without one write; a preview then changes nothing and
 * writes nothing; no adopted token is minted again, and none has a secret in the state; one
 * setting edited in the program is one write, of that workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { writesSince } from "./engine-steps";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { createProject, createWorkspace } from "./server-helpers";
import { createPool, createToken, patchWorkspace, tokensOnServer, type ServerPool } from "./agent-pool-steps";

const program = (autoApply: boolean) => `
import * as pulumi from "@pulumi/pulumi";
import {
  AgentPool,
  AgentPoolAllowedProjects,
  AgentPoolAllowedWorkspaces,
  AgentPoolExcludedWorkspaces,
  AgentToken,
  WorkspaceSettings,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const [w1, w2, w3, p1] = ["w1", "w2", "w3", "p1"].map((k) => config.require(k));

const shared = new AgentPool("shared", { name: "shared", adopt: true });
const pool = new AgentPool("private", { name: "private-network", organizationScoped: false, adopt: true });
new AgentPoolAllowedWorkspaces("private-workspaces", { agentPoolId: pool.id, workspaceIds: [w1, w2] });
new AgentPoolAllowedProjects("private-projects", { agentPoolId: pool.id, projectIds: [p1] });
new AgentPoolExcludedWorkspaces("private-excluded", { agentPoolId: pool.id, workspaceIds: [w3] });
new AgentToken("shared-agents", { agentPoolId: shared.id, description: "shared agents", adopt: true });
new AgentToken("private-a", { agentPoolId: pool.id, description: "private agents a", adopt: true });
new AgentToken("private-b", { agentPoolId: pool.id, description: "private agents b", adopt: true });
new WorkspaceSettings("w1-settings", {
  workspaceId: w1,
  executionMode: "agent",
  agentPoolId: pool.id,
  autoApply: ${autoApply},
  adopt: true,
});
`;

describe("adopting an organization's agent pools, their lists, tokens and a workspace's settings", () => {
  let server: RunningServer;
  let stack: TestStack;
  const ws = { w1: "", w2: "", w3: "" };
  let p1: string;
  let shared: ServerPool;
  let pool: ServerPool;
  const tokens: Record<string, { id: string; token: string }> = {};

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of Object.keys(ws) as Array<keyof typeof ws>) ws[name] = await createWorkspace(server, name);
    p1 = await createProject(server, "p1");
    shared = await createPool(server, "shared");
    pool = await createPool(server, "private-network", {
      organizationScoped: false,
      allowedWorkspaces: [ws.w1, ws.w2],
      allowedProjects: [p1],
      excluded: [ws.w3],
    });
    tokens["shared-agents"] = await createToken(server, shared.id, "shared agents");
    tokens["private-a"] = await createToken(server, pool.id, "private agents a");
    tokens["private-b"] = await createToken(server, pool.id, "private agents b");
    await patchWorkspace(server, ws.w1, { "execution-mode": "agent", "agent-pool-id": pool.id, "auto-apply": true });
    stack = await TestStack.create({
      project: "adopt-agent-pools",
      files: { "index.ts": program(true) },
      env: serverEnv(server),
      config: { ...ws, p1 },
    });
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("pulumi up adopts every pool, list, token and setting and sends no write", async () => {
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual([]);

    const ids = (type: string) =>
      stack
        .resources(`dynamic/workspaces:${type}`)
        .map((res) => res.id)
        .sort();
    expect(ids("AgentPool")).toEqual([shared.id, pool.id].sort());
    expect(ids("AgentToken")).toEqual(
      Object.values(tokens)
        .map((t) => t.id)
        .sort(),
    );
    expect(ids("WorkspaceSettings")).toEqual([ws.w1]);
    for (const list of ["AgentPoolAllowedWorkspaces", "AgentPoolAllowedProjects", "AgentPoolExcludedWorkspaces"])
      expect(ids(list), list).toEqual([pool.id]);
    // No token was minted again: the pools hold the tokens made out of band, and only them.
    expect((await tokensOnServer(server, shared.id)).map((t) => t.id)).toEqual([tokens["shared-agents"].id]);
    expect((await tokensOnServer(server, pool.id)).map((t) => t.id).sort()).toEqual(
      [tokens["private-a"].id, tokens["private-b"].id].sort(),
    );
    // An adopted token has no secret output; none of theirs is in the state in any form.
    for (const res of stack.resources("dynamic/workspaces:AgentToken")) expect(res.outputs?.token).toBeUndefined();
    const exported = (await stack.ok(["stack", "export", "--show-secrets"])).stdout;
    for (const t of Object.values(tokens)) expect(exported).not.toContain(t.token);
  });

  it("a following preview shows no change and writes nothing", async () => {
    const before = server.stats().byRoute;
    await stack.expectNoChanges();
    expect(writesSince(server, before)).toEqual([]);
  });

  it("a setting edited in the program is one write, of that workspace", async () => {
    stack.writeFiles({ "index.ts": program(false) });
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const writes = writesSince(server, before);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^PATCH \S*\/workspaces\/:\w+ x1$/);
  });
});
