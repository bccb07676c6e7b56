/**
 * The reference is complete: every class, function, constant, interface and type exported
 * from the package's entry points (each subpath of `exports` in package.json:
 * `pulumi-workspaces`, `/client`, `/api`, `/generate`, `/provider`, `/tokens`), and every
 * public member of those classes and interfaces (resource arguments and outputs, client
 * methods, option fields, wire attributes), carries a doc comment. Internal constants stay
 * internal: not exported, or, where another module of the package needs them from an entry
 * point, tagged `@internal`, which leaves them out of this audit and of the typedoc
 * reference (`excludeInternal`) alike.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const srcDir = path.join(root, "src") + path.sep;
/** Every subpath the package exports (`package.json` "exports"), as its source file. */
const ENTRY_POINTS = Object.values(
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).exports as Record<string, string>,
)
  .filter((target) => target.startsWith("./dist/") && target.endsWith(".js"))
  .map((target) => target.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));

interface Finding {
  where: string;
  what: string;
}

function program(): ts.Program {
  const configPath = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(
    ENTRY_POINTS.map((e) => path.join(root, e)),
    { ...parsed.options, noEmit: true },
  );
}

function inSource(decl: ts.Declaration): boolean {
  return (
    decl.getSourceFile().fileName.startsWith(srcDir.split(path.sep).join("/")) ||
    decl.getSourceFile().fileName.startsWith(srcDir)
  );
}

function location(decl: ts.Declaration): string {
  const sf = decl.getSourceFile();
  const { line } = sf.getLineAndCharacterOfPosition(decl.getStart());
  return `${path.relative(root, sf.fileName)}:${line + 1}`;
}

/** Tagged `@internal`: not part of the reference (typedoc.json has `excludeInternal`). */
function isInternal(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === "internal"));
}

function hasDoc(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim().length > 0;
}

function isPublicMember(symbol: ts.Symbol): boolean {
  if (symbol.name.startsWith("#") || symbol.name.startsWith("__")) return false;
  return (symbol.declarations ?? []).every((d) => {
    const flags = ts.getCombinedModifierFlags(d);
    return !(flags & ts.ModifierFlags.Private) && !(flags & ts.ModifierFlags.Protected);
  });
}

/** Members declared in this repository's source (inherited SDK members are documented upstream). */
function ownMembers(checker: ts.TypeChecker, type: ts.Type): ts.Symbol[] {
  return checker
    .getPropertiesOfType(type)
    .filter((m) => isPublicMember(m) && (m.declarations ?? []).some(inSource) && m.name !== "prototype");
}

function audit(): { missing: Finding[]; exported: string[]; internal: string[] } {
  const prog = program();
  const checker = prog.getTypeChecker();
  const missing: Finding[] = [];
  const exported: string[] = [];
  const internal: string[] = [];
  const seen = new Set<ts.Symbol>();

  const checkMembers = (owner: string, members: ts.Symbol[]) => {
    for (const m of members) {
      if (seen.has(m)) continue;
      seen.add(m);
      if (!hasDoc(checker, m)) {
        const decl = m.declarations!.find(inSource)!;
        missing.push({ where: location(decl), what: `${owner}.${m.name}` });
      }
    }
  };

  const visit = (symbol: ts.Symbol, name: string) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (isInternal(symbol) || isInternal(target)) {
      internal.push(name);
      return;
    }
    exported.push(name.split(".").pop()!);
    if (seen.has(target)) return;
    seen.add(target);
    const decls = (target.declarations ?? []).filter(inSource);
    if (decls.length === 0) return;
    if (target.flags & ts.SymbolFlags.ValueModule && decls.every(ts.isSourceFile)) {
      // `export * as client from "./client"`: the namespace's own exports.
      for (const s of checker.getExportsOfModule(target)) visit(s, `${name}.${s.name}`);
      return;
    }
    if (!hasDoc(checker, target)) missing.push({ where: location(decls[0]), what: name });
    if (target.flags & ts.SymbolFlags.Class) {
      const instance = checker.getDeclaredTypeOfSymbol(target);
      checkMembers(name, ownMembers(checker, instance));
      const statics = checker.getTypeOfSymbolAtLocation(target, decls[0]);
      checkMembers(name, ownMembers(checker, statics));
      for (const decl of decls) {
        // Constructors users call: the resources and the client. The client's endpoint
        // groups and errors are constructed by the client itself.
        if (!ts.isClassDeclaration(decl) || !constructed.has(target)) continue;
        for (const ctor of decl.members.filter(ts.isConstructorDeclaration)) {
          const publicCtor = !(
            ts.getCombinedModifierFlags(ctor) &
            (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
          );
          if (publicCtor && ts.getJSDocCommentsAndTags(ctor).length === 0) {
            missing.push({ where: location(ctor), what: `${name} constructor` });
          }
        }
      }
    } else if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
      const type = checker.getDeclaredTypeOfSymbol(target);
      if (type.flags & ts.TypeFlags.Object || type.isIntersection()) checkMembers(name, ownMembers(checker, type));
    }
  };

  const main = checker.getSymbolAtLocation(prog.getSourceFile(path.join(root, ENTRY_POINTS[0]))!)!;
  const constructed = new Set(
    checker
      .getExportsOfModule(main)
      .map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s))
      .filter((s) => s.flags & ts.SymbolFlags.Class),
  );
  for (const entry of ENTRY_POINTS) {
    const sf = prog.getSourceFile(path.join(root, entry));
    if (!sf) throw new Error(`${entry} not found`);
    const moduleSymbol = checker.getSymbolAtLocation(sf)!;
    for (const s of checker.getExportsOfModule(moduleSymbol)) visit(s, s.name);
  }
  return { missing, exported, internal };
}

describe("the public reference", () => {
  let result: ReturnType<typeof audit>;
  beforeAll(() => {
    result = audit();
  }, 120_000);

  it("covers every exported subpath (the audit sees the public surface)", () => {
    expect(ENTRY_POINTS).toEqual(
      expect.arrayContaining([
        "src/index.ts",
        "src/client/index.ts",
        "src/api/index.ts",
        "src/generate/index.ts",
        "src/resources/entry.ts",
        "src/resources/tokens.ts",
      ]),
    );
    const names = [
      "Workspace",
      "WorkspaceTags",
      "RemoteStateConsumers",
      "NoCodeModule",
      "NoCodeWorkspace",
      "WorkspaceLock",
      "WorkspacesClient",
      "WorkspaceArgs",
    ];
    // One name from each of the other subpaths: the API schemas, the generator, the provider entry point.
    names.push("workspaceDocumentSchema", "generate", "GenerateOptions", "dispatch", "provider", "typeTokens");
    for (const name of names) expect(result.exported).toContain(name);
  });

  it("documents every exported declaration and each public member", () => {
    const lines = result.missing.map((m) => `${m.where}  ${m.what}`);
    expect(lines, `${lines.length} undocumented:\n${lines.join("\n")}`).toEqual([]);
  });

  it("exports no internal constants (*_OUTPUTS, the workspace field table)", () => {
    expect(result.exported.filter((n) => /_OUTPUTS$/.test(n))).toEqual([]);
    for (const name of [
      "WORKSPACE_FIELDS",
      "WORKSPACE_SETTING_WIRE",
      "workspaceFieldEntries",
      "FieldDef",
      "workspaceAttributesShape",
    ]) {
      expect(result.exported).not.toContain(name);
      expect(result.internal).not.toContain(name);
    }
  });

  it("keeps what is tagged @internal out of the reference (the provider entry point's implementation lookup)", () => {
    expect(result.internal).toContain("implementationOf");
  });

  it("audits what typedoc documents: the same entry points, and @internal left out by both", () => {
    const typedoc = JSON.parse(fs.readFileSync(path.join(root, "typedoc.json"), "utf8")) as {
      entryPoints: string[];
      excludeInternal?: boolean;
    };
    expect(typedoc.entryPoints).toEqual(expect.arrayContaining(ENTRY_POINTS));
    expect(typedoc.excludeInternal).toBe(true);
  });
});
