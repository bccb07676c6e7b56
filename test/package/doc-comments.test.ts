/**
 * The reference is complete: every class, function, constant, interface and type exported
 * from the public entry points (`pulumi-workspaces` and `pulumi-workspaces/client`), and
 * every public member of those classes and interfaces (resource arguments and outputs,
 * client methods, option fields), carries a doc comment. Internal constants stay internal.
 */
import * as path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const srcDir = path.join(root, "src") + path.sep;
const ENTRY_POINTS = ["src/index.ts", "src/client/index.ts"];

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
  return decl.getSourceFile().fileName.startsWith(srcDir.split(path.sep).join("/")) || decl.getSourceFile().fileName.startsWith(srcDir);
}

function location(decl: ts.Declaration): string {
  const sf = decl.getSourceFile();
  const { line } = sf.getLineAndCharacterOfPosition(decl.getStart());
  return `${path.relative(root, sf.fileName)}:${line + 1}`;
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
  return checker.getPropertiesOfType(type).filter((m) => isPublicMember(m) && (m.declarations ?? []).some(inSource) && m.name !== "prototype");
}

function audit(): { missing: Finding[]; exported: string[] } {
  const prog = program();
  const checker = prog.getTypeChecker();
  const missing: Finding[] = [];
  const exported: string[] = [];
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
          const publicCtor = !(ts.getCombinedModifierFlags(ctor) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));
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
  return { missing, exported };
}

describe("the public reference", () => {
  let result: ReturnType<typeof audit>;
  beforeAll(() => {
    result = audit();
  }, 120_000);

  it("covers the resource classes and the client (the audit sees the public surface)", () => {
    for (const name of ["Workspace", "WorkspaceTags", "RemoteStateConsumers", "NoCodeModule", "NoCodeWorkspace", "WorkspaceLock", "WorkspacesClient", "WorkspaceArgs"]) {
      expect(result.exported).toContain(name);
    }
  });

  it("documents every exported declaration and each public member", () => {
    const lines = result.missing.map((m) => `${m.where}  ${m.what}`);
    expect(lines, `${lines.length} undocumented:\n${lines.join("\n")}`).toEqual([]);
  });

  it("exports no internal constants (*_OUTPUTS)", () => {
    expect(result.exported.filter((n) => /_OUTPUTS$/.test(n))).toEqual([]);
  });
});
