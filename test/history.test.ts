/**
 * Commit subjects say what changed in at most 72 characters (the why goes in the body),
 * from the printWidth reformat on: `git log --oneline` and `git shortlog` stay readable.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
/** The reformat commit (also in .git-blame-ignore-revs); subjects before it are history as written. */
const FROM = "ac834f3";
const MAX_SUBJECT = 72;

function git(...args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return undefined;
  }
}

/** Subjects longer than the limit among `subjects`, with their length. */
function overlong(subjects: string[], max = MAX_SUBJECT): string[] {
  return subjects.filter((s) => [...s].length > max).map((s) => `${[...s].length}: ${s}`);
}

// A packed tarball or a shallow clone without the reformat commit has no history to check.
const hasHistory = git("cat-file", "-e", `${FROM}^{commit}`) !== undefined;

describe("commit subjects", () => {
  it("finds an overlong subject and passes a short one", () => {
    expect(overlong(["Split providers/common.ts by concern", "x".repeat(73)])).toEqual([`73: ${"x".repeat(73)}`]);
  });

  it.skipIf(!hasHistory)(`are at most ${MAX_SUBJECT} characters from the reformat on`, () => {
    const subjects = git("log", "--format=%s", `${FROM}^..HEAD`)!.split("\n").filter(Boolean);
    expect(subjects.length).toBeGreaterThan(0);
    expect(overlong(subjects)).toEqual([]);
  });
});
