#!/usr/bin/env node
/**
 * The provider plugin as the engine downloads it: per platform, an archive
 * `pulumi-resource-workspaces-v<version>-<os>-<arch>.tar.gz` whose root holds the executable
 * (`pulumi-resource-workspaces`, `.exe` on Windows), a self-contained Node.js single executable
 * application that needs no Node.js on the machine (./node-sea.js), with this package's
 * LICENSE and Node's; and `pulumi-resource-workspaces-v<version>-checksums.txt`, the SHA-256
 * of every archive of that version in the folder (`sha256sum -c` reads it). Built from the
 * compiled package (`npm run build` first): dist/plugin/main.js and everything it loads,
 * bundled into one CommonJS file by rolldown (the bundler the test runner installs).
 *
 *   node scripts/plugin/pack.js [--platform <os-arch>|all] [out-dir]
 *
 * writes the archive of this machine's platform (or of the one named, or of all five:
 * linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64) to <out-dir>
 * (default build/), then the checksums, and prints each archive's path; the same tree gives
 * the same bytes. macOS executables are signed with `rcodesign` when it is there (ad hoc,
 * or with CODESIGN_P12_FILE); without it they are left unsigned with a warning, or refused
 * with --require-signing.
 *
 * The engine installs an archive by itself from the schema's pluginDownloadURL; by hand:
 *   pulumi plugin install resource workspaces <version> --file <archive>
 */
const fs = require("node:fs");
const path = require("node:path");
const os = require("node:os");
const crypto = require("node:crypto");
const { execFileSync } = require("node:child_process");
const sea = require("./node-sea.js");

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

/** The archive of `platform` at `version`, as the engine asks for it. */
const archiveName = (version, platform) => `${NAME}-v${version}-${platform}.tar.gz`;
const checksumsName = (version) => `${NAME}-v${version}-checksums.txt`;
/** The executable inside the archive of `platform`. */
const executableName = (platform) => (sea.isWindows(platform) ? `${NAME}.exe` : NAME);

/**
 * Takes the lock `dir` (a directory, made atomically) and returns its release; waits while
 * another process holds it, and takes over a lock older than five minutes (a pack killed
 * while holding it).
 */
function holdLock(dir) {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      const age = Date.now() - fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 5 * 60_000) fs.rmSync(dir, { recursive: true, force: true });
      else if (Date.now() > deadline) fail(`${dir} is held by another pack for more than ten minutes`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

function fail(message) {
  console.error(`[plugin pack] error: ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const opts = { platforms: undefined, out: path.join(root, "build"), requireSigning: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--platform") {
      const p = argv[++i];
      if (p === "all") opts.platforms = Object.keys(sea.PLATFORMS);
      else if (sea.PLATFORMS[p]) opts.platforms = [p];
      else fail(`--platform takes all or one of ${Object.keys(sea.PLATFORMS).join(", ")}; got ${p}`);
    } else if (a === "--require-signing") opts.requireSigning = true;
    else if (a.startsWith("-")) fail(`unknown option ${a}`);
    else opts.out = path.resolve(a);
  }
  if (!opts.platforms) {
    const host = sea.hostPlatform();
    if (!host) fail(`no executable is built for ${process.platform}-${process.arch}; name one with --platform`);
    opts.platforms = [host];
  }
  return opts;
}

/** The plugin and everything it loads in one CommonJS file, `<stage>/<NAME>.js`. */
function bundle(stage) {
  const main = path.join(root, "dist", "plugin", "main.js");
  if (!fs.existsSync(main)) fail(`${main} is missing: build the package first (npm run build)`);
  const rolldown = path.join(root, "node_modules", ".bin", "rolldown");
  if (!fs.existsSync(rolldown)) fail("rolldown is missing from node_modules/.bin: run npm install");
  // The entry lives beside main.js so that its requires resolve from this repository, under
  // one name so that the bundle's bytes do not depend on the run; two packs at once (suites
  // side by side) take turns.
  const entry = path.join(root, "dist", "plugin", "bundle-entry.js");
  const release = holdLock(`${entry}.lock`);
  const registered = SDK_MODULES.map((id) => `  ${JSON.stringify(id)}: require(${JSON.stringify(id)}),`).join("\n");
  fs.writeFileSync(
    entry,
    `globalThis[Symbol.for("pulumi-workspaces.sdk-modules")] = {\n${registered}\n};\nrequire("./main.js");\n`,
  );
  const script = path.join(stage, `${NAME}.js`);
  try {
    execFileSync(rolldown, [entry, "--platform", "node", "--format", "cjs", "--no-code-splitting", "-o", script], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
  } finally {
    fs.rmSync(entry, { force: true });
    release();
  }
  return script;
}

/** A reproducible gzip'd tar of `files` (names in `dir`). */
function tar(archive, dir, files) {
  execFileSync("tar", [
    "--sort=name",
    "--mtime=@0",
    "--owner=0",
    "--group=0",
    "--numeric-owner",
    "--use-compress-program=gzip -n",
    "-cf",
    archive,
    "-C",
    dir,
    ...files,
  ]);
}

/** Rewrites the checksums file of `version` in `out` from the archives of that version there. */
function writeChecksums(out, version) {
  const prefix = `${NAME}-v${version}-`;
  const lines = fs
    .readdirSync(out)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".tar.gz"))
    .sort()
    .map(
      (f) =>
        `${crypto
          .createHash("sha256")
          .update(fs.readFileSync(path.join(out, f)))
          .digest("hex")}  ${f}\n`,
    );
  const file = path.join(out, checksumsName(version));
  fs.writeFileSync(file, lines.join(""));
  return file;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const signer = sea.codeSigner();
  const darwin = opts.platforms.filter(sea.isDarwin);
  if (darwin.length && !signer) {
    const message =
      `no rcodesign (cargo install apple-codesign) to sign the macOS executables (${darwin.join(", ")}); ` +
      "Apple silicon refuses to run them unsigned";
    if (opts.requireSigning) fail(message);
    console.error(`[plugin pack] warning: ${message}`);
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-workspaces-plugin-"));
  try {
    const blob = sea.seaBlob(bundle(stage), stage);
    fs.mkdirSync(opts.out, { recursive: true });
    for (const platform of opts.platforms) {
      const dir = path.join(stage, platform);
      fs.mkdirSync(dir);
      const exe = executableName(platform);
      await sea.buildExecutable(platform, blob, path.join(dir, exe), { sign: signer });
      fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
      fs.copyFileSync(sea.nodeOf(platform).license, path.join(dir, "LICENSE.node"));
      const archive = path.join(opts.out, archiveName(version, platform));
      tar(archive, dir, [exe, "LICENSE", "LICENSE.node"]);
      fs.rmSync(dir, { recursive: true, force: true });
      console.log(archive);
    }
    console.error(`[plugin pack] checksums: ${writeChecksums(opts.out, version)}`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

if (require.main === module) main().catch((err) => fail(err.message));

module.exports = { NAME, archiveName, checksumsName, executableName };
