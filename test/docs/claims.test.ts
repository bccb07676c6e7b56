/**
 * What the pages say about the code, checked against the code: which languages run (what CI
 * runs), which Node.js runs which `@pulumi/pulumi` (the packages' own `engines`), the
 * generator's messages (its strings), the driver's concurrency (its default), which backend
 * rewrites the whole state (a file or a bucket, not Pulumi Cloud), multiples of the engine
 * switch (only through figure markers), and the CI example's layout (the README's).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { noCounts } from "../../src/generate/declarations";
import { DRIVER_CONCURRENCY, renderSplitReadme } from "../../src/generate/split-files";
import { root, sectionOf, shellCommands, snippetsOf } from "./snippets";

const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
const readme = read("README.md");

/** The first fenced block in `lang` under the heading `title` of a page's text. */
function blockOf(text: string, title: string, lang: string): string {
  const block = snippetsOf("", sectionOf(text, title)).find((s) => s.lang === lang);
  if (!block) throw new Error(`no ${lang} block under "${title}"`);
  return block.code;
}

/** README, docs/ (without the generated reference), the policy pack's, the packages' and the examples' READMEs. */
function userPages(): string[] {
  const out = ["README.md", "policies/README.md", "examples/README.md"];
  for (const f of fs.readdirSync(path.join(root, "docs"))) if (f.endsWith(".md")) out.push(`docs/${f}`);
  for (const dir of ["examples", "packages"])
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true }))
      if (e.isDirectory() && fs.existsSync(path.join(root, dir, e.name, "README.md")))
        out.push(`${dir}/${e.name}/README.md`);
  return out;
}

/** A page's sentences (fenced blocks and figure quotes left out, lines joined). */
function sentences(text: string): string[] {
  return text
    .replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, "")
    .replace(/<!-- figure [^>]*-->[\s\S]*?<!-- \/figure -->/g, "FIGURE")
    .replace(/\s+/g, " ")
    .split(/(?<=[.:;!?])\s+(?=[A-Z(`[*])|\s*\|\s*/);
}

describe("languages: what the pages say runs is what CI runs", () => {
  const languages = read("docs/languages.md");
  const table = sectionOf(languages, "Which languages run end to end, and how");
  const rows = [...table.matchAll(/^\| (\w[^|]*?) \| (yes|no) \| ([^|]+) \|$/gm)].map((m) => ({
    language: m[1].trim(),
    runs: m[2] === "yes",
    how: m[3],
  }));
  const ci = read(".ci/run");

  it("runs each language the table says runs end to end, through a suite CI runs", () => {
    expect(rows.map((r) => r.language)).toEqual(["TypeScript", "YAML", "Go", "Python", "C#"]);
    const suites: Record<string, { script: string; tests: string[] }> = {
      TypeScript: { script: "npm run test:e2e", tests: ["test/e2e/workspaces.test.ts"] },
      YAML: { script: "npm run test:languages", tests: ["test/languages/yaml.test.ts", "test/e2e/yaml.test.ts"] },
      Go: { script: "npm run test:languages", tests: ["test/languages/go.test.ts"] },
      Python: { script: "npm run test:languages", tests: ["test/languages/python.test.ts"] },
    };
    for (const row of rows.filter((r) => r.runs)) {
      const suite = suites[row.language];
      expect(suite, row.language).toBeDefined();
      expect(row.how).toContain(suite.script);
      for (const t of suite.tests) expect(fs.existsSync(path.join(root, t)), t).toBe(true);
      // The command the npm script ends with, on a line of .ci/run that is no comment (and not
      // the languages suite's build-only mode).
      const script = JSON.parse(read("package.json")).scripts[suite.script.replace(/^npm run /, "")] as string;
      const core = script.split("&&").pop()!.trim();
      const runs = new RegExp(`${core.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?!\\s+--programs)`);
      expect(
        ci.split("\n").some((l) => !l.trim().startsWith("#") && runs.test(l)),
        `.ci/run runs ${core}`,
      ).toBe(true);
    }
    expect(rows.find((r) => r.language === "C#")?.runs).toBe(false);
  });

  it("has the README name the languages that run end to end, and none as compiled only", () => {
    const section = sectionOf(readme, "YAML, Python, Go and pulumi import");
    expect(section).not.toBe("");
    const plain = section.replace(/\s+/g, " ");
    expect(plain).toMatch(/YAML, Python and Go programs run end to end in CI/);
    expect(plain).not.toMatch(/compiled only|only compiled/i);
  });

  it("names C# only in docs/languages.md, which says it has no SDK", () => {
    // A page may say there is none.
    const naming = userPages().filter(
      (p) => p !== "docs/languages.md" && /C#/.test(read(p).replace(/\bno C# SDK\b/g, "")),
    );
    expect(naming).toEqual([]);
    expect(languages).toMatch(/no C# SDK is\s+generated,\s+built\s+or\s+run\s+here/);
  });

  it("shows no C# program, and names the namespace the schema's rootNamespace and name give", () => {
    const schema = JSON.parse(read("src/plugin/schema.json")) as {
      name: string;
      language: { csharp: { rootNamespace: string } };
    };
    const title = schema.name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
    const namespace = `${schema.language.csharp.rootNamespace}.${title}`;
    expect(snippetsOf("docs/languages.md", languages).filter((s) => s.lang === "csharp")).toEqual([]);
    expect(languages).toContain(`\`${namespace}\``);
  });
});

/** The lowest major version of Node.js an `engines.node` range (`>=N`) admits. */
function lowestNode(range: string): number {
  const m = /^>=\s*(\d+)/.exec(range.trim());
  if (!m) throw new Error(`engines.node ${range}: not a >= range`);
  return Number(m[1]);
}

describe("Node.js and @pulumi/pulumi: what the pages name is what the packages' engines allow", () => {
  const lock = JSON.parse(read("package-lock.json")).packages["node_modules/@pulumi/pulumi"] as {
    version: string;
    engines: { node: string };
  };
  const installed = JSON.parse(read("node_modules/@pulumi/pulumi/package.json")) as {
    version: string;
    engines: { node: string };
  };

  it("pins the oldest supported SDK, which runs on Node.js 20", () => {
    expect(JSON.parse(read("package.json")).devDependencies["@pulumi/pulumi"]).toBe(lock.version);
    expect(lowestNode(lock.engines.node)).toBeLessThanOrEqual(20);
  });

  it("pairs Node.js 20 only with exactly the pinned SDK, in every page", () => {
    const wrong: string[] = [];
    for (const page of userPages())
      for (const s of sentences(read(page))) {
        if (!/Node(?:\.js)? 20\b/.test(s) || !/@pulumi\/pulumi/.test(s)) continue;
        const named = [`@pulumi/pulumi@${lock.version}`, `"@pulumi/pulumi": "${lock.version}"`].some((n) =>
          s.includes(n),
        );
        if (!named || /\b3\.2xx\b|\bto 3\.\d|or later|or newer/.test(s)) wrong.push(`${page}: ${s}`);
      }
    expect(wrong).toEqual([]);
    expect(sectionOf(readme, "Install")).toContain(`\`@pulumi/pulumi@${lock.version}\``);
  });

  it("says Node.js 22 wherever it shows an SDK range that leaves the pinned SDK out", () => {
    const leavesOut = (range: string) => {
      const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
      const [, , min] = lock.version.split(".").map(Number);
      return m !== null && Number(m[2]) > min;
    };
    const manifests = ["examples/policy/policy-pack/package.json"];
    for (const e of fs.readdirSync(path.join(root, "examples")))
      if (fs.existsSync(path.join(root, "examples", e, "package.json"))) manifests.push(`examples/${e}/package.json`);
    const ranges = manifests.map((m) => JSON.parse(read(m)).dependencies["@pulumi/pulumi"] as string);
    expect(ranges.filter(leavesOut).length).toBe(ranges.length);
    for (const page of ["examples/README.md", "policies/README.md"]) {
      const text = read(page).replace(/\s+/g, " ");
      const shown = [...text.matchAll(/"@pulumi\/pulumi": "([^"]+)"|`(\^3\.\d+\.\d+)`/g)].map((m) => m[1] ?? m[2]);
      if (page === "examples/README.md") expect(shown).toContain(ranges[0]);
      if (shown.some(leavesOut)) expect(text, page).toContain("Node.js 22");
    }
    // Where a newer SDK than the pin is installed (the Node 22 pair of CI), its engines say why.
    if (installed.version !== lock.version) expect(lowestNode(installed.engines.node)).toBe(22);
  });

  it("requires in the Python SDK the oldest `pulumi` the suites run, the pinned one", () => {
    const required = /"pulumi>=([^,"]+)/.exec(read("sdk/python/pyproject.toml"))?.[1];
    expect(required).toBe(lock.version);
  });
});

/** The fixed text of each `new GenerateError(...)` literal of `file`, and whether it prints the usage. */
function generatorMessages(file: string): Array<{ fixed: string[]; usage: boolean }> {
  const source = read(file);
  return [
    ...source.matchAll(/new GenerateError\(\s*((?:(?:`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*")\s*\+?\s*)+),?\s*\)/g),
  ].map((m) => {
    const literal = [...m[1].matchAll(/`((?:[^`\\]|\\.)*)`|"((?:[^"\\]|\\.)*)"/g)]
      .map((p) => p[1] ?? p[2])
      .join("")
      .replace(/\\`/g, "`");
    const usage = literal.includes("${USAGE}");
    const fixed = literal
      .replace(/\$\{USAGE\}/g, "")
      .split(/\$\{[^}]*\}/)
      .map((s) => s.replace(/\\n/g, " ").replace(/`/g, "").replace(/\s+/g, " ").trim())
      .map((s) => s.replace(/^[\s:;,.()"]+|[\s:;,.()"]+$/g, ""))
      .filter((s) => s.length >= 8);
    return { fixed, usage };
  });
}

describe("the generator's messages as docs/troubleshooting.md quotes them", () => {
  const section = sectionOf(read("docs/troubleshooting.md"), "The generator");
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  const messages = [...generatorMessages("src/generate/index.ts"), ...generatorMessages("src/generate/cli.ts")];

  it("quotes every message whole, and says which print the usage", () => {
    expect(messages.length).toBeGreaterThanOrEqual(9);
    const plainRows = rows.map((r) => r.replace(/`/g, "").replace(/\s+/g, " "));
    const missing: string[] = [];
    const usageWrong: string[] = [];
    for (const m of messages) {
      const row = plainRows.find((r) => m.fixed.every((f) => r.includes(f)));
      if (!row) missing.push(m.fixed.join(" … "));
      else if (/usage/.test(row) !== m.usage) usageWrong.push(m.fixed.join(" … "));
    }
    expect(missing).toEqual([]);
    expect(usageWrong).toEqual([]);
    const printing = messages.filter((m) => m.usage).length;
    expect(printing).toBe(2);
    expect(section).toMatch(/Two of them\b[\s\S]{0,120}print the\s+command's usage/);
    expect(section).not.toMatch(/usage with each/);
  });
});

describe("the split driver's concurrency, where the pages and the generated README name it", () => {
  const template = read("src/generate/templates/run-stacks.js");
  const driverDefault = Number(/concurrency: (\d+),/.exec(template)?.[1]);

  it("is the driver's own default everywhere", () => {
    expect(driverDefault).toBe(DRIVER_CONCURRENCY);
    expect(template).toContain(`(default ${driverDefault})`);
    const generated = renderSplitReadme(
      "acme",
      [
        {
          name: "organization",
          file: "stacks/organization.ts",
          projectIds: [],
          workspaceIds: [],
          variableSetIds: [],
          counts: noCounts(),
          secrets: [],
        },
        {
          name: "data",
          projectId: "prj-1",
          file: "stacks/data.ts",
          projectIds: ["prj-1"],
          workspaceIds: ["ws-1"],
          variableSetIds: [],
          counts: noCounts(),
          secrets: [],
        },
      ],
      noCounts(),
      [],
      [],
    );
    // The CI workflow's max-parallel (its matrix) is another knob, with its own number.
    const named = (text: string) =>
      [
        ...text
          .replace(/\s+/g, " ")
          .replace(/(?:max-parallel|matrix)[^.]*\./g, "")
          .matchAll(/--concurrency (\d+)|(?<!of )\b(\d+) at a time|default(?: concurrency)?(?: of)? (\d+)/g),
      ].map((m) => Number(m[1] ?? m[2] ?? m[3]));
    const split = read("docs/split-by-project.md");
    for (const [where, text] of [
      ["README.md", sectionOf(readme, "Split an organization by project")],
      ["docs/split-by-project.md", split],
      ["the generated README", generated],
    ] as const) {
      const numbers = named(text);
      expect(numbers.length, where).toBeGreaterThan(0);
      expect(
        numbers.filter((n) => n !== driverDefault),
        where,
      ).toEqual([]);
    }
  });
});

describe("the cost of checkpoints, said with its backend and its figures", () => {
  it("says which backend rewrites the whole state wherever a page says it", () => {
    const wrong = userPages().flatMap((p) =>
      sentences(read(p))
        .filter((s) => /rewrit\w* (?:the|its) whole/.test(s) && !/\bfile\b|\bbucket\b|file-backend/.test(s))
        .map((s) => `${p}: ${s}`),
    );
    expect(wrong).toEqual([]);
    const workflow = read("examples/ci/github-actions.yml");
    expect(workflow).toMatch(/Pulumi Cloud\s+#\s+receives each step as a diff/);
  });

  it("states how much the engine switch or the split saves only through figure quotes", () => {
    const multiple =
      /\b(?:\w+ (?:to \w+ )?times (?:it|as|faster|slower)|halv\w*|half the|a (?:third|quarter|fifth) of)\b|\b\d+(?:\.\d+)?x\b/i;
    const wrong = userPages().flatMap((p) =>
      sentences(read(p))
        .filter((s) => /PULUMI_SKIP_CHECKPOINTS|checkpoints? (?:kept|skipped)|split stacks/.test(s) && multiple.test(s))
        .map((s) => `${p}: ${s}`),
    );
    expect(wrong).toEqual([]);
  });
});

describe("the CI example and the README's layout", () => {
  const pack = blockOf(readme, "The policy pack in CI", "sh");

  it("makes the pack with the same lines in the README and in the pack's README", () => {
    expect(blockOf(read("policies/README.md"), "Your organisation's pack", "sh")).toBe(pack);
    expect(pack).not.toMatch(/node_modules\/pulumi-workspaces/);
  });

  it("defaults to the folders the README's lines make, from the program's folder", () => {
    const steps = shellCommands(pack);
    const made = steps.find((s) => s.startsWith("mkdir "))!.split(/\s+/)[1];
    const config = /> (\S+\.json)$/.exec(steps.find((s) => s.includes("policy-config"))!)![1];
    const preview = steps.find((s) => s.startsWith("pulumi preview"))!;
    expect(preview).toContain(`--policy-pack ${made} --policy-pack-config ${config}`);
    const env = (name: string) =>
      new RegExp(`^  ${name}: ([^ #\\n]+)`, "m").exec(read("examples/ci/github-actions.yml"))?.[1];
    expect({ program: env("PROGRAM_DIR"), pack: env("POLICY_PACK"), config: env("POLICY_CONFIG") }).toEqual({
      program: ".",
      pack: made,
      config,
    });
    const script = read("examples/ci/pulumi-ci.sh");
    expect(script).toContain('program_dir="${PROGRAM_DIR:-.}"');
    expect(script).toContain(`policy_pack="\${POLICY_PACK-${made}}"`);
    const scriptUse = blockOf(read("examples/ci/README.md"), "The script on its own", "sh");
    expect(scriptUse).toContain(`POLICY_PACK=${made} POLICY_CONFIG=${config}`);
    expect(scriptUse).not.toMatch(/PROGRAM_DIR=(?!\.)/);
  });
});
