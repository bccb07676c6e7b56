/**
 * `DataRetentionPolicy` against the real local server: in self-managed mode (set, change,
 * switch kind, read drift, remove, the 404 rule) and in hosted mode (one message that says
 * the service has no such policies and how to go on).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server";
import { WorkspacesClient, resetLimiters } from "../../src/client";
import { configureFromStack, setConfiguredSettings } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { NotVisibleError } from "../../src/resources/providers/gone";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { dataRetentionPolicyProvider as p } from "../../src/resources/providers/data-retention-policy";
import { dispatch } from "../../src/resources/entry";
import { typeTokens } from "../../src/resources/tokens";
import { DataRetentionPolicy } from "../../src/resources/data-retention-policy";
import { checkNew, partialState } from "./provider-io";
import { uniqueName } from "./helpers";

/** Points the providers at `server` with `token`, through `configure` as the engine does. */
function useServer(server: RunningServer, token = server.token): void {
  const config: Record<string, string> = {
    "workspaces:address": server.url,
    "workspaces:token": token,
    "workspaces:organization": server.organization,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
}

async function raw(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  token = server.token,
): Promise<{ status: number; json: any }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function newWorkspace(server: RunningServer): Promise<string> {
  const client = new WorkspacesClient({ address: server.url, token: server.token, rateLimit: false });
  return (await client.workspaces.create(server.organization, { name: uniqueName("drp") })).id;
}

/** The policy the service shows for the workspace, as its raw document. */
async function shown(server: RunningServer, workspaceId: string): Promise<any> {
  const r = await raw(server, "GET", `/workspaces/${workspaceId}/relationships/data-retention-policy`);
  expect(r.status).toBe(200);
  return r.json.data;
}

function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

afterEach(() => {
  setConfiguredSettings({});
  resetClients();
});

describe("check", () => {
  const ws = "ws-abc123";
  const failures = async (news: Record<string, unknown>) => (await checkNew(p, news)).failures;

  it("accepts exactly one of deleteOlderThanNDays and dontDelete: true", async () => {
    expect(await failures({ workspaceId: ws, deleteOlderThanNDays: 30 })).toEqual([]);
    expect(await failures({ workspaceId: ws, dontDelete: true })).toEqual([]);
  });

  it("names the property and the fix for each failure", async () => {
    expect(await failures({ workspaceId: ws })).toEqual([
      { property: "deleteOlderThanNDays", reason: "give deleteOlderThanNDays (a number of days) or dontDelete: true" },
    ]);
    expect(await failures({ workspaceId: ws, deleteOlderThanNDays: 7, dontDelete: true })).toEqual([
      { property: "dontDelete", reason: "give either deleteOlderThanNDays or dontDelete: true, not both" },
    ]);
    expect(await failures({ workspaceId: ws, deleteOlderThanNDays: 0 })).toEqual([
      { property: "deleteOlderThanNDays", reason: "deleteOlderThanNDays: must be at least 1" },
    ]);
    expect((await failures({ workspaceId: ws, deleteOlderThanNDays: 1.5 })).map((f) => f.property)).toEqual([
      "deleteOlderThanNDays",
    ]);
    expect((await failures({ workspaceId: ws, deleteOlderThanNDays: "30" })).map((f) => f.property)).toEqual([
      "deleteOlderThanNDays",
    ]);
    expect(await failures({ workspaceId: ws, dontDelete: false })).toEqual([
      {
        property: "dontDelete",
        reason: "dontDelete: must be true when given (give deleteOlderThanNDays instead to delete old data)",
      },
    ]);
    expect(await failures({ workspaceId: "my-workspace", dontDelete: true })).toEqual([
      { property: "workspaceId", reason: "workspaceId: must be a workspace id (ws-...)" },
    ]);
    expect(await failures({ dontDelete: true })).toEqual([
      { property: "workspaceId", reason: "workspaceId: is required" },
    ]);
  });

  it("leaves values unknown during a preview to the check that runs when they are known", async () => {
    expect(await failures({ workspaceId: UNKNOWN, deleteOlderThanNDays: UNKNOWN })).toEqual([]);
    expect(await failures({ workspaceId: ws, deleteOlderThanNDays: UNKNOWN, dontDelete: true })).toEqual([]);
  });

  it("prints failures through the entry point as the engine shows them", async () => {
    const r = (await dispatch(1, typeTokens.DataRetentionPolicy, "check", [{}, { workspaceId: ws }])) as {
      failures: { property: string; reason: string }[];
    };
    // The property is kept although the input is absent: the engine prints it before the reason.
    expect(r.failures).toEqual([
      { property: "deleteOlderThanNDays", reason: "give deleteOlderThanNDays (a number of days) or dontDelete: true" },
    ]);
  });
});

describe("diff (no request)", () => {
  const olds = partialState(p, { workspaceId: "ws-1", deleteOlderThanNDays: 30, dontDelete: false });
  it("a new number of days or a switch of kind is an update in place; another workspace replaces", async () => {
    expect(
      await p.diff("ws-1/data-retention-policy", olds, { workspaceId: "ws-1", deleteOlderThanNDays: 30 }),
    ).toMatchObject({ changes: false, replaces: [] });
    expect(
      await p.diff("ws-1/data-retention-policy", olds, { workspaceId: "ws-1", deleteOlderThanNDays: 60 }),
    ).toMatchObject({ changes: true, replaces: [] });
    expect(await p.diff("ws-1/data-retention-policy", olds, { workspaceId: "ws-1", dontDelete: true })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(
      await p.diff("ws-1/data-retention-policy", olds, { workspaceId: "ws-2", deleteOlderThanNDays: 30 }),
    ).toMatchObject({
      changes: true,
      replaces: ["workspaceId"],
      deleteBeforeReplace: true,
    });
    const dont = partialState(p, { workspaceId: "ws-1", deleteOlderThanNDays: null, dontDelete: true });
    expect(await p.diff("ws-1/data-retention-policy", dont, { workspaceId: "ws-1", dontDelete: true })).toMatchObject({
      changes: false,
    });
  });
});

describe("self-managed service", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, db: ":memory:", rateLimit: false, selfManaged: true });
    resetLimiters();
  });
  afterAll(() => server.close());

  it("sets, changes, switches kind, reads and removes the workspace's policy", async () => {
    useServer(server);
    const workspaceId = await newWorkspace(server);
    const created = await p.create({ workspaceId, deleteOlderThanNDays: 30 });
    expect(created.id).toBe(`${workspaceId}/data-retention-policy`);
    expect(created.outs).toMatchObject({
      workspaceId,
      organization: server.organization,
      deleteOlderThanNDays: 30,
      dontDelete: false,
    });
    expect(created.outs.policyId).toMatch(/\S/);
    expect(await shown(server, workspaceId)).toMatchObject({
      type: "data-retention-policy-delete-olders",
      attributes: { "delete-older-than-n-days": 30 },
    });

    const longer = await p.update(created.id, created.outs, { workspaceId, deleteOlderThanNDays: 90 });
    expect(longer.outs).toMatchObject({
      deleteOlderThanNDays: 90,
      dontDelete: false,
      organization: server.organization,
    });
    expect((await shown(server, workspaceId)).attributes["delete-older-than-n-days"]).toBe(90);

    const kept = await p.update(created.id, longer.outs, { workspaceId, dontDelete: true });
    expect(kept.outs).toMatchObject({ deleteOlderThanNDays: null, dontDelete: true });
    expect((await shown(server, workspaceId)).type).toBe("data-retention-policy-dont-deletes");

    // Drift: changed by hand, found by read, shown by the next diff.
    await raw(server, "POST", `/workspaces/${workspaceId}/relationships/data-retention-policy`, {
      data: { type: "data-retention-policy-delete-olders", attributes: { "delete-older-than-n-days": 5 } },
    });
    const read = await p.read(created.id, kept.outs);
    expect(read.props).toMatchObject({ deleteOlderThanNDays: 5, dontDelete: false });
    expect(await p.diff(created.id, read.props!, { workspaceId, dontDelete: true })).toMatchObject({
      changes: true,
      replaces: [],
    });
    // Through the entry point, as the engine calls it: the inputs read gives back are of the kind found.
    const viaEngine = (await dispatch(1, "DataRetentionPolicy", "read", [
      created.id,
      { ...kept.outs, __inputNames: ["dontDelete", "workspaceId"] },
    ])) as { inputs: unknown };
    expect(viaEngine.inputs).toEqual({ workspaceId, deleteOlderThanNDays: 5 });

    await p.delete(created.id, kept.outs);
    expect(await shown(server, workspaceId)).toBeNull();
    // Removed: a refresh drops it, and deleting again is done.
    expect(await p.read(created.id, kept.outs)).toEqual({});
    await p.delete(created.id, kept.outs);
  });

  it("takes a policy of another id (the organization default shown in place of the workspace's own) as removed", async () => {
    useServer(server);
    const workspaceId = await newWorkspace(server);
    const created = await p.create({ workspaceId, dontDelete: true });
    expect(await p.read(created.id, { ...created.outs, policyId: "drp-someone-elses" })).toEqual({});
    expect((await p.read(created.id, created.outs)).props).toMatchObject({ dontDelete: true });
  });

  it("follows the 404 rule: a deleted workspace's policy is gone for an owners token, not proven gone for a token that cannot see every workspace", async () => {
    useServer(server);
    const workspaceId = await newWorkspace(server);
    const created = await p.create({ workspaceId, deleteOlderThanNDays: 10 });
    expect((await raw(server, "DELETE", `/workspaces/${workspaceId}`)).status).toBe(204);

    const team = await raw(server, "POST", `/organizations/${server.organization}/teams`, {
      data: {
        type: "teams",
        attributes: { name: uniqueName("team"), "organization-access": { "manage-workspaces": false } },
      },
    });
    const token = (await raw(server, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes
      .token as string;
    useServer(server, token);
    const err = await rejection(p.read(created.id, created.outs));
    expect(err).toBeInstanceOf(NotVisibleError);
    expect(err.message).toContain(`the data retention policy of workspace ${workspaceId}`);
    expect(err.message).toContain("pulumi state delete <urn>");
    await expect(p.delete(created.id, created.outs)).rejects.toBeInstanceOf(NotVisibleError);

    useServer(server);
    expect(await p.read(created.id, created.outs)).toEqual({});
    await p.delete(created.id, created.outs);
  });

  it("refuses a workspace the token cannot see with a message naming workspaceId", async () => {
    useServer(server);
    const err = await rejection(p.create({ workspaceId: "ws-doesnotexist", deleteOlderThanNDays: 3 }));
    expect(err.message).toMatch(
      /^cannot set the data retention policy of workspace ws-doesnotexist: the service answered 404 for the workspace/,
    );
    expect(err.message).toContain("Check workspaceId");
  });
});

describe("hosted service (no data retention policies)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
    resetLimiters();
  });
  afterAll(() => server.close());

  it("fails create, read and delete with one message that says so and names the way out", async () => {
    useServer(server);
    const workspaceId = await newWorkspace(server);
    for (const attempt of [
      () => p.create({ workspaceId, deleteOlderThanNDays: 30 }),
      () =>
        p.read(
          `${workspaceId}/data-retention-policy`,
          partialState(p, { workspaceId, organization: server.organization, policyId: "drp-1" }),
        ),
      () =>
        p.delete(
          `${workspaceId}/data-retention-policy`,
          partialState(p, { workspaceId, organization: server.organization }),
        ),
    ]) {
      const err = await rejection(attempt());
      expect(err.message).toContain(
        `data retention policy of workspace ${workspaceId}: the service does not offer data retention policies`,
      );
      expect(err.message).toContain("only in the self-managed offering");
      expect(err.message).toContain("Remove the DataRetentionPolicy from the program");
      expect(err.message).not.toContain(server.token);
    }
  });
});

describe("resource class", () => {
  it("carries its type token", () => {
    expect(DataRetentionPolicy.__pulumiType).toBe("pulumi-nodejs:dynamic/workspaces:DataRetentionPolicy");
  });
});
