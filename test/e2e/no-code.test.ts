/**
 * No-code provisioning through the real engine: a module enabled for no-code
 * use, a workspace made from it with a sensitive variable, and a module
 * version bump that upgrades the workspace in place (plan, confirm, apply)
 * instead of replacing it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { createProject, createRegistryModule, workspaceByName, workspaceVars } from "./server-helpers";

const DB_PASSWORD = "e2e-db-password-4f1c9a";

const program = (version: string) => `
import * as pulumi from "@pulumi/pulumi";
import { NoCodeModule, NoCodeWorkspace } from "pulumi-workspaces";

const config = new pulumi.Config();

const network = new NoCodeModule("network", {
  registryModuleId: config.require("moduleId"),
  versionPin: ${JSON.stringify(version)},
  variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
});

const netA = new NoCodeWorkspace("net-a", {
  noCodeModuleId: network.id,
  name: "net-a",
  project: config.require("project"),
  moduleVersion: network.versionPin,
  variables: [
    { key: "region", value: "eu-west-1", category: "engine" },
    { key: "db_password", value: config.requireSecret("dbPassword"), category: "engine", sensitive: true },
  ],
  forceDelete: true,
});

export const moduleId = network.id;
export const workspaceId = netA.id;
export const moduleVersion = netA.moduleVersion;
export const lastUpgrade = netA.lastUpgrade;
`;

describe("no-code modules and workspaces through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;
  let workspaceId: string;

  beforeAll(async () => {
    server = await startTestServer({ runSpeed: 50 });
    const project = await createProject(server, "networks");
    const moduleId = await createRegistryModule(server, "network", "aws", ["1.0.0", "1.1.0"]);
    stack = await TestStack.create({
      project: "nocode-e2e",
      files: { "index.ts": program("1.0.0") },
      env: serverEnv(server),
      config: { moduleId, project },
      secretConfig: { dbPassword: DB_PASSWORD },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("enables the module and creates a workspace from it", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    workspaceId = out.workspaceId;

    const mod = await api<any>(server, `/no-code-modules/${out.moduleId}?include=variable_options`);
    expect(mod.status).toBe(200);
    expect(mod.body.data.attributes.enabled).toBe(true);
    expect(mod.body.data.attributes["version-pin"]).toBe("1.0.0");
    expect(mod.body.included?.[0]?.attributes?.options).toEqual(["eu-west-1", "us-east-1"]);

    const ws = await workspaceByName(server, "net-a");
    expect(ws.id).toBe(workspaceId);
    expect(ws.attributes["no-code-upgrade-available"]).toBe(false);
    const vars = await workspaceVars(server, workspaceId);
    expect(vars.region.value).toBe("eu-west-1");
    expect(vars.db_password.sensitive).toBe(true);
    expect(vars.db_password.value ?? null).toBeNull();
  });

  it("keeps the sensitive variable and the token out of the state in plain text", async () => {
    const text = stack.stateText();
    expect(text).not.toContain(DB_PASSWORD);
    expect(text).not.toContain(server.token);
    // There, encrypted: not dropped.
    await stack.expectEncryptedOnly([DB_PASSWORD]);
  });

  it("upgrades the workspace in place when the module version is bumped", async () => {
    stack.writeFiles({ "index.ts": program("1.1.0") });
    const p = await stack.previewJson();
    const ops = Object.fromEntries(p.steps.map((s) => [s.urn.split("::").pop(), s.op]));
    expect(ops.network).toBe("update");
    expect(ops["net-a"]).toBe("update");

    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    expect(out.workspaceId).toBe(workspaceId);
    expect(out.moduleVersion).toBe("1.1.0");
    expect(out.lastUpgrade?.status).toBe("applied");

    const ws = await workspaceByName(server, "net-a");
    expect(ws.id).toBe(workspaceId);
    expect(ws.attributes["no-code-upgrade-available"]).toBe(false);
    // The upgrade was a run on the same workspace, applied.
    const upgrade = await api<any>(
      server,
      `/no-code-modules/${out.moduleId}/workspaces/${workspaceId}/upgrade/${out.lastUpgrade.runId}`,
    );
    expect(upgrade.status).toBe(200);
    expect(upgrade.body.data.attributes.status).toBe("applied");
    await stack.expectEncryptedOnly([DB_PASSWORD]);
  });

  it("previews no change after the upgrade", async () => {
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
  });

  it("destroys the workspace and the module", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    expect((await api(server, `/workspaces/${workspaceId}`)).status).toBe(404);
  });
});
