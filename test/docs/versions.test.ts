/**
 * Every package built from this repository carries the version of the CHANGELOG's latest
 * released section, every example's range of a package from here admits that version, and
 * every version of a package from here that a page tells a reader to install (the plugin's
 * `pulumi plugin install resource workspaces X` and its `pulumi-resource-workspaces-vX`
 * tarball, `pulumi-workspaces@X`, a `"pulumi-workspaces": "^X"` range) is that version, so
 * what the README presents as available is what `npm install` gets.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
const manifest = (rel: string) =>
  JSON.parse(read(rel)) as { name: string; version: string; dependencies?: Record<string, string> };

/** The version of the first `## x.y.z` heading: the latest released section. */
function latestReleased(changelog: string): string | undefined {
  return /^## (\d+\.\d+\.\d+)\b/m.exec(changelog)?.[1];
}

/** Whether a caret, tilde or exact range admits `version` (the only forms the examples use). */
function admits(range: string, version: string): boolean {
  const m = /^([~^]?)(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (!m) return false;
  const [, op] = m;
  const [maj, min, pat] = m.slice(2).map(Number);
  const [vMaj, vMin, vPat] = version.split(".").map(Number);
  const atLeast = vMaj > maj || (vMaj === maj && (vMin > min || (vMin === min && vPat >= pat)));
  if (op === "") return vMaj === maj && vMin === min && vPat === pat;
  if (op === "~") return atLeast && vMaj === maj && vMin === min;
  // Caret: the left-most non-zero component is fixed.
  if (maj > 0) return atLeast && vMaj === maj;
  if (min > 0) return atLeast && vMaj === 0 && vMin === min;
  return vMaj === 0 && vMin === 0 && vPat === pat;
}

const PACKAGES = [
  "package.json",
  "packages/server/package.json",
  "packages/policies/package.json",
  "policies/package.json",
];

/** package.json files of the examples (each program and the policy pack). */
function exampleManifests(): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (e.name === "package.json") found.push(child);
    }
  };
  walk("examples");
  return found.sort();
}

/** The pages a reader installs from: README, CONTRIBUTING, docs/, the policy pack's, the packages' and the examples' READMEs. */
function pages(): string[] {
  const readmes = (dir: string) =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${dir}/${e.name}/README.md`)
      .filter((f) => fs.existsSync(path.join(root, f)));
  const docs = fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return [
    "README.md",
    "CONTRIBUTING.md",
    ...docs,
    "policies/README.md",
    ...readmes("packages"),
    "examples/README.md",
    ...readmes("examples"),
  ];
}

const OURS = "pulumi-workspaces(?:-policies|-server)?";
const VERSION = String.raw`\d+\.\d+\.\d+`;

/**
 * The versions of this repository's packages that `text` tells a reader to install and
 * that `version` (package.json's, a release of the CHANGELOG's) is not, or that a range
 * it shows does not admit; each as `line: what it says`.
 */
function wrongVersions(text: string, version: string, released: Set<string>): string[] {
  const exact = [
    new RegExp(String.raw`plugin install resource workspaces v?(${VERSION})`, "g"),
    new RegExp(String.raw`pulumi-resource-workspaces-v(${VERSION})`, "g"),
    new RegExp(String.raw`\b${OURS}@(${VERSION})`, "g"),
    // The SDKs and the YAML package declaration: the release's wheel, the Go module's tag,
    // `version:` of a `workspaces.yaml`, the Automation API's plugin install.
    new RegExp(String.raw`releases/download/v(${VERSION})/`, "g"),
    new RegExp(String.raw`pulumi_workspaces-(${VERSION})-`, "g"),
    new RegExp(String.raw`pulumi-workspaces/sdk@v(${VERSION})`, "g"),
    new RegExp(String.raw`^\s*version: (${VERSION})$`, "g"),
    new RegExp(String.raw`(?:PluginFromServer|plugin_from_server)\((?:ctx, )?"workspaces", "v?(${VERSION})"`, "g"),
  ];
  const range = new RegExp(String.raw`"${OURS}": "([~^]?${VERSION})"`, "g");
  const wrong: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const re of exact)
      for (const m of line.matchAll(re)) if (m[1] !== version || !released.has(m[1])) wrong.push(`${i + 1}: ${m[0]}`);
    for (const m of line.matchAll(range)) if (!admits(m[1], version)) wrong.push(`${i + 1}: ${m[0]}`);
  });
  return wrong;
}

describe("versions", () => {
  const released = latestReleased(read("CHANGELOG.md"));
  const ours = new Set(PACKAGES.map((p) => manifest(p).name));

  it("reads the latest released section of the CHANGELOG, below Unreleased", () => {
    expect(read("CHANGELOG.md")).toMatch(/^## Unreleased$/m);
    expect(released).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("gives every package the CHANGELOG's latest released version", () => {
    const wrong = PACKAGES.map((p) => [p, manifest(p).version]).filter(([, v]) => v !== released);
    expect(wrong, `CHANGELOG.md's latest release is ${released}`).toEqual([]);
  });

  it("lets every example (and the published pack) install the released version of each package from here", () => {
    const files = [...exampleManifests(), "packages/policies/package.json"];
    expect(files.length).toBeGreaterThanOrEqual(8);
    const excluded: string[] = [];
    for (const f of files) {
      for (const [dep, range] of Object.entries(manifest(f).dependencies ?? {})) {
        if (ours.has(dep) && !admits(range, released!)) excluded.push(`${f}: ${dep} ${range}`);
      }
    }
    expect(excluded, `each range must admit ${released}`).toEqual([]);
  });

  it("names, wherever a page says what to install, the version package.json and the CHANGELOG have", () => {
    const version = manifest("package.json").version;
    const releases = new Set([...read("CHANGELOG.md").matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]));
    const list = pages();
    expect(list).toEqual(expect.arrayContaining(["README.md", "docs/languages.md", "examples/quickstart/README.md"]));
    const wrong = list.flatMap((p) => wrongVersions(read(p), version, releases).map((w) => `${p}:${w}`));
    expect(wrong, `package.json says ${version}`).toEqual([]);
  });

  it("states the Python SDK's requirement of the pulumi SDK as its pyproject.toml does", () => {
    const required = /"(pulumi[<>=][^"]*)"/.exec(read("sdk/python/pyproject.toml"))?.[1];
    expect(required).toMatch(/^pulumi>=\d/);
    // A requirement the page states in its prose (an install command pins a version instead).
    const stated = [...read("docs/languages.md").matchAll(/`(pulumi>=[^`]*)`/g)].map((m) => m[1]);
    expect(stated.filter((s) => s !== required)).toEqual([]);
  });

  it("reports a planted install of another version, in each form", () => {
    const text = [
      "pulumi plugin install resource workspaces 0.3.0 --file build/pulumi-resource-workspaces-v0.3.0.tar.gz",
      "npm install pulumi-workspaces@0.9.9 pulumi-workspaces-server@1.2.3",
      '{ "pulumi-workspaces-policies": "^0.3.0", "pulumi-workspaces": "^1.2.0" }',
      "pulumi plugin install resource workspaces 1.2.0 --file build/pulumi-resource-workspaces-v1.2.0.tar.gz",
      "A stack written by 0.3.0 previews with no change.",
      "pip install https://github.com/o/n/releases/download/v0.3.0/pulumi_workspaces-0.3.0-py3-none-any.whl",
      "go get github.com/pulumi-workspaces/pulumi-workspaces/sdk@v0.3.0",
      "version: 0.3.0",
      'workspace.install_plugin_from_server("workspaces", "0.3.0", "github://...")',
    ].join("\n");
    expect(wrongVersions(text, "1.2.0", new Set(["1.2.0", "0.3.0"]))).toEqual([
      "1: plugin install resource workspaces 0.3.0",
      "1: pulumi-resource-workspaces-v0.3.0",
      "2: pulumi-workspaces@0.9.9",
      "2: pulumi-workspaces-server@1.2.3",
      '3: "pulumi-workspaces-policies": "^0.3.0"',
      "6: releases/download/v0.3.0/",
      "6: pulumi_workspaces-0.3.0-",
      "7: pulumi-workspaces/sdk@v0.3.0",
      "8: version: 0.3.0",
      '9: plugin_from_server("workspaces", "0.3.0"',
    ]);
    // A version package.json has but no release of the CHANGELOG: not installable either.
    expect(wrongVersions("npm install pulumi-workspaces@1.2.0", "1.2.0", new Set(["0.3.0"]))).toEqual([
      "1: pulumi-workspaces@1.2.0",
    ]);
  });

  it("judges ranges as npm does", () => {
    expect(admits("^0.3.0", "0.3.0")).toBe(true);
    expect(admits("^0.1.0", "0.2.0")).toBe(false);
    expect(admits("^0.3.0", "0.3.4")).toBe(true);
    expect(admits("^1.2.0", "1.9.0")).toBe(true);
    expect(admits("~1.2.0", "1.3.0")).toBe(false);
    expect(admits("0.3.0", "0.3.1")).toBe(false);
  });
});
