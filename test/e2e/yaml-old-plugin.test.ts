/**
 * A YAML stack written by the provider plugin as it was before its answers followed the
 * one list of secrets and the schema (outputs with `__inputNames`, a sensitive no-code
 * variable's plain literal stored as given, `""` sent to the service as it is) previews,
 * refreshes and updates with no change under this plugin, and the next `pulumi up` stores
 * the literal only encrypted. The earlier plugin is built from this repository's history
 * (see ./releases.ts), and the engine runs one plugin or the other from PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { repoRoot, startTestServer, TestStack } from "./harness";
import { createProject, createRegistryModule, workspaceByName } from "./server-helpers";
import { buildRelease, commits, notInHistory, parentOf } from "./releases";

const LITERAL = "old-plugin-plain-literal-8e2d";

const program = (workingDirectory: string) => `
config:
  moduleId:
    type: string
  project:
    type: string
resources:
  app:
    type: workspaces:index:Workspace
    properties:
      name: old-plugin-app
      description: ""
      workingDirectory: ${workingDirectory}
      executionMode: remote
      tagNames: [team-a]
      tags:
        env: dev
  reader:
    type: workspaces:index:Workspace
    properties:
      name: old-plugin-reader
  readers:
    type: workspaces:index:RemoteStateConsumers
    properties:
      workspaceId: \${app.id}
      consumerIds: ["\${reader.id}"]
  extra:
    type: workspaces:index:WorkspaceTags
    properties:
      workspaceId: \${reader.id}
      tagNames: [extra]
      mode: additive
  network:
    type: workspaces:index:NoCodeModule
    properties:
      registryModuleId: \${moduleId}
      versionPin: "1.0.0"
  net:
    type: workspaces:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${network.id}
      name: old-plugin-net
      project: \${project}
      forceDelete: true
      upgradeTimeoutSeconds: 600
      variables:
        - key: region
          value: eu-west-1
          category: engine
        - key: api_key
          value: ${LITERAL}
          category: env
          sensitive: true
  freeze:
    type: workspaces:index:WorkspaceLock
    properties:
      workspaceId: \${reader.id}
  retention:
    type: workspaces:index:DataRetentionPolicy
    properties:
      workspaceId: \${app.id}
      deleteOlderThanNDays: 30
`;

/** The plugin before its outputs were the schema's: the parent of the commit that stopped keeping `__inputNames` in them. */
function previousPlugin(): string {
  const [changed] = commits(["-S", "function withoutOriginInput(", "--", "src/plugin/provider.ts"]);
  if (!changed) throw notInHistory("changes withoutOriginInput in src/plugin/provider.ts");
  return parentOf(changed);
}

describe("a YAML stack written by the previous plugin, under this one", () => {
  let server: RunningServer;
  let stack: TestStack;
  let previous: string;

  /** Puts the plugin of `dist` on the stack's PATH (where the harness put this checkout's). */
  const usePlugin = (dist: string) =>
    fs.writeFileSync(
      path.join(stack.root, "plugins", "pulumi-resource-workspaces"),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(dist, "plugin", "main.js")}" "$@"\n`,
      { mode: 0o755 },
    );

  beforeAll(async () => {
    server = await startTestServer({ runSpeed: 50, selfManaged: true });
    const project = await createProject(server, "old-plugin");
    const moduleId = await createRegistryModule(server, "network", "aws", ["1.0.0"]);
    stack = await TestStack.create({
      project: "yaml-old-plugin",
      files: {},
      yaml: program("infra"),
      config: { moduleId, project, "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    previous = path.join(stack.root, "previous-plugin", "package");
    buildRelease(previousPlugin(), previous, ["src/plugin/main.ts"]);
  }, 240_000);
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("is written by the previous plugin, in its shape", async () => {
    usePlugin(path.join(previous, "dist"));
    const r = await stack.up();
    expect(r.code, r.output).toBe(0);
    const net = stack.resources("workspaces:index:NoCodeWorkspace")[0];
    expect(net.outputs).toHaveProperty("__inputNames");
    expect(stack.stateText()).toContain(LITERAL);
  });

  it("previews, refreshes and updates with no change under this plugin, and then stores the literal only encrypted", async () => {
    usePlugin(path.join(repoRoot, "dist"));
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    const refreshed = await stack.refresh(["--expect-no-changes"]);
    expect(refreshed.code, refreshed.output).toBe(0);
    const again = await stack.previewJson(["--expect-no-changes"]);
    expect(again.code, again.raw.output).toBe(0);
    const up = await stack.up(["--expect-no-changes"]);
    expect(up.code, up.output).toBe(0);
    expect(stack.stateText()).not.toContain(LITERAL);
    await stack.expectEncryptedOnly([LITERAL]);
    const net = stack.resources("workspaces:index:NoCodeWorkspace")[0];
    expect(JSON.stringify((net.inputs?.variables as unknown[])[1])).toContain("ciphertext");
  });

  it('clears with "" and drops the input names of what it updates', async () => {
    stack.writeYaml(program('""'));
    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    expect((await workspaceByName(server, "old-plugin-app")).attributes["working-directory"] || null).toBeNull();
    const app = stack.resources("workspaces:index:Workspace").find((r) => r.urn.endsWith("::app"));
    expect(app?.outputs).not.toHaveProperty("__inputNames");
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    const d = await stack.destroy();
    expect(d.code, d.output).toBe(0);
  });
});
