/**
 * Through the real engine: a lookup by tag feeding `RemoteStateConsumers` (read during
 * preview, run again on every update, nothing of it in state, the token taken from secret
 * stack config and found nowhere in the state), and a `DataRetentionPolicy` set, changed,
 * switched and removed on a self-managed server, and refused by a hosted one with one message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { consumerIds, createWorkspaceWithTags, setTagBindings, workspaceByName } from "./server-helpers";

const lookupProgram = `
import { Workspace, RemoteStateConsumers, getWorkspaces, getWorkspace, getWorkspacesOutput } from "pulumi-workspaces";

const network = new Workspace("network", { name: "network", globalRemoteState: false, forceDelete: true });

export = async () => {
  // Every workspace tagged reads=network may read the network's state.
  const readers = await getWorkspaces({ tags: { reads: "network" } });
  new RemoteStateConsumers("network-readers", { workspaceId: network.id, consumerIds: readers.ids });
  const appA = await getWorkspace({ name: "app-a" });
  return {
    readerNames: readers.names,
    appA: { id: appA.id, effectiveTags: appA.effectiveTags, executionMode: appA.executionMode },
    // What the service reports on its own, which a Workspace does not store.
    appAReport: { locked: appA.status.locked, createdAt: appA.status.createdAt, canUpdate: appA.permissions.canUpdate, resourceCount: appA.metrics.resourceCount },
    // The Output form, fed by another resource's output.
    networkByName: getWorkspacesOutput({ names: [network.name] }).idsByName,
  };
};
`;

const retentionProgram = `
import * as pulumi from "@pulumi/pulumi";
import { Workspace, DataRetentionPolicy } from "pulumi-workspaces";

const config = new pulumi.Config();
const retention = config.require("retention"); // a number of days, "forever" or "none"
const logs = new Workspace("logs", { name: "logs", forceDelete: true });
if (retention === "forever") new DataRetentionPolicy("logs-retention", { workspaceId: logs.id, dontDelete: true });
else if (retention !== "none") new DataRetentionPolicy("logs-retention", { workspaceId: logs.id, deleteOlderThanNDays: Number(retention) });
export const logsId = logs.id;
`;

/** Destroys the stack (and its temporary directory) and stops its server, whichever of them was made. */
async function tearDown(stack: TestStack | undefined, server: RunningServer | undefined): Promise<void> {
  if (stack) {
    await stack.destroy();
    stack.dispose();
  }
  await server?.close();
}

const LIST_ROUTE = "GET /api/v2/organizations/:organization_name/workspaces";

describe("a lookup by tag builds RemoteStateConsumers", () => {
  let server: RunningServer;
  let stack: TestStack;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    ids["app-a"] = await createWorkspaceWithTags(server, "app-a", { reads: "network", team: "apps" });
    ids["app-b"] = await createWorkspaceWithTags(server, "app-b", { reads: "network" });
    ids["app-c"] = await createWorkspaceWithTags(server, "app-c", { team: "apps" });
    const { WORKSPACES_TOKEN: token, ...withoutToken } = serverEnv(server);
    // The token only in secret stack config: the lookups read it as the providers do.
    stack = await TestStack.create({
      project: "lookups",
      files: { "index.ts": lookupProgram },
      env: withoutToken,
      secretConfig: { "workspaces:token": token },
    });
  }, 120_000);

  afterAll(() => tearDown(stack, server));

  it("reads during preview", async () => {
    const before = server.stats().byRoute[LIST_ROUTE] ?? 0;
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    expect(server.stats().byRoute[LIST_ROUTE] ?? 0).toBeGreaterThan(before);
    const ops = Object.fromEntries(p.steps.map((s) => [s.urn.split("::").pop(), s.op]));
    expect(ops).toMatchObject({ network: "create", "network-readers": "create" });
  });

  it("selects the tagged workspaces, puts nothing of the lookups in state and no token anywhere", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const network = await workspaceByName(server, "network");
    expect(await consumerIds(server, network.id)).toEqual([ids["app-a"], ids["app-b"]].sort());
    const out = await stack.outputs();
    expect(out.readerNames).toEqual(["app-a", "app-b"]);
    expect(out.appA).toEqual({
      id: ids["app-a"],
      effectiveTags: { reads: "network", team: "apps" },
      executionMode: "remote",
    });
    expect(out.appAReport).toEqual({
      locked: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      canUpdate: true,
      resourceCount: 0,
    });
    expect(out.networkByName).toEqual({ network: network.id });
    // The network workspace's state holds what the stack owns, not the service's own values.
    const stored = stack.resources(":Workspace")[0].outputs!;
    expect(stored).toHaveProperty("effectiveTags");
    for (const key of ["metrics", "status", "permissions", "createdAt"]) expect(stored).not.toHaveProperty(key);
    const types = stack
      .resources()
      .map((res) => res.type)
      .filter((t) => t.startsWith("pulumi-nodejs:dynamic/"))
      .sort();
    expect(types).toEqual([
      "pulumi-nodejs:dynamic/workspaces:RemoteStateConsumers",
      // The stack's origin key, registered with its first workspace (docs/interrupted-updates.md).
      "pulumi-nodejs:dynamic/workspaces:StackOrigin",
      "pulumi-nodejs:dynamic/workspaces:Workspace",
    ]);
    expect(stack.stateText()).not.toContain(server.token);
    expect(r.output).not.toContain(server.token);
  });

  it("finds a workspace tagged later on the next update, with no change to the program", async () => {
    await setTagBindings(server, ids["app-c"], { team: "apps", reads: "network" });
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const network = await workspaceByName(server, "network");
    expect(await consumerIds(server, network.id)).toEqual([ids["app-a"], ids["app-b"], ids["app-c"]].sort());
    expect((await stack.outputs()).readerNames).toEqual(["app-a", "app-b", "app-c"]);
  });
});

describe("DataRetentionPolicy through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;

  async function policy(workspaceId: string): Promise<any> {
    const r = await api<any>(server, `/workspaces/${workspaceId}/relationships/data-retention-policy`);
    expect(r.status).toBe(200);
    return r.body.data;
  }

  beforeAll(async () => {
    server = await startTestServer({ selfManaged: true });
    stack = await TestStack.create({
      project: "retention",
      files: { "index.ts": retentionProgram },
      env: serverEnv(server),
      config: { retention: "30" },
    });
  }, 120_000);

  afterAll(() => tearDown(stack, server));

  it("is set, changed in place, switched to dont-delete and removed", async () => {
    let r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const logsId = (await stack.outputs()).logsId as string;
    expect(await policy(logsId)).toMatchObject({
      type: "data-retention-policy-delete-olders",
      attributes: { "delete-older-than-n-days": 30 },
    });
    const [resource] = stack.resources("DataRetentionPolicy");
    expect(resource.type).toBe("pulumi-nodejs:dynamic/workspaces:DataRetentionPolicy");
    expect(resource.id).toBe(`${logsId}/data-retention-policy`);

    await stack.ok(["config", "set", "retention", "90"]);
    const p = await stack.previewJson();
    expect(p.steps.find((s) => s.urn.endsWith("::logs-retention"))?.op).toBe("update");
    r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect((await policy(logsId)).attributes["delete-older-than-n-days"]).toBe(90);
    expect(stack.resources("DataRetentionPolicy")[0].id).toBe(resource.id);

    // Switched by hand: refresh finds it, and the next preview puts the declared policy back.
    await api(server, `/workspaces/${logsId}/relationships/data-retention-policy`, {
      method: "POST",
      body: { data: { type: "data-retention-policy-dont-deletes", attributes: {} } },
    });
    expect((await stack.refresh()).code).toBe(0);
    expect(stack.resources("DataRetentionPolicy")[0].outputs).toMatchObject({
      dontDelete: true,
      deleteOlderThanNDays: null,
    });
    const back = await stack.previewJson();
    expect(back.steps.find((s) => s.urn.endsWith("::logs-retention"))?.op).toBe("update");
    r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect((await policy(logsId)).attributes["delete-older-than-n-days"]).toBe(90);

    await stack.ok(["config", "set", "retention", "forever"]);
    r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect((await policy(logsId)).type).toBe("data-retention-policy-dont-deletes");

    await stack.ok(["config", "set", "retention", "none"]);
    r = await stack.up();
    expect(r.code, r.output).toBe(0);
    expect(await policy(logsId)).toBeNull();
    expect(stack.resources("DataRetentionPolicy")).toEqual([]);
  });

  it("against the hosted offering, fails with one message that says so and names the way out", async () => {
    const hosted = await startTestServer();
    const other = await TestStack.create({
      project: "retention-hosted",
      files: { "index.ts": retentionProgram },
      env: serverEnv(hosted),
      config: { retention: "30" },
    });
    try {
      const r = await other.up();
      expect(r.code).not.toBe(0);
      expect(r.output).toMatch(
        /the service does not offer data retention policies \(they exist only in the self-managed offering/,
      );
      expect(r.output).toContain("Remove the DataRetentionPolicy from the program");
      // One diagnostic for the resource (the progress rows above it repeat what they show).
      expect(
        r.output.slice(r.output.indexOf("Diagnostics:")).match(/does not offer data retention policies/g),
      ).toHaveLength(1);
      expect(r.output).not.toMatch(/\n\s+at .*\.js:\d+/);
      await other.destroy();
    } finally {
      other.dispose();
      await hosted.close();
    }
  });
});
