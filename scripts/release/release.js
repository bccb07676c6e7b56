#!/usr/bin/env node
/**
 * Makes a release, or starts the next version's pre-release (CONTRIBUTING.md "Releasing").
 *
 *   npm run release -- [<version>] [--dry-run] [--unsigned-macos]
 *   npm run release -- --next [<x.y.z-dev.N>] [--dry-run]
 *
 * A release: moves the CHANGELOG's `## Unreleased` entries under `## <version> (<date>)`,
 * leaving an empty `## Unreleased`; gives package.json, packages/*, policies/ and the two
 * lock files that version, every example's range of a package from here `^<version>`, and
 * every install line of the pages that version (scripts/release/versions.js); regenerates
 * the schema and the SDKs, which state it (`node scripts/plugin/schema.js && bash
 * scripts/plugin/sdks`); builds the package and every release file into build/release/
 * (scripts/release/build.js, which checks that each states the version); runs the version
 * tests; and commits `Release <version>`. The version defaults to the tree's pre-release
 * without its suffix (0.6.0 for 0.6.0-dev.2), or the tree's release, whose files it builds
 * again (nothing to commit) as long as the tree still holds exactly what its release commit
 * shipped; otherwise name the next version.
 *
 * `--next` starts the pre-release of the next version (default: the latest release with its
 * minor raised, `-dev.0`) once the tree holds more than its release: the packages, the SDKs
 * and the examples' ranges then state it, and it commits `Begin <version>`.
 *
 * `--dry-run` does all of it in a clone of HEAD in a temporary folder (the checkout's
 * node_modules linked in) and commits nothing: the checkout is left untouched, and the
 * output says where the release files are. Without it, the checkout must have no
 * uncommitted change to a tracked file. `--unsigned-macos` builds the macOS executables
 * without rcodesign (a trial only: Apple silicon runs no unsigned executable).
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const versions = require("./versions.js");

const checkout = path.resolve(__dirname, "..", "..");
const log = (m) => console.error(`[release] ${m}`);
function fail(message) {
  console.error(`[release] error: ${message}`);
  process.exit(1);
}
const run = (cmd, args, cwd, capture = false) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", capture ? "pipe" : "inherit", "inherit"] });

function parseArgs(argv) {
  const opts = { version: undefined, dryRun: false, unsignedMacos: false, next: false };
  for (const a of argv) {
    if (a === "--dry-run") opts.dryRun = true;
    else if (a === "--unsigned-macos") opts.unsignedMacos = true;
    else if (a === "--next") opts.next = true;
    else if (!a.startsWith("-") && opts.version === undefined) opts.version = a.replace(/^v/, "");
    else
      fail(`unknown argument ${a}: npm run release -- [<version>] [--dry-run] [--unsigned-macos] | --next [<version>]`);
  }
  return opts;
}

/** The version to make, checked against the tree's and the CHANGELOG's. */
function target(opts, stated, latest) {
  if (opts.next) {
    if (stated !== latest)
      fail(`the tree states ${stated}, not its latest release ${latest}: it already leads to the next version`);
    const version = opts.version ?? `${versions.nextRelease(latest)}-dev.0`;
    const release = versions.releaseOf(version);
    if (release === version || !release || !versions.later(release, latest))
      fail(`${version} is no pre-release x.y.z-dev.N of a version after ${latest}`);
    return version;
  }
  const version = opts.version ?? versions.releaseOf(stated);
  if (!version || !versions.RELEASE.test(version)) fail(`${version} is no release version x.y.z`);
  // The tree's own release: its files built again, when the tree still holds exactly that release.
  if (version === stated && version === latest) {
    const commit = versions.releaseCommit(checkout, version);
    const changed = commit
      ? run("git", ["diff", "--name-only", commit, "HEAD", "--", ...versions.SHIPPED], checkout, true).trim()
      : "";
    if (changed)
      fail(
        `the tree states ${version} but holds more than its release commit ${commit.slice(0, 7)} ` +
          `(${changed.split("\n").length} shipped files differ): release the next version (npm run release -- ${versions.nextRelease(latest)})`,
      );
    return version;
  }
  if (!versions.later(version, latest))
    fail(
      `${version} is not after the latest release ${latest}` +
        (opts.version ? "" : `: name the version to release (npm run release -- ${versions.nextRelease(latest)})`),
    );
  const release = versions.releaseOf(stated);
  if (release !== stated && release !== version)
    fail(`the tree states ${stated}, a pre-release of ${release}, not of ${version}`);
  return version;
}

/** A clone of the checkout's HEAD in a temporary folder, with the checkout's installs linked in. */
function throwawayCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-workspaces-release-"));
  run("git", ["-c", "advice.detachedHead=false", "clone", "--quiet", checkout, dir], checkout);
  for (const rel of ["node_modules", "policies/node_modules"]) {
    if (fs.existsSync(path.join(checkout, rel))) fs.symlinkSync(path.join(checkout, rel), path.join(dir, rel));
  }
  return dir;
}

/** Replaces the first match of `re` in `rel` (a file under `dir`) with `to`; fails when it does not match. */
function edit(dir, rel, re, to) {
  const file = path.join(dir, rel);
  const text = fs.readFileSync(file, "utf8");
  if (!re.test(text)) fail(`${rel}: found no ${re}`);
  fs.writeFileSync(file, text.replace(re, to));
}

/** The CHANGELOG's Unreleased entries moved under `## <version> (<date>)`. */
function dateChangelog(dir, version) {
  const date = new Date().toISOString().slice(0, 10);
  const file = path.join(dir, "CHANGELOG.md");
  const text = fs.readFileSync(file, "utf8");
  const m = /^## Unreleased\n([\s\S]*?)(?=^## )/m.exec(text);
  if (!m) fail("CHANGELOG.md has no ## Unreleased section above a release");
  if (!m[1].trim()) fail("CHANGELOG.md's ## Unreleased section is empty: there is nothing to release");
  fs.writeFileSync(file, text.replace(m[0], `## Unreleased\n\n## ${version} (${date})\n${m[1]}`));
}

/**
 * Gives every manifest and lock `version`, every example's range of a package from here
 * `^<release>`, and every install line of the pages what it must name. Returns the files.
 */
function restate(dir, version, latest) {
  const release = versions.releaseOf(version);
  const changed = [];
  for (const rel of ["package.json", ...versions.MANIFESTS]) {
    edit(dir, rel, /^ {2}"version": "[^"]*"/m, `  "version": "${version}"`);
    changed.push(rel);
  }
  // Each lock's own version: at its top and in its root package's entry.
  for (const rel of ["package-lock.json", "policies/package-lock.json"]) {
    edit(dir, rel, /^ {2}"version": "[^"]*"/m, `  "version": "${version}"`);
    edit(dir, rel, /^( {4}"": \{\n(?: {6}.*\n)*? {6}"version": )"[^"]*"/m, `$1"${version}"`);
    changed.push(rel);
  }
  const ours = /("pulumi-workspaces(?:-policies|-server)?": ")([~^]?)\d+\.\d+\.\d+[^"]*"/g;
  for (const rel of [...versions.exampleManifests(dir), "packages/policies/package.json"]) {
    const file = path.join(dir, rel);
    const text = fs.readFileSync(file, "utf8");
    const next = text.replace(ours, (_, before) => `${before}^${release}"`);
    if (next !== text) {
      fs.writeFileSync(file, next);
      changed.push(rel);
    }
  }
  // The pages name the latest release for what the registries have (the new one, for a
  // release) and the tree's version for the archive a checkout packs.
  const installable = release === version ? version : latest;
  for (const rel of versions.installPages(dir)) {
    const file = path.join(dir, rel);
    const text = fs.readFileSync(file, "utf8");
    const next = versions.restateInstalls(text, { release: installable, tree: version });
    if (next !== text) {
      fs.writeFileSync(file, next);
      changed.push(rel);
    }
  }
  return [...new Set(changed)];
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const stated = versions.expected(checkout).version;
  const latest = versions.latestRelease(fs.readFileSync(path.join(checkout, "CHANGELOG.md"), "utf8"));
  const version = target(opts, stated, latest);
  const release = !opts.next;

  if (!opts.dryRun) {
    const dirty = run("git", ["status", "--porcelain", "--untracked-files=no"], checkout, true).trim();
    if (dirty) fail(`the checkout has uncommitted changes; commit them first, or try --dry-run:\n${dirty}`);
  }
  const dir = opts.dryRun ? throwawayCopy() : checkout;
  log(`${release ? "release" : "pre-release"} ${version} (the tree states ${stated}) in ${dir}`);

  const rebuild = release && version === latest;
  const changed = release && !rebuild ? ["CHANGELOG.md"] : [];
  if (release && !rebuild) dateChangelog(dir, version);
  changed.push(...restate(dir, version, latest));

  log("the schema and the SDKs, which state the version");
  run("node", ["scripts/plugin/schema.js"], dir);
  run("bash", ["scripts/plugin/sdks"], dir);
  changed.push("src/plugin/schema.json", "sdk");

  // dist/ for the version tests (GetPluginInfo) and the plugin archives; the tarballs rebuild it.
  log("the package (tsc)");
  fs.rmSync(path.join(dir, "dist"), { recursive: true, force: true });
  run(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], dir);
  if (release) {
    log(`the release files${opts.unsignedMacos ? " (macOS executables NOT signed: --unsigned-macos)" : ""}`);
    run("node", ["scripts/release/build.js", ...(opts.unsignedMacos ? ["--unsigned-macos"] : [])], dir);
  }
  log("the version tests");
  const tests = ["test/plugin/versions.test.ts", "test/docs/versions.test.ts", "test/docs/release.test.ts"];
  run(process.execPath, [path.join(dir, "node_modules", "vitest", "vitest.mjs"), "run", ...tests], dir);

  const subject = release ? `Release ${version}` : `Begin ${version}`;
  if (opts.dryRun) {
    console.log(run("git", ["status", "--short", "--", ...changed], dir, true).trimEnd());
    if (release) console.log(`release files: ${path.join(dir, "build", "release")}`);
    console.log(
      `dry run: nothing committed; the copy is ${dir} (${rebuild ? "nothing to commit" : `would commit "${subject}"`}); remove it with rm -rf`,
    );
    return;
  }
  if (rebuild) {
    const moved = run("git", ["status", "--porcelain", "--untracked-files=no"], dir, true).trim();
    if (moved) fail(`rebuilding release ${version} changed tracked files:\n${moved}`);
    console.log(`release files of ${version}, already released by its commit: ${path.join(dir, "build", "release")}`);
    return;
  }
  run("git", ["add", "--", ...changed], dir);
  const why = release
    ? `Every package, SDK, schema, example range and install line states ${version}; the CHANGELOG dates its entries.`
    : `The tree now holds more than ${latest}: it states the next version's pre-release, so nothing built from it passes for ${latest}.`;
  run("git", ["commit", "--quiet", "-m", subject, "-m", why, "--", ...changed], dir);
  console.log(run("git", ["log", "--oneline", "-1"], dir, true).trimEnd());
  if (release) {
    console.log(`release files: ${path.join(dir, "build", "release")}`);
    console.log(
      `next: tag v${version} and sdk/v${version}, publish the GitHub release and the npm tarballs (CONTRIBUTING.md "Releasing"); ` +
        "before the next change to what ships, npm run release -- --next",
    );
  }
}

main();
