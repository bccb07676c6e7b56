// Every place in the repository that states the release's version, or where the engine
// downloads the plugin from, read as its own consumer reads it; package.json's version is the
// one they must all state. Used by the release command and by test/plugin/versions.test.ts.
"use strict";
const fs = require("fs");
const path = require("path");

const MANIFESTS = ["packages/server/package.json", "packages/policies/package.json", "policies/package.json"];

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

  const pyproject = read("sdk/python/pyproject.toml");
  const project = pyproject.split(/^\[/m).find((s) => s.startsWith("project]")) ?? "";
  rows.push({ where: "sdk/python/pyproject.toml", version: /^\s*version\s*=\s*"([^"]*)"/m.exec(project)?.[1] });

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
    if ("version" in row && row.version !== want.version)
      wrong.push(`${row.where} states version ${row.version}, package.json ${want.version}`);
    if ("server" in row && row.server !== want.server)
      wrong.push(`${row.where} downloads from ${row.server}, not ${want.server}`);
  }
  return wrong;
}

module.exports = { expected, statedVersions, disagreements };
