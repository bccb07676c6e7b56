/**
 * The second door end to end: a YAML program declares every resource through the provider
 * plugin `pulumi-resource-workspaces` and calls a lookup through `fn::invoke`, run by the
 * real engine and the YAML language host against the local server. The provider is
 * configured through stack config (the token as a secret), not the environment.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, startTestServer, TestStack } from "./harness";
import {
  consumerIds,
  createProject,
  createRegistryModule,
  createWorkspace,
  tagBindings,
  workspaceByName,
  workspaceVars,
} from "./server-helpers";

const DB_PASSWORD = "yaml-db-password-7d2e1b";

interface Edit {
  description: string;
  tagNames: string;
  env: string;
  consumers: string;
  version: string;
  reason: string;
  days: number;
}

const FIRST: Edit = {
  description: "from yaml",
  tagNames: "[team-a, yaml]",
  env: "dev",
  consumers: '["${reader.id}"]',
  version: "1.0.0",
  reason: "migration",
  days: 30,
};

const EDITED: Edit = {
  description: "edited",
  tagNames: "[team-a]",
  env: "prod",
  consumers: '["${reader.id}", "${other.id}"]',
  version: "1.1.0",
  reason: "migration-2",
  days: 7,
};

const program = (e: Edit) => `
config:
  moduleId:
    type: string
  project:
    type: string
  dbPassword:
    type: string
    secret: true
resources:
  app:
    type: workspaces:index:Workspace
    properties:
      name: yaml-app
      description: ${e.description}
      autoApply: true
      executionMode: remote
      tagNames: ${e.tagNames}
      tags:
        env: ${e.env}
        team: platform
  reader:
    type: workspaces:index:Workspace
    properties:
      name: yaml-reader
  other:
    type: workspaces:index:Workspace
    properties:
      name: yaml-other
  readers:
    type: workspaces:index:RemoteStateConsumers
    properties:
      workspaceId: \${app.id}
      consumerIds: ${e.consumers}
  network:
    type: workspaces:index:NoCodeModule
    properties:
      registryModuleId: \${moduleId}
      versionPin: "${e.version}"
      variableOptions:
        - variableName: region
          variableType: string
          options: [eu-west-1, us-east-1]
  net:
    type: workspaces:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${network.id}
      name: yaml-net
      project: \${project}
      moduleVersion: \${network.versionPin}
      forceDelete: true
      variables:
        - key: region
          value: eu-west-1
          category: engine
        - key: db_password
          value: \${dbPassword}
          category: engine
          sensitive: true
  freeze:
    type: workspaces:index:WorkspaceLock
    properties:
      workspaceId: \${other.id}
      reason: ${e.reason}
  retention:
    type: workspaces:index:DataRetentionPolicy
    properties:
      workspaceId: \${app.id}
      deleteOlderThanNDays: ${e.days}
variables:
  found:
    fn::invoke:
      function: workspaces:index:getWorkspaces
      arguments:
        names: ["pre-*"]
outputs:
  appId: \${app.id}
  netId: \${net.id}
  moduleId: \${network.id}
  found: \${found.names}
  lastUpgrade: \${net.lastUpgrade}
`;

describe("a YAML program through the provider plugin", () => {
  let server: RunningServer;
  let stack: TestStack;
  let appId: string;
  let netId: string;

  beforeAll(async () => {
    // Self-managed: data retention policies are a self-managed server's feature.
    server = await startTestServer({ runSpeed: 50, selfManaged: true });
    const project = await createProject(server, "yaml-networks");
    const moduleId = await createRegistryModule(server, "network", "aws", ["1.0.0", "1.1.0"]);
    await createWorkspace(server, "pre-existing");
    stack = await TestStack.create({
      project: "yaml-e2e",
      files: {},
      yaml: program(FIRST),
      config: { moduleId, project, "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { dbPassword: DB_PASSWORD, "workspaces:token": server.token },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("creates every resource and calls the lookup", async () => {
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const out = await stack.outputs();
    appId = out.appId;
    netId = out.netId;
    expect(out.found).toEqual(["pre-existing"]);

    const app = await workspaceByName(server, "yaml-app");
    expect(app.id).toBe(appId);
    expect(app.attributes.description).toBe("from yaml");
    expect(app.attributes["auto-apply"]).toBe(true);
    expect([...app.attributes["tag-names"]].sort()).toEqual(["team-a", "yaml"]);
    expect(await tagBindings(server, appId)).toEqual({ env: "dev", team: "platform" });
    const reader = await workspaceByName(server, "yaml-reader");
    expect(await consumerIds(server, appId)).toEqual([reader.id]);
    expect((await workspaceByName(server, "yaml-other")).attributes.locked).toBe(true);

    const mod = await api<any>(server, `/no-code-modules/${out.moduleId}`);
    expect(mod.body.data.attributes["version-pin"]).toBe("1.0.0");
    const vars = await workspaceVars(server, netId);
    expect(vars.region.value).toBe("eu-west-1");
    expect(vars.db_password.sensitive).toBe(true);

    const policy = await api<any>(server, `/workspaces/${appId}/relationships/data-retention-policy`);
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    expect(policy.body.data.attributes["delete-older-than-n-days"]).toBe(30);
  });

  it("keeps the token and the sensitive value out of the state in plain text", async () => {
    const text = stack.stateText();
    expect(text).not.toContain(server.token);
    expect(text).not.toContain(DB_PASSWORD);
    // There, encrypted (the token as the provider's configuration): not dropped.
    await stack.expectEncryptedOnly([DB_PASSWORD, server.token]);
    const net = stack.resources("NoCodeWorkspace")[0];
    expect(JSON.stringify(net.outputs?.sensitiveValues)).toContain("ciphertext");
  });

  it("previews no change, and refreshes without drift", async () => {
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    expect(Object.keys(p.changeSummary), p.raw.output).toEqual(["same"]);
    const r = await stack.refresh(["--expect-no-changes"]);
    expect(r.code, r.output).toBe(0);
  });

  it("carries out an edit of each kind: settings, tags, consumers, an upgrade, a replacement", async () => {
    const reader = await workspaceByName(server, "yaml-reader");
    const other = await workspaceByName(server, "yaml-other");
    stack.writeYaml(program(EDITED));
    const p = await stack.previewJson();
    const ops = Object.fromEntries(p.steps.map((s) => [s.urn.split("::").pop(), s.op]));
    expect(ops).toMatchObject({
      app: "update",
      readers: "update",
      network: "update",
      net: "update",
      freeze: "replace",
      retention: "update",
    });

    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const app = await workspaceByName(server, "yaml-app");
    expect(app.id).toBe(appId);
    expect(app.attributes.description).toBe("edited");
    expect(app.attributes["tag-names"]).toEqual(["team-a"]);
    expect(await tagBindings(server, appId)).toEqual({ env: "prod", team: "platform" });
    expect(await consumerIds(server, appId)).toEqual([reader.id, other.id].sort());
    const lock = await workspaceByName(server, "yaml-other");
    expect(lock.attributes.locked).toBe(true);
    const out = await stack.outputs();
    expect(out.netId).toBe(netId);
    expect(out.lastUpgrade?.status).toBe("applied");
    const policy = await api<any>(server, `/workspaces/${appId}/relationships/data-retention-policy`);
    expect(policy.body.data.attributes["delete-older-than-n-days"]).toBe(7);

    const again = await stack.previewJson();
    expect(Object.keys(again.changeSummary), again.raw.output).toEqual(["same"]);
  });

  it("takes over an existing workspace with pulumi import, with no change to preview after", async () => {
    const pre = await workspaceByName(server, "pre-existing");
    const code = `${stack.dir}/imported.yaml`;
    const r = await stack.ok([
      "import",
      "workspaces:index:Workspace",
      "pre",
      pre.id,
      "--yes",
      "--non-interactive",
      "--protect=false",
      "--out",
      code,
    ]);
    expect(r.output).toContain("imported");
    const imported = stack.resources("Workspace").find((x) => x.urn.endsWith("::pre"));
    expect(imported?.id).toBe(pre.id);
    // The program gains the code pulumi import wrote, and then agrees with the state.
    stack.writeYaml(program(EDITED).replace("resources:\n", `resources:\n${importedResources(code)}`));
    const p = await stack.previewJson();
    expect(p.code, p.raw.output).toBe(0);
    expect(Object.keys(p.changeSummary), p.raw.output).toEqual(["same"]);
  });

  it("destroys every resource of the stack, the imported one included", async () => {
    const r = await stack.destroy();
    expect(r.code, r.output).toBe(0);
    for (const name of ["yaml-app", "yaml-reader", "yaml-other", "yaml-net", "pre-existing"]) {
      const res = await api(server, `/organizations/${server.organization}/workspaces/${name}`);
      expect(res.status, name).toBe(404);
    }
    expect(stack.resources().filter((x) => x.custom && !x.type.startsWith("pulumi:"))).toEqual([]);
  });
});

/** The `resources:` entries of a YAML file that `pulumi import --out` wrote, indented as in a program. */
function importedResources(file: string): string {
  const text = fs.readFileSync(file, "utf8");
  return text.slice(text.indexOf("resources:\n") + "resources:\n".length).replace(/\n*$/, "\n");
}
