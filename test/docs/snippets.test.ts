/**
 * Every snippet a reader copies works as written: the TypeScript snippets of README.md,
 * docs/*.md, policies/README.md and packages/*\/README.md type-check against the built
 * package (dist/, as `npm test` builds it) with the examples' compiler options (CommonJS,
 * so no top-level await), in one program, and so do the examples' programs (the end-to-end
 * suite runs them transpile-only); every `npm run X` they name is a script, and
 * every flag they pass to a program of this repository is one it reads.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Snippet,
  flagsIn,
  inlineCode,
  npmScript,
  ownProgram,
  root,
  shellCommands,
  snippetPages,
  snippetsOf,
} from "./snippets";

const pages = snippetPages();
const snippets = pages.flatMap((p) => snippetsOf(p, fs.readFileSync(path.join(root, p), "utf8")));
const typescript = snippets.filter((s) => s.lang === "ts" || s.lang === "typescript");
const isShell = (s: Snippet) => s.lang === "sh" || s.lang === "bash" || s.lang === "shell";
const shell = snippets.filter(isShell);
const scripts = (file: string) =>
  Object.keys((JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as { scripts?: object }).scripts ?? {});

/** The shell commands of a page: its shell snippets' and its inline code's. */
function commandsOf(page: string): string[] {
  const text = fs.readFileSync(path.join(root, page), "utf8");
  return [
    ...snippetsOf(page, text)
      .filter(isShell)
      .flatMap((s) => shellCommands(s.code)),
    ...inlineCode(text).flatMap(shellCommands),
  ];
}

/** The examples' compiler options: what a user's CommonJS program compiles with. */
function examplesOptions(): ts.CompilerOptions {
  const file = path.join(root, "examples", "quickstart", "tsconfig.json");
  const { config } = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(file));
  return { ...parsed.options, noEmit: true };
}

/** Links `dir/node_modules/name` to `target` (a package folder), making its parent. */
function link(dir: string, name: string, target: string): void {
  const at = path.join(dir, "node_modules", name);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, "dir");
}

/**
 * Type-checks snippets as one program in a folder whose node_modules hold what a user
 * installs: `pulumi-workspaces` (this repository, its built dist/), the server and the
 * policy library (their built or source declarations), `@pulumi/pulumi`, `@pulumi/policy`
 * and `@types/node`. Each snippet is a module of its own. Returns one line per error.
 */
function typeCheck(dir: string, list: Snippet[]): string[] {
  const names = new Map<string, Snippet>();
  list.forEach((s, i) => {
    const file = path.join(dir, `snippet-${i}.ts`);
    fs.writeFileSync(file, `${s.code}\nexport {};\n`);
    names.set(file, s);
  });
  const program = ts.createProgram([...names.keys()], examplesOptions());
  // The snippets are judged, not the libraries (skipLibCheck leaves out their declarations;
  // the policy library is read from its sources, which the lint checks).
  const ours = ts.getPreEmitDiagnostics(program).filter((d) => !d.file || names.has(path.resolve(d.file.fileName)));
  return ours.map((d) => {
    const s = d.file && names.get(path.resolve(d.file.fileName));
    const where =
      s && d.start !== undefined
        ? `${s.page}:${s.line + 1 + d.file!.getLineAndCharacterOfPosition(d.start).line}`
        : (d.file?.fileName ?? "");
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, "dist", "index.d.ts")))
    throw new Error("dist/ is missing: run npm run build first (npm test does)");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "snippets-"));
  link(dir, "pulumi-workspaces", root);
  link(dir, "@pulumi/pulumi", path.join(root, "node_modules", "@pulumi", "pulumi"));
  link(dir, "@pulumi/policy", path.join(root, "policies", "node_modules", "@pulumi", "policy"));
  link(dir, "@types/node", path.join(root, "node_modules", "@types", "node"));
  for (const [name, target] of [
    ["pulumi-workspaces-server", path.join(root, "dist", "server", "index")],
    ["pulumi-workspaces-policies", path.join(root, "policies", "rules", "index")],
  ]) {
    fs.mkdirSync(path.join(dir, "node_modules", name), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules", name, "index.d.ts"), `export * from ${JSON.stringify(target)};\n`);
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("snippets in the docs", () => {
  it("finds the TypeScript and shell snippets of every user-facing page", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/resources.md", "policies/README.md"]));
    expect(typescript.map((s) => s.page)).toEqual(
      expect.arrayContaining(["README.md", "docs/configuration.md", "policies/README.md", "packages/server/README.md"]),
    );
    expect(shell.length).toBeGreaterThan(8);
  });

  it("type-checks every TypeScript snippet against the built package, as a CommonJS program", () => {
    expect(typeCheck(dir, typescript)).toEqual([]);
  }, 120_000);

  it("type-checks every example's program against the built package, with the example's files", () => {
    const examples = path.join(root, "examples");
    const programs: Snippet[] = [];
    for (const name of fs.readdirSync(examples).sort()) {
      const tsconfig = path.join(examples, name, "tsconfig.json");
      if (!fs.existsSync(tsconfig)) continue;
      const { files } = JSON.parse(fs.readFileSync(tsconfig, "utf8")) as { files: string[] };
      for (const f of files)
        programs.push({
          page: `examples/${name}/${f}`,
          line: 0,
          lang: "ts",
          code: fs.readFileSync(path.join(examples, name, f), "utf8"),
        });
    }
    expect(programs.map((p) => p.page)).toEqual(expect.arrayContaining(["examples/quickstart/index.ts"]));
    expect(typeCheck(fs.mkdtempSync(path.join(dir, "examples-")), programs)).toEqual([]);
  }, 120_000);

  it("gives every subpath export declarations a CommonJS program with moduleResolution node finds", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      exports: Record<string, string>;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    const subpaths = Object.keys(manifest.exports)
      .filter((k) => k !== "." && !k.endsWith(".json"))
      .map((k) => k.replace(/^\.\//, ""));
    expect(subpaths).toContain("client");
    const mapped = manifest.typesVersions["*"] ?? {};
    for (const sub of subpaths) {
      const js = manifest.exports[`./${sub}`].replace(/^\.\//, "");
      expect(mapped[sub], `typesVersions for ${sub}`).toEqual([js.replace(/\.js$/, ".d.ts")]);
    }
  });

  it("names only npm scripts that exist", () => {
    const missing: string[] = [];
    for (const page of pages) {
      const own = page.startsWith("policies/") ? scripts("policies/package.json") : [];
      const commands = commandsOf(page);
      for (const c of commands) {
        const script = npmScript(c);
        if (script && script !== "test" && !scripts("package.json").includes(script) && !own.includes(script))
          missing.push(`${page}: npm run ${script}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("passes only flags the repository's programs read", () => {
    const unknown: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const commands = commandsOf(page);
      for (const c of commands) {
        const own = ownProgram(c);
        if (!own) continue;
        checked++;
        if (!fs.existsSync(path.join(root, own.file))) {
          unknown.push(`${page}: ${c}: no ${own.file}`);
          continue;
        }
        const known = flagsIn(own.file);
        for (const f of own.flags) if (!known.has(f)) unknown.push(`${page}: ${c}: ${own.file} reads no ${f}`);
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(unknown).toEqual([]);
  });

  it("reports a planted error: top-level await, a wrong input, an unknown flag and script", () => {
    const planted: Snippet[] = [
      {
        page: "planted.md",
        line: 1,
        lang: "ts",
        code: 'import { Workspace } from "pulumi-workspaces";\nconst w = await Promise.resolve(new Workspace("w", { name: "w" }));',
      },
      {
        page: "planted.md",
        line: 10,
        lang: "ts",
        code: 'import { Workspace } from "pulumi-workspaces";\nnew Workspace("w", { name: "w", executionMode: "everywhere" });',
      },
    ];
    const errors = typeCheck(fs.mkdtempSync(path.join(dir, "planted-")), planted);
    expect(errors).toEqual([
      expect.stringMatching(/^planted\.md:3: Top-level 'await' expressions are only allowed/),
      expect.stringMatching(/^planted\.md:12: Type '"everywhere"' is not assignable/),
    ]);
    const own = ownProgram("npx pulumi-workspaces generate --organization acme --outfile x.ts")!;
    expect(own.flags.filter((f) => !flagsIn(own.file).has(f))).toEqual(["--outfile"]);
    expect(npmScript("npm run servr -- --db :memory:")).toBe("servr");
    expect(scripts("package.json")).not.toContain("servr");
  }, 120_000);
});
