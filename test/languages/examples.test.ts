/**
 * The Python program of every resource's Example Usage (scripts/plugin/examples, carried
 * into the SDK's docstrings) runs on the generated SDK, installed from its wheel (the venv
 * of `scripts/test-languages --prepare`), with Pulumi's mocks (python/run_example.py): the
 * SDK takes every keyword, registers the resource it documents with the properties the YAML
 * program of the same example sets (and only schema defaults beside them), and sends only
 * inputs and function arguments the schema has.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { prepare } from "./drivers";

const root = path.join(__dirname, "../..");
const EXAMPLES = path.join(root, "scripts/plugin/examples");
const schema = JSON.parse(fs.readFileSync(path.join(root, "src/plugin/schema.json"), "utf8"));

/** Each example's Python and YAML program, by file and title. */
const examples = fs
  .readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".md"))
  .flatMap((file) =>
    fs
      .readFileSync(path.join(EXAMPLES, file), "utf8")
      .split(/^(?=### )/m)
      .filter((e) => e.trim())
      .map((e) => {
        const block = (lang: string) => new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "m").exec(e)?.[1] ?? "";
        return {
          resource: path.basename(file, ".md"),
          title: e.split("\n")[0].slice(4),
          python: block("python"),
          yaml: block("yaml"),
        };
      }),
  );

type Registered = { type?: string; name?: string; function?: string; inputs: string[] };

describe("the Python program of every Example Usage, on the SDK's wheel", () => {
  it.each(examples.map((e) => [`${e.resource}: ${e.title}`, e] as const))("%s", (_, e) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "example-py-"));
    try {
      const program = path.join(dir, "__main__.py");
      fs.writeFileSync(program, e.python);
      const out = execFileSync(
        prepare().LANGUAGES_PYTHON,
        [path.join(__dirname, "python", "run_example.py"), program],
        {
          encoding: "utf8",
          env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
        },
      );
      const registered = JSON.parse(out.trim().split("\n").pop()!) as Registered[];
      for (const r of registered) {
        const spec = r.type
          ? schema.resources[r.type]?.inputProperties
          : schema.functions[r.function!]?.inputs.properties;
        expect(spec, r.type ?? r.function).toBeTruthy();
        expect(
          r.inputs.filter((k) => !(k in spec)),
          r.type ?? r.function,
        ).toEqual([]);
      }
      const token = `workspaces:index:${e.resource}`;
      const shown = registered.filter((r) => r.type === token);
      expect(shown.length).toBeGreaterThan(0);
      // What the YAML program of the same example sets for the resource of the same name (the
      // SDK may register them in another order), and nothing else but the schema's defaults.
      const yaml = parse(e.yaml).resources as Record<string, { type: string; properties?: object }>;
      const inputs = schema.resources[token].inputProperties;
      for (const r of shown) {
        expect(yaml[r.name!]?.type, `${r.name} in the YAML program`).toBe(token);
        const yamlProps = Object.keys(yaml[r.name!].properties ?? {});
        expect(r.inputs, r.name).toEqual(expect.arrayContaining(yamlProps));
        expect(
          r.inputs.filter((k) => !yamlProps.includes(k) && inputs[k].default === undefined),
          r.name,
        ).toEqual([]);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
