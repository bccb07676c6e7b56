/**
 * The code a reader copies from the docs: fenced snippets and inline commands of the
 * user-facing Markdown pages, and what they name (scripts, CLI flags).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const root = path.resolve(__dirname, "..", "..");

/** A fenced block of a page: its language, its text and the line it starts on. */
export interface Snippet {
  page: string;
  line: number;
  lang: string;
  code: string;
}

/** The pages whose snippets a user copies: README.md, docs/*.md, policies/ and packages/*. */
export function snippetPages(): string[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  // packages/policies/README.md is a copy of policies/README.md made by `npm pack` (ignored by git).
  const packages = fs
    .readdirSync(path.join(root, "packages"))
    .filter((p) => p !== "policies")
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => fs.existsSync(path.join(root, f)));
  return ["README.md", ...docs.sort(), "policies/README.md", ...packages.sort()];
}

/** Every fenced block of `text` (a page), with its language as written after the fence. */
export function snippetsOf(page: string, text: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].slice(indent));
    out.push({ page, line: i + 1, lang: open[2], code: body.join("\n") });
    i = j;
  }
  return out;
}

/**
 * The section of a page under the heading `title` (any level), up to the next heading of
 * its level or above; empty when the page has no such heading. Fenced blocks are part of it.
 */
export function sectionOf(text: string, title: string): string {
  const lines = text.split("\n");
  let level = 0;
  let inFence = false;
  const out: string[] = [];
  for (const line of lines) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^(#{1,6}) (.+)$/.exec(line);
    if (level === 0) {
      if (heading && heading[2].trim() === title) {
        level = heading[1].length;
        out.push(line);
      }
      continue;
    }
    if (heading && heading[1].length <= level) break;
    out.push(line);
  }
  return out.join("\n");
}

/** The inline code spans of a page's prose (fenced blocks left out). */
export function inlineCode(text: string): string[] {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
}

/** The commands of a shell snippet, one per line, comments and continuation joined. */
export function shellCommands(code: string): string[] {
  return code
    .replace(/\\\n/g, " ")
    .split("\n")
    .flatMap((line) => line.replace(/(^|\s)#.*$/, "").split(/&&|\|\||;|\|/))
    .map((c) => c.trim())
    .filter((c) => c !== "");
}

/** The long flags a file mentions anywhere (`--db`, `--token-file`). */
export function flagsIn(file: string): Set<string> {
  return new Set(fs.readFileSync(path.join(root, file), "utf8").match(/--[a-z][a-z0-9-]*/g) ?? []);
}

/**
 * The program a command runs, when it is one of this repository's, and the flags it passes
 * that program: `npx pulumi-workspaces generate`, `pulumi-workspaces-server`,
 * `npm run server --`, `node scripts/...` or `bench/...`, `bash scripts/...`, and the driver
 * the generator writes beside a split program (`node run-stacks.js`).
 */
export function ownProgram(command: string): { file: string; flags: string[] } | undefined {
  const words = command.split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
  const flags = (from: number) =>
    words
      .slice(from)
      .filter((w) => w.startsWith("--") && w !== "--")
      .map((w) => w.split("=")[0]);
  const at = (i: number, ...options: string[]) => options.includes(words[i] ?? "");
  if (at(0, "npx") && at(1, "pulumi-workspaces") && at(2, "generate"))
    return { file: "src/generate/cli.ts", flags: flags(3) };
  if (at(0, "pulumi-workspaces") && at(1, "generate")) return { file: "src/generate/cli.ts", flags: flags(2) };
  if (at(0, "npx") && at(1, "pulumi-workspaces-server", "workspaces-server"))
    return { file: "src/server/cli.ts", flags: flags(2) };
  if (at(0, "pulumi-workspaces-server", "workspaces-server")) return { file: "src/server/cli.ts", flags: flags(1) };
  if (at(0, "npm") && at(1, "run") && at(2, "server")) return { file: "src/server/cli.ts", flags: flags(3) };
  if (at(0, "node", "bash") && /^(scripts|bench)\//.test(words[1] ?? "")) return { file: words[1], flags: flags(2) };
  if (at(0, "node") && at(1, "run-stacks.js")) return { file: "src/generate/templates/run-stacks.js", flags: flags(2) };
  return undefined;
}

/** The npm script an `npm run X` (or `npm test`) command runs, if it is one. */
export function npmScript(command: string): string | undefined {
  const m = /^npm (?:run(?:-script)? ([\w:-]+)|(test))\b/.exec(command.trim());
  return m ? (m[1] ?? m[2]) : undefined;
}
