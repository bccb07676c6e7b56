/**
 * `WorkspaceSettings` against the real local server: on a workspace made out of band it
 * changes only what it declares (the server's workspace compared field by field before and
 * after create, update and delete), clears what it declares empty, puts back at delete only
 * what it changed and still holds, refuses at check a setting declared twice in a stack,
 * and writes nothing when the workspace already is as declared.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import { CLAIMANT_KEY } from "../../src/resources/process/claims";
import type { Props } from "../../src/resources/providers/types";
import { api, startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const settings = implementationOf("WorkspaceSettings");
const workspace = implementationOf("Workspace");
const consumers = implementationOf("RemoteStateConsumers");

/** Attributes that change with any write, whatever it sets. */
const VOLATILE = new Set(["updated-at", "latest-change-at", "permissions", "actions"]);

/** The workspace as the server holds it: every attribute, the agent pool, and the consumers. */
async function serverView(id: string): Promise<Props> {
  const ws = await h.client.workspaces.read(id);
  const view: Props = {};
  for (const [k, v] of Object.entries(ws.attributes)) if (!VOLATILE.has(k)) view[k] = v;
  view["agent-pool"] = ws.agentPoolId;
  view.consumers = (await h.client.remoteStateConsumers.listIds(id)).sort();
  return view;
}

/** Outputs as the engine keeps them in state and hands them back: every object's keys sorted. */
function asStored<T>(outs: T): T {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Props)[k])]),
          )
        : v;
  return sort(outs) as T;
}

/** The keys whose values differ between two views. */
function changedKeys(before: Props, after: Props): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

async function outOfBand(extra: Record<string, unknown> = {}): Promise<string> {
  return (await h.client.workspaces.create(h.org, { name: uniqueName("ws"), ...extra })).id;
}

/** `check` as the engine calls it for the resource of this workspace (one per workspace in these tests). */
async function checked(news: Props, claimant = `settings-${String(news.workspaceId)}`): Promise<Props> {
  const r = await settings.check({}, { ...news, [CLAIMANT_KEY]: claimant });
  expect(r.failures).toEqual([]);
  return r.inputs;
}

/** Requests by method sent while `fn` runs. */
async function writesDuring<T>(fn: () => Promise<T>): Promise<{ result: T; writes: number }> {
  const before = h.server.stats().byRoute;
  const result = await fn();
  let writes = 0;
  for (const [route, n] of Object.entries(h.server.stats().byRoute)) {
    if (/^(POST|PATCH|DELETE) /.test(route)) writes += n - (before[route] ?? 0);
  }
  return { result, writes };
}

describe("WorkspaceSettings on a workspace made out of band", () => {
  it("changes only what it declares on create, update and delete, and leaves the workspace", async () => {
    const reader = await outOfBand();
    const other = await outOfBand();
    const id = await outOfBand({ description: "by hand", autoApply: false, queueAllRuns: false });
    await h.client.remoteStateConsumers.replace(id, [other]);
    const before = await serverView(id);

    const inputs = await checked({ workspaceId: id, autoApply: true, remoteStateConsumerIds: [reader] });
    const created = await settings.create(inputs);
    expect(created.id).toBe(id);
    const afterCreate = await serverView(id);
    expect(changedKeys(before, afterCreate)).toEqual(["auto-apply", "consumers"]);
    expect(afterCreate["auto-apply"]).toBe(true);
    expect(afterCreate.consumers).toEqual([reader]);
    expect(created.outs.previous).toEqual({ autoApply: false, remoteStateConsumerIds: [other] });
    // Undeclared settings are neither output nor compared.
    expect(created.outs.description).toBeUndefined();
    expect((await settings.diff(id, created.outs, inputs)).changes).toBe(false);

    const news = await checked({ workspaceId: id, autoApply: true, queueAllRuns: true, remoteStateConsumerIds: [] });
    expect((await settings.diff(id, created.outs, news)).changes).toBe(true);
    const updated = await settings.update(id, created.outs, news);
    const afterUpdate = await serverView(id);
    expect(changedKeys(afterCreate, afterUpdate)).toEqual(["consumers", "queue-all-runs"]);
    expect(afterUpdate.consumers).toEqual([]);
    // The prior value of a setting managed from now on is read then; the earlier ones are kept.
    expect(updated.outs.previous).toEqual({ autoApply: false, queueAllRuns: false, remoteStateConsumerIds: [other] });

    await settings.delete(id, updated.outs);
    const afterDelete = await serverView(id);
    expect(changedKeys(before, afterDelete)).toEqual([]);
    expect(afterDelete.description).toBe("by hand");
  });

  it("delete leaves a value someone changed since alone, and a deleted workspace is fine", async () => {
    const id = await outOfBand({ autoApply: false, description: "before" });
    const inputs = await checked({ workspaceId: id, autoApply: true, description: "declared" });
    const { outs } = await settings.create(inputs);
    await h.client.workspaces.update(id, { description: "changed by hand since" });
    await settings.delete(id, outs);
    const ws = await h.client.workspaces.read(id);
    expect(ws.autoApply).toBe(false);
    // Changed since by someone else: left as it is.
    expect(ws.description).toBe("changed by hand since");

    await h.client.workspaces.forceDelete(id);
    await expect(settings.delete(id, outs)).resolves.toBeUndefined();
  });

  it("an omitted list is not touched, an empty one clears, and globalRemoteState is independent", async () => {
    const a = await outOfBand();
    const id = await outOfBand();
    await h.client.remoteStateConsumers.replace(id, [a]);
    const { outs } = await settings.create(await checked({ workspaceId: id, globalRemoteState: false }));
    expect(outs.remoteStateConsumerIds).toBeUndefined();
    expect(await h.client.remoteStateConsumers.listIds(id)).toEqual([a]);
    const cleared = await checked({ workspaceId: id, globalRemoteState: false, remoteStateConsumerIds: [] });
    expect((await settings.diff(id, outs, cleared)).changes).toBe(true);
    await settings.update(id, outs, cleared);
    expect(await h.client.remoteStateConsumers.listIds(id)).toEqual([]);
  });

  it("a refresh shows drift of declared settings only, and update restores it", async () => {
    const id = await outOfBand({ autoApply: false });
    const inputs = await checked({ workspaceId: id, autoApply: true, description: "" });
    const { outs } = await settings.create(inputs);
    expect((await h.client.workspaces.read(id)).description).toBeNull();
    await h.client.workspaces.update(id, { autoApply: false, queueAllRuns: true, description: "hand" });
    const read = await settings.read(id, outs);
    expect(read.props!.autoApply).toBe(false);
    expect(read.props!.queueAllRuns).toBeUndefined();
    const diff = await settings.diff(id, read.props!, inputs);
    expect(diff.changes).toBe(true);
    await settings.update(id, read.props!, inputs);
    const ws = await h.client.workspaces.read(id);
    expect([ws.autoApply, ws.description, ws.queueAllRuns]).toEqual([true, null, true]);
  });

  it("writes nothing when the workspace already is as declared (adopt)", async () => {
    const a = await outOfBand();
    const id = await outOfBand({ autoApply: true, description: "kept" });
    await h.client.remoteStateConsumers.replace(id, [a]);
    const inputs = await checked({
      workspaceId: id,
      autoApply: true,
      description: "kept",
      executionMode: "remote",
      remoteStateConsumerIds: [a],
      adopt: true,
    });
    const { result, writes } = await writesDuring(() => settings.create(inputs));
    expect(writes).toBe(0);
    expect(result.outs.description).toBe("kept");
  });

  it("the agent pool goes with the agent mode, a mode away from agent removes it, and a re-apply writes nothing", async () => {
    const pool = await api(h, "POST", `/organizations/${h.org}/agent-pools`, {
      data: { type: "agent-pools", attributes: { name: uniqueName("pool"), "organization-scoped": true } },
    });
    expect(pool.status).toBe(201);
    const poolId: string = pool.json.data.id;
    const id = await outOfBand();
    const before = await serverView(id);
    const agent = await checked({ workspaceId: id, executionMode: "agent", agentPoolId: poolId });
    const { outs } = await settings.create(agent);
    const ws = await h.client.workspaces.read(id);
    expect([ws.executionMode, ws.agentPoolId]).toEqual(["agent", poolId]);
    expect((await settings.diff(id, (await settings.read(id, outs)).props!, agent)).changes).toBe(false);
    const { writes } = await writesDuring(() => settings.update(id, outs, agent));
    expect(writes).toBe(0);

    const remote = await checked({ workspaceId: id, executionMode: "remote" });
    const moved = await settings.update(id, outs, remote);
    const after = await h.client.workspaces.read(id);
    expect([after.executionMode, after.agentPoolId]).toEqual(["remote", null]);
    expect(changedKeys(before, await serverView(id))).toEqual(["setting-overwrites"]);
    // Delete puts the workspace back as it was before this resource: its mode inherited again, no pool.
    await settings.delete(id, asStored(moved.outs));
    expect(changedKeys(before, await serverView(id))).toEqual([]);
  });
});

describe("WorkspaceSettings import (terraform-provider-tfe #2000)", () => {
  it("reads every setting; a program that omits consumers shows no change, one that declares [] clears them", async () => {
    const reader = await outOfBand();
    const id = await outOfBand({ autoApply: true });
    await h.client.remoteStateConsumers.replace(id, [reader]);
    // What `pulumi import` (and `get`) reads: nothing is declared yet.
    const imported = (await settings.read(id, {})).props!;
    expect(imported).toMatchObject({ workspaceId: id, autoApply: true, remoteStateConsumerIds: [reader] });
    expect(imported.applied).toBeUndefined();

    const omits = await checked({ workspaceId: id, autoApply: true });
    expect((await settings.diff(id, imported, omits)).changes).toBe(false);
    const clears = await checked({ workspaceId: id, autoApply: true, remoteStateConsumerIds: [] });
    expect(await settings.diff(id, imported, clears)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await settings.update(id, imported, clears);
    expect(await h.client.remoteStateConsumers.listIds(id)).toEqual([]);
    // Destroy puts back what the update changed: the consumers the workspace had at the import.
    await settings.delete(id, asStored(outs));
    expect(await h.client.remoteStateConsumers.listIds(id)).toEqual([reader]);
  });
});

describe("WorkspaceSettings refused by the service", () => {
  it("agent mode without a pool: the service's detail, the resource and the way out; nothing written", async () => {
    const id = await outOfBand({ autoApply: false });
    const inputs = await checked({ workspaceId: id, executionMode: "agent", autoApply: true }, "no-pool");
    await expect(settings.create(inputs)).rejects.toThrow(
      /^WorkspaceSettings "no-pool" cannot set the settings of workspace ".*" \(ws-\w+\): the service refused them \(agent-pool-id is required when execution-mode is agent\); declare agentPoolId, or give the workspace's project a default agent pool\.$/,
    );
    expect((await h.client.workspaces.read(id)).autoApply).toBe(false);
  });

  it("a workspace the token cannot see", async () => {
    const inputs = await checked({ workspaceId: "ws-doesnotexist1", autoApply: true }, "ghost");
    await expect(settings.create(inputs)).rejects.toThrow(
      /^WorkspaceSettings "ghost" cannot manage the settings of workspace ws-doesnotexist1: the service answered 404/,
    );
  });
});

describe("WorkspaceSettings check", () => {
  it("refuses a pool without the agent mode, with the property path", async () => {
    const r = await settings.check({}, { workspaceId: "ws-abc", executionMode: "remote", agentPoolId: "apool-1" });
    expect(r.failures.map((f) => f.property)).toEqual(["agentPoolId"]);
    const none = await settings.check({}, { workspaceId: "ws-abc", agentPoolId: "apool-1" });
    expect(none.failures[0].reason).toMatch(/executionMode: "agent"/);
    const bad = await settings.check({}, { workspaceId: "ws-abc", remoteStateConsumerIds: ["prj-1"] });
    expect(bad.failures.map((f) => f.property)).toEqual(["remoteStateConsumerIds[0]"]);
  });

  it("refuses a setting declared twice in a stack, naming both resources", async () => {
    const ws = "ws-claimed1";
    const first = await settings.check({}, { workspaceId: ws, autoApply: true, [CLAIMANT_KEY]: "a" });
    expect(first.failures).toEqual([]);
    const second = await settings.check({}, { workspaceId: ws, autoApply: false, [CLAIMANT_KEY]: "b" });
    expect(second.failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /autoApply of workspace ws-claimed1 is declared by both WorkspaceSettings "b" and WorkspaceSettings "a"/,
      ),
    ]);
    // Another setting of the same workspace is fine.
    const third = await settings.check({}, { workspaceId: ws, queueAllRuns: true, [CLAIMANT_KEY]: "c" });
    expect(third.failures).toEqual([]);

    const rsc = await consumers.check({}, { workspaceId: "ws-claimed2", consumerIds: [], [CLAIMANT_KEY]: "readers" });
    expect(rsc.failures).toEqual([]);
    const both = await settings.check(
      {},
      { workspaceId: "ws-claimed2", remoteStateConsumerIds: [], [CLAIMANT_KEY]: "s" },
    );
    expect(both.failures[0].reason).toMatch(/RemoteStateConsumers "readers"/);
  });

  it("refuses a setting a Workspace of the stack declares, in the Workspace's diff or the settings' check", async () => {
    const name = uniqueName("owned");
    const wsInputs = (await workspace.check({}, { name, autoApply: true, [CLAIMANT_KEY]: "web" })).inputs;
    const made = await workspace.create(wsInputs);
    const r = await settings.check({}, { workspaceId: made.id, autoApply: false, [CLAIMANT_KEY]: "web-settings" });
    expect(r.failures[0].reason).toMatch(/declared by both WorkspaceSettings "web-settings" and Workspace "web"/);

    // The other order: the settings claim first, the Workspace's diff (during preview) refuses.
    const other = await outOfBand();
    await checked({ workspaceId: other, description: "x" }, "first");
    const ws = await h.client.workspaces.read(other);
    const news = (
      await workspace.check({}, { name: ws.name, organization: h.org, description: "y", [CLAIMANT_KEY]: "late" })
    ).inputs;
    await expect(workspace.diff(other, {}, news)).rejects.toThrow(
      /description of workspace .* declared by both Workspace "late" and WorkspaceSettings "first"/,
    );
  });
});

describe("no cycle (terraform-provider-tfe #1111): a pool that allows the workspace in the same deployment", () => {
  const allowed = implementationOf("AgentPoolAllowedWorkspaces");

  async function privatePool(): Promise<string> {
    const pool = await api(h, "POST", `/organizations/${h.org}/agent-pools`, {
      data: { type: "agent-pools", attributes: { name: uniqueName("private"), "organization-scoped": false } },
    });
    expect(pool.status).toBe(201);
    return pool.json.data.id as string;
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** The allowance as the engine runs it: check (declares it), then create (writes it). */
  async function allow(poolId: string, wsId: string, claimant: string) {
    const r = await allowed.check({}, { agentPoolId: poolId, workspaceIds: [wsId], [CLAIMANT_KEY]: claimant });
    expect(r.failures).toEqual([]);
    return { create: () => allowed.create(r.inputs) };
  }

  it("settings started before the allowance is declared wait for it and land, then destroy frees the pool", async () => {
    const poolId = await privatePool();
    const id = await outOfBand();
    const before = await serverView(id);
    const inputs = await checked({ workspaceId: id, executionMode: "agent", agentPoolId: poolId });
    const settingsCreate = settings.create(inputs);
    await sleep(300);
    const list = await allow(poolId, id, "allow-web-a");
    await sleep(300);
    const made = await list.create();
    const { outs } = await settingsCreate;
    const ws = await h.client.workspaces.read(id);
    expect([ws.executionMode, ws.agentPoolId]).toEqual(["agent", poolId]);
    expect(outs.previous).toMatchObject({ executionMode: "remote", agentPoolId: null });

    // Destroy in one run: settings and list (independent) first, then the pool.
    await Promise.all([settings.delete(id, asStored(outs)), allowed.delete(made.id, made.outs)]);
    expect(changedKeys(before, await serverView(id))).toEqual([]);
    expect((await api(h, "DELETE", `/agent-pools/${poolId}`)).status).toBe(204);
  });

  it("settings refused after the allowance was declared wait for its write", async () => {
    const poolId = await privatePool();
    const id = await outOfBand();
    const list = await allow(poolId, id, "allow-web-b");
    const inputs = await checked({ workspaceId: id, executionMode: "agent", agentPoolId: poolId });
    const settingsCreate = settings.create(inputs);
    await sleep(500);
    await list.create();
    await settingsCreate;
    expect((await h.client.workspaces.read(id)).agentPoolId).toBe(poolId);
  });

  it("without an allowance in the stack: one message naming the pool, the workspace and the way out", async () => {
    const poolId = await privatePool();
    const id = await outOfBand();
    const inputs = await checked({ workspaceId: id, executionMode: "agent", agentPoolId: poolId }, "web-on-pool");
    const err = await settings.create(inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(
      new RegExp(
        `^WorkspaceSettings "web-on-pool" cannot put workspace ".*" \\(${id}\\) on agent pool ${poolId}: .*AgentPoolAllowedWorkspaces.*organizationScoped: true`,
      ),
    );
    // Nothing was written.
    expect((await h.client.workspaces.read(id)).executionMode).toBe("remote");
  }, 15_000);

  it("a Workspace declared on such a pool says it cannot be ordered and shows the WorkspaceSettings program", async () => {
    const poolId = await privatePool();
    const inputs = (
      await workspace.check({}, { name: uniqueName("direct"), executionMode: "agent", agentPoolId: poolId })
    ).inputs;
    await expect(workspace.create(inputs)).rejects.toThrow(
      /cannot run on agent pool .*cannot be ordered.*WorkspaceSettings .*AgentPoolAllowedWorkspaces.*docs\/agent-pools\.md#one-up/,
    );
  });
});
