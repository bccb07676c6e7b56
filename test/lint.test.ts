/**
 * The lint rule set catches the classes of mistake it was chosen for, on small made-up
 * projects linted with the repository's own settings: an import circle (import-x/no-cycle),
 * a promise nobody awaits (a typed rule, so type information is really there), and an
 * exported function no file imports (knip, as `npm run lint` runs it).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const dirs: string[] = [];

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ws-lint-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const tsconfig = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "commonjs", moduleResolution: "node", strict: true, types: [] },
  include: ["src/**/*.ts"],
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("eslint.config.mjs", () => {
  let results: ESLint.LintResult[];
  const byFile = (name: string) =>
    results.find((r) => r.filePath.endsWith(`${path.sep}src${path.sep}${name}`))!.messages;
  const rules = (name: string) => byFile(name).map((m) => m.ruleId);

  beforeAll(async () => {
    const dir = project({
      "tsconfig.json": tsconfig,
      // locks.ts and workspaces.ts import each other (values, not only types).
      "src/locks.ts":
        'import { readWorkspace } from "./workspaces";\nexport function lock(id: string): string {\n  return readWorkspace(id) + ":locked";\n}\n',
      "src/workspaces.ts":
        'import { lock } from "./locks";\nexport function readWorkspace(id: string): string {\n  return id;\n}\nexport function lockAll(ids: string[]): string[] {\n  return ids.map(lock);\n}\n',
      // A circle through `import type` only vanishes at compile time: not a circle.
      "src/types-a.ts": 'import type { B } from "./types-b";\nexport interface A {\n  b?: B;\n}\n',
      "src/types-b.ts": 'import type { A } from "./types-a";\nexport interface B {\n  a?: A;\n}\n',
      "src/send.ts": "async function send(): Promise<void> {}\nexport function fire(): void {\n  send();\n}\n",
    });
    const { default: config } = (await import(path.join(root, "eslint.config.mjs"))) as { default: Linter.Config[] };
    const eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      // The repository's configuration, with the type information of the made-up project.
      overrideConfig: [
        ...config,
        {
          files: ["**/*.ts"],
          languageOptions: { parserOptions: { project: "./tsconfig.json", tsconfigRootDir: dir } },
        },
      ],
    });
    results = await eslint.lintFiles(["src"]);
  }, 60_000);

  it("reports an import circle on both of its files", () => {
    expect(rules("locks.ts")).toContain("import-x/no-cycle");
    expect(rules("workspaces.ts")).toContain("import-x/no-cycle");
  });

  it("does not count a circle of type-only imports", () => {
    expect(byFile("types-a.ts")).toEqual([]);
    expect(byFile("types-b.ts")).toEqual([]);
  });

  it("reports a promise nobody awaits, which takes type information", () => {
    expect(rules("send.ts")).toEqual(["@typescript-eslint/no-floating-promises"]);
  });
});

describe("knip.json", () => {
  it("reports an exported function no file imports, and a file nothing reaches", () => {
    const settings = JSON.parse(fs.readFileSync(path.join(root, "knip.json"), "utf8")) as {
      workspaces: Record<string, { entry: string[]; project: string[] }>;
    };
    const dir = project({
      "package.json": JSON.stringify({ name: "made-up", version: "1.0.0", private: true, main: "src/index.ts" }),
      "tsconfig.json": tsconfig,
      // The repository's settings for its root; the made-up package's entry is its main.
      "knip.json": JSON.stringify({ project: settings.workspaces["."].project }),
      "src/index.ts": 'import { kebabToCamel } from "./common";\nexport const key = kebabToCamel("auto-apply");\n',
      "src/common.ts":
        "export function kebabToCamel(s: string): string {\n  return s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());\n}\n" +
        'export function camelToKebab(s: string): string {\n  return s.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());\n}\n',
      "src/orphan.ts": "export const nobody = 1;\n",
    });
    let output = "";
    try {
      output = execFileSync(
        process.execPath,
        [path.join(root, "node_modules", "knip", "bin", "knip.js"), "--reporter", "json", "--no-progress"],
        {
          cwd: dir,
          encoding: "utf8",
        },
      );
    } catch (err) {
      // knip exits 1 when it finds something; its report is still on stdout.
      output = (err as { stdout: string }).stdout;
    }
    const report = JSON.parse(output) as {
      files?: string[];
      issues: { file: string; files?: unknown[]; exports: { name: string }[] }[];
    };
    const exports = report.issues.flatMap((i) => i.exports.map((e) => `${i.file}:${e.name}`));
    expect(exports).toEqual(["src/common.ts:camelToKebab"]);
    const files = [
      ...(report.files ?? []),
      ...report.issues.filter((i) => (i.files ?? []).length > 0).map((i) => i.file),
    ];
    expect(files).toEqual(["src/orphan.ts"]);
  });
});
