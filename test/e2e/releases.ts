/**
 * Earlier states of this package, built from its own git history, for the tests that keep
 * state written by them working (old-state.test.ts, yaml-old-plugin.test.ts).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./harness";

/**
 * The git checkout holding this tree's history: this repository, or the checkout a copy
 * was made from (`.ci/node22` runs the suites in a copy without `.git` and names it).
 */
const gitRoot = process.env.WORKSPACES_SOURCE_REPO ?? repoRoot;

/** The commits of `args` (`git log` arguments), newest first. */
export function commits(args: string[]): string[] {
  return execFileSync("git", ["log", "--format=%H", ...args], { cwd: gitRoot, encoding: "utf8" })
    .trim()
    .split("\n")
    .filter(Boolean);
}

/** `commit`'s parent. */
export function parentOf(commit: string): string {
  return execFileSync("git", ["rev-parse", `${commit}^`], { cwd: gitRoot, encoding: "utf8" }).trim();
}

/** `what` could not be found in the history. */
export function notInHistory(what: string): Error {
  return new Error(
    `no commit in ${gitRoot} ${what}: this test needs the repository's history (a full clone, not a shallow one)`,
  );
}

/**
 * Extracts and compiles the package at `commit` into `dir`: only what `entries` reach (a
 * program's entry points, or the provider plugin's), with this repository's node_modules.
 */
export function buildRelease(commit: string, dir: string, entries: string[]): void {
  fs.mkdirSync(dir, { recursive: true });
  const archive = path.join(dir, "..", "release.tar");
  execFileSync("git", ["archive", "--format=tar", "-o", archive, commit, "package.json", "tsconfig.json", "src"], {
    cwd: gitRoot,
  });
  execFileSync("tar", ["-xf", archive, "-C", dir]);
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  // Only the files the package's entry points reach (the server is not shipped).
  fs.writeFileSync(
    path.join(dir, "tsconfig.release.json"),
    JSON.stringify({ extends: "./tsconfig.json", include: [], files: entries }),
  );
  try {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.release.json"], {
      cwd: dir,
      stdio: "pipe",
    });
  } catch {
    // tsc emits despite type errors elsewhere in an old tree; the entry point's presence is what counts.
  }
  for (const entry of entries) {
    const built = entry.replace(/^src\//, "dist/").replace(/\.ts$/, ".js");
    if (!fs.existsSync(path.join(dir, built))) throw new Error(`building ${commit} produced no ${built}`);
  }
}
