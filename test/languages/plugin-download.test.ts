/**
 * The plugin downloaded by the engine for a Python program: the Automation API inline program
 * of test/languages/python on the SDK's wheel (the venv of `scripts/test-languages --prepare`),
 * with a fresh PULUMI_HOME, and neither `node` nor any plugin on the engine's PATH. The
 * archive the preparation packed is served on loopback at the release address the SDK names
 * (test/e2e/plugin-install-release.ts). An inline program's language runtime names no plugin
 * before the program runs; the engine downloads the plugin when the SDK's first resource or
 * lookup asks for its provider with the SDK's version and download address.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, startTestServer, TestStack } from "../e2e/harness";
import { autoInstall, sdkAsk, type AutoInstalled } from "../e2e/plugin-install-release";
import { createWorkspace, workspaceByName } from "../e2e/server-helpers";
import { prepare, runProgram, type ProgramValues } from "./drivers";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pluginInfoVersion } = require("../../scripts/plugin/plugin-info.js") as {
  pluginInfoVersion: (command: string, args: string[], env: NodeJS.ProcessEnv) => Promise<string>;
};

const ask = sdkAsk();

const values: ProgramValues = {
  workspaces: { app: { name: "downloaded-app", description: "from the downloaded plugin" } },
  lookups: { names: ["pre-existing"], workspace: "pre-existing" },
  imports: [],
};

describe("the plugin downloaded by the engine for a Python program", () => {
  let server: RunningServer;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "downloaded",
      files: {},
      yaml: "resources: {}\n",
      pluginOnPath: false,
      config: { "workspaces:address": server.url, "workspaces:organization": server.organization },
      secretConfig: { "workspaces:token": server.token },
    });
    fs.writeFileSync(path.join(stack.dir, "Pulumi.yaml"), `name: ${stack.project}\nruntime: python\n`);
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  /** The release server answered the SDK's archive alone, and the engine installed that version. */
  async function expectDownloaded(outcome: AutoInstalled): Promise<void> {
    const file = path.basename(prepare().LANGUAGES_PLUGIN_TARBALL);
    expect(outcome.served).toEqual([{ path: `/releases/download/v${ask.version}/${file}`, status: 200 }]);
    const listed = outcome.plugins.filter((p) => p.name === ask.name && p.kind === "resource");
    expect(listed.map((p) => p.version)).toEqual([ask.version]);
    expect(await pluginInfoVersion(outcome.executable, [], { PATH: "" })).toBe(ask.version);
  }

  it("goes up, then is destroyed from another fresh PULUMI_HOME, the engine downloading the SDK's version each time", async () => {
    const preId = await createWorkspace(server, "pre-existing");
    // The archives and checksums the preparation packed from package.json's version.
    const archives = path.dirname(prepare().LANGUAGES_PLUGIN_TARBALL);
    const home = stack.env.PULUMI_HOME;
    const up = await autoInstall(archives, stack.env, [], async (env) => {
      stack.env = env;
      const r = await runProgram("python", stack, "up", values);
      expect(r.ok, r.output).toBe(true);
      const app = await workspaceByName(server, "downloaded-app");
      expect(r.outputs).toEqual({ ids: { app: app.id }, found: ["pre-existing"], foundId: preId });
      expect(app.attributes.description).toBe("from the downloaded plugin");

      // The SDK asked for its own version and release address, which the state keeps for
      // refresh and destroy.
      const exported = JSON.parse((await stack.ok(["stack", "export"])).stdout);
      const providers = (exported.deployment?.resources ?? []).filter(
        (x: { type: string }) => x.type === `pulumi:providers:${ask.name}`,
      );
      expect(providers.map((x: { inputs: Record<string, unknown> }) => x.inputs)).toMatchObject([
        { version: ask.version, __internal: { pluginDownloadURL: ask.server } },
      ]);
    });
    await expectDownloaded(up);

    // A CI runner that only destroys: the engine finds the plugin's version and address in the state.
    const elsewhere = { ...stack.env, PULUMI_HOME: path.join(stack.root, "another-pulumi-home") };
    expect(elsewhere.PULUMI_HOME).not.toBe(home);
    const down = await autoInstall(archives, elsewhere, [], async (env) => {
      stack.env = env;
      const r = await runProgram("python", stack, "destroy", values);
      expect(r.ok, r.output).toBe(true);
    });
    await expectDownloaded(down);
    expect((await api(server, `/organizations/${server.organization}/workspaces/downloaded-app`)).status).toBe(404);
  });
});
