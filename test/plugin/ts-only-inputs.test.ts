/**
 * What a TypeScript program can give that the schema cannot carry. An input type with an
 * index signature beside named properties (`{ manageWorkspaces?: boolean; [flag: string]:
 * ... }`) takes, in TypeScript only, names the schema's object types have no room for: a
 * Go struct or a Python class drops them. So every index signature of every resource's
 * inputs, found with the TypeScript compiler in the types that scripts/plugin/schema.js
 * derives the schema from, is either a plain map, which the schema carries as a map at the
 * same path (`additionalProperties`), or is listed below as TypeScript-only, which
 * docs/languages.md then says plainly.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const deriver = require("../../scripts/plugin/schema.js") as { RESOURCES: { name: string; file: string }[] };

const root = path.join(__dirname, "../..");
const schema = JSON.parse(fs.readFileSync(path.join(root, "src/plugin/schema.json"), "utf8"));

/** Inputs only TypeScript carries (`Resource.path`), each said in docs/languages.md. None today. */
const TYPESCRIPT_ONLY: string[] = [];

interface IndexSignature {
  /** `Team.organizationAccess.otherFlags`; `[]` marks an array's items. */
  path: string;
  /** Whether the type has named properties beside the index signature (a catch-all). */
  named: boolean;
}

/** Every index signature reachable from each resource's `<Resource>Args`. */
function indexSignatures(): IndexSignature[] {
  const files = deriver.RESOURCES.map((r) => path.join(root, "src/resources", r.file));
  const program = ts.createProgram(files, { strict: true, skipLibCheck: true, esModuleInterop: true });
  const checker = program.getTypeChecker();
  const found: IndexSignature[] = [];
  const wrapper = (t: ts.Type) => ["Promise", "OutputInstance", "Output"].includes(t.getSymbol()?.name ?? "");
  function walk(t: ts.Type, where: string, depth: number): void {
    if (depth > 8) return;
    if (t.isUnion()) {
      for (const m of t.types) walk(m, where, depth);
      return;
    }
    if (wrapper(t)) {
      for (const a of checker.getTypeArguments(t as ts.TypeReference)) walk(a, where, depth);
      return;
    }
    if (t.isIntersection() && t.types.some(wrapper)) {
      for (const m of t.types.filter(wrapper)) walk(m, where, depth);
      return;
    }
    if (!(t.flags & ts.TypeFlags.Object) && !t.isIntersection()) return;
    if (checker.isArrayType(t)) {
      walk(checker.getTypeArguments(t as ts.TypeReference)[0], `${where}[]`, depth + 1);
      return;
    }
    const props = checker.getPropertiesOfType(t);
    const index = checker.getIndexInfoOfType(t, ts.IndexKind.String);
    if (index) {
      found.push({ path: where, named: props.length > 0 });
      walk(index.type, `${where}.*`, depth + 1);
    }
    for (const p of props) walk(checker.getTypeOfSymbol(p), `${where}.${p.name}`, depth + 1);
  }
  for (const r of deriver.RESOURCES) {
    const sf = program.getSourceFile(path.join(root, "src/resources", r.file))!;
    const sym = checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!).find((s) => s.name === `${r.name}Args`);
    if (!sym) throw new Error(`${r.file} exports no ${r.name}Args`);
    walk(checker.getDeclaredTypeOfSymbol(sym), r.name, 0);
  }
  return found.filter((f, i) => found.findIndex((g) => g.path === f.path) === i);
}

/** The schema's spec at `Resource.a.b` of the inputs (through `$ref`, array items and enums). */
function schemaAt(where: string): any {
  const [resource, ...steps] = where.split(".");
  let spec: any = { properties: schema.resources[`workspaces:index:${resource}`].inputProperties };
  for (const step of steps) {
    const name = step.replace(/(\[\])+$/, "");
    const deref = (s: any) => (s?.$ref ? schema.types[s.$ref.slice("#/types/".length)] : s);
    spec = deref(spec);
    spec = name === "*" ? spec?.additionalProperties : spec?.properties?.[name];
    for (let n = (step.match(/\[\]/g) ?? []).length; n > 0; n--) spec = deref(spec)?.items;
    spec = deref(spec);
    if (!spec) return undefined;
  }
  return spec;
}

describe("inputs only TypeScript carries", () => {
  const found = indexSignatures();

  it("finds the maps of the resources' inputs (the search is not empty-handed)", () => {
    expect(found.map((f) => f.path)).toEqual(
      expect.arrayContaining(["WorkspaceTags.tags", "Team.organizationAccess.otherFlags"]),
    );
  });

  it("has no catch-all beside named properties but those listed as TypeScript-only", () => {
    expect(found.filter((f) => f.named).map((f) => f.path)).toEqual(TYPESCRIPT_ONLY);
  });

  it("carries every map of a TypeScript input as a map of the schema, at the same path", () => {
    const missing = found
      .filter((f) => !f.named)
      .filter((f) => schemaAt(f.path)?.additionalProperties === undefined)
      .map((f) => f.path);
    expect(missing).toEqual([]);
  });

  it("says in docs/languages.md which inputs only TypeScript carries", () => {
    const page = fs.readFileSync(path.join(root, "docs/languages.md"), "utf8");
    for (const p of TYPESCRIPT_ONLY) expect(page).toContain(p.split(".").slice(1).join("."));
  });
});
