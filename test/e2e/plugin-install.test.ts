/**
 * The plugin as users get it: this machine's archive from scripts/plugin/pack.js (a
 * self-contained executable, no Node.js needed), used by a YAML program through the real
 * engine against the local server, with no plugin on PATH:
 *
 * - downloaded by the engine itself: the archive served on loopback at the release address
 *   the SDKs name (through the engine's download override), a fresh PULUMI_HOME, no `node`
 *   on the engine's PATH; the program asks for the SDKs' version (a package declaration
 *   beside Pulumi.yaml, as the YAML host reads it), goes up and is destroyed, and
 *   `pulumi plugin ls` shows that version;
 * - installed by hand with `pulumi plugin install resource workspaces <version> --file`.
 *
 * test/languages/plugin-download.test.ts runs the first case for a Python Automation API
 * inline program through the same `autoInstall`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, repoRoot, startTestServer, TestStack } from "./harness";
import { autoInstall, packHostArchive, sdkAsk } from "./plugin-install-release";
import { createWorkspace, workspaceByName } from "./server-helpers";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureYamlHost } = require("../../scripts/lib/engine.js") as { ensureYamlHost: () => string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pluginInfoVersion } = require("../../scripts/plugin/plugin-info.js") as {
  pluginInfoVersion: (command: string, args: string[], env: NodeJS.ProcessEnv) => Promise<string>;
};

const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
const ask = sdkAsk();

const program = (name: string) => `
resources:
  app:
    type: workspaces:index:Workspace
    properties:
      name: ${name}
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

/** The YAML program's ask for the package, as `pulumi package add` writes it for YAML. */
const packageDeclaration = [
  "packageDeclarationVersion: 1",
  `name: ${ask.name}`,
  `version: ${ask.version}`,
  `downloadUrl: ${ask.server}`,
  "",
].join("\n");

describe("the plugin archive", () => {
  let server: RunningServer;
  let preId: string;
  let archives: string;
  let archive: string;
  const stacks: TestStack[] = [];

  const yamlStack = async (project: string, name: string) => {
    const stack = await TestStack.create({
      project,
      files: {},
      yaml: program(name),
      pluginOnPath: false,
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    stacks.push(stack);
    return stack;
  };

  beforeAll(async () => {
    server = await startTestServer();
    preId = await createWorkspace(server, "pre-existing");
    archives = fs.mkdtempSync(path.join(os.tmpdir(), "pw-e2e-archives-"));
    archive = packHostArchive(archives);
  }, 300_000);
  afterAll(async () => {
    for (const s of stacks) s.dispose();
    if (archives) fs.rmSync(archives, { recursive: true, force: true });
    await server?.close();
  });

  it("is named for package.json's version, which the SDKs ask for", () => {
    expect(ask.version).toBe(version);
    expect(path.basename(archive)).toMatch(
      new RegExp(`^pulumi-resource-workspaces-v${version}-[a-z]+-(amd64|arm64)\\.tar\\.gz$`),
    );
  });

  it("is downloaded by the engine itself, offline, and serves a YAML program without Node.js", async () => {
    const stack = await yamlStack("auto-installed", "auto-app");
    fs.writeFileSync(path.join(stack.dir, "workspaces.yaml"), packageDeclaration);
    const outcome = await autoInstall(archives, stack.env, [ensureYamlHost()], async (env) => {
      stack.env = env;
      const up = await stack.up();
      expect(up.code, up.output).toBe(0);
      const app = await workspaceByName(server, "auto-app");
      const out = await stack.outputs();
      expect(out).toEqual({ appId: app.id, foundId: preId });
      const down = await stack.destroy();
      expect(down.code, down.output).toBe(0);
    });
    expect((await api(server, `/organizations/${server.organization}/workspaces/auto-app`)).status).toBe(404);

    const file = path.basename(archive);
    expect(outcome.served).toContainEqual({ path: `/releases/download/v${ask.version}/${file}`, status: 200 });
    expect(outcome.served.filter((s) => s.status !== 200)).toEqual([]);
    const listed = outcome.plugins.filter((p) => p.name === ask.name && p.kind === "resource");
    expect(listed.map((p) => p.version)).toEqual([ask.version]);
    // The executable the engine installed reports the same version, started with no PATH at all.
    expect(await pluginInfoVersion(outcome.executable, [], { PATH: "" })).toBe(ask.version);
  }, 600_000);

  it("installs from the file alone with pulumi plugin install, and serves up, preview and destroy", async () => {
    const stack = await yamlStack("installed-plugin", "installed-app");
    const install = await stack.pulumi(["plugin", "install", "resource", "workspaces", version, "--file", archive]);
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
