/**
 * docs/troubleshooting.md has an entry for every error class the package raises (the
 * client's, the providers', the generator's) and quotes the text of every message the
 * providers throw, so a user who searches the page for what they read finds its cause and fix.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const page = fs.readFileSync(path.join(root, "docs", "troubleshooting.md"), "utf8");
/** The page's text with code spans and table pipes read as plain text, whitespace collapsed. */
const text = page.replace(/`/g, "").replace(/\s+/g, " ");

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.posix.join(dir, f));
}

const ERROR_FILES = ["src/client/typed-errors.ts", ...sources("src/resources/providers"), "src/generate/index.ts"];

/** Every exported error class of the package's user-facing modules. */
function errorClasses(): string[] {
  return ERROR_FILES.flatMap((f) =>
    [...fs.readFileSync(path.join(root, f), "utf8").matchAll(/^export class (\w+Error) extends/gm)].map((m) => m[1]),
  );
}

/**
 * The longest fixed text of the first literal of each `new ProviderError(` and
 * `new NotVisibleError(` in the providers, without the punctuation around the values it
 * interpolates: what a user reads whatever the resource.
 */
/** A string literal: double-quoted, or a template whose values may hold a template of their own. */
const LITERAL = /(`(?:[^`\\$]|\\.|\$(?!\{)|\$\{(?:[^{}`]|`[^`]*`|\{[^{}]*\})*\})*`|"(?:[^"\\]|\\.)*")/.source;
const MESSAGE = new RegExp(String.raw`new (?:ProviderError|NotVisibleError)\(\s*` + LITERAL, "g");

function providerMessages(): Array<{ file: string; fixed: string }> {
  const out: Array<{ file: string; fixed: string }> = [];
  for (const file of [...sources("src/resources/providers"), "src/resources/entry.ts"]) {
    const source = fs.readFileSync(path.join(root, file), "utf8");
    // Plain errors are the provider host's own (entry.ts); elsewhere they guard invariants.
    const thrown = file.endsWith("entry.ts") ? new RegExp(String.raw`new Error\(\s*` + LITERAL, "g") : MESSAGE;
    for (const m of source.matchAll(thrown)) {
      const literal = m[1].slice(1, -1).replace(/\\`/g, "");
      const pieces = literal
        .split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/)
        .map((s) => s.replace(/^[\s:;,.()"]+|[\s:;,.()"]+$/g, "").replace(/\s+/g, " "))
        .sort((a, b) => b.length - a.length);
      if (pieces[0].length >= 12) out.push({ file, fixed: pieces[0] });
    }
  }
  return out;
}

/**
 * The messages the page quotes: every code span in the first column of a table whose
 * first header is `message` or `message (start)`. In a quote, `...` (alone or after an id
 * prefix such as `ws-...`) and words in capitals (`KEY`, `NAME`, `N`, `Ns`) stand for what
 * varies.
 */
function quotedMessages(): string[] {
  const out: string[] = [];
  let inTable = false;
  for (const line of page.split("\n")) {
    if (/^\| message( \(start\))? \|/.test(line)) inTable = true;
    else if (!line.startsWith("|")) inTable = false;
    else if (inTable && !line.startsWith("|---")) {
      const first = line.slice(1).split(" | ")[0];
      for (const m of first.matchAll(/`([^`]+)`/g)) out.push(m[1]);
    }
  }
  return out;
}

/**
 * The fixed pieces of a quote: split where it varies and at the joins where code composes
 * a message from parts. A piece next to a varying part is `open` on that side: the code's
 * value may cover its words there.
 */
interface Piece {
  text: string;
  openStart: boolean;
  openEnd: boolean;
}
const PLACEHOLDER = /(?:[a-z]+-)?\.\.\.|\b[A-Z][A-Z0-9_]*s?\b/g;
const TRIM = /^[\s:;,.()"'<>[\]]+|[\s:;,.()"'<>[\]]+$/g;
function fixedPieces(quote: string): Piece[] {
  // The engine prints a check failure after `property `: the rest is the provider's.
  const runs = quote.replace(/^property /, "").split(PLACEHOLDER);
  return runs
    .flatMap((run, i) => {
      const parts = run.split(/[.:;,]\s|\s\(|\)\s/);
      return parts.map((part, j) => ({
        text: part.replace(TRIM, ""),
        openStart: j === 0 && i > 0,
        openEnd: j === parts.length - 1 && i < runs.length - 1,
      }));
    })
    .filter((p) => p.text.length >= 10);
}

function allSources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return allSources(rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

/**
 * Every source file under src/ as the text its messages read: interpolations as one mark
 * (\u0000), escapes and the joins of literals split over lines dropped, code spans read as
 * plain text, whitespace collapsed.
 */
const code = allSources("src")
  .map((f) => fs.readFileSync(path.join(root, f), "utf8"))
  .join("\n")
  .replace(/\$\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}/g, "\u0000")
  .replace(/\\`/g, "")
  .replace(/\\(["'])/g, "$1")
  .replace(/["'`]\s*\+\s*["'`]/g, "")
  .replace(/`/g, "")
  .replace(/\s+/g, " ");

/**
 * Whether the code produces `piece`: a word may hold a value the code interpolates, and a
 * run of words may be one, at an open end or between two of the code's own words, as long
 * as two of its words at least (one of two) are the code's own.
 */
function inCode(piece: Piece): boolean {
  if (code.includes(piece.text)) return true;
  const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const words = piece.text.split(" ");
  const word = (w: string) => `(?:${esc(w)}|[^ \u0000]*\u0000[^ ]*)`;
  const may = (w: string) => `(?: ?${word(w)}|(?<=\u0000))`;
  const first = piece.openStart ? word(words[0]) : esc(words[0]);
  const middle = words.slice(1, -1).map(may).join("");
  const last = piece.openEnd ? may(words[words.length - 1]) : ` ?${word(words[words.length - 1])}`;
  const pattern = new RegExp(first + middle + (words.length > 1 ? last : ""), "g");
  for (const m of code.matchAll(pattern)) {
    const own = words.filter((w) => m[0].includes(w)).length;
    if (own >= Math.min(2, words.length - 1)) return true;
  }
  return false;
}

describe("docs/troubleshooting.md", () => {
  it("quotes only messages the code produces", () => {
    const quotes = quotedMessages();
    expect(quotes.length).toBeGreaterThan(60);
    const stale = quotes.flatMap((q) =>
      fixedPieces(q)
        .filter((piece) => !inCode(piece))
        .map((piece) => ({ quote: q, piece: piece.text })),
    );
    expect(stale).toEqual([]);
  });

  it("has an entry for every error class", () => {
    const classes = errorClasses();
    expect(classes).toEqual(
      expect.arrayContaining(["ApiError", "UnauthorizedError", "ProviderError", "NotVisibleError", "GenerateError"]),
    );
    expect(classes.filter((c) => !page.includes(`### \`${c}\``))).toEqual([]);
  });

  it("quotes the fixed text of every message the providers throw", () => {
    const messages = providerMessages();
    expect(messages.length).toBeGreaterThan(20);
    expect(messages.filter((m) => !text.includes(m.fixed))).toEqual([]);
  });

  it("gives a way out for every feature a server may lack", () => {
    const source = fs.readFileSync(path.join(root, "src/client/typed-errors.ts"), "utf8");
    const features = /export type Feature =\s*([^;]+);/
      .exec(source)![1]
      .match(/"[^"]+"/g)!
      .map((s) => s.slice(1, -1));
    expect(features.length).toBeGreaterThanOrEqual(5);
    expect(features.filter((f) => !page.includes(`| ${f} |`))).toEqual([]);
  });

  it("has a section on versions and upgrades that says the lockfile decides", () => {
    expect(page).toMatch(/^## Versions and upgrades$/m);
    expect(text).toContain("commit package-lock.json");
    expect(text).toContain("Before uninstalling the package");
  });
});
