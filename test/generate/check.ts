/**
 * What the generator's tests share: a seeded server, type-checking generated program files
 * against this package as built in dist/, and running the command line in this process with its
 * output captured.
 */
import * as path from "node:path";
import ts from "typescript";
import { WorkspacesClient } from "../../src/client";
import { main } from "../../src/generate/cli";
import { startServer, type RunningServer } from "../../src/server";
import { seedOrganization, type Seeded } from "./seed";

const repo = path.resolve(__dirname, "../..");

/** The type errors of `files` (and of the files they import, under `within`), each as `file: message`. */
export function typeErrors(
  files: string[],
  within: (fileName: string) => boolean = (f) => files.includes(f),
): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [path.join(repo, "node_modules/@types")],
    baseUrl: repo,
    paths: { "pulumi-workspaces": ["dist/index.d.ts"], "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && within(d.file.fileName))
    .map((d) => `${d.file!.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

/** Runs `pulumi-workspaces ARGS` in this process with `env` added; resolves with its exit code and everything it printed. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const saved = { ...process.env };
  const lines: string[] = [];
  const error = console.error;
  const log = console.log;
  console.error = (...a: unknown[]) => void lines.push(a.join(" "));
  console.log = (...a: unknown[]) => void lines.push(a.join(" "));
  Object.assign(process.env, env);
  try {
    const code = await main(args);
    return { code, stderr: lines.join("\n") };
  } finally {
    console.error = error;
    console.log = log;
    process.env = saved;
  }
}

/** The real server without a rate limit, seeded with `count` workspaces (`noCode` of them made from modules), and a client of it. */
export async function seededServer(
  count: number,
  noCode: number,
): Promise<{ server: RunningServer; seeded: Seeded; client: WorkspacesClient }> {
  const server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
  const seeded = await seedOrganization(server, count, noCode);
  const client = new WorkspacesClient({
    address: server.url,
    token: server.token,
    organization: server.organization,
    rateLimit: false,
  });
  return { server, seeded, client };
}
