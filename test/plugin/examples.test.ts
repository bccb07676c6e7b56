/**
 * Every resource's and every function's `## Example Usage` (scripts/plugin/examples/<Resource>.md
 * and scripts/plugin/examples/functions/<function>.md, read by
 * scripts/plugin/schema.js into the schema and so into each SDK's docstrings) works as
 * written: the TypeScript programs type-check against the built package, the YAML
 * programs name only tokens and properties the schema has, the Python programs parse and
 * call only classes, functions and keywords the schema gives the SDK, and the four
 * programs of an example set the same properties of the resource they show. (The Go
 * programs are compiled with `go vet` against the generated SDK by
 * `scripts/plugin/sdks --check`; the Python ones run on the SDK's wheel with Pulumi's mocks
 * in test/languages/examples.test.ts.)
 *
 * A new resource or function needs its file: the schema script refuses one without it, and
 * the first tests below fail.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const deriver = require("../../scripts/plugin/schema.js") as {
  EXAMPLES: string;
  FUNCTION_EXAMPLES: string;
  EXAMPLE_LANGUAGES: string[];
};

const root = path.join(__dirname, "../..");
const schema = JSON.parse(fs.readFileSync(path.join(root, "src/plugin/schema.json"), "utf8"));
const PREFIX = "workspaces:index:";
const kinds = Object.keys(schema.resources).map((t) => t.slice(PREFIX.length));
const functionNames = Object.keys(schema.functions).map((t) => t.slice(PREFIX.length));

interface Example {
  resource: string;
  title: string;
  code: Record<string, string>;
}

/** The examples of every file of `dir`, each with its code per language. */
function readExamples(dir: string): Example[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .flatMap((file) => {
      const resource = path.basename(file, ".md");
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      return text
        .split(/^(?=### )/m)
        .filter((e) => e.trim())
        .map((e) => ({
          resource,
          title: e.split("\n")[0].slice(4),
          code: Object.fromEntries([...e.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]])),
        }));
    });
}
const examples = readExamples(deriver.EXAMPLES);
/** The functions' examples: `resource` is the function's name (`getTeam`). */
const functionExamples = readExamples(deriver.FUNCTION_EXAMPLES);
const label = (e: Example) => `${e.resource}: ${e.title}`;

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camelOfSnake = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** The properties of an object type the schema names by `$ref`, or of the items of an array of them. */
function refProperties(p: any): Record<string, any> | undefined {
  const ref: string | undefined = p?.$ref ?? p?.items?.$ref;
  return ref?.startsWith("#/types/") ? schema.types[ref.slice(8)]?.properties : undefined;
}

describe("Example Usage", () => {
  it("has an example for every resource of the schema, and none for a resource it does not have", () => {
    expect(sorted(examples.map((e) => e.resource))).toEqual(sorted(kinds));
  });

  it.each(kinds)("%s: its description carries each example in every language, before its Import section", (kind) => {
    const text: string = schema.resources[`${PREFIX}${kind}`].description;
    expect(text).toContain("{{% examples %}}\n## Example Usage");
    expect(text.indexOf("## Example Usage")).toBeLessThan(text.indexOf("## Import"));
    for (const e of examples.filter((x) => x.resource === kind)) {
      expect(Object.keys(e.code), label(e)).toEqual(deriver.EXAMPLE_LANGUAGES);
      for (const [lang, code] of Object.entries(e.code)) expect(text, `${label(e)} ${lang}`).toContain(code);
    }
  });

  it("each SDK's docstring of a resource carries its example in the SDK's language", () => {
    for (const e of examples) {
      const py = fs.readFileSync(
        path.join(root, "sdk/python/pulumi_workspaces", `${snake(lower(e.resource))}.py`),
        "utf8",
      );
      expect(py, label(e)).toContain("## Example Usage");
      // The docstring is the example's lines, each as written.
      for (const line of e.code.python.split("\n").filter((l) => l.trim()))
        expect(py, `${label(e)} python`).toContain(line.replace(/\\/g, "\\\\"));
      const go = fs.readFileSync(path.join(root, "sdk/go/workspaces", `${lower(e.resource)}.go`), "utf8");
      expect(go, label(e)).toContain("## Example Usage");
      expect(go, `${label(e)} go`).toContain(`workspaces.New${e.resource}(ctx`);
    }
  });

  it("type-checks every TypeScript example against the built package, as a user's CommonJS program", () => {
    if (!fs.existsSync(path.join(root, "dist", "index.d.ts")))
      throw new Error("dist/ is missing: run npm run build first (npm test does)");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "examples-"));
    try {
      // A folder whose node_modules hold what a user installs: this package and @pulumi/pulumi.
      for (const [name, target] of [
        ["pulumi-workspaces", root],
        ["@pulumi/pulumi", path.join(root, "node_modules/@pulumi/pulumi")],
        ["@types/node", path.join(root, "node_modules/@types/node")],
      ]) {
        fs.mkdirSync(path.dirname(path.join(dir, "node_modules", name)), { recursive: true });
        fs.symlinkSync(target, path.join(dir, "node_modules", name), "dir");
      }
      const all = [...examples, ...functionExamples];
      const files = all.map((e, i) => {
        const file = path.join(dir, `example-${i}.ts`);
        fs.writeFileSync(file, `${e.code.typescript}\nexport {};\n`);
        return file;
      });
      const { config } = ts.readConfigFile(path.join(root, "examples/quickstart/tsconfig.json"), (f) =>
        ts.sys.readFile(f),
      );
      const options = ts.parseJsonConfigFileContent(config, ts.sys, path.join(root, "examples/quickstart")).options;
      const program = ts.createProgram(files, { ...options, noEmit: true });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file && files.includes(path.resolve(d.file.fileName)))
        .map((d) => {
          const e = all[files.indexOf(path.resolve(d.file!.fileName))];
          return `${label(e)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
        });
      expect(errors).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("names in every YAML example only resource types, functions and properties the schema has", () => {
    const problems: string[] = [];
    const checkObject = (where: string, value: unknown, props: Record<string, any>, required: string[] = []) => {
      if (typeof value !== "object" || value === null) return;
      for (const r of required) if (!(r in value)) problems.push(`${where}: no ${r}, which is required`);
      for (const [k, v] of Object.entries(value)) {
        if (!props[k]) {
          problems.push(`${where}: ${k} is no property`);
          continue;
        }
        const nested = refProperties(props[k]);
        const ref: string | undefined = props[k].$ref ?? props[k].items?.$ref;
        const req: string[] = ref?.startsWith("#/types/") ? (schema.types[ref.slice(8)].required ?? []) : [];
        if (nested) for (const item of Array.isArray(v) ? v : [v]) checkObject(`${where}.${k}`, item, nested, req);
      }
    };
    for (const e of examples) {
      const program = parse(e.code.yaml) as { resources?: Record<string, any>; variables?: Record<string, any> };
      const shown = Object.values(program.resources ?? {}).map((r) => r.type);
      if (!shown.includes(`${PREFIX}${e.resource}`)) problems.push(`${label(e)}: declares no ${e.resource}`);
      for (const [name, r] of Object.entries(program.resources ?? {})) {
        const spec = schema.resources[r.type];
        if (!spec) problems.push(`${label(e)}: ${name} has type ${r.type}, which the schema has not`);
        else checkObject(`${label(e)}: ${name}`, r.properties ?? {}, spec.inputProperties, spec.requiredInputs ?? []);
      }
      for (const [name, v] of Object.entries(program.variables ?? {})) {
        const invoke = v?.["fn::invoke"];
        if (!invoke) continue;
        const fn = schema.functions[invoke.function];
        if (!fn) problems.push(`${label(e)}: ${name} invokes ${invoke.function}, which the schema has not`);
        else checkObject(`${label(e)}: ${name}`, invoke.arguments ?? {}, fn.inputs.properties, fn.inputs.required);
      }
    }
    expect(problems).toEqual([]);
  });

  it("calls in every Python example only classes, functions and keywords of the SDK the schema gives", () => {
    const parsed = pythonCalls(examples);
    const types = new Map(
      Object.entries<any>(schema.types).map(([t, spec]) => [`${t.slice(PREFIX.length)}Args`, spec]),
    );
    const functions = new Map(
      Object.entries<any>(schema.functions).flatMap(([t, spec]) => {
        const name = snake(t.slice(PREFIX.length));
        return [
          [name, spec.inputs],
          [`${name}_output`, spec.inputs],
        ];
      }),
    );
    const problems: string[] = [];
    examples.forEach((e, i) => {
      if (!parsed[i].some((c) => c.name === e.resource)) problems.push(`${label(e)}: declares no ${e.resource}`);
      for (const call of parsed[i]) {
        const resource = schema.resources[`${PREFIX}${call.name}`];
        const target = resource
          ? { properties: resource.inputProperties, required: resource.requiredInputs }
          : (types.get(call.name) ?? functions.get(call.name));
        if (!target) {
          problems.push(`${label(e)}: workspaces.${call.name} is not in the SDK`);
          continue;
        }
        const known = Object.keys(target.properties).map(snake);
        for (const k of call.keywords)
          if (!known.includes(pythonName(k))) problems.push(`${label(e)}: ${call.name}(${k}=...)`);
        for (const r of target.required ?? [])
          if (!call.keywords.includes(snake(r))) problems.push(`${label(e)}: ${call.name} without ${snake(r)}`);
      }
    });
    expect(problems).toEqual([]);
  });

  it("sets the same properties of the resource it shows in TypeScript, Python, Go and YAML", () => {
    for (const e of examples) {
      const yamlProps = Object.values<any>(parse(e.code.yaml).resources)
        .filter((r) => r.type === `${PREFIX}${e.resource}`)
        .map((r) => Object.keys(r.properties ?? {}).sort());
      const tsProps = [
        ...e.code.typescript.matchAll(new RegExp(`new workspaces\\.${e.resource}\\("[^"]+", \\{`, "g")),
      ].map((m) => topLevelKeys(e.code.typescript, m.index + m[0].length, /^\s*(\w+):/, "}"));
      const pyProps = [...e.code.python.matchAll(new RegExp(`workspaces\\.${e.resource}\\("[^"]+",?`, "g"))].map((m) =>
        topLevelKeys(e.code.python, m.index + m[0].length, /^\s*(\w+)=/, ")").map(camelOfSnake),
      );
      const goProps = [
        ...e.code.go.matchAll(
          new RegExp(`workspaces\\.New${e.resource}\\(ctx, "[^"]+", &workspaces\\.${e.resource}Args\\{`, "g"),
        ),
      ].map((m) => topLevelKeys(e.code.go, m.index + m[0].length, /^\s*([A-Z]\w*):/, "}").map(lower));
      expect(yamlProps.length, label(e)).toBeGreaterThan(0);
      for (const props of [tsProps, pyProps, goProps]) expect(props, label(e)).toEqual(yamlProps);
    }
  });
});

describe("Example Usage of the functions", () => {
  const fnLabel = (e: Example) => `${e.resource}: ${e.title}`;

  it("has an example for every function of the schema, and none for a function it does not have", () => {
    expect(sorted(functionExamples.map((e) => e.resource))).toEqual(sorted(functionNames));
  });

  it.each(functionNames)("%s: its description carries each example in every language", (name) => {
    const text: string = schema.functions[`${PREFIX}${name}`].description;
    expect(text).toContain("{{% examples %}}\n## Example Usage");
    for (const e of functionExamples.filter((x) => x.resource === name)) {
      expect(Object.keys(e.code), fnLabel(e)).toEqual(deriver.EXAMPLE_LANGUAGES);
      for (const [lang, code] of Object.entries(e.code)) expect(text, `${fnLabel(e)} ${lang}`).toContain(code);
    }
  });

  it("each SDK's docstring of a function carries its example in the SDK's language", () => {
    for (const e of functionExamples) {
      const py = fs.readFileSync(path.join(root, "sdk/python/pulumi_workspaces", `${snake(e.resource)}.py`), "utf8");
      expect(py, fnLabel(e)).toContain("## Example Usage");
      for (const line of e.code.python.split("\n").filter((l) => l.trim()))
        expect(py, `${fnLabel(e)} python`).toContain(line.replace(/\\/g, "\\\\"));
      const go = fs.readFileSync(path.join(root, "sdk/go/workspaces", `${e.resource}.go`), "utf8");
      expect(go, fnLabel(e)).toContain("## Example Usage");
    }
  });

  /** The arguments each language's program gives the function it shows, by their schema names. */
  function argumentsGiven(e: Example): Record<string, string[]> {
    const invokes = Object.values<any>(parse(e.code.yaml).variables ?? {})
      .map((v) => v?.["fn::invoke"])
      .filter((i) => i?.function === `${PREFIX}${e.resource}`);
    const tsCall = new RegExp(`workspaces\\.${e.resource}(?:Output)?\\(\\{`).exec(e.code.typescript);
    const pyCall = new RegExp(`workspaces\\.${snake(e.resource)}(?:_output)?\\(`).exec(e.code.python);
    const goCall = /workspaces\.(?:Get|Lookup)\w*Args\{/.exec(e.code.go);
    return {
      yaml: invokes.length ? Object.keys(invokes[0].arguments ?? {}).sort() : [],
      typescript: tsCall ? topLevelKeys(e.code.typescript, tsCall.index + tsCall[0].length, /^\s*(\w+):/, "}") : [],
      python: pyCall
        ? topLevelKeys(e.code.python, pyCall.index + pyCall[0].length, /^\s*(\w+)=/, ")").map(camelOfSnake)
        : [],
      go: goCall ? topLevelKeys(e.code.go, goCall.index + goCall[0].length, /^\s*([A-Z]\w*):/, "}").map(lower) : [],
    };
  }

  it("invokes the function it shows, with only arguments the schema has, the same in every language", () => {
    const problems: string[] = [];
    for (const e of functionExamples) {
      const fn = schema.functions[`${PREFIX}${e.resource}`];
      const given = argumentsGiven(e);
      for (const [lang, args] of Object.entries(given)) {
        if (args.length === 0) problems.push(`${fnLabel(e)}: the ${lang} program gives ${e.resource} no argument`);
        for (const a of args) if (!fn.inputs.properties[a]) problems.push(`${fnLabel(e)} ${lang}: ${a} is no argument`);
        for (const r of fn.inputs.required ?? [])
          if (!args.includes(r)) problems.push(`${fnLabel(e)} ${lang}: without ${r}`);
        if (JSON.stringify(args) !== JSON.stringify(given.yaml))
          problems.push(`${fnLabel(e)}: ${lang} gives ${args.join(", ")}, YAML ${given.yaml.join(", ")}`);
      }
      const goName = new RegExp(`workspaces\\.(Get|Lookup)${upperFirst(e.resource.slice(3))}\\(ctx`).exec(e.code.go);
      if (!goName) problems.push(`${fnLabel(e)}: the Go program calls no ${e.resource}`);
    }
    expect(problems).toEqual([]);
  });

  it("calls in every Python example only functions and keywords of the SDK the schema gives", () => {
    const parsed = pythonCalls(functionExamples);
    const problems: string[] = [];
    functionExamples.forEach((e, i) => {
      const name = snake(e.resource);
      if (!parsed[i].some((c) => c.name === name || c.name === `${name}_output`))
        problems.push(`${fnLabel(e)}: calls no ${name}`);
      for (const call of parsed[i]) {
        const resource = schema.resources[`${PREFIX}${call.name}`];
        const fn = Object.entries<any>(schema.functions).find(([t]) =>
          [snake(t.slice(PREFIX.length)), `${snake(t.slice(PREFIX.length))}_output`].includes(call.name),
        )?.[1];
        const props = resource?.inputProperties ?? fn?.inputs.properties;
        if (!props) problems.push(`${fnLabel(e)}: workspaces.${call.name} is not in the SDK`);
        else
          for (const k of call.keywords)
            if (!Object.keys(props).map(snake).includes(pythonName(k)))
              problems.push(`${fnLabel(e)}: ${call.name}(${k}=...)`);
      }
    });
    expect(problems).toEqual([]);
  });
});

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A Python keyword argument's schema name in snake case: the SDK spells a name that is a Python keyword with a trailing `_` (`global_`). */
const pythonName = (keyword: string) => keyword.replace(/_$/, "");

/** Python's own parser: each program parses, and each call `workspaces.X(...)` names what it calls and its keywords. */
function pythonCalls(list: Example[]): { name: string; keywords: string[] }[][] {
  const script = [
    "import ast, json, sys",
    "out = []",
    "for text in json.load(sys.stdin):",
    "    calls = []",
    "    for node in ast.walk(ast.parse(text)):",
    "        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == 'workspaces':",
    "            calls.append({'name': node.func.attr, 'keywords': [k.arg for k in node.keywords]})",
    "    out.append(calls)",
    "print(json.dumps(out))",
  ].join("\n");
  return JSON.parse(
    execFileSync("python3", ["-c", script], { input: JSON.stringify(list.map((e) => e.code.python)) }).toString(),
  ) as { name: string; keywords: string[] }[][];
}

/**
 * The keys of the argument list or object literal that opens at `start`, at its own depth:
 * each segment between commas (or on its own line) whose start matches `key`.
 */
function topLevelKeys(code: string, start: number, key: RegExp, close: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let segment = "";
  const take = () => {
    const m = key.exec(segment);
    if (m) keys.push(m[1]);
    segment = "";
  };
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (depth === 0 && c === close) break;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    if (depth === 0 && (c === "," || c === "\n")) take();
    else segment += c;
  }
  take();
  return keys.sort();
}
