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
const MESSAGE = /new (?:ProviderError|NotVisibleError)\(\s*(`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*")/g;

function providerMessages(): Array<{ file: string; fixed: string }> {
  const out: Array<{ file: string; fixed: string }> = [];
  for (const file of [...sources("src/resources/providers"), "src/resources/entry.ts"]) {
    const source = fs.readFileSync(path.join(root, file), "utf8");
    // Plain errors are the provider host's own (entry.ts); elsewhere they guard invariants.
    const thrown = file.endsWith("entry.ts") ? /new Error\(\s*(`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*")/g : MESSAGE;
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

describe("docs/troubleshooting.md", () => {
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
