#!/usr/bin/env node
/**
 * The provider plugin as `pulumi plugin install` takes it: a tarball whose root holds
 * the executable `pulumi-resource-workspaces` (a launcher that runs Node.js 20 or newer
 * from PATH) and `pulumi-resource-workspaces.js`, the plugin (dist/plugin/main.js) with
 * everything it loads bundled into one file, so that installing it reaches no network
 * and needs no node_modules. Built from the compiled package (`npm run build` first).
 *
 *   node scripts/plugin/pack.js [out-dir]   writes <out-dir>/pulumi-resource-workspaces-v<version>.tar.gz
 *                                           (default out-dir: build/) and prints its path
 *
 * Install and use:
 *   pulumi plugin install resource workspaces <version> --file pulumi-resource-workspaces-v<version>.tar.gz
 *
 * The bundler is rolldown, the one the test runner (vitest, through vite) installs.
 */
const fs = require("node:fs");
const path = require("node:path");
const os = require("node:os");
const { execFileSync } = require("node:child_process");

const root = path.resolve(__dirname, "..", "..");
const NAME = "pulumi-resource-workspaces";

/**
 * Modules the plugin loads as the SDK loads them (src/resources/process/sdk-modules.ts):
 * inside the bundle they are the bundle's own, registered before the plugin starts.
 */
const SDK_MODULES = [
  "@grpc/grpc-js",
  "google-protobuf/google/protobuf/struct_pb",
  "@pulumi/pulumi/proto/provider_pb",
  "@pulumi/pulumi/proto/engine_pb",
  "@pulumi/pulumi/proto/engine_grpc_pb",
];

function fail(message) {
  console.error(`[plugin pack] error: ${message}`);
  process.exit(1);
}

function main() {
  const out = path.resolve(process.argv[2] ?? path.join(root, "build"));
  const main = path.join(root, "dist", "plugin", "main.js");
  if (!fs.existsSync(main)) fail(`${main} is missing: build the package first (npm run build)`);
  const rolldown = path.join(root, "node_modules", ".bin", "rolldown");
  if (!fs.existsSync(rolldown)) fail("rolldown is missing from node_modules/.bin: run npm install");
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

  // The entry lives beside main.js so that its requires resolve from this repository.
  const entry = path.join(root, "dist", "plugin", "bundle-entry.js");
  const registered = SDK_MODULES.map((id) => `  ${JSON.stringify(id)}: require(${JSON.stringify(id)}),`).join("\n");
  fs.writeFileSync(
    entry,
    `globalThis[Symbol.for("pulumi-workspaces.sdk-modules")] = {\n${registered}\n};\nrequire("./main.js");\n`,
  );

  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-workspaces-plugin-"));
  try {
    execFileSync(
      rolldown,
      [entry, "--platform", "node", "--format", "cjs", "--no-code-splitting", "-o", path.join(stage, `${NAME}.js`)],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
    );
    const launcher = path.join(stage, NAME);
    fs.writeFileSync(
      launcher,
      `#!/bin/sh\n# ${NAME} v${version}: needs Node.js 20 or newer on PATH.\n` +
        `exec node "$(dirname "$0")/${NAME}.js" "$@"\n`,
      { mode: 0o755 },
    );
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(stage, "LICENSE"));
    fs.mkdirSync(out, { recursive: true });
    const tarball = path.join(out, `${NAME}-v${version}.tar.gz`);
    execFileSync("tar", [
      "--sort=name",
      "--mtime=@0",
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "--use-compress-program=gzip -n",
      "-cf",
      tarball,
      "-C",
      stage,
      NAME,
      `${NAME}.js`,
      "LICENSE",
    ]);
    console.log(tarball);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
    fs.rmSync(entry, { force: true });
  }
}

main();
