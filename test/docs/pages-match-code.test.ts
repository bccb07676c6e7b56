/**
 * What README.md, docs/resources.md, docs/languages.md, docs/local-server.md and the CI
 * example's README say about the code, read from the code: the number of resources and
 * lookups, the import ids, the CI script's defaults and installs, the Go SDK's minimum Go,
 * the Python SDK's lookup keys, the local server's scope and the global install's Node.js.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import { LOOKUP_ARGUMENTS } from "../../src/resources/lookups";
import { pluginTypeTokens } from "../../src/resources/tokens";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

const NUMBERS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
  "twenty",
];
/** A number in words, to ninety-nine: `seven`, `twenty`, `twenty-three`. */
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const count = (word: string) => {
  const [tens, ones] = word.toLowerCase().split("-");
  if (ones === undefined) return TENS.includes(tens) ? 20 + 10 * TENS.indexOf(tens) : NUMBERS.indexOf(tens);
  return TENS.includes(tens) && NUMBERS.indexOf(ones) > 0 && NUMBERS.indexOf(ones) < 10
    ? 20 + 10 * TENS.indexOf(tens) + NUMBERS.indexOf(ones)
    : -1;
};

/** The rows of the first Markdown table after `heading` whose header starts with `first`. */
function tableAfter(page: string, heading: string, first: string): string[][] {
  const from = page.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const lines = page.slice(from).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(start, `${heading}: a table headed "${first}"`).toBeGreaterThan(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

describe("docs/resources.md counts the resources and lookups the package has", () => {
  it("says how many of each, old and new", () => {
    const opening = read("docs/resources.md").split("\n\n")[1].replace(/\s+/g, " ");
    const m =
      /^([\w-]+) Pulumi resources and ([\w-]+) lookups, all in `pulumi-workspaces`: ([\w-]+) resources and ([\w-]+) lookups described here, and, since [\d.]+(?: and [\d.]+)?, ([\w-]+) resources and ([\w-]+) lookups/.exec(
        opening,
      );
    expect(m, opening).not.toBeNull();
    const [resources, lookups, oldResources, oldLookups, newResources, newLookups] = m!.slice(1).map(count);
    expect({ resources, lookups }).toEqual({
      resources: Object.keys(pluginTypeTokens).length,
      lookups: Object.keys(LOOKUP_ARGUMENTS).length,
    });
    expect(oldResources + newResources).toBe(resources);
    expect(oldLookups + newLookups).toBe(lookups);
    // The resources "described here" are those with a section of their own.
    const sections = [...read("docs/resources.md").matchAll(/^## (\w+)$/gm)].map((s) => s[1]);
    expect(sections.filter((s) => s in pluginTypeTokens)).toHaveLength(oldResources);
  });
});

describe("examples/ci/README.md says what pulumi-ci.sh does", () => {
  const script = read("examples/ci/pulumi-ci.sh");
  const readme = read("examples/ci/README.md");

  it("gives each variable's default as the script reads it, unset and empty", () => {
    const rows = tableAfter(readme, "## The script on its own", "variable");
    expect(rows.map((r) => r[0])).toEqual(["`PROGRAM_DIR`", "`POLICY_PACK`", "`POLICY_CONFIG`"]);
    for (const [name, unset, empty] of rows) {
      const variable = name.replace(/`/g, "");
      const use = new RegExp(`\\$\\{${variable}(:?-)([^}]*)\\}`).exec(script);
      expect(use, `${variable} in pulumi-ci.sh`).not.toBeNull();
      const [, op, fallback] = use!;
      const value = { unset: fallback, empty: op === ":-" ? fallback : "" };
      const says = (cell: string, v: string) => (v === "" ? /^no /.test(cell) : cell === `\`${v}\``);
      expect({ variable, unset, empty, ok: says(unset, value.unset) && says(empty, value.empty) }).toMatchObject({
        ok: true,
      });
    }
  });

  it("names the install commands the script runs, and only those", () => {
    const install = /install\(\) \{([\s\S]*?)\n\}/.exec(script)![1];
    const commands = [...install.matchAll(/npm (ci|install)\b/g)].map((m) => `npm ${m[1]}`);
    expect(commands).toEqual(["npm ci", "npm install"]);
    const section = readme.slice(readme.indexOf("## The script on its own")).replace(/\s+/g, " ");
    expect(section).toContain("with `npm ci` when there is a `package-lock.json` and with `npm install` otherwise");
    expect(script).toMatch(
      /package-lock\.json" \]\]; then \(cd "\$1" && npm ci [^;]*\); else \(cd "\$1" && npm install/,
    );
  });
});

describe("the local server's scope", () => {
  it("is never called the whole API or the whole service", () => {
    for (const page of ["README.md", "docs/local-server.md"])
      expect(read(page).replace(/\s+/g, " "), page).not.toMatch(
        /whole (?:service|workspaces|API|no-code)|Everything in the service/,
      );
    expect(read("README.md")).toContain("(docs/local-server.md#endpoints)");
  });
});

describe("the README's global install", () => {
  it("says which @pulumi/pulumi a global install takes on Node.js 20", () => {
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { version: string }>;
    };
    const pinned = lock.packages["node_modules/@pulumi/pulumi"].version;
    const paragraphs = read("README.md")
      .split("\n\n")
      .filter((p) => p.includes("npm install -g"));
    expect(paragraphs.length).toBeGreaterThan(0);
    for (const p of paragraphs) {
      const flat = p.replace(/\s+/g, " ");
      expect(flat).toContain("Node.js 20");
      expect(flat).toContain(`npm install -g pulumi-workspaces @pulumi/pulumi@${pinned}`);
    }
  });
});

describe("docs/languages.md", () => {
  const page = read("docs/languages.md");

  it("lists every resource's import ids as src/plugin/import-ids.ts gives them", () => {
    const rows = tableAfter(page, "### `pulumi import`", "resource");
    const listed = Object.fromEntries(rows.map(([name, ids]) => [spans(name)[0], spans(ids)]));
    const expected = Object.fromEntries(Object.entries(IMPORT_IDS).map(([r, v]) => [r, v.forms.map((f) => f.form)]));
    expect(listed).toEqual(expected);
  });

  it("shows no C# program, and says C# is neither generated nor run", () => {
    expect(page).not.toMatch(/```(?:csharp|cs|c#)\b/i);
    expect(page.replace(/\s+/g, " ")).toContain("no C# SDK is generated, built or run here");
  });

  it("names every lookup the plugin serves", () => {
    const intro = page.split("\n## ")[0].replace(/\s+/g, " ");
    expect(Object.keys(LOOKUP_ARGUMENTS).filter((l) => !intro.includes(`\`${l}\``))).toEqual([]);
  });

  it("gives the Go SDK's minimum Go as sdk/go.mod states it", () => {
    const go = /^go (\S+)$/m.exec(read("sdk/go.mod"))![1];
    expect(page).toContain(`it needs Go ${go} or newer`);
  });

  it("shows Python's import_ option with documented ids, and lookup keys the Python SDK has", () => {
    const python = page
      .split("```py\n")
      .slice(1)
      .map((b) => b.split("```")[0]);
    const inline = python.find((b) => b.includes("auto.create_or_select_stack"));
    expect(inline).toBeDefined();
    const imported = [...inline!.matchAll(/import_="([^"]+)"/g)].map((m) => m[1]);
    expect(imported.length).toBeGreaterThan(1);
    const forms = Object.values(IMPORT_IDS).flatMap((v) => v.forms.map((f) => f.example));
    expect(imported.filter((id) => !forms.includes(id))).toEqual([]);

    const sdk = fs
      .readdirSync(path.join(root, "sdk/python/pulumi_workspaces"))
      .filter((f) => f.endsWith(".py"))
      .map((f) => read(`sdk/python/pulumi_workspaces/${f}`))
      .join("\n");
    const has = (name: string) => new RegExp(`def ${name}\\(`).test(sdk);
    const keys = page.slice(page.indexOf("In Python a lookup's result")).split("\n\n")[0];
    const named = spans(keys)
      .filter((s) => /^[a-z_.]+$/.test(s) && s.includes("_"))
      .flatMap((s) => s.split("."));
    expect(named.length).toBeGreaterThan(4);
    expect(named.filter((n) => !has(n))).toEqual([]);
    // The attributes it reads of the SDK's results (the Automation API's own calls aside).
    const used = [...inline!.matchAll(/\b(?!auto\.)\w+\.([a-z]+(?:_[a-z]+)+)\b(?!\()/g)].map((m) => m[1]);
    expect(used).toContain("organization_access");
    expect(used.filter((n) => !has(n))).toEqual([]);
  });

  it("names as enums only types the schema makes enums", () => {
    const schema = JSON.parse(read("src/plugin/schema.json")) as { types: Record<string, { enum?: unknown[] }> };
    const enums = Object.entries(schema.types)
      .filter(([, v]) => v.enum)
      .map(([k]) => k.split(":").pop()!);
    const bullet = page.slice(page.indexOf("- A closed set of strings is an enum")).split("\n- ")[0];
    const named = spans(bullet.split(" whose constants")[0]);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((n) => !enums.includes(n))).toEqual([]);
  });
});

describe("docs/service-policies.md", () => {
  it("quotes PolicySet's overridable word for word from its doc comment, the one the schema takes (#1726)", () => {
    const source = read("src/resources/policy-set.ts");
    const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*overridable\?:/.exec(source)?.[1];
    expect(comment, "the doc comment of PolicySetArgs.overridable").toBeDefined();
    const flat = (text: string) => text.replace(/\s+/g, " ").trim();
    const said = flat(comment!.replace(/^\s*\* ?/gm, ""));
    const page = read("docs/service-policies.md");
    const quote = page
      .slice(page.indexOf("**`overridable`.**"))
      .split("\n\n")[1]
      .split("\n")
      .filter((l) => l.startsWith(">"))
      .map((l) => l.replace(/^> ?/, ""))
      .join(" ");
    expect(flat(quote)).toBe(said);
  });
});
