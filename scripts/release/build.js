#!/usr/bin/env node
/**
 * Builds everything a release publishes into build/release/, and checks that all of it states
 * package.json's version:
 *
 * - the provider plugin's five archives and their checksums (scripts/plugin/pack.js); macOS
 *   executables are signed with rcodesign, which must be on PATH unless --unsigned-macos;
 * - the Python SDK's wheel (`pip wheel` of sdk/python);
 * - the npm tarballs of the package, packages/policies and packages/server (`npm pack`).
 *
 *   node scripts/release/build.js [--unsigned-macos]     (npm run release:build)
 *
 * Before building: every version the repository states agrees (./versions.js), and the
 * schema and SDKs are what the sources generate (scripts/plugin/sdks --check). After: each
 * archive holds its executable, matches the checksums file, and this machine's executable
 * reports the version through GetPluginInfo; the wheel's metadata and plugin file and each
 * tarball's manifest state the version. The release steps are in CONTRIBUTING.md.
 */
"use strict";
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { disagreements, expected, latestRelease, pep440, RELEASE } = require("./versions.js");
const pack = require("../plugin/pack.js");
const { PLATFORMS, hostPlatform } = require("../plugin/node-sea.js");
const { pluginInfoVersion } = require("../plugin/plugin-info.js");

const root = path.resolve(__dirname, "..", "..");
const out = path.join(root, "build", "release");
const NPM_PACKAGES = [".", "packages/policies", "packages/server"];

const log = (m) => console.error(`[release] ${m}`);
function fail(message) {
  console.error(`[release] error: ${message}`);
  process.exit(1);
}
const run = (cmd, args, cwd = root) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
const sha256 = (file) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

async function checkArchives(version, wrong) {
  const sums = fs
    .readFileSync(path.join(out, pack.checksumsName(version)), "utf8")
    .trim()
    .split("\n");
  const listed = new Map(sums.map((l) => l.split(/\s+/)).map(([sum, file]) => [file, sum]));
  for (const platform of Object.keys(PLATFORMS)) {
    const name = pack.archiveName(version, platform);
    const file = path.join(out, name);
    if (!fs.existsSync(file)) {
      wrong.push(`${name} is missing`);
      continue;
    }
    const entries = run("tar", ["-tzf", file]).trim().split("\n").sort();
    const want = [pack.executableName(platform), "LICENSE", "LICENSE.node"].sort();
    if (JSON.stringify(entries) !== JSON.stringify(want)) wrong.push(`${name} holds ${entries.join(", ")}`);
    if (listed.get(name) !== sha256(file)) wrong.push(`${name} does not match ${pack.checksumsName(version)}`);
  }
  if (listed.size !== Object.keys(PLATFORMS).length)
    wrong.push(`${pack.checksumsName(version)} lists ${listed.size} archives`);

  const host = hostPlatform();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-workspaces-release-"));
  try {
    run("tar", ["-xzf", path.join(out, pack.archiveName(version, host)), "-C", dir]);
    const reported = await pluginInfoVersion(path.join(dir, pack.executableName(host)), [], { PATH: "" });
    if (reported !== version) wrong.push(`the ${host} executable reports version ${reported}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function buildWheel(version, wrong) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-workspaces-wheel-"));
  try {
    fs.cpSync(path.join(root, "sdk", "python"), dir, { recursive: true });
    run("python3", ["-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, dir]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `pulumi_workspaces-${pep440(version)}-py3-none-any.whl`;
  const wheel = path.join(out, name);
  if (!fs.existsSync(wheel)) return wrong.push(`no ${name}: pip wheel wrote ${fs.readdirSync(out).join(", ")}`);
  const read = (member) =>
    run("python3", [
      "-c",
      "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
      wheel,
      member,
    ]);
  const metadata = /^Version: (.*)$/m.exec(read(`pulumi_workspaces-${pep440(version)}.dist-info/METADATA`))?.[1];
  if (metadata !== pep440(version)) wrong.push(`${name}'s METADATA states version ${metadata}`);
  const plugin = JSON.parse(read("pulumi_workspaces/pulumi-plugin.json"));
  if (plugin.version !== version || plugin.server !== expected(root).server)
    wrong.push(`${name}'s pulumi-plugin.json asks for ${plugin.version} from ${plugin.server}`);
}

function buildNpmTarballs(version, wrong) {
  for (const rel of NPM_PACKAGES) {
    const printed = run("npm", ["pack", "--json", "--pack-destination", out], path.join(root, rel));
    const info = JSON.parse(printed.slice(printed.indexOf("[")))[0];
    const manifest = JSON.parse(run("tar", ["-xzOf", path.join(out, info.filename), "package/package.json"]));
    if (manifest.version !== version) wrong.push(`${info.filename} states version ${manifest.version}`);
  }
}

async function main() {
  const unsignedMacos = process.argv.includes("--unsigned-macos");
  const { version } = expected(root);
  const stated = disagreements(root);
  if (stated.length) fail(`the repository states more than one version:\n  ${stated.join("\n  ")}`);
  const changelog = fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8");
  if (!RELEASE.test(version))
    fail(
      `the tree states ${version}, a pre-release: make the release first (npm run release -- [<version>] [--dry-run])`,
    );
  if (latestRelease(changelog) !== version)
    fail(
      `CHANGELOG.md's latest release is not ${version}: move its Unreleased entries under "## ${version} (date)" first`,
    );
  log(`version ${version}: schema and SDKs against the sources`);
  run("node", ["scripts/plugin/schema.js", "--check"]);
  run("bash", ["scripts/plugin/sdks", "--check"]);

  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  log("plugin archives");
  run("node", ["scripts/plugin/pack.js", "--platform", "all", ...(unsignedMacos ? [] : ["--require-signing"]), out]);
  const wrong = [];
  await checkArchives(version, wrong);
  log("Python wheel");
  buildWheel(version, wrong);
  log("npm tarballs");
  buildNpmTarballs(version, wrong);
  if (wrong.length) fail(`the release's files disagree with version ${version}:\n  ${wrong.join("\n  ")}`);

  for (const f of fs.readdirSync(out).sort())
    console.log(`${f}  ${(fs.statSync(path.join(out, f)).size / 1e6).toFixed(1)} MB`);
  log(`every file states version ${version}${unsignedMacos ? " (macOS executables NOT signed)" : ""}`);
}

main().catch((err) => fail(err.message));
