/**
 * The version scheme: a checkout is never a release it is not. package.json states either a
 * release of the CHANGELOG, and then nothing the tree ships differs from the commit that gave
 * package.json that version, or a pre-release of the next release (`0.6.0-dev.0`), which is
 * what an SDK built from the checkout asks the engine for. Every package built from here
 * carries package.json's version, every example's range admits the tree's release (the
 * version, or the one the pre-release leads to), and every version of a package from here
 * that a page tells a reader to install is the CHANGELOG's latest release (what the
 * registries and the GitHub releases have), or package.json's for the archive a checkout
 * packs into build/.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
const manifest = (rel: string) =>
  JSON.parse(read(rel)) as { name: string; version: string; dependencies?: Record<string, string> };

interface Statement {
  line: number;
  said: string;
  version: string;
  names: "release" | "tree" | "range";
}
/* eslint-disable @typescript-eslint/no-require-imports */
const versions = require("../../scripts/release/versions.js") as {
  MANIFESTS: string[];
  SHIPPED: string[];
  admits: (range: string, version: string) => boolean;
  exampleManifests: (root: string) => string[];
  installPages: (root: string) => string[];
  installStatements: (text: string) => Statement[];
  latestRelease: (changelog: string) => string | undefined;
  later: (a: string, b: string) => boolean;
  releaseCommit: (gitDir: string, version: string) => string | undefined;
  releaseOf: (version: string) => string | undefined;
  restateInstalls: (text: string, o: { release: string; tree: string }) => string;
};
/* eslint-enable @typescript-eslint/no-require-imports */
const { admits } = versions;

/**
 * The statements of `text` that do not name what they must: `release` and a range's version
 * the latest release `latest` (a range admitting it), `tree` package.json's `version`.
 */
function wrongVersions(text: string, version: string, latest: string): string[] {
  return versions
    .installStatements(text)
    .filter((s) =>
      s.names === "range"
        ? !admits(/"([~^]?[^"]+)"$/.exec(s.said)![1], latest)
        : s.version !== (s.names === "tree" ? version : latest),
    )
    .map((s) => `${s.line}: ${s.said}`);
}

/** The repository with the history (the Node 22 suites run in a copy without it). */
const gitDir = process.env.WORKSPACES_SOURCE_REPO ?? root;
function git(args: string[]): string | undefined {
  try {
    return execFileSync("git", ["-C", gitDir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return undefined;
  }
}
// A packed tarball has no repository; a shallow clone lacks the commits that gave the versions.
const noHistory =
  git(["rev-parse", "--is-shallow-repository"])?.trim() !== "false"
    ? "no git history here (a packed tarball or a shallow clone): the release commits cannot be read"
    : undefined;

/** The commit that first gave package.json `version`: the release commit of that version. */
const releaseCommit = (version: string) => (noHistory ? undefined : versions.releaseCommit(gitDir, version));

/**
 * What breaks the scheme in a tree stating `version`, as sentences: a release whose shipped
 * files differ from its release commit's, a pre-release of a version already released or not
 * after the latest release, any other spelling.
 */
function schemeViolations(version: string, latest: string, shippedChanges: (commit: string) => string[]): string[] {
  const release = versions.releaseOf(version);
  if (!release) return [`package.json states ${version}: neither a release x.y.z nor a pre-release x.y.z-dev.N`];
  if (release !== version) {
    if (!versions.later(release, latest))
      return [
        `package.json states ${version}, a pre-release of ${release}, which is not after the latest release ${latest}`,
      ];
    const commit = releaseCommit(release);
    return commit ? [`package.json states ${version}, but ${commit.slice(0, 7)} already released ${release}`] : [];
  }
  if (release !== latest) return [`package.json states ${version}, but the CHANGELOG's latest release is ${latest}`];
  const commit = releaseCommit(version);
  // No commit gave package.json this version yet: this is the release being made.
  if (!commit) return [];
  const changed = shippedChanges(commit);
  return changed.length
    ? [
        `package.json states the release ${version}, but what it ships differs from its release commit ${commit.slice(0, 7)}: ` +
          `${changed.slice(0, 8).join(", ")}${changed.length > 8 ? ` and ${changed.length - 8} more` : ""}. ` +
          `Start the next version's pre-release (npm run release -- --next), or make a release (npm run release -- [<version>])`,
      ]
    : [];
}

describe("versions", () => {
  const changelog = read("CHANGELOG.md");
  const latest = versions.latestRelease(changelog)!;
  const version = manifest("package.json").version;
  const ours = new Set(["package.json", ...versions.MANIFESTS].map((p) => manifest(p).name));

  it("reads the latest released section of the CHANGELOG, below Unreleased", () => {
    expect(changelog).toMatch(/^## Unreleased$/m);
    expect(latest).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.skipIf(noHistory)(
    `states a release whose shipped files are its release commit's, or a pre-release of the next (${noHistory ?? "from git history"})`,
    () => {
      const shipped = (commit: string) =>
        (git(["diff", "--name-only", commit, "--", ...versions.SHIPPED]) ?? "").split("\n").filter(Boolean);
      expect(schemeViolations(version, latest, shipped)).toEqual([]);
    },
  );

  it("tells each way of breaking the scheme apart", () => {
    const none = () => [];
    const some = () => ["src/index.ts"];
    // 0.3.0 was released by a commit of this history (the history test skips without it).
    const released = releaseCommit("0.3.0");
    expect(schemeViolations("0.9.0-dev.0", "0.8.0", none)).toEqual([]);
    expect(schemeViolations("0.9.0-dev.0", "0.9.0", none)[0]).toMatch(/not after the latest release 0\.9\.0/);
    expect(schemeViolations("0.9.0-rc.1", "0.8.0", none)[0]).toMatch(/neither a release/);
    expect(schemeViolations("0.9.0", "0.8.0", none)[0]).toMatch(/latest release is 0\.8\.0/);
    // A release no commit gave package.json yet: the release being made.
    expect(schemeViolations("9.9.9", "9.9.9", some)).toEqual([]);
    if (released) {
      expect(schemeViolations("0.3.0", "0.3.0", none)).toEqual([]);
      expect(schemeViolations("0.3.0", "0.3.0", some)[0]).toMatch(/differs from its release commit .*src\/index\.ts/);
      expect(schemeViolations("0.3.0-dev.4", "0.2.0", none)[0]).toMatch(/already released 0\.3\.0/);
    }
  });

  it("gives every package package.json's version", () => {
    const wrong = versions.MANIFESTS.map((p) => [p, manifest(p).version]).filter(([, v]) => v !== version);
    expect(wrong, `package.json states ${version}`).toEqual([]);
  });

  it("lets every example (and the published pack) install the tree's release of each package from here", () => {
    const release = versions.releaseOf(version)!;
    const files = [...versions.exampleManifests(root), "packages/policies/package.json"];
    expect(files.length).toBeGreaterThanOrEqual(8);
    const excluded: string[] = [];
    for (const f of files) {
      for (const [dep, range] of Object.entries(manifest(f).dependencies ?? {})) {
        if (ours.has(dep) && !admits(range, release)) excluded.push(`${f}: ${dep} ${range}`);
      }
    }
    expect(excluded, `each range must admit ${release}`).toEqual([]);
  });

  it("names, wherever a page says what to install, the latest release, or package.json's version for a checkout's archive", () => {
    const list = versions.installPages(root);
    expect(list).toEqual(expect.arrayContaining(["README.md", "docs/languages.md", "examples/quickstart/README.md"]));
    const wrong = list.flatMap((p) => wrongVersions(read(p), version, latest).map((w) => `${p}:${w}`));
    expect(wrong, `the latest release is ${latest}, package.json says ${version}`).toEqual([]);
    // The checkout's path in docs/languages.md installs the plugin it packs, at the tree's version.
    const checkout = versions.installStatements(read("docs/languages.md")).filter((s) => s.names === "tree");
    expect(checkout.map((s) => s.version)).toEqual([version, version]);
  });

  it("states the Python SDK's requirement of the pulumi SDK as its pyproject.toml does", () => {
    const required = /"(pulumi[<>=][^"]*)"/.exec(read("sdk/python/pyproject.toml"))?.[1];
    expect(required).toMatch(/^pulumi>=\d/);
    // A requirement the page states in its prose (an install command pins a version instead).
    const stated = [...read("docs/languages.md").matchAll(/`(pulumi>=[^`]*)`/g)].map((m) => m[1]);
    expect(stated.filter((s) => s !== required)).toEqual([]);
  });

  it("reports a planted install of another version, in each form, and the release command restates each", () => {
    const text = [
      "pulumi plugin install resource workspaces 0.3.0 --file pulumi-resource-workspaces-v0.3.0-linux-amd64.tar.gz",
      "npm install pulumi-workspaces@0.9.9 pulumi-workspaces-server@1.2.3",
      '{ "pulumi-workspaces-policies": "^0.3.0", "pulumi-workspaces": "^1.2.0" }',
      "pulumi plugin install resource workspaces 1.2.0 --file pulumi-resource-workspaces-v1.2.0-linux-amd64.tar.gz",
      "A stack written by 0.3.0 previews with no change.",
      "pip install https://github.com/o/n/releases/download/v0.3.0/pulumi_workspaces-0.3.0-py3-none-any.whl",
      "go get github.com/pulumi-workspaces/pulumi-workspaces/sdk@v0.3.0",
      "version: 0.3.0",
      'workspace.install_plugin_from_server("workspaces", "0.3.0", "github://...")',
      "pulumi plugin install resource workspaces 1.2.0 --file build/pulumi-resource-workspaces-v1.2.0-linux-amd64.tar.gz",
      "pulumi plugin install resource workspaces 1.3.0-dev.0 --file build/pulumi-resource-workspaces-v1.3.0-dev.0-linux-amd64.tar.gz",
    ].join("\n");
    expect(wrongVersions(text, "1.3.0-dev.0", "1.2.0")).toEqual([
      "1: plugin install resource workspaces 0.3.0",
      "1: pulumi-resource-workspaces-v0.3.0-",
      "2: pulumi-workspaces@0.9.9",
      "2: pulumi-workspaces-server@1.2.3",
      '3: "pulumi-workspaces-policies": "^0.3.0"',
      "6: releases/download/v0.3.0/",
      "6: pulumi_workspaces-0.3.0-",
      "7: pulumi-workspaces/sdk@v0.3.0",
      "8: version: 0.3.0",
      '9: plugin_from_server("workspaces", "0.3.0"',
      "10: plugin install resource workspaces 1.2.0 --file build/",
      "10: build/pulumi-resource-workspaces-v1.2.0-",
    ]);
    // A release tree: the checkout's archive is the release too.
    expect(wrongVersions(text, "1.2.0", "1.2.0").slice(-2)).toEqual([
      "11: plugin install resource workspaces 1.3.0-dev.0 --file build/",
      "11: build/pulumi-resource-workspaces-v1.3.0-dev.0-",
    ]);
    const restated = versions.restateInstalls(text, { release: "1.2.0", tree: "1.3.0-dev.0" });
    expect(wrongVersions(restated, "1.3.0-dev.0", "1.2.0")).toEqual([]);
    expect(restated.split("\n")[2]).toBe('{ "pulumi-workspaces-policies": "^1.2.0", "pulumi-workspaces": "^1.2.0" }');
    expect(restated.split("\n")[4]).toBe("A stack written by 0.3.0 previews with no change.");
  });

  it("judges ranges as npm does", () => {
    expect(admits("^0.3.0", "0.3.0")).toBe(true);
    expect(admits("^0.1.0", "0.2.0")).toBe(false);
    expect(admits("^0.3.0", "0.3.4")).toBe(true);
    expect(admits("^1.2.0", "1.9.0")).toBe(true);
    expect(admits("~1.2.0", "1.3.0")).toBe(false);
    expect(admits("0.3.0", "0.3.1")).toBe(false);
    // npm's ranges exclude a pre-release: the examples admit the release it leads to.
    expect(admits("^0.6.0", "0.6.0-dev.0")).toBe(false);
  });
});
