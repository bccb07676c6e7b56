// Shared by the demo, the end-to-end tests and the scale benchmark: finds (or
// builds) the Pulumi engine, lays out a program directory that consumes this
// package the way a user's does, and runs the CLI against a file backend.
"use strict";
const { execFileSync, spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const repoRoot = path.resolve(__dirname, "..", "..");

let cachedBin;
/** Directory holding `pulumi` and its plugins (runs scripts/install-pulumi once per process). */
function ensureEngine() {
  if (cachedBin) return cachedBin;
  const out = execFileSync("bash", [path.join(repoRoot, "scripts", "install-pulumi")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = out.trim().split("\n");
  cachedBin = lines[lines.length - 1];
  return cachedBin;
}

let cachedYaml;
/** Directory holding `pulumi-language-yaml` (runs `scripts/install-pulumi yaml` once per process). */
function ensureYamlHost() {
  if (cachedYaml) return cachedYaml;
  const out = execFileSync("bash", [path.join(repoRoot, "scripts", "install-pulumi"), "yaml"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = out.trim().split("\n");
  cachedYaml = lines[lines.length - 1];
  return cachedYaml;
}

/**
 * Writes `dir/pulumi-resource-workspaces`, the provider plugin of this checkout's dist/ as
 * the engine finds it on PATH (what `npm install -g pulumi-workspaces` puts there), and
 * returns `dir`.
 */
function pluginLauncher(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const main = path.join(repoRoot, "dist", "plugin", "main.js");
  const file = path.join(dir, "pulumi-resource-workspaces");
  fs.writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`, { mode: 0o755 });
  return dir;
}

/**
 * Environment for the CLI: a private PULUMI_HOME and file backend, a passphrase
 * secrets provider, and nothing that reaches beyond this machine.
 */
function engineEnv({ bin, home, backendDir, passphrase = "pulumi-workspaces-local", extra = {} }) {
  const env = { ...process.env };
  // A token or address in the caller's environment must not leak into programs
  // that are meant to talk only to the server the caller passes in `extra`.
  for (const key of Object.keys(env)) {
    if (/^(WORKSPACES_|TFE_)/.test(key) || key === "PULUMI_ACCESS_TOKEN") delete env[key];
  }
  return {
    ...env,
    PATH: `${bin}${path.delimiter}${env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    NO_COLOR: "1",
    ...extra,
  };
}

/**
 * Makes `dir/node_modules` resolve this package and the SDK the way
 * `npm install <path to this repo>` does (a directory dependency is installed as
 * a symlink), plus the SDK and Node types that a TypeScript program compiles
 * against. The package's own dependencies resolve from the repository, so the
 * program and the package share one @pulumi/pulumi.
 */
function linkPackage(dir) {
  const nm = path.join(dir, "node_modules");
  const links = {
    "pulumi-workspaces": repoRoot,
    "@pulumi/pulumi": path.join(repoRoot, "node_modules", "@pulumi", "pulumi"),
    "@types/node": path.join(repoRoot, "node_modules", "@types", "node"),
  };
  for (const [name, target] of Object.entries(links)) {
    const at = path.join(nm, name);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.rmSync(at, { recursive: true, force: true });
    fs.symlinkSync(target, at, "dir");
  }
}

/** A fresh temporary directory under the OS temp dir. */
function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Runs the CLI; resolves with its exit code and output (never rejects on a
 * non-zero exit: callers assert on it). `input` is written to its stdin: what
 * `pulumi config set --secret <key>` reads, so that a secret never shows on a
 * command line.
 */
function runPulumi(args, { cwd, env, timeoutMs = 10 * 60_000, onOutput, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(env.PATH.split(path.delimiter)[0], "pulumi"), args, {
      cwd,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      if (onOutput) onOutput(String(d));
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      if (onOutput) onOutput(String(d));
    });
    const timer = setTimeout(() => {
      child.kill("SIGINT");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, output: stdout + stderr });
    });
  });
}

/** The latest checkpoint of a stack in a file backend (`.pulumi/stacks/<project>/<stack>.json`). */
function stateFile(backendDir, project, stack) {
  return path.join(backendDir, ".pulumi", "stacks", project, `${stack}.json`);
}

module.exports = {
  repoRoot,
  ensureEngine,
  ensureYamlHost,
  pluginLauncher,
  engineEnv,
  linkPackage,
  tempDir,
  runPulumi,
  stateFile,
};
