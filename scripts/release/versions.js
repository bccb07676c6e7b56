// Every place in the repository that states the release's version, or where the engine
// downloads the plugin from, read as its own consumer reads it; package.json's version is the
// one they must all state. And the version scheme: the tree states a release `x.y.z`, or a
// pre-release of the next one, `x.y.z-dev.N` (a checkout is never a release it is not).
// Used by the release commands (build.js, release.js) and by test/plugin/versions.test.ts,
// test/docs/versions.test.ts and test/package/install.test.ts.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const MANIFESTS = ["packages/server/package.json", "packages/policies/package.json", "policies/package.json"];

/** A released version, and a pre-release of the next release (`0.6.0-dev.0`). */
const RELEASE = /^\d+\.\d+\.\d+$/;
const PRE_RELEASE = /^(\d+\.\d+\.\d+)-dev\.(\d+)$/;

/** The release a version is or leads to: `0.6.0` for `0.6.0` and for `0.6.0-dev.3`; undefined for any other spelling. */
function releaseOf(version) {
  if (RELEASE.test(version)) return version;
  return PRE_RELEASE.exec(version)?.[1];
}

/**
 * PEP 440's spelling of a version, as Pulumi's Python code generator writes it
 * (pkg/v3/codegen/python PypiVersion): `0.6.0-dev.0` is `0.6.0.dev0`, `1.0.0-rc.1` `1.0.0rc1`.
 */
const pep440 = (v) =>
  v
    .replace(/-(alpha|beta|rc)\.?(\d+)$/, (_, p, n) => `${{ alpha: "a", beta: "b", rc: "rc" }[p]}${n}`)
    .replace(/-dev\.?(\d+)$/, ".dev$1");

/** The version of the CHANGELOG's first `## x.y.z` heading: its latest release. */
const latestRelease = (changelog) => /^## (\d+\.\d+\.\d+)\b/m.exec(changelog)?.[1];

/** The release after `latest`: its minor raised (the project is before 1.0). */
function nextRelease(latest) {
  const [maj, min] = latest.split(".").map(Number);
  return `${maj}.${min + 1}.0`;
}

/** Whether `a` is a later release than `b` (both `x.y.z`). */
function later(a, b) {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

/** Whether a caret, tilde or exact range admits the release `version`, as npm judges it (the only forms used here). */
function admits(range, version) {
  const m = /^([~^]?)(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (!m || !RELEASE.test(version)) return false;
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

/**
 * The commit of the repository at `gitDir` that first gave package.json `version`: the release
 * commit of that version (undefined when none did).
 */
function releaseCommit(gitDir, version) {
  const pattern = `^  "version": "${version.replace(/\./g, "\\.")}"`;
  const log = execFileSync(
    "git",
    ["-C", gitDir, "log", "--reverse", "--format=%H", `-G${pattern}`, "--", "package.json"],
    {
      encoding: "utf8",
    },
  );
  return log.split("\n")[0] || undefined;
}

/**
 * What the tree ships, in the npm tarballs, the SDKs and the plugin: a tree that states a
 * release must hold these as the commit that gave package.json that version wrote them.
 */
const SHIPPED = [
  "package.json",
  "README.md",
  "LICENSE",
  "src",
  "sdk",
  "packages",
  "policies",
  "examples",
  ":(glob)docs/*.md",
];

const OURS = "pulumi-workspaces(?:-policies|-server)?";
// A version, never the front of a longer one.
const STATED = String.raw`\d+\.\d+\.\d+(?:-dev\.\d+)?(?![\w.]|-dev\.\d)`;

/**
 * The ways a page tells a reader to install a package from here at a version. `names` says
 * which version it must name: `release`, the CHANGELOG's latest release (what the registries
 * and the GitHub releases have); `tree`, package.json's (what a checkout builds: the archive
 * `npm run plugin:pack` writes into build/); `range`, a range that admits the latest release.
 * Each pattern's groups: the text before the version, the version, the text after.
 */
const INSTALL_FORMS = [
  // The archive a checkout packs, and the install of it: one line.
  { names: "tree", re: String.raw`(plugin install resource workspaces v?)(${STATED})( --file build/)` },
  { names: "tree", re: String.raw`(build/pulumi-resource-workspaces-v)(${STATED})(-)` },
  { names: "release", re: String.raw`(plugin install resource workspaces v?)(${STATED})(?! --file build/)()` },
  { names: "release", re: String.raw`((?<!build/)pulumi-resource-workspaces-v)(${STATED})(-)` },
  { names: "release", re: String.raw`(\b${OURS}@)(${STATED})()` },
  // The SDKs and the YAML package declaration: the release's wheel, the Go module's tag,
  // `version:` of a `workspaces.yaml`, the Automation API's plugin install.
  { names: "release", re: String.raw`(releases/download/v)(${STATED})(/)` },
  { names: "release", re: String.raw`(pulumi_workspaces-)(${STATED})(-)` },
  { names: "release", re: String.raw`(pulumi-workspaces/sdk@v)(${STATED})()` },
  { names: "release", re: String.raw`(^\s*version: )(${STATED})($)` },
  {
    names: "release",
    re: String.raw`((?:PluginFromServer|plugin_from_server)\((?:ctx, )?"workspaces", "v?)(${STATED})(")`,
  },
  { names: "range", re: String.raw`("${OURS}": "[~^]?)(${STATED})(")` },
];

/** Each install statement of `text`: `{ line, said, version, names }` (`said` is the matched text). */
function installStatements(text) {
  const found = [];
  text.split("\n").forEach((line, i) => {
    for (const form of INSTALL_FORMS)
      for (const m of line.matchAll(new RegExp(form.re, "g")))
        found.push({ line: i + 1, said: m[0], version: m[2], names: form.names });
  });
  return found;
}

/**
 * `text` with every install statement naming what it must: `release` for the released forms
 * and ranges (a range keeps its operator), `tree` for a checkout's archive.
 */
function restateInstalls(text, { release, tree }) {
  return text
    .split("\n")
    .map((line) => {
      for (const form of INSTALL_FORMS)
        line = line.replace(
          new RegExp(form.re, "g"),
          (_, before, _v, after) => `${before}${form.names === "tree" ? tree : release}${after}`,
        );
      return line;
    })
    .join("\n");
}

/** The pages a reader installs from: README, CONTRIBUTING, docs/, the policy pack's, the packages' and the examples' READMEs. */
function installPages(root) {
  const readmes = (dir) =>
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

/** package.json files of the examples (each program and the policy pack), relative to `root`. */
function exampleManifests(root) {
  const found = [];
  const walk = (rel) => {
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

/**
 * What package.json implies: its version, its repository, and the address the engine downloads
 * the plugin from, the engine's GitHub scheme for that repository. The engine reads release
 * `v<version>` through the GitHub API and downloads its asset
 * `pulumi-resource-workspaces-v<version>-<os>-<arch>.tar.gz`.
 */
function expected(root) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const repository = pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
  const github = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(repository);
  if (!github) throw new Error(`package.json's repository ${repository} is no https://github.com/<owner>/<name>`);
  return { version: pkg.version, repository, server: `github://api.github.com/${github[1]}` };
}

/**
 * `{ where, version, server? }` for each statement: the schema, the Python SDK's project and
 * plugin file, the Go SDK's plugin file and the version and address its resources and
 * invokes ask for, the Python SDK's download address, and the npm manifests.
 */
function statedVersions(root) {
  const read = (rel) => fs.readFileSync(path.join(root, rel), "utf8");
  const json = (rel) => JSON.parse(read(rel));
  const rows = [];
  const schema = json("src/plugin/schema.json");
  rows.push({ where: "src/plugin/schema.json", version: schema.version, server: schema.pluginDownloadURL });

  // The wheel's version is PEP 440's spelling of it.
  const pyproject = read("sdk/python/pyproject.toml");
  const project = pyproject.split(/^\[/m).find((s) => s.startsWith("project]")) ?? "";
  const pyVersion = /^\s*version\s*=\s*"([^"]*)"/m.exec(project)?.[1];
  rows.push({ where: "sdk/python/pyproject.toml", version: pyVersion, pep440: true });

  for (const rel of ["sdk/python/pulumi_workspaces/pulumi-plugin.json", "sdk/go/workspaces/pulumi-plugin.json"]) {
    const plugin = json(rel);
    const named = plugin.resource === true && plugin.name === schema.name;
    rows.push({ where: rel, version: named ? plugin.version : `(names ${plugin.name})`, server: plugin.server });
  }

  // Go: the default options of every resource and invoke (SdkVersion is left empty by the
  // code generator, for `-ldflags -X`; when set, it must agree too).
  const utilities = read("sdk/go/workspaces/internal/pulumiUtilities.go");
  for (const kind of ["Resource", "Invoke"]) {
    const body = new RegExp(`func Pkg${kind}DefaultOpts\\([\\s\\S]*?\\n}`).exec(utilities)?.[0] ?? "";
    rows.push({
      where: `sdk/go/workspaces/internal/pulumiUtilities.go Pkg${kind}DefaultOpts`,
      version: /semver\.MustParse\("([^"]*)"\)/.exec(body)?.[1],
      server: /pulumi\.PluginDownloadURL\("([^"]*)"\)/.exec(body)?.[1],
    });
  }
  const sdkVersion = /var SdkVersion semver\.Version = (.*)/.exec(
    read("sdk/go/workspaces/internal/pulumiVersion.go"),
  )?.[1];
  if (sdkVersion !== "semver.Version{}") {
    rows.push({
      where: "sdk/go/workspaces/internal/pulumiVersion.go SdkVersion",
      version: /semver\.MustParse\("([^"]*)"\)/.exec(sdkVersion ?? "")?.[1],
    });
  }

  const pyUtilities = read("sdk/python/pulumi_workspaces/_utilities.py");
  rows.push({
    where: "sdk/python/pulumi_workspaces/_utilities.py get_plugin_download_url",
    server: /def get_plugin_download_url\(\):\s*return "([^"]*)"/.exec(pyUtilities)?.[1],
  });

  for (const rel of MANIFESTS) rows.push({ where: rel, version: json(rel).version });
  return rows;
}

/** Each statement that disagrees with package.json, as a sentence; empty when all agree. */
function disagreements(root) {
  const want = expected(root);
  const wrong = [];
  for (const row of statedVersions(root)) {
    const version = row.pep440 ? pep440(want.version) : want.version;
    if ("version" in row && row.version !== version)
      wrong.push(
        `${row.where} states version ${row.version}, package.json ${want.version}${row.pep440 ? ` (${version} there)` : ""}`,
      );
    if ("server" in row && row.server !== want.server)
      wrong.push(`${row.where} downloads from ${row.server}, not ${want.server}`);
  }
  return wrong;
}

module.exports = {
  MANIFESTS,
  SHIPPED,
  RELEASE,
  admits,
  disagreements,
  exampleManifests,
  expected,
  installPages,
  installStatements,
  latestRelease,
  later,
  nextRelease,
  pep440,
  releaseCommit,
  releaseOf,
  restateInstalls,
  statedVersions,
};
