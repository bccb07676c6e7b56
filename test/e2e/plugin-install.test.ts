/**
 * The plugin as users install it: the tarball scripts/plugin/pack.js builds, installed
 * with `pulumi plugin install resource workspaces <version> --file <tarball>` into the
 * stack's own PULUMI_HOME (no plugin on PATH, no network), then used by a YAML program
 * through the real engine against the local server: up, a no-change preview, destroy.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, repoRoot, startTestServer, TestStack } from "./harness";
import { createWorkspace, workspaceByName } from "./server-helpers";

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

const program = `
resources:
  app:
    type: workspaces:index:Workspace
    properties:
      name: installed-app
      description: from the installed plugin
variables:
  found:
    fn::invoke:
      function: workspaces:index:getWorkspace
      arguments:
        name: pre-existing
outputs:
  appId: \${app.id}
  foundId: \${found.id}
`;

describe("the plugin tarball, installed with pulumi plugin install", () => {
  let server: RunningServer;
  let stack: TestStack;
  let tarball: string;
  let preId: string;

  beforeAll(async () => {
    server = await startTestServer();
    preId = await createWorkspace(server, "pre-existing");
    stack = await TestStack.create({
      project: "installed-plugin",
      files: {},
      yaml: program,
      pluginOnPath: false,
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    const out = path.join(stack.root, "tarball");
    tarball = execFileSync(process.execPath, [path.join(repoRoot, "scripts", "plugin", "pack.js"), out], {
      encoding: "utf8",
    }).trim();
  }, 120_000);
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("installs from the file alone, and serves a YAML program's up, preview and destroy", async () => {
    expect(path.basename(tarball)).toBe(`pulumi-resource-workspaces-v${version}.tar.gz`);
    const install = await stack.pulumi(["plugin", "install", "resource", "workspaces", version, "--file", tarball]);
    expect(install.code, install.output).toBe(0);
    const installed = path.join(stack.env.PULUMI_HOME!, "plugins", `resource-workspaces-v${version}`);
    expect(fs.readdirSync(installed).sort()).toContain("pulumi-resource-workspaces");

    const up = await stack.up();
    expect(up.code, up.output).toBe(0);
    // The engine names a plugin it found on PATH; this one comes from PULUMI_HOME.
    expect(up.output).not.toMatch(/pulumi-resource-workspaces from \$PATH/);
    const out = await stack.outputs();
    const app = await workspaceByName(server, "installed-app");
    expect(out.appId).toBe(app.id);
    expect(out.foundId).toBe(preId);
    expect(app.attributes.description).toBe("from the installed plugin");

    const preview = await stack.previewJson();
    expect(Object.keys(preview.changeSummary), preview.raw.output).toEqual(["same"]);
    const down = await stack.destroy();
    expect(down.code, down.output).toBe(0);
    expect((await api(server, `/organizations/${server.organization}/workspaces/installed-app`)).status).toBe(404);
  }, 240_000);
});
