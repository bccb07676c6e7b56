/**
 * The README as a newcomer reads it: a table of contents whose every entry is a heading, the
 * hosted service's address, the two commands a newcomer to the repository runs under their
 * own heading, and links (README, CONTRIBUTING, docs/) whose anchors name real headings.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { root, sectionOf as section, snippetPages, snippetsOf } from "./snippets";

const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
const readme = read("README.md");

/** The anchors GitHub gives a page's headings. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    out.add(
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    );
  }
  return out;
}

describe("README.md", () => {
  it("has a table of contents that names every section, each entry a heading", () => {
    const toc = [...section(readme, "Contents").matchAll(/^- \[[^\]]+\]\(#([^)]+)\)$/gm)].map((m) => m[1]);
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]).filter((t) => t !== "Contents");
    expect(toc.length).toBe(sections.length);
    const own = anchors(readme);
    expect(toc.filter((a) => !own.has(a))).toEqual([]);
  });

  it("shows the address a user of the hosted service types, and a self-managed one", () => {
    const configure = section(readme, "Point it at the service");
    expect(configure).toContain("pulumi config set workspaces:address app.terraform.io");
    expect(configure).toMatch(
      /pulumi config set workspaces:address https?:\/\/|workspaces:address [a-z0-9.-]+\.example\.com/,
    );
  });

  it("keeps npm run demo and npm test under their own heading", () => {
    const work = section(readme, "Working on this repository");
    const shell = snippetsOf("README.md", work)
      .filter((s) => s.lang === "sh")
      .map((s) => s.code);
    expect(shell.join("\n")).toMatch(/^npm run demo\b/m);
    expect(shell.join("\n")).toMatch(/^npm test\b/m);
  });

  it("links only to headings that exist, from the README, CONTRIBUTING.md and docs/", () => {
    const pages = [
      "README.md",
      "CONTRIBUTING.md",
      ...fs
        .readdirSync(path.join(root, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      for (const m of read(page).matchAll(/\]\(([^)\s]*)#([^)\s]+)\)/g)) {
        const [, target, anchor] = m;
        if (/^[a-z]+:/i.test(target)) continue;
        const file = target === "" ? page : path.posix.join(path.posix.dirname(page), target);
        if (!fs.existsSync(path.join(root, file)) || !anchors(read(file)).has(anchor))
          broken.push(`${page}: ${target}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("cites no section of the unpublished interface document in a page a user reads", () => {
    const examples = fs
      .readdirSync(path.join(root, "examples"))
      .map((e) => `examples/${e}/README.md`)
      .filter((f) => fs.existsSync(path.join(root, f)));
    const pages = [...snippetPages(), "CONTRIBUTING.md", "examples/README.md", ...examples];
    const citing = pages.filter((p) => /\bspec(?:ification)? (?:section )?\d|\bthe spec\b/i.test(read(p)));
    expect(citing).toEqual([]);
  });
});
