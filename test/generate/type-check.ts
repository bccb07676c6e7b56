/** The type check of a generated program against this package as built in dist/. */
import * as path from "node:path";
import ts from "typescript";

const repoRoot = path.resolve(__dirname, "../..");

/** The type errors of a generated program compiled against dist/ (strict, CommonJS). */
export function typeErrors(programPath: string): string[] {
  const compiled = ts.createProgram([programPath], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [path.join(repoRoot, "node_modules/@types")],
    baseUrl: repoRoot,
    paths: { "pulumi-workspaces": ["dist/index.d.ts"], "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"] },
  });
  return ts
    .getPreEmitDiagnostics(compiled)
    .filter((d) => d.file?.fileName === programPath)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
