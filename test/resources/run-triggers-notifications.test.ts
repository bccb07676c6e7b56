/**
 * `RunTrigger`, `NotificationConfiguration` and `getWorkspaceOutputs` against the real
 * local server, through the entry point as the engine calls them (and the plugin where a
 * door differs): check failures with their property paths, the stack's own claims and
 * limits at preview, create, drift read back and restored, the write-only token compared
 * with the recorded one only, a pair or name that exists refused with the import id and
 * `adopt: true`, adoption with no write, a retried create that makes one configuration,
 * the take-over of an interrupted create by its origin, and the 404 rule.
 */
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { originFor } from "../../src/resources/providers/origin";
import { CLAIMANT_KEY } from "../../src/resources/process/claims";
import { MAX_RUN_TRIGGER_SOURCES } from "../../src/api/run-triggers";
import { getWorkspaceOutputs, lookupSettingsFrom } from "../../src/resources/lookups";
import { carriesCredentials, secretPaths } from "../../src/resources/secret-values";
import { workspacesProvider } from "../../src/plugin/provider";
import { api, startHarness, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;
type Failure = { property: string; reason: string };

let h: Harness;

beforeAll(async () => {
  // Its configurations name destinations off this machine, enabled: stored without delivering.
  h = await startHarness({ storeRemoteNotifications: true });
  lookupSettingsFrom(() => ({ address: h.server.url, token: h.server.token, organization: h.org }));
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => h.server.setFaults({}));

const call = (kind: string, method: string, ...args: unknown[]) =>
  dispatch(PROTOCOL, kind, method, args) as Promise<any>;

async function check(kind: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
  return call(kind, "check", olds, news);
}

async function create(kind: string, news: Props): Promise<{ id: string; outs: Props; inputs: Props }> {
  const checked = await check(kind, news);
  expect(checked.failures).toEqual([]);
  const created = await call(kind, "create", checked.inputs);
  return { ...created, inputs: checked.inputs };
}

async function diff(kind: string, id: string, olds: Props, news: Props, oldInputs: Props = {}) {
  const checked = await check(kind, news, oldInputs);
  return call(kind, "diff", id, olds, checked.inputs);
}

/** Writes the server has answered so far (POST, PATCH, DELETE). */
function writes(): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

async function newWorkspace(prefix = "rt"): Promise<string> {
  return (await h.client.workspaces.create(h.org, { name: uniqueName(prefix) })).id;
}

async function configurations(workspaceId: string) {
  const all = [];
  for await (const c of h.client.notificationConfigurations.list(workspaceId)) all.push(c);
  return all;
}

const origin = (name: string) =>
  originFor("0123456789abcdef0123456789abcdef", "proj", "dev", "NotificationConfiguration", name);

describe("RunTrigger", () => {
  it("check: a workspace that triggers itself, malformed ids, a pair twice, and the limit of sources in the stack", async () => {
    const f = async (news: Props) => (await check("RunTrigger", news)).failures;
    expect(await f({ workspaceId: "ws-a", sourceWorkspaceId: "ws-a" })).toEqual([
      { property: "sourceWorkspaceId", reason: "must be another workspace: ws-a cannot trigger its own runs" },
    ]);
    expect(await f({ workspaceId: "web", sourceWorkspaceId: "prj-1" })).toEqual([
      { property: "workspaceId", reason: "must be a workspace id (ws-...)" },
      { property: "sourceWorkspaceId", reason: "must be a workspace id (ws-...)" },
    ]);
    expect(await f({ workspaceId: "ws-a" })).toEqual([{ property: "sourceWorkspaceId", reason: "is required" }]);
    // Unknown until apply: judged by the check that runs when it is known.
    expect(await f({ workspaceId: UNKNOWN, sourceWorkspaceId: "ws-a" })).toEqual([]);

    const pair = { workspaceId: "ws-pair", sourceWorkspaceId: "ws-src" };
    expect(await f({ ...pair, [CLAIMANT_KEY]: "first" })).toEqual([]);
    expect(await f({ ...pair, [CLAIMANT_KEY]: "first" })).toEqual([]);
    const twice = await f({ ...pair, [CLAIMANT_KEY]: "second" });
    expect(twice).toHaveLength(1);
    expect(twice[0].property).toBe("sourceWorkspaceId");
    expect(twice[0].reason).toContain(`this one and "first"`);

    for (let i = 1; i <= MAX_RUN_TRIGGER_SOURCES; i++)
      expect(await f({ workspaceId: "ws-busy", sourceWorkspaceId: `ws-s${i}`, [CLAIMANT_KEY]: `t${i}` })).toEqual([]);
    const over = await f({ workspaceId: "ws-busy", sourceWorkspaceId: "ws-s99", [CLAIMANT_KEY]: "t99" });
    expect(over).toEqual([
      {
        property: "workspaceId",
        reason: expect.stringContaining(`at most ${MAX_RUN_TRIGGER_SOURCES} source workspaces per workspace`),
      },
    ]);
    // The claimant is never recorded.
    const { inputs } = await check("RunTrigger", { ...pair, [CLAIMANT_KEY]: "first" });
    expect(inputs).toEqual(pair);
  });

  it("creates, reads, refuses a pair that exists with its id and adopt: true, adopts with no write, deletes", async () => {
    const target = await newWorkspace();
    const source = await newWorkspace();
    const t = await create("RunTrigger", { workspaceId: target, sourceWorkspaceId: source });
    expect(t.id).toMatch(/^rt-/);
    expect(t.outs).toMatchObject({ workspaceId: target, sourceWorkspaceId: source });
    expect((await call("RunTrigger", "read", t.id, t.outs)).props).toMatchObject(t.outs);
    expect((await diff("RunTrigger", t.id, t.outs, t.inputs)).changes).toBe(false);
    const moved = await diff("RunTrigger", t.id, t.outs, { ...t.inputs, sourceWorkspaceId: await newWorkspace() });
    expect(moved).toMatchObject({ changes: true, replaces: ["sourceWorkspaceId"] });

    const before = writes();
    const checked = await check("RunTrigger", { workspaceId: target, sourceWorkspaceId: source });
    const refused = await call("RunTrigger", "create", checked.inputs).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(refused.message).toContain(t.id);
    expect(refused.message).toContain("adopt: true");
    const adopted = await create("RunTrigger", { workspaceId: target, sourceWorkspaceId: source, adopt: true });
    expect(adopted.id).toBe(t.id);
    // The refused create was refused before any write (a server that accepts a second trigger
    // of a pair, as OTF does, never gets one); the adoption wrote nothing.
    expect(writes() - before).toBe(0);

    await call("RunTrigger", "delete", t.id, t.outs);
    expect((await call("RunTrigger", "read", t.id, t.outs)).props).toBeUndefined();
    // Deleting again: already gone, by the 404 rule.
    await call("RunTrigger", "delete", t.id, t.outs);
  });

  it("a trigger whose source workspace was deleted is gone by the 404 rule, not a crash", async () => {
    const target = await newWorkspace();
    const source = await newWorkspace();
    const t = await create("RunTrigger", { workspaceId: target, sourceWorkspaceId: source });
    await h.client.workspaces.forceDelete(source);
    expect(await call("RunTrigger", "read", t.id, t.outs)).toEqual({});
    await call("RunTrigger", "delete", t.id, t.outs);
    await expect(call("RunTrigger", "read", "rt-1/2", {})).rejects.toThrow(/not the id of a RunTrigger/);
  });
});

describe("NotificationConfiguration", () => {
  it("check: each bad input with its property path; an unknown trigger passes through", async () => {
    const f = async (news: Props) => (await check("NotificationConfiguration", news)).failures;
    const base = { workspaceId: "ws-1", name: "alerts" };
    expect(await f({ ...base, destinationType: "slack" })).toEqual([
      { property: "url", reason: "is required for a slack destination" },
    ]);
    expect(await f({ ...base, destinationType: "generic", url: "not a url" })).toEqual([
      { property: "url", reason: "must be an http or https URL (https://host/path)" },
    ]);
    expect(await f({ ...base, destinationType: "pager", url: "https://x.test" })).toEqual([
      { property: "destinationType", reason: expect.stringContaining(`not "pager"`) },
    ]);
    expect(
      await f({ ...base, destinationType: "generic", url: "https://x.test", emailAddresses: ["a@b.test"] }),
    ).toEqual([{ property: "emailAddresses", reason: expect.stringContaining("email destinations only") }]);
    expect(await f({ ...base, destinationType: "email", url: "https://x.test", token: "t" })).toEqual([
      { property: "url", reason: expect.stringContaining("an email destination has none") },
      { property: "token", reason: expect.stringContaining("generic destination only") },
    ]);
    expect(
      await f({ ...base, destinationType: "email", emailAddresses: ["nope"], emailUserIds: ["u-1"], triggers: [3] }),
    ).toEqual([
      { property: "triggers[0]", reason: "must be a non-empty string" },
      { property: "emailAddresses[0]", reason: "must be an email address" },
      { property: "emailUserIds[0]", reason: "must be a user id (user-...)" },
    ]);
    const newer = await check("NotificationConfiguration", {
      ...base,
      destinationType: "generic",
      url: "https://x.test",
      triggers: ["run:errored", "run:someday"],
    });
    expect(newer.failures).toEqual([]);
    expect(newer.inputs).toMatchObject({ enabled: true, triggers: ["run:errored", "run:someday"] });
    expect(
      (await check("NotificationConfiguration", { ...base, destinationType: "email", [CLAIMANT_KEY]: "a" })).failures,
    ).toEqual([]);
    const twice = await f({ ...base, destinationType: "email", [CLAIMANT_KEY]: "b" });
    expect(twice).toEqual([{ property: "name", reason: expect.stringContaining(`this one and "a"`) }]);
  });

  it("url and token: which values are secret, from the one list", () => {
    expect(carriesCredentials("https://hooks.example.test/runs")).toBe(false);
    expect(carriesCredentials("https://user:pw@hooks.example.test/runs")).toBe(true);
    expect(carriesCredentials("https://hooks.example.test/runs?token=abc")).toBe(true);
    expect(carriesCredentials("https://x.logic.azure.com/workflows/1?api-version=1&sig=abc")).toBe(true);
    expect(carriesCredentials("https://hooks.slack.com/services/T0/B0/xyz")).toBe(true);
    expect(carriesCredentials("https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/x/y")).toBe(true);
    expect(carriesCredentials("https://outlook.office.com/webhook/abc/IncomingWebhook/x/y")).toBe(true);
    expect(carriesCredentials("https://outlook.office.com/mail")).toBe(false);
    expect(secretPaths("NotificationConfiguration", { url: "https://a.test/x", token: "t" })).toEqual([["token"]]);
    expect(secretPaths("NotificationConfiguration", { url: "https://u:p@a.test/x" })).toEqual([["url"]]);
  });

  it("creates, reads drift back, restores it; a token change is seen against the recorded one only", async () => {
    const ws = await newWorkspace("nc");
    const declared = {
      workspaceId: ws,
      name: "failed runs",
      destinationType: "generic",
      url: "https://hooks.example.test/hook",
      token: "first-token-7f3a",
      triggers: ["run:errored"],
    };
    const c = await create("NotificationConfiguration", declared);
    expect(c.id).toMatch(/^nc-/);
    expect(c.outs).toMatchObject({ ...declared, enabled: true, emailAddresses: [], emailUserIds: [] });
    expect((await diff("NotificationConfiguration", c.id, c.outs, declared, c.inputs)).changes).toBe(false);
    const rotated = await diff("NotificationConfiguration", c.id, c.outs, { ...declared, token: "second" }, c.inputs);
    expect(rotated).toMatchObject({ changes: true, replaces: [] });
    const retyped = await diff("NotificationConfiguration", c.id, c.outs, { ...declared, destinationType: "slack" });
    expect(retyped).toMatchObject({ changes: true, replaces: ["destinationType"], deleteBeforeReplace: true });

    // Drift made over HTTP: shown by read, restored by update.
    const patched = await api(h, "PATCH", `/notification-configurations/${c.id}`, {
      data: { type: "notification-configurations", attributes: { name: "renamed", enabled: false } },
    });
    expect(patched.status).toBe(200);
    const read = await call("NotificationConfiguration", "read", c.id, c.outs);
    expect(read.props).toMatchObject({ name: "renamed", enabled: false, token: declared.token });
    const drift = await diff("NotificationConfiguration", c.id, read.props, declared, c.inputs);
    expect(drift.changes).toBe(true);
    const restored = (await call("NotificationConfiguration", "update", c.id, read.props, c.inputs)).outs;
    expect(restored).toMatchObject({ name: "failed runs", enabled: true });
    // The token is sent when the program changes it, and only then.
    const before = writes();
    const same = (await call("NotificationConfiguration", "update", c.id, restored, c.inputs)).outs;
    expect(writes()).toBe(before);
    const checked = await check("NotificationConfiguration", { ...declared, token: "second" }, c.inputs);
    const next = (await call("NotificationConfiguration", "update", c.id, same, checked.inputs)).outs;
    expect(next.token).toBe("second");
    expect(writes()).toBe(before + 1);

    await call("NotificationConfiguration", "delete", c.id, next);
    expect(await configurations(ws)).toEqual([]);
    expect(await call("NotificationConfiguration", "read", c.id, next)).toEqual({});
  });

  it("a retried create (its answer lost) makes one configuration", async () => {
    const ws = await newWorkspace("nc");
    const checked = await check("NotificationConfiguration", {
      workspaceId: ws,
      name: "lost answer",
      destinationType: "email",
      triggers: ["run:errored"],
    });
    h.server.setFaults({ failureRate: 1, failureMode: "503", failureStage: "after", methods: ["POST"] });
    const created = await call("NotificationConfiguration", "create", checked.inputs);
    h.server.setFaults({});
    const all = await configurations(ws);
    expect(all.map((c) => c.id)).toEqual([created.id]);
    // The same create run again (a new `up`) finds the name taken: still one.
    const again = await call("NotificationConfiguration", "create", checked.inputs).catch((e: Error) => e);
    expect(again.message).toContain(created.id);
    expect(again.message).toContain("adopt: true");
    expect(await configurations(ws)).toHaveLength(1);
  });

  it("an interrupted create is taken over by the origin in its URL; one of no origin keeps the adopt: true error", async () => {
    const ws = await newWorkspace("nc");
    const inputs = {
      workspaceId: ws,
      name: "runs",
      destinationType: "generic",
      url: "https://hooks.example.test/hook",
      __origin: origin("runs"),
    };
    const first = await create("NotificationConfiguration", inputs);
    const stored = (await h.client.notificationConfigurations.read(first.id)).url;
    // The service keeps the origin in the fragment, which no delivery sends; the outputs do not show it.
    expect(stored).toBe(`https://hooks.example.test/hook#${origin("runs")}`);
    expect(first.outs.url).toBe("https://hooks.example.test/hook");
    const before = writes();
    const again = await create("NotificationConfiguration", inputs);
    expect(again.id).toBe(first.id);
    expect(writes()).toBe(before);
    expect(await configurations(ws)).toHaveLength(1);

    // Another stack's origin (another resource name), or none: never taken silently.
    const other = await check("NotificationConfiguration", { ...inputs, __origin: origin("elsewhere") });
    const refused = await call("NotificationConfiguration", "create", other.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(first.id);
    expect(refused.message).toContain("adopt: true");
    expect(await configurations(ws)).toHaveLength(1);
  });

  it("adopt: true takes over with no write when all matches; a different destination is refused", async () => {
    const ws = await newWorkspace("nc");
    const made = await h.client.notificationConfigurations.create(ws, {
      name: "by hand",
      destinationType: "slack",
      enabled: true,
      url: "https://hooks.slack.com/services/T0/B0/xyz",
      triggers: ["run:errored", "run:completed"],
    });
    const before = writes();
    const adopted = await create("NotificationConfiguration", {
      workspaceId: ws,
      name: "by hand",
      destinationType: "slack",
      url: "https://hooks.slack.com/services/T0/B0/xyz",
      triggers: ["run:completed", "run:errored"],
      adopt: true,
    });
    expect(adopted.id).toBe(made.id);
    expect(writes()).toBe(before);
    const checked = await check("NotificationConfiguration", {
      workspaceId: ws,
      name: "by hand",
      destinationType: "generic",
      url: "https://a.test/x",
      adopt: true,
    });
    await expect(call("NotificationConfiguration", "create", checked.inputs)).rejects.toThrow(
      /delivers to a slack destination/,
    );
    expect(writes()).toBe(before);
  });

  it("imports by nc- id, without a token", async () => {
    const ws = await newWorkspace("nc");
    const made = await h.client.notificationConfigurations.create(ws, {
      name: "imported",
      destinationType: "generic",
      enabled: false,
      url: "https://a.test/x",
      token: "never-read-back",
    });
    const read = await call("NotificationConfiguration", "read", made.id, {});
    expect(read.props).toMatchObject({ workspaceId: ws, name: "imported", enabled: false, token: null });
    expect(JSON.stringify(read)).not.toContain("never-read-back");
  });
});

describe("getWorkspaceOutputs", () => {
  it("reads the current outputs; only the sensitive one is a secret, on both doors", async () => {
    const ws = await newWorkspace("outs");
    const state = JSON.stringify({
      version: 4,
      serial: 1,
      lineage: "l-outs",
      outputs: {
        vpc_id: { value: "vpc-123", type: "string" },
        db_password: { value: "hunter2-outs", type: "string", sensitive: true },
      },
      resources: [],
    });
    await api(h, "POST", `/workspaces/${ws}/actions/lock`, { reason: "upload" });
    const sv = await api(h, "POST", `/workspaces/${ws}/state-versions`, {
      data: {
        type: "state-versions",
        attributes: {
          serial: 1,
          md5: createHash("md5").update(state).digest("hex"),
          lineage: "l-outs",
          state: Buffer.from(state).toString("base64"),
        },
      },
    });
    expect(sv.status).toBe(201);
    await api(h, "POST", `/workspaces/${ws}/actions/unlock`);

    const result = await getWorkspaceOutputs({ workspaceId: ws });
    expect(result.workspaceId).toBe(ws);
    expect(result.sensitiveNames).toEqual(["db_password"]);
    expect(result.outputs.vpc_id).toBe("vpc-123");
    const pulumi = await import("@pulumi/pulumi");
    expect(pulumi.Output.isInstance(result.outputs.db_password)).toBe(true);
    expect(await (result.outputs.db_password as any).isSecret).toBe(true);

    const plugin = workspacesProvider("0.0.0-test");
    const { outputs } = (await plugin.invoke!("workspaces:index:getWorkspaceOutputs", { workspaceId: ws })) as any;
    expect(outputs.outputs.vpc_id).toBe("vpc-123");
    expect(outputs.outputs.db_password).toEqual({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value: "hunter2-outs",
    });
    await expect(getWorkspaceOutputs({ workspaceId: "web" })).rejects.toThrow(/ws-/);
  });

  it("says which cause a 404 had: a readable workspace with no state yet, or no workspace the token sees", async () => {
    const ws = await newWorkspace("no-state");
    const name = (await h.client.workspaces.read(ws)).name;
    await expect(getWorkspaceOutputs({ workspaceId: ws })).rejects.toThrow(
      `cannot read the outputs of workspace "${name}" (${ws}): it has no state yet, so it has no outputs. Run the workspace once (apply the program that writes its state), then read its outputs; or check that workspaceId names the workspace you mean.`,
    );
    await expect(getWorkspaceOutputs({ workspaceId: "ws-doesnotexist1234" })).rejects.toThrow(
      "cannot read the outputs of workspace ws-doesnotexist1234: the service answered 404 for its outputs and for the workspace, so there is no such workspace or the token in use may not see it. Check workspaceId, or use a token that may read the workspace's outputs.",
    );
  });
});
