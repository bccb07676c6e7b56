#!/usr/bin/env node
/**
 * `npm run build`: dist/ from src/ with tsc, from scratch (no file of a removed source is
 * left behind), and the local server's web view page bundled by esbuild into
 * dist/server/web/page/, unless dist/ was last built from exactly these sources by this compiler.
 *
 * Why the skip: `npm test`, `npm run demo`, `npm run test:e2e` and CI's stages each build
 * first, and a rebuild deletes dist/ under whatever else reads it at that moment (CI runs
 * suites side by side). The digest covers every file under src/ (the page's too),
 * tsconfig.json and the versions of the compiler, esbuild and the page's libraries; it is
 * kept outside dist/ (so no package ships it), in node_modules/.cache, which `npm ci` empties.
 *
 *   node scripts/build.js [--force]
 */
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const stamp = path.join(root, "node_modules", ".cache", "pulumi-workspaces-build.sha256");

function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

function digest() {
  const hash = crypto.createHash("sha256");
  const tsc = require(path.join(root, "node_modules", "typescript", "package.json")).version;
  hash.update(`typescript ${tsc}\n`);
  // The page's bundle also depends on the bundler and the libraries it takes in.
  for (const dep of ["esbuild", "@dagrejs/dagre"])
    hash.update(`${dep} ${require(path.join(root, "node_modules", dep, "package.json")).version}\n`);
  for (const file of [path.join(root, "tsconfig.json"), ...files(path.join(root, "src"))]) {
    hash.update(`${path.relative(root, file)}\n`);
    hash.update(fs.readFileSync(file));
  }
  return hash.digest("hex");
}

const want = digest();
const built = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8").trim() : "";
if (!process.argv.includes("--force") && built === want && fs.existsSync(path.join(dist, "index.js"))) {
  console.error("[build] dist/ is up to date with src/ (node scripts/build.js --force rebuilds it)");
  process.exit(0);
}
fs.rmSync(stamp, { force: true });
fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], {
  cwd: root,
  stdio: "inherit",
});
// The web view's page: bundled into one module beside the server that serves it.
require(path.join(dist, "server", "web", "bundle.js"))
  .writePage(path.join(dist, "server", "web", "page"), path.join(root, "src", "server", "web", "page"))
  .then(() => {
    fs.mkdirSync(path.dirname(stamp), { recursive: true });
    fs.writeFileSync(stamp, `${want}\n`);
  })
  .catch((err) => {
    console.error(`[build] bundling the web view's page failed: ${err.message}`);
    process.exit(1);
  });
