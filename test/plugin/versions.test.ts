/**
 * One version everywhere: package.json's version is the schema's, the Python SDK's project and
 * plugin file, the Go SDK's plugin file and default options, the plugin's GetPluginInfo and the
 * archives' names; and every SDK downloads from the release of package.json's repository.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
/* eslint-disable @typescript-eslint/no-require-imports */
const versions = require("../../scripts/release/versions.js") as {
  expected(root: string): { version: string; repository: string; server: string };
  statedVersions(root: string): Array<{ where: string; version?: string; server?: string }>;
  disagreements(root: string): string[];
  pep440(version: string): string;
};
const { pluginInfoVersion } = require("../../scripts/plugin/plugin-info.js") as {
  pluginInfoVersion: (command: string, args: string[], env: NodeJS.ProcessEnv) => Promise<string>;
};
const pack = require("../../scripts/plugin/pack.js") as {
  archiveName(version: string, platform: string): string;
  executableName(platform: string): string;
};
const { PLATFORMS } = require("../../scripts/plugin/node-sea.js") as { PLATFORMS: Record<string, unknown> };
/* eslint-enable @typescript-eslint/no-require-imports */

const { version, server } = versions.expected(root);
const temps: string[] = [];
afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the files the statements live in, with `rel` edited by `edit`. */
function copyWith(rel: string, edit: (text: string) => string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-versions-"));
  temps.push(dir);
  const files = new Set(["package.json", ...versions.statedVersions(root).map((r) => r.where.split(" ")[0])]);
  files.add("sdk/go/workspaces/internal/pulumiVersion.go");
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    const text = fs.readFileSync(path.join(root, f), "utf8");
    fs.writeFileSync(path.join(dir, f), f === rel ? edit(text) : text);
  }
  return dir;
}

describe("the release's version", () => {
  it("is stated, and the release address given, by the schema, both SDKs and every manifest", () => {
    const rows = versions.statedVersions(root);
    expect(rows.map((r) => r.where)).toEqual([
      "src/plugin/schema.json",
      "sdk/python/pyproject.toml",
      "sdk/python/pulumi_workspaces/pulumi-plugin.json",
      "sdk/go/workspaces/pulumi-plugin.json",
      "sdk/go/workspaces/internal/pulumiUtilities.go PkgResourceDefaultOpts",
      "sdk/go/workspaces/internal/pulumiUtilities.go PkgInvokeDefaultOpts",
      "sdk/python/pulumi_workspaces/_utilities.py get_plugin_download_url",
      "packages/server/package.json",
      "packages/policies/package.json",
      "policies/package.json",
    ]);
    // The engine's GitHub scheme: release `v<version>` of the repository, through the GitHub API.
    expect(server).toBe("github://api.github.com/pulumi-workspaces/pulumi-workspaces");
    expect(versions.disagreements(root)).toEqual([]);
  });

  it.each([
    "src/plugin/schema.json",
    "sdk/python/pyproject.toml",
    "sdk/python/pulumi_workspaces/pulumi-plugin.json",
    "sdk/go/workspaces/pulumi-plugin.json",
    "sdk/go/workspaces/internal/pulumiUtilities.go",
    "packages/policies/package.json",
  ])("is told apart when %s states another", (rel) => {
    // The wheel's version is PEP 440's spelling of a pre-release.
    const other = copyWith(rel, (t) =>
      t
        .split(`"${version}"`)
        .join('"9.9.9"')
        .split(`"${versions.pep440(version)}"`)
        .join('"9.9.9"'),
    );
    const wrong = versions.disagreements(other);
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.every((w) => w.startsWith(rel) && w.includes("9.9.9"))).toBe(true);
  });

  it.each([
    "src/plugin/schema.json",
    "sdk/go/workspaces/pulumi-plugin.json",
    "sdk/python/pulumi_workspaces/_utilities.py",
    "sdk/go/workspaces/internal/pulumiUtilities.go",
  ])("is told apart when %s downloads from elsewhere", (rel) => {
    const other = copyWith(rel, (t) =>
      t.split("api.github.com/pulumi-workspaces/").join("api.github.com/someone-else/"),
    );
    const wrong = versions.disagreements(other);
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.every((w) => w.startsWith(rel) && w.includes("someone-else"))).toBe(true);
  });

  it("is what the plugin reports through GetPluginInfo", async () => {
    const main = path.join(root, "dist", "plugin", "main.js");
    expect(await pluginInfoVersion(process.execPath, [main], process.env)).toBe(version);
  });

  it("names the five archives as the engine asks for them, and their executables", () => {
    expect(Object.keys(PLATFORMS).sort()).toEqual([
      "darwin-amd64",
      "darwin-arm64",
      "linux-amd64",
      "linux-arm64",
      "windows-amd64",
    ]);
    // The engine downloads `pulumi-<kind>-<name>-v<version>-<GOOS>-<GOARCH>.tar.gz`.
    for (const p of Object.keys(PLATFORMS))
      expect(pack.archiveName(version, p)).toBe(`pulumi-resource-workspaces-v${version}-${p}.tar.gz`);
    expect(pack.executableName("windows-amd64")).toBe("pulumi-resource-workspaces.exe");
    expect(pack.executableName("darwin-arm64")).toBe("pulumi-resource-workspaces");
  });
});
