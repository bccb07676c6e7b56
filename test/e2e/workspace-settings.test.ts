/**
 * `WorkspaceSettings` on workspaces made out of band, through the real engine from the
 * TypeScript door: it changes only the fields it declares, `remoteStateConsumerIds: []`
 * clears the consumers and an absent list leaves them, changes made by others to fields it
 * does not declare never show, and destroy leaves the workspaces and puts back only what it
 * changed and what nobody changed since, the server's workspaces compared field by field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { createWorkspace } from "./server-helpers";
import { changedFields, overwritten, patchWorkspace, setConsumers, workspaceSnapshot } from "./agent-pool-steps";

const SETTINGS = `
import * as pulumi from "@pulumi/pulumi";
import { WorkspaceSettings } from "pulumi-workspaces";

const config = new pulumi.Config();
new WorkspaceSettings("a-settings", {
  workspaceId: config.require("aId"),
  executionMode: "local",
  autoApply: false,
  remoteStateConsumerIds: [],
});
new WorkspaceSettings("b-settings", {
  workspaceId: config.require("bId"),
  autoApply: true,
  description: "settings managed by the stack",
});
`;

describe("WorkspaceSettings on workspaces made out of band (TypeScript)", () => {
  let server: RunningServer;
  let stack: TestStack;
  const ws = { a: "", b: "", c1: "", c2: "" };
  let aBefore: Record<string, unknown>;
  let bBefore: Record<string, unknown>;

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of Object.keys(ws) as Array<keyof typeof ws>)
      ws[name] = await createWorkspace(server, `owned-elsewhere-${name}`);
    await patchWorkspace(server, ws.a, {
      "auto-apply": true,
      description: "the platform team's",
      "speculative-enabled": false,
      "global-remote-state": false,
    });
    await setConsumers(server, ws.a, [ws.c1, ws.c2]);
    await patchWorkspace(server, ws.b, { "auto-apply": false, "queue-all-runs": true });
    await setConsumers(server, ws.b, [ws.c1]);
    aBefore = await workspaceSnapshot(server, ws.a);
    bBefore = await workspaceSnapshot(server, ws.b);
    stack = await TestStack.create({
      project: "settings-e2e",
      files: { "index.ts": SETTINGS },
      env: serverEnv(server),
      config: { aId: ws.a, bId: ws.b },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("up changes only the declared fields; [] clears the consumers, an absent list leaves them", async () => {
    const up = await stack.up();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    const a = await workspaceSnapshot(server, ws.a);
    expect(changedFields(aBefore, a)).toEqual({
      "execution-mode": ["remote", "local"],
      // Declared on the workspace itself now, no longer inherited from the organization.
      "setting-overwrites": [aBefore["setting-overwrites"], overwritten(aBefore, "execution-mode")],
      "auto-apply": [true, false],
      "remote-state-consumers": [[ws.c1, ws.c2].sort(), []],
    });
    expect(changedFields(bBefore, await workspaceSnapshot(server, ws.b))).toEqual({
      "auto-apply": [false, true],
      description: [bBefore.description, "settings managed by the stack"],
    });
    await stack.expectNoChanges();
  });

  it("others' changes to fields it does not declare never show", async () => {
    await patchWorkspace(server, ws.a, { description: "changed by its owners" });
    await setConsumers(server, ws.b, [ws.c1, ws.c2]);
    const refresh = await stack.refresh();
    expect(refresh.code, refresh.output.slice(-4000)).toBe(0);
    await stack.expectNoChanges();
  });

  it("destroy leaves the workspaces and puts back only what it changed and nobody changed since", async () => {
    // A declared field changed by someone else after the stack set it: theirs now, left alone.
    await patchWorkspace(server, ws.b, { description: "their later description" });
    const destroy = await stack.destroy();
    expect(destroy.code, destroy.output.slice(-4000)).toBe(0);
    const a = await workspaceSnapshot(server, ws.a);
    // Execution mode, auto-apply and consumers put back; the description is its owners' later change.
    expect(changedFields(aBefore, a)).toEqual({ description: ["the platform team's", "changed by its owners"] });
    const b = await workspaceSnapshot(server, ws.b);
    // Auto-apply put back; the description and the consumers are what others set since.
    expect(changedFields(bBefore, b)).toEqual({
      description: [bBefore.description, "their later description"],
      "remote-state-consumers": [[ws.c1], [ws.c1, ws.c2].sort()],
    });
  });
});
