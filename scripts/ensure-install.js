#!/usr/bin/env node
// Makes `npm test` and `npm run demo` work as the first command on a fresh clone:
// installs the dependencies when they are missing or older than the lock file.
"use strict";
const { execSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");

function needsInstall(dir) {
  const marker = path.join(dir, "node_modules", ".package-lock.json");
  const lock = path.join(dir, "package-lock.json");
  if (!fs.existsSync(marker)) return true;
  if (fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs + 1000) return true;
  return false;
}

function install(dir) {
  const hasLock = fs.existsSync(path.join(dir, "package-lock.json"));
  const cmd = hasLock ? "npm ci --no-audit --no-fund" : "npm install --no-audit --no-fund";
  console.error(`[ensure-install] ${path.relative(root, dir) || "."}: ${cmd}`);
  execSync(cmd, { cwd: dir, stdio: "inherit" });
}

for (const dir of [root, path.join(root, "policies")]) {
  if (fs.existsSync(path.join(dir, "package.json")) && needsInstall(dir)) install(dir);
}
