/**
 * `RunTrigger`, `NotificationConfiguration` and `getWorkspaceOutputs` through the real
 * engine, from the TypeScript door, on workspaces made over HTTP: up, a no-change preview,
 * an edit (a trigger's source, a configuration's name, `enabled` and triggers), drift made
 * over HTTP that refresh shows and up restores, `pulumi import` of each by its documented
 * id, the token and a sensitive output absent from `pulumi stack export` (and present with
 * `--show-secrets`), a destroy that leaves the trigger and the configuration the stack did
 * not create, and `adopt: true` taking both over with no write.
 */
import { createHmac } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { NotFoundError, WorkspacesClient } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { uploadState } from "./server-helpers";
import { importAndForget, writesSince } from "./engine-steps";

const TOKEN = "wiring-literal-token-7d41c9";
const DB_PASSWORD = "wiring-sensitive-output-3f8e20";

interface Shape {
  source: "networkId" | "dnsId";
  name: string;
  enabled: boolean;
  triggers: string[];
  adopt?: boolean;
}

const FIRST: Shape = { source: "networkId", name: "failed runs", enabled: true, triggers: ["run:errored"] };
const EDITED: Shape = {
  source: "dnsId",
  name: "run events",
  enabled: false,
  triggers: ["run:errored", "run:completed"],
};

const program = (o: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import { NotificationConfiguration, RunTrigger, getWorkspaceOutputsOutput } from "pulumi-workspaces";

const config = new pulumi.Config();
const appId = config.require("appId");

const trigger = new RunTrigger("app-after-source", {
  workspaceId: appId,
  sourceWorkspaceId: config.require("${o.source}"),${o.adopt ? "\n  adopt: true," : ""}
});
const hook = new NotificationConfiguration("app-hook", {
  workspaceId: appId,
  name: ${JSON.stringify(o.name)},
  destinationType: "generic",
  url: config.require("hookUrl"),
  token: "${TOKEN}",
  enabled: ${o.enabled},
  triggers: ${JSON.stringify(o.triggers)},${o.adopt ? "\n  adopt: true," : ""}
});
const network = getWorkspaceOutputsOutput({ workspaceId: config.require("networkId") });

export const triggerId = trigger.id;
export const hookId = hook.id;
export const vpcId = network.apply((n) => n.outputs.vpc_id);
export const dbPassword = network.apply((n) => n.outputs.db_password);
export const sensitiveNames = network.sensitiveNames;
`;

/** A webhook receiver on loopback: what the local server delivers to. */
async function startReceiver(): Promise<{
  url: string;
  received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}> {
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("run triggers, notifications and workspace outputs through the engine (TypeScript)", () => {
  let server: RunningServer;
  let client: WorkspacesClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let stack: TestStack;
  const ws: Record<"app" | "network" | "dns" | "other", string> = { app: "", network: "", dns: "", other: "" };
  let theirTrigger: string;
  let theirHook: string;

  beforeAll(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
    client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
    for (const name of Object.keys(ws) as Array<keyof typeof ws>)
      ws[name] = (await client.workspaces.create(server.organization, { name: `wiring-${name}` })).id;
    await uploadState(server, ws.network, {
      version: 4,
      serial: 1,
      lineage: "wiring-e2e",
      outputs: {
        vpc_id: { value: "vpc-0a1b2c", type: "string" },
        db_password: { value: DB_PASSWORD, type: "string", sensitive: true },
      },
      resources: [],
    });
    // Records on the same workspaces that no stack made: a destroy leaves them.
    theirTrigger = (await client.runTriggers.create(ws.app, ws.other)).id;
    theirHook = (
      await client.notificationConfigurations.create(ws.app, {
        name: "their hook",
        destinationType: "generic",
        enabled: true,
        url: `${receiver.url}/theirs`,
        triggers: ["run:created"],
      })
    ).id;
    stack = await TestStack.create({
      project: "wiring-e2e",
      files: { "index.ts": program(FIRST) },
      env: serverEnv(server),
      config: { appId: ws.app, networkId: ws.network, dnsId: ws.dns, hookUrl: receiver.url },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
    await receiver?.close();
  });

  const outputs = async () =>
    (await stack.outputs()) as {
      triggerId: string;
      hookId: string;
      vpcId: string;
      dbPassword: string;
      sensitiveNames: string[];
    };
  const triggersOfApp = async () => {
    const all = [];
    for await (const t of client.runTriggers.list(ws.app, "inbound")) all.push(t);
    return all;
  };
  const hooksOfApp = async () => {
    const all = [];
    for await (const c of client.notificationConfigurations.list(ws.app)) all.push(c);
    return all;
  };
  // The program was type-checked by the run before; the check of no change need not do it again.
  const noChange = async () => {
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    const preview = await stack.previewJson(["--expect-no-changes"]).finally(() => {
      delete stack.env.PULUMI_NODEJS_TRANSPILE_ONLY;
    });
    expect(preview.code, preview.raw.output.slice(-4000)).toBe(0);
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
  };

  it("up creates the trigger and the configuration and reads the outputs; a preview shows no change", async () => {
    await stack.ok(["up", "--yes", "--non-interactive"]);
    const out = await outputs();
    expect(out.vpcId).toBe("vpc-0a1b2c");
    expect(out.dbPassword).toBe(DB_PASSWORD);
    expect(out.sensitiveNames).toEqual(["db_password"]);
    expect(await client.runTriggers.read(out.triggerId)).toMatchObject({
      workspaceId: ws.app,
      sourceableId: ws.network,
    });
    const hook = await client.notificationConfigurations.read(out.hookId);
    expect(hook).toMatchObject({ name: "failed runs", enabled: true, triggers: ["run:errored"] });
    // The origin rides in the fragment, which no delivery carries.
    expect(hook.url?.startsWith(`${receiver.url}#`)).toBe(true);
    await noChange();
  });

  it("the server's verification reaches the receiver without the fragment, signed with the program's token", async () => {
    const { hookId } = await outputs();
    const before = receiver.received.length;
    await client.notificationConfigurations.verify(hookId);
    const delivery = receiver.received.slice(before);
    expect(delivery).toHaveLength(1);
    expect(delivery[0].path).toBe("/hook");
    const signature = createHmac("sha512", TOKEN).update(delivery[0].body).digest("hex");
    expect(delivery[0].headers["x-tfe-notification-signature"]).toBe(signature);
  });

  it("the token and the sensitive output are absent from the export, and there with --show-secrets", async () => {
    const exported = (await stack.ok(["stack", "export"])).stdout;
    expect(exported).not.toContain(TOKEN);
    expect(exported).not.toContain(DB_PASSWORD);
    expect(exported).toContain("vpc-0a1b2c");
    const shown = (await stack.ok(["stack", "export", "--show-secrets"])).stdout;
    expect(shown).toContain(TOKEN);
    expect(shown).toContain(DB_PASSWORD);
  });

  it("an edit replaces the trigger and changes the configuration in place; then no change", async () => {
    const before = await outputs();
    stack.writeFiles({ "index.ts": program(EDITED) });
    const up = await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(up.output).toMatch(/~ 1 updated/);
    expect(up.output).toMatch(/\+-1 replaced/);
    expect(up.output).not.toMatch(/\+ \d+ created|- \d+ deleted/);
    const after = await outputs();
    expect(after.hookId).toBe(before.hookId);
    expect(after.triggerId).not.toBe(before.triggerId);
    await expect(client.runTriggers.read(before.triggerId)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.runTriggers.read(after.triggerId)).sourceableId).toBe(ws.dns);
    const hook = await client.notificationConfigurations.read(after.hookId);
    expect(hook).toMatchObject({ name: "run events", enabled: false });
    expect([...hook.triggers].sort()).toEqual(["run:completed", "run:errored"]);
    await noChange();
  });

  it("drift: changes made over HTTP show in refresh, and up restores them", async () => {
    const { triggerId, hookId } = await outputs();
    await client.notificationConfigurations.update(hookId, {
      name: "renamed by hand",
      enabled: true,
      triggers: ["run:created"],
    });
    await client.runTriggers.delete(triggerId);
    const refresh = await stack.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect(refresh.output).toMatch(/^\s+~ 1 updated$/m);
    expect(refresh.output).toMatch(/^\s+- 1 deleted$/m);
    const up = await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(up.output).toMatch(/\+ 1 created/);
    expect(up.output).toMatch(/~ 1 updated/);
    const after = await outputs();
    expect(after.hookId).toBe(hookId);
    expect((await client.runTriggers.read(after.triggerId)).sourceableId).toBe(ws.dns);
    const hook = await client.notificationConfigurations.read(hookId);
    expect(hook).toMatchObject({ name: "run events", enabled: false });
    expect([...hook.triggers].sort()).toEqual(["run:completed", "run:errored"]);
    await noChange();
  });

  it("pulumi import takes a trigger and a configuration over by their rt- and nc- ids", async () => {
    const t = await client.runTriggers.create(ws.dns, ws.network);
    const c = await client.notificationConfigurations.create(ws.dns, {
      name: "imported hook",
      destinationType: "generic",
      enabled: true,
      url: receiver.url,
      triggers: ["run:needs_attention"],
    });
    const trigger = await importAndForget(stack, "RunTrigger", "imported-trigger", t.id);
    expect(trigger?.outputs).toMatchObject({ workspaceId: ws.dns, sourceWorkspaceId: ws.network });
    const hook = await importAndForget(stack, "NotificationConfiguration", "imported-hook", c.id);
    expect(hook?.outputs).toMatchObject({
      workspaceId: ws.dns,
      name: "imported hook",
      destinationType: "generic",
      url: receiver.url,
      triggers: ["run:needs_attention"],
    });
    expect((await client.runTriggers.read(t.id)).sourceableId).toBe(ws.network);
    expect((await client.notificationConfigurations.read(c.id)).name).toBe("imported hook");
  });

  it("destroy removes what the stack made and leaves the trigger and configuration it did not create", async () => {
    const { triggerId, hookId } = await outputs();
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    await expect(client.runTriggers.read(triggerId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.notificationConfigurations.read(hookId)).rejects.toBeInstanceOf(NotFoundError);
    expect((await triggersOfApp()).map((t) => t.id)).toEqual([theirTrigger]);
    expect((await hooksOfApp()).map((c) => c.id)).toEqual([theirHook]);
  });

  it("adopt: true takes an existing trigger and configuration over with no write; then no change", async () => {
    const t = await client.runTriggers.create(ws.app, ws.network);
    const c = await client.notificationConfigurations.create(ws.app, {
      name: FIRST.name,
      destinationType: "generic",
      enabled: FIRST.enabled,
      url: receiver.url,
      token: TOKEN,
      triggers: FIRST.triggers,
    });
    stack.writeFiles({ "index.ts": program({ ...FIRST, adopt: true }) });
    const before = server.stats().byRoute;
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(writesSince(server, before)).toEqual([]);
    const out = await outputs();
    expect([out.triggerId, out.hookId]).toEqual([t.id, c.id]);
    expect((await hooksOfApp()).map((h) => h.id).sort()).toEqual([theirHook, c.id].sort());
    await noChange();
  });
});
