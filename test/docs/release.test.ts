/**
 * What the pages present as current is what a release has. The CHANGELOG's `## Unreleased`
 * names each feature it adds or changes in the code spans of its `### Added:` and
 * `### Changed:` headings; a page (README, docs/, the examples', the policy pack's and the
 * packages' READMEs) that names such a feature says "since <next version>" in the same
 * paragraph, table row or code block (or the paragraph before it), or in a heading above it.
 * A released section is the one its release commit wrote: entries are not added to a
 * version after the commit that gave package.json that version.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

/** The `## ` sections of a changelog: title, version (when it is a release) and body. */
function sections(changelog: string): Array<{ title: string; version?: string; body: string }> {
  return changelog
    .split(/^## /m)
    .slice(1)
    .map((chunk) => {
      const title = chunk.slice(0, chunk.indexOf("\n")).trim();
      return { title, version: /^(\d+\.\d+\.\d+)\b/.exec(title)?.[1], body: chunk.slice(chunk.indexOf("\n") + 1) };
    });
}

/* eslint-disable @typescript-eslint/no-require-imports */
const versions = require("../../scripts/release/versions.js") as {
  nextRelease: (latest: string) => string;
  releaseCommit: (gitDir: string, version: string) => string | undefined;
  releaseOf: (version: string) => string | undefined;
};
/* eslint-enable @typescript-eslint/no-require-imports */
const { nextRelease: nextVersion } = versions;

/** The `### ` headings of a section's body. */
const headings = (body: string) => [...body.matchAll(/^### (.+)$/gm)].map((m) => m[1].trim());

/** The features of the Unreleased section: the code spans of its Added and Changed headings. */
function unreleasedFeatures(changelog: string): { features: string[]; unnamed: string[] } {
  const unreleased = sections(changelog).find((s) => s.title === "Unreleased");
  const features: string[] = [];
  const unnamed: string[] = [];
  for (const h of headings(unreleased?.body ?? "")) {
    if (!/^(Added|Changed)\b/.test(h)) continue;
    const spans = [...h.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (spans.length === 0) unnamed.push(h);
    features.push(...spans);
  }
  return { features, unnamed };
}

/**
 * The units of a page a reader takes as one statement: each table row, each paragraph, each
 * fenced block together with the paragraph before it; each with the headings above it.
 */
function units(text: string): Array<{ line: number; text: string; headings: string }> {
  const out: Array<{ line: number; text: string; headings: string }> = [];
  const stack: string[] = [];
  const lines = text.split("\n");
  let paragraph: { line: number; lines: string[] } | undefined;
  let previous = "";
  const flush = () => {
    if (paragraph) {
      previous = paragraph.lines.join("\n");
      out.push({ line: paragraph.line, text: previous, headings: stack.join("\n") });
    }
    paragraph = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*```/.exec(line);
    if (fence) {
      const context = paragraph ? paragraph.lines.join("\n") : previous;
      flush();
      const start = i + 1;
      const body: string[] = [line];
      for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i]);
      out.push({ line: start, text: `${context}\n${body.join("\n")}`, headings: stack.join("\n") });
      continue;
    }
    const heading = /^(#{1,6}) (.+)$/.exec(line);
    if (heading) {
      flush();
      stack.length = heading[1].length - 1;
      stack.push(heading[2]);
      continue;
    }
    if (line.trim().startsWith("|")) {
      flush();
      out.push({ line: i + 1, text: line, headings: stack.join("\n") });
      continue;
    }
    if (line.trim() === "") flush();
    else (paragraph ??= { line: i + 1, lines: [] }).lines.push(line);
  }
  flush();
  return out;
}

/** Where `text` names one of `features` with no "since `next`" in reach; each as `line: feature`. */
function undated(text: string, features: string[], next: string): string[] {
  const since = new RegExp(String.raw`\bsince ${next.replace(/\./g, "\\.")}\b`, "i");
  const found: string[] = [];
  for (const unit of units(text)) {
    if (since.test(unit.text) || since.test(unit.headings)) continue;
    for (const f of features) if (unit.text.includes(f)) found.push(`${unit.line}: ${f}`);
  }
  return found;
}

/** The pages a user reads (docs/reference is generated from the sources, and says no version). */
function pages(): string[] {
  const found = ["README.md", "policies/README.md"];
  for (const f of fs.readdirSync(path.join(root, "docs"))) if (f.endsWith(".md")) found.push(`docs/${f}`);
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (e.name === "README.md") found.push(child);
    }
  };
  walk("examples");
  walk("packages");
  return found.sort();
}

/** The repository with the history (the Node 22 suites run in a copy without it). */
const gitDir = process.env.WORKSPACES_SOURCE_REPO ?? root;
const git = (args: string[]) => execFileSync("git", ["-C", gitDir, ...args], { encoding: "utf8" });

/** The commit that first gave package.json `version`: the release commit of that version. */
const releaseCommit = (version: string) => versions.releaseCommit(gitDir, version);

describe("releases in the CHANGELOG", () => {
  const changelog = read("CHANGELOG.md");
  const all = sections(changelog);
  const released = all.filter((s) => s.version);
  const latest = released[0].version!;
  // The version the pages call next: a pre-release tree's (0.6.0 for 0.6.0-dev.0); after a
  // release, the release with its minor raised.
  const stated = (JSON.parse(read("package.json")) as { version: string }).version;
  const next = versions.releaseOf(stated) === stated ? nextVersion(latest) : versions.releaseOf(stated)!;

  it("opens with an Unreleased section above the releases, each release dated", () => {
    expect(all[0].title).toBe("Unreleased");
    expect(released.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((s) => !s.version).map((s) => s.title)).toEqual(["Unreleased"]);
    expect(released.filter((s) => s.version !== "0.2.0" && !/\(\d{4}-\d{2}-\d{2}\)$/.test(s.title))).toEqual([]);
  });

  it("keeps each released section's entries as its release commit wrote them", () => {
    const checked: string[] = [];
    for (const s of released) {
      const commit = releaseCommit(s.version!);
      // A version package.json never had (0.2.0, before the package carried its own) has no commit to compare with.
      if (!commit) continue;
      const then = sections(git(["show", `${commit}:CHANGELOG.md`])).find((x) => x.version === s.version);
      expect(headings(s.body), `## ${s.version}: entries added after ${commit.slice(0, 7)}`).toEqual(
        headings(then?.body ?? ""),
      );
      checked.push(s.version!);
    }
    expect(checked).toEqual(expect.arrayContaining(["0.3.0", "0.4.0"]));
  });

  it("names the features of each Added and Changed entry under Unreleased in its heading", () => {
    expect(unreleasedFeatures(changelog).unnamed, "put the feature's name in a code span of the heading").toEqual([]);
  });

  it(`has the pages describe an unreleased feature only with "since ${next}"`, () => {
    const { features } = unreleasedFeatures(changelog);
    const list = pages();
    expect(list).toEqual(expect.arrayContaining(["README.md", "docs/large-stacks.md", "examples/ci/README.md"]));
    const wrong = list.flatMap((p) => undated(read(p), features, next).map((w) => `${p}:${w}`));
    expect(wrong, `each names a feature of ## Unreleased: say "since ${next}" there`).toEqual([]);
  });

  it("names in each since marker a release of the CHANGELOG or the next version", () => {
    const versions = new Set([...released.map((s) => s.version!), next]);
    const wrong = pages().flatMap((p) =>
      [...read(p).matchAll(/\bsince (?:version |release |v)?(\d+\.\d+\.\d+)\b/gi)]
        .filter((m) => !versions.has(m[1]))
        .map((m) => `${p}: ${m[0]}`),
    );
    expect(wrong).toEqual([]);
  });

  it("reports a planted page that describes an unreleased feature as current", () => {
    const planted = [
      "## Unreleased",
      "",
      "### Added: `WorkspaceVariable` and `VariableSet`",
      "",
      "### Fixed: a message",
      "",
      "## 0.5.0 (2026-11-28)",
      "",
      "### Added: `PULUMI_SKIP_CHECKPOINTS=true` is safe",
    ].join("\n");
    const { features, unnamed } = unreleasedFeatures(planted);
    expect(features).toEqual(["WorkspaceVariable", "VariableSet"]);
    expect(unnamed).toEqual([]);
    expect(unreleasedFeatures("## Unreleased\n\n### Added: variables\n").unnamed).toEqual(["Added: variables"]);
    expect(nextVersion("0.5.0")).toBe("0.6.0");
    const page = [
      "# Resources",
      "",
      "A `WorkspaceVariable` sets one variable.",
      "",
      "A `VariableSet` (since 0.6.0) groups them.",
      "",
      "| resource | since |",
      "|---|---|",
      "| `WorkspaceVariable` | 0.6.0 |",
      "| `VariableSet` | since 0.6.0 |",
      "",
      "## Variable sets (since 0.6.0)",
      "",
      "A `VariableSet` applies to many workspaces.",
      "",
      "```ts",
      'new VariableSet("shared", {});',
      "```",
      "",
      "# Other",
      "",
      "Declare them:",
      "",
      "```ts",
      'new WorkspaceVariable("v", {});',
      "```",
      "",
      "`PULUMI_SKIP_CHECKPOINTS=true` is released.",
    ].join("\n");
    expect(undated(page, features, "0.6.0")).toEqual([
      "3: WorkspaceVariable",
      "9: WorkspaceVariable",
      "24: WorkspaceVariable",
    ]);
  });
});
