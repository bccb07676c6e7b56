/**
 * Every package built from this repository carries the version of the CHANGELOG's latest
 * released section, and every example's range of a package from here admits that version,
 * so what the README presents as available is what `npm install` gets.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
const manifest = (rel: string) =>
  JSON.parse(read(rel)) as { name: string; version: string; dependencies?: Record<string, string> };

/** The version of the first `## x.y.z` heading: the latest released section. */
function latestReleased(changelog: string): string | undefined {
  return /^## (\d+\.\d+\.\d+)\b/m.exec(changelog)?.[1];
}

/** Whether a caret, tilde or exact range admits `version` (the only forms the examples use). */
function admits(range: string, version: string): boolean {
  const m = /^([~^]?)(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (!m) return false;
  const [, op] = m;
  const [maj, min, pat] = m.slice(2).map(Number);
  const [vMaj, vMin, vPat] = version.split(".").map(Number);
  const atLeast = vMaj > maj || (vMaj === maj && (vMin > min || (vMin === min && vPat >= pat)));
  if (op === "") return vMaj === maj && vMin === min && vPat === pat;
  if (op === "~") return atLeast && vMaj === maj && vMin === min;
  // Caret: the left-most non-zero component is fixed.
  if (maj > 0) return atLeast && vMaj === maj;
  if (min > 0) return atLeast && vMaj === 0 && vMin === min;
  return vMaj === 0 && vMin === 0 && vPat === pat;
}

const PACKAGES = [
  "package.json",
  "packages/server/package.json",
  "packages/policies/package.json",
  "policies/package.json",
];

/** package.json files of the examples (each program and the policy pack). */
function exampleManifests(): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (e.name === "package.json") found.push(child);
    }
  };
  walk("examples");
  return found.sort();
}

describe("versions", () => {
  const released = latestReleased(read("CHANGELOG.md"));
  const ours = new Set(PACKAGES.map((p) => manifest(p).name));

  it("reads the latest released section of the CHANGELOG, below Unreleased", () => {
    expect(read("CHANGELOG.md")).toMatch(/^## Unreleased$/m);
    expect(released).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("gives every package the CHANGELOG's latest released version", () => {
    const wrong = PACKAGES.map((p) => [p, manifest(p).version]).filter(([, v]) => v !== released);
    expect(wrong, `CHANGELOG.md's latest release is ${released}`).toEqual([]);
  });

  it("lets every example (and the published pack) install the released version of each package from here", () => {
    const files = [...exampleManifests(), "packages/policies/package.json"];
    expect(files.length).toBeGreaterThanOrEqual(8);
    const excluded: string[] = [];
    for (const f of files) {
      for (const [dep, range] of Object.entries(manifest(f).dependencies ?? {})) {
        if (ours.has(dep) && !admits(range, released!)) excluded.push(`${f}: ${dep} ${range}`);
      }
    }
    expect(excluded, `each range must admit ${released}`).toEqual([]);
  });

  it("judges ranges as npm does", () => {
    expect(admits("^0.3.0", "0.3.0")).toBe(true);
    expect(admits("^0.1.0", "0.2.0")).toBe(false);
    expect(admits("^0.3.0", "0.3.4")).toBe(true);
    expect(admits("^1.2.0", "1.9.0")).toBe(true);
    expect(admits("~1.2.0", "1.3.0")).toBe(false);
    expect(admits("0.3.0", "0.3.1")).toBe(false);
  });
});
