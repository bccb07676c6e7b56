import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import {
  NotFoundError,
  ValidationError,
  WaitTimeoutError,
  type WorkspacesClient,
  type NoCodeModule,
  type RegistryModule,
} from "../../src/client";
import { clientFor, failure, serverRequest, startTestServer, uniqueName } from "./helpers";

let server: RunningServer;
let client: WorkspacesClient;
let org: string;
let mod: RegistryModule;
let nc: NoCodeModule;

beforeAll(async () => {
  // Runs move a thousand times faster than real time: a plan takes milliseconds.
  server = await startTestServer({ runSpeed: 1000 });
  client = clientFor(server, { rateLimit: false });
  org = server.organization;
  mod = await client.registryModules.create(org, { name: uniqueName("network"), provider: "aws", noCode: true });
  for (const v of ["1.0.0", "1.1.0"])
    await client.registryModules.createVersion({ organization: org, name: mod.name, provider: "aws" }, v);
});
afterAll(async () => {
  await server?.close();
});

describe("registry modules", () => {
  it("reads a module by address and by id, lists it, and reads a version", async () => {
    const byAddress = await client.registryModules.read({ organization: org, name: mod.name, provider: "aws" });
    expect(byAddress.id).toBe(mod.id);
    expect(byAddress.id).toMatch(/^mod-/);
    expect(byAddress.versionStatuses.map((v) => v.version).sort()).toEqual(["1.0.0", "1.1.0"]);
    expect((await client.registryModules.readById(mod.id)).name).toBe(mod.name);
    expect((await client.registryModules.list(org, { search: mod.name }).all()).map((m) => m.id)).toEqual([mod.id]);
    const v = await client.registryModules.readVersion({ organization: org, name: mod.name, provider: "aws" }, "1.1.0");
    expect(v.version).toBe("1.1.0");
    expect(
      await failure(
        client.registryModules.readVersion({ organization: org, name: mod.name, provider: "aws" }, "9.9.9"),
      ),
    ).toBeInstanceOf(NotFoundError);
  });
});

describe("no-code modules", () => {
  it("enables a module with variable options, reads it with and without them, and updates it", async () => {
    nc = await client.noCode.enable(org, {
      registryModuleId: mod.id,
      versionPin: "1.0.0",
      enabled: true,
      variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] }],
    });
    expect(nc.id).toMatch(/^nocode-/);
    expect(nc.enabled).toBe(true);
    expect(nc.versionPin).toBe("1.0.0");
    expect(nc.registryModuleId).toBe(mod.id);
    expect(nc.organization).toBe(org);
    expect(nc.variableOptionIds).toHaveLength(1);

    const plain = await client.noCode.read(nc.id);
    expect(plain.variableOptions).toBeUndefined();
    const withOptions = await client.noCode.read(nc.id, { includeVariableOptions: true });
    expect(withOptions.variableOptions).toEqual([
      {
        id: nc.variableOptionIds[0],
        variableName: "region",
        variableType: "string",
        options: ["us-east-1", "eu-west-1"],
      },
    ]);

    const disabled = await client.noCode.update(nc.id, { enabled: false });
    expect(disabled.enabled).toBe(false);
    expect(disabled.versionPin).toBe("1.0.0");
    const replaced = await client.noCode.update(nc.id, {
      enabled: true,
      variableOptions: [
        {
          id: nc.variableOptionIds[0],
          variableName: "region",
          variableType: "string",
          options: ["us-east-1", "eu-west-1", "ap-south-1"],
        },
      ],
    });
    expect(replaced.variableOptionIds).toEqual(nc.variableOptionIds);
    const reread = await client.noCode.read(nc.id, { includeVariableOptions: true });
    expect(reread.variableOptions?.[0].options).toEqual(["us-east-1", "eu-west-1", "ap-south-1"]);
  });

  it("ValidationError for a malformed enable body, NotFoundError for an unknown module", async () => {
    const err = await failure(client.noCode.enable(org, { registryModuleId: "" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems.some((p) => (p.pointer ?? "").includes("registry-module"))).toBe(true);
    expect(await failure(client.noCode.read("nocode-missing"))).toBeInstanceOf(NotFoundError);
  });

  it("is refused to an organization token", async () => {
    const tok = await serverRequest(server, "POST", `/organizations/${org}/authentication-token`, {
      data: { type: "authentication-tokens" },
    });
    const orgClient = clientFor(server, { token: tok.data.attributes.token, rateLimit: false });
    const err = await failure(orgClient.noCode.createWorkspace(nc.id, { name: uniqueName("orgtoken") }));
    expect([403, 404]).toContain((err as NotFoundError).status);
  });
});

describe("workspaces from a no-code module and their upgrades", () => {
  it("creates a workspace with variables; sensitive values are never read back", async () => {
    const ws = await client.noCode.createWorkspace(nc.id, {
      name: uniqueName("from-module"),
      autoApply: true,
      description: "made from a module",
      sourceName: "tests",
      variables: [
        { key: "region", value: "us-east-1", category: "engine" },
        { key: "API_KEY", value: "s3cr3t-value", category: "env", sensitive: true, description: "key" },
      ],
    });
    expect(ws.id).toMatch(/^ws-/);
    expect(ws.autoApply).toBe(true);
    expect(ws.description).toBe("made from a module");
    expect(ws.sourceModuleId).toBe(mod.id);
    const vars = await client.variables.list(ws.id);
    expect(vars.find((v) => v.key === "region")).toMatchObject({
      value: "us-east-1",
      category: "engine",
      sensitive: false,
    });
    expect(vars.find((v) => v.key === "API_KEY")).toMatchObject({ value: null, category: "env", sensitive: true });
    expect(JSON.stringify(vars)).not.toContain("s3cr3t-value");
    const region = vars.find((v) => v.key === "region")!;
    expect(await client.variables.read(ws.id, region.id)).toEqual(region);
  });

  it("runs the plan-then-confirm upgrade to a new pinned version and new variables", async () => {
    const ws = await client.noCode.createWorkspace(nc.id, {
      name: uniqueName("upgrade"),
      variables: [{ key: "region", value: "us-east-1", category: "engine" }],
    });
    await client.noCode.update(nc.id, { versionPin: "1.1.0" });
    expect((await client.workspaces.read(ws.id)).noCodeUpgradeAvailable).toBe(true);

    const started = await client.noCode.upgrade.initiate(nc.id, ws.id, {
      variables: [{ key: "region", value: "eu-west-1", category: "engine" }],
    });
    expect(started.id).toMatch(/^run-/);
    expect(started.workspaceId).toBe(ws.id);
    const planned = await client.noCode.upgrade.waitFor(nc.id, ws.id, started.id, undefined, {
      intervalMs: 20,
      timeoutMs: 10_000,
    });
    expect(planned.status).toBe("planned");
    expect(planned.planUrl).toMatch(/^https?:\/\//);

    const reread = await client.noCode.upgrade.read(nc.id, ws.id, started.id);
    expect(reread).toMatchObject({ id: started.id, status: "planned", targetVersion: "1.1.0" });
    const confirmed = await client.noCode.upgrade.confirm(nc.id, ws.id, started.id);
    expect(confirmed.message).toMatch(/confirmed/);
    const applied = await client.noCode.upgrade.waitFor(nc.id, ws.id, started.id, ["applied", "errored"], {
      intervalMs: 20,
      timeoutMs: 10_000,
    });
    expect(applied.status).toBe("applied");

    expect((await client.workspaces.read(ws.id)).noCodeUpgradeAvailable).toBe(false);
    expect((await client.variables.list(ws.id)).find((v) => v.key === "region")?.value).toBe("eu-west-1");
  });

  it("settles at planned_and_finished when nothing changes, and errors with a message for a disallowed value", async () => {
    const ws = await client.noCode.createWorkspace(nc.id, {
      name: uniqueName("steady"),
      variables: [{ key: "region", value: "us-east-1", category: "engine" }],
    });
    const same = await client.noCode.upgrade.initiate(nc.id, ws.id, {
      variables: [{ key: "region", value: "us-east-1", category: "engine" }],
    });
    expect((await client.noCode.upgrade.waitFor(nc.id, ws.id, same.id, undefined, { intervalMs: 20 })).status).toBe(
      "planned_and_finished",
    );

    const bad = await client.noCode.upgrade.initiate(nc.id, ws.id, {
      variables: [{ key: "region", value: "mars-north-1", category: "engine" }],
    });
    const errored = await client.noCode.upgrade.waitFor(nc.id, ws.id, bad.id, undefined, { intervalMs: 20 });
    expect(errored.status).toBe("errored");
    expect(errored.errorMessage).toMatch(/region/);
  });

  it("bounds the wait for an upgrade and reports the last status", async () => {
    const slow = await startTestServer({ runSpeed: 1 });
    try {
      const c = clientFor(slow, { rateLimit: false });
      const m = await c.registryModules.create(slow.organization, { name: "slow", provider: "aws", noCode: true });
      await c.registryModules.createVersion(
        { organization: slow.organization, name: "slow", provider: "aws" },
        "1.0.0",
      );
      const n = await c.noCode.enable(slow.organization, { registryModuleId: m.id, enabled: true });
      const ws = await c.noCode.createWorkspace(n.id, { name: "slow-ws" });
      const up = await c.noCode.upgrade.initiate(n.id, ws.id, {
        variables: [{ key: "x", value: "1", category: "engine" }],
      });
      const err = await failure(
        c.noCode.upgrade.waitFor(n.id, ws.id, up.id, ["applied"], { intervalMs: 50, timeoutMs: 300 }),
      );
      expect(err).toBeInstanceOf(WaitTimeoutError);
      expect((err as WaitTimeoutError).lastStatus).toMatch(/pending|fetching|planning/);
      expect(err.message).toContain(up.id);
    } finally {
      await slow.close();
    }
  });

  it("deletes a no-code module", async () => {
    const other = await client.registryModules.create(org, { name: uniqueName("gone"), provider: "aws", noCode: true });
    await client.registryModules.createVersion({ organization: org, name: other.name, provider: "aws" }, "1.0.0");
    const m = await client.noCode.enable(org, { registryModuleId: other.id });
    expect(m.enabled).toBe(false);
    await client.noCode.delete(m.id);
    expect(await failure(client.noCode.read(m.id))).toBeInstanceOf(NotFoundError);
  });
});
