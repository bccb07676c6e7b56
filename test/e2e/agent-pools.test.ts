/**
 * Agent pools through the real engine, from the TypeScript door, against the local server:
 *
 * - an `AgentPool` that is not organization-scoped, its three lists, an `AgentToken` and the
 *   `WorkspaceSettings` that put a workspace made out of band on it: up, a no-change preview,
 *   an edit (the pool renamed, a list changed, a setting changed) that keeps the pool and
 *   the token, a rotation that replaces the token, drift made over HTTP that refresh shows
 *   and up restores, and a destroy that deletes the pool and its token and puts the
 *   workspace's settings back as they were, compared field by field; the token's secret is
 *   in the checkpoint only encrypted and in no output of the CLI nor any file it wrote.
 *
 * workspace-settings.test.ts has `WorkspaceSettings` alone on workspaces made out of band.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { filesHolding } from "./engine-steps";
import { serverEnv, startTestServer, TestStack, type PulumiResult } from "./harness";
import { createProject, createWorkspace } from "./server-helpers";
import {
  changedFields,
  overwritten,
  patchPool,
  patchWorkspace,
  poolGone,
  poolOnServer,
  tokensOnServer,
  workspaceSnapshot,
} from "./agent-pool-steps";

interface Shape {
  poolName: string;
  allowed: Array<"app" | "other">;
  autoApply: boolean;
  rotation: string;
}

const FIRST: Shape = { poolName: "agents-a", allowed: ["app"], autoApply: true, rotation: "2026-11" };
const EDITED: Shape = { ...FIRST, poolName: "agents-b", allowed: ["app", "other"], autoApply: false };
const ROTATED: Shape = { ...EDITED, rotation: "2026-12" };

const program = (o: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import {
  AgentPool,
  AgentPoolAllowedProjects,
  AgentPoolAllowedWorkspaces,
  AgentPoolExcludedWorkspaces,
  AgentToken,
  WorkspaceSettings,
  getAgentPool,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const ids: Record<string, string> = { app: config.require("appId"), other: config.require("otherId") };

const pool = new AgentPool("pool", { name: ${JSON.stringify(o.poolName)}, organizationScoped: false });
const allowed = new AgentPoolAllowedWorkspaces("allowed", {
  agentPoolId: pool.id,
  workspaceIds: ${JSON.stringify(o.allowed)}.map((k) => ids[k]),
});
const projects = new AgentPoolAllowedProjects("projects", {
  agentPoolId: pool.id,
  projectIds: [config.require("projectId")],
});
const excluded = new AgentPoolExcludedWorkspaces("excluded", {
  agentPoolId: pool.id,
  workspaceIds: [config.require("excludedId")],
});
const token = new AgentToken("token", {
  agentPoolId: pool.id,
  description: "build agents",
  rotation: ${JSON.stringify(o.rotation)},
});
new WorkspaceSettings("app-settings", {
  workspaceId: ids.app,
  executionMode: "agent",
  agentPoolId: pool.id,
  autoApply: ${o.autoApply},
});

export const poolId = pool.id;
export const tokenId = token.id;
export const tokenSecret = token.token;
// Read once the lists are written.
export const looked = pulumi
  .all([pool.id, allowed.id, projects.id, excluded.id])
  .apply(() => getAgentPool({ name: ${JSON.stringify(o.poolName)} }));
`;

describe("agent pools, lists, tokens and workspace settings through the engine (TypeScript)", () => {
  let server: RunningServer;
  let stack: TestStack;
  const ws = { app: "", other: "", excluded: "" };
  let projectId: string;
  let appBefore: Record<string, unknown>;
  /** Every CLI run's output, searched for the token's secret at the end. */
  const printed: PulumiResult[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of Object.keys(ws) as Array<keyof typeof ws>)
      ws[name] = await createWorkspace(server, `pools-${name}`);
    projectId = await createProject(server, "pools-project");
    appBefore = await workspaceSnapshot(server, ws.app);
    stack = await TestStack.create({
      project: "agent-pools-e2e",
      files: { "index.ts": program(FIRST) },
      env: serverEnv(server),
      config: { appId: ws.app, otherId: ws.other, excludedId: ws.excluded, projectId },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const run = async (r: Promise<PulumiResult>): Promise<PulumiResult> => {
    const done = await r;
    printed.push(done);
    expect(done.code, done.output.slice(-4000)).toBe(0);
    return done;
  };
  const outputs = async () =>
    (await stack.outputs()) as { poolId: string; tokenId: string; tokenSecret: string; looked: any };
  // The program was type-checked by the run before; the check of no change need not do it again.
  const noChange = async () => {
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    const p = await stack.expectNoChanges().finally(() => delete stack.env.PULUMI_NODEJS_TRANSPILE_ONLY);
    printed.push(p.raw);
  };
  /** The server's pool, its token and the app workspace's agent settings, as the program `o` declares them. */
  const expectDeclared = async (o: Shape) => {
    const { poolId, tokenId } = await outputs();
    expect(await poolOnServer(server, poolId)).toEqual({
      id: poolId,
      name: o.poolName,
      organizationScoped: false,
      allowedWorkspaceIds: o.allowed.map((k) => ws[k]).sort(),
      allowedProjectIds: [projectId],
      excludedWorkspaceIds: [ws.excluded],
    });
    const tokens = await tokensOnServer(server, poolId);
    expect(tokens.map((t) => t.id)).toEqual([tokenId]);
    const app = await workspaceSnapshot(server, ws.app);
    expect(changedFields(appBefore, app)).toEqual({
      "execution-mode": [appBefore["execution-mode"], "agent"],
      "agent-pool": [null, poolId],
      "setting-overwrites": [appBefore["setting-overwrites"], overwritten(appBefore, "execution-mode", "agent-pool")],
      ...(o.autoApply === appBefore["auto-apply"] ? {} : { "auto-apply": [appBefore["auto-apply"], o.autoApply] }),
    });
  };

  it("up creates the pool, its lists, the token and the settings; the lookup reads the pool; then no change", async () => {
    await run(stack.up());
    await expectDeclared(FIRST);
    const { poolId, tokenSecret, looked } = await outputs();
    expect(tokenSecret).toMatch(/\S{16,}/);
    expect(looked).toMatchObject({
      id: poolId,
      name: FIRST.poolName,
      organizationScoped: false,
      allowedWorkspaceIds: [ws.app],
      allowedProjectIds: [projectId],
      excludedWorkspaceIds: [ws.excluded],
    });
    await noChange();
  });

  it("the token's secret is in the checkpoint only encrypted, and shown by no command", async () => {
    const { tokenSecret } = await outputs();
    await stack.expectEncryptedOnly([tokenSecret]);
    const shown = await stack.ok(["stack", "output", "tokenSecret"]);
    expect(shown.stdout).not.toContain(tokenSecret);
    expect(shown.stdout).toMatch(/secret/);
  });

  it("an edit renames the pool, widens a list and changes a setting in place: same pool, same token", async () => {
    const before = await outputs();
    stack.writeFiles({ "index.ts": program(EDITED) });
    const up = await run(stack.up());
    expect(up.output).not.toMatch(/replaced|\+ \d+ created|- \d+ deleted/);
    const after = await outputs();
    expect([after.poolId, after.tokenId, after.tokenSecret]).toEqual([
      before.poolId,
      before.tokenId,
      before.tokenSecret,
    ]);
    await expectDeclared(EDITED);
    await noChange();
  });

  it("a new rotation replaces the token, with the reason in the preview; the old token is deleted", async () => {
    const before = await outputs();
    stack.writeFiles({ "index.ts": program(ROTATED) });
    const preview = await stack.pulumi(["preview", "--diff", "--non-interactive"]);
    printed.push(preview);
    expect(preview.code, preview.output.slice(-4000)).toBe(0);
    expect(preview.output).toMatch(/\+-pulumi-nodejs:dynamic\/workspaces:AgentToken: \(replace\)/);
    expect(preview.output).toMatch(/~ rotation\s*: "2026-11" => "2026-12"/);
    expect(preview.output).toMatch(/1 to replace/);
    await run(stack.up());
    const after = await outputs();
    expect(after.poolId).toBe(before.poolId);
    expect(after.tokenId).not.toBe(before.tokenId);
    expect(after.tokenSecret).not.toBe(before.tokenSecret);
    expect((await tokensOnServer(server, after.poolId)).map((t) => t.id)).toEqual([after.tokenId]);
    await expectDeclared(ROTATED);
    await noChange();
  });

  it("drift: the pool renamed, a list and a setting changed over HTTP show in refresh, and up restores them", async () => {
    const { poolId } = await outputs();
    await patchPool(server, poolId, { name: "renamed-by-hand", allowedWorkspaces: [ws.app] });
    await patchWorkspace(server, ws.app, { "auto-apply": true });
    const refresh = await run(stack.refresh());
    // The pool (its name), the allowed list and the settings.
    expect(refresh.output).toMatch(/^\s+~ 3 updated$/m);
    const preview = await stack.previewJson();
    printed.push(preview.raw);
    expect(
      preview.steps
        .filter((s) => s.op !== "same")
        .map((s) => `${s.op} ${s.urn.split("::").pop()}`)
        .sort(),
    ).toEqual(["update allowed", "update app-settings", "update pool"]);
    await run(stack.up());
    await expectDeclared(ROTATED);
    await noChange();
  });

  it("destroy deletes the pool and its token and puts the workspace's settings back, field by field", async () => {
    const { poolId, tokenId, tokenSecret } = await outputs();
    await run(stack.destroy());
    expect(await poolGone(server, poolId)).toBe(true);
    expect(changedFields(appBefore, await workspaceSnapshot(server, ws.app))).toEqual({});
    expect(tokenId).toMatch(/^at-/);
    for (const r of printed) expect(r.output).not.toContain(tokenSecret);
    expect(filesHolding(stack.backendDir, tokenSecret)).toEqual([]);
    expect(filesHolding(stack.dir, tokenSecret)).toEqual([]);
  });
});
