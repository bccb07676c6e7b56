/**
 * One home per measured figure (scripts/docs/figures.js): every page that quotes a figure
 * quotes what its home says, and every copy of a generated file is the file. A planted
 * disagreement, in a copy of the repository's pages, is reported naming page and figure.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND, check, homes, pages, update } from "../../scripts/docs/figures.js";

const root = path.resolve(__dirname, "..", "..");

/** A copy of the pages the figures script reads, in a temporary directory. */
function copyOfPages(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "figures-"));
  for (const page of [...pages(root), "test/reliability/FIGURES.md"]) {
    fs.mkdirSync(path.dirname(path.join(dir, page)), { recursive: true });
    fs.copyFileSync(path.join(root, page), path.join(dir, page));
  }
  return dir;
}

describe("figures in the docs", () => {
  it("reads the generated reliability table and the figures the pages define", () => {
    const { values, problems } = homes(root);
    expect(problems).toEqual([]);
    expect(
      values.get("test/reliability/FIGURES.md#Durability (kill -9 mid write load) / acknowledged writes lost"),
    ).toBe("0");
    expect(values.get("bench/scale/README.md#provider-text")).toMatch(/^\d+ bytes$/);
    expect(values.size).toBeGreaterThan(50);
  });

  it("has every quoted figure and included file agree with its home", () => {
    expect(check(root), `run ${COMMAND}`).toEqual([]);
  });

  it("quotes figures from the README's companion pages rather than restating them", () => {
    const quoting = pages(root).filter((p) =>
      /<!-- (figure [^>]*#|include )/.test(fs.readFileSync(path.join(root, p), "utf8")),
    );
    expect(quoting).toEqual(expect.arrayContaining(["docs/benchmarks.md", "docs/reliability.md", "docs/resources.md"]));
  });

  it("gives the split's phases, the bench targets and the checkpoint sizes one home each, quoted where they are told", () => {
    const { values } = homes(root);
    const home = (name: string) => values.get(`bench/scale/README.md#${name}`);
    for (const name of ["target-up-500", "target-refresh-500", "target-up-1000", "target-refresh-1000"])
      expect(home(name), name).toMatch(/^\d\.\dx$/);
    expect(home("checkpoint-before-field-table")).toMatch(/^[\d,]+ bytes$/);
    expect(home("split-2000")).toMatch(/preview \d+ s against \d+ s/);
    const quotes = (page: string, name: string) =>
      fs.readFileSync(path.join(root, page), "utf8").includes(`<!-- figure bench/scale/README.md#${name} -->`);
    for (const page of ["README.md", "docs/split-by-project.md", "docs/benchmarks.md"])
      expect(quotes(page, "split-2000"), page).toBe(true);
    for (const name of ["target-refresh-500", "target-refresh-1000", "target-up-1000"])
      expect(quotes("docs/benchmarks.md", name), name).toBe(true);
    // Where the split is offered, its cost in preview and refresh is quoted beside its gain, not summed up.
    const prose = (page: string) =>
      fs
        .readFileSync(path.join(root, page), "utf8")
        .replace(/<!-- figure [^>]*-->[\s\S]*?<!-- \/figure -->/g, "")
        .replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, "");
    for (const page of ["README.md", "docs/split-by-project.md"])
      expect(prose(page).match(/\b(?:faster|cheaper) as\b[^.]*/gi) ?? [], page).toEqual([]);
  });

  it("keeps every figure quoted in a table row on that row", () => {
    const broken = pages(root).flatMap((page) =>
      fs
        .readFileSync(path.join(root, page), "utf8")
        .split("\n")
        .filter((line) => line.startsWith("|") && /<!-- figure (?:(?!<!-- \/figure -->).)*$/.test(line))
        .map((line) => `${page}: ${line.slice(0, 60)}`),
    );
    expect(broken).toEqual([]);
  });

  it("has the CHANGELOG quote its figures from their homes (the script leaves the CHANGELOG as written)", () => {
    const { values } = homes(root);
    const changelog = fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8");
    const quoted = [...changelog.matchAll(/<!-- figure (\S+#\S+) -->([\s\S]*?)<!-- \/figure -->/g)];
    expect(quoted.map((m) => m[1])).toEqual(
      expect.arrayContaining([
        "bench/scale/README.md#checkpoint-before-field-table",
        "bench/scale/README.md#checkpoint-after-field-table",
      ]),
    );
    expect(quoted.filter((m) => values.get(m[1]) !== m[2]).map((m) => `${m[1]}: "${m[2]}"`)).toEqual([]);
  });

  it("reports a planted disagreement, in a quote and in an included copy, and repairs both", () => {
    const dir = copyOfPages();
    try {
      const bench = path.join(dir, "docs", "benchmarks.md");
      const quoted = fs.readFileSync(bench, "utf8");
      fs.writeFileSync(bench, quoted.replace(/(README\.md#provider-text -->)\d+/, "$1999"));
      const reliability = path.join(dir, "docs", "reliability.md");
      const copy = fs.readFileSync(reliability, "utf8");
      fs.writeFileSync(
        reliability,
        copy.replace("| acknowledged writes lost | 0 |", "| acknowledged writes lost | 1 |"),
      );
      const problems = check(dir);
      expect(problems).toEqual([
        expect.stringMatching(
          /^docs\/benchmarks\.md: quotes bench\/scale\/README\.md#provider-text as "999 bytes", its home says "\d+ bytes"$/,
        ),
        "docs/reliability.md: its copy of test/reliability/FIGURES.md differs from the file",
      ]);
      expect(update(dir).sort()).toEqual(["docs/benchmarks.md", "docs/reliability.md"]);
      expect(check(dir)).toEqual([]);
      expect(fs.readFileSync(reliability, "utf8")).toBe(copy);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a quote of a figure its home does not define", () => {
    const dir = copyOfPages();
    try {
      fs.appendFileSync(
        path.join(dir, "docs", "benchmarks.md"),
        "\n<!-- figure bench/scale/README.md#nothing -->1<!-- /figure -->\n",
      );
      expect(check(dir)).toEqual([
        "docs/benchmarks.md: quotes figure bench/scale/README.md#nothing, which its home does not define",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
