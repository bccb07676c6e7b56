/**
 * What the generator's tests share: a seeded server, type-checking generated program files
 * against this package as built in dist/, and running the command line in this process with its
 * output captured.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { expect } from "vitest";
import { WorkspacesClient } from "../../src/client";
import { generate, generateSplit, type GenerateResult, type SplitResult } from "../../src/generate";
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

/**
 * Runs `pulumi-workspaces ARGS` in this process with `env` added, in the folder `cwd` (default:
 * this one); resolves with its exit code and everything it printed. `PULUMI_HOME` is an empty
 * folder unless `env` names one, so that no stack the machine's user selected is read.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<{ code: number; stderr: string }> {
  const saved = { ...process.env };
  const savedCwd = process.cwd();
  const lines: string[] = [];
  const error = console.error;
  const log = console.log;
  console.error = (...a: unknown[]) => void lines.push(a.join(" "));
  console.log = (...a: unknown[]) => void lines.push(a.join(" "));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "pw-cli-home-"));
  Object.assign(process.env, { PULUMI_HOME: home }, env);
  try {
    if (cwd) process.chdir(cwd);
    const code = await main(args);
    return { code, stderr: lines.join("\n") };
  } finally {
    process.chdir(savedCwd);
    console.error = error;
    console.log = log;
    process.env = saved;
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** The real server without a rate limit, seeded with `count` workspaces (`noCode` of them made from modules), and a client of it. */
export async function seededServer(
  count: number,
  noCode: number,
): Promise<{ server: RunningServer; seeded: Seeded; client: WorkspacesClient }> {
  // seed-access names a notification destination off this machine, enabled: stored without delivering.
  const server = await startServer({ port: 0, db: ":memory:", rateLimit: false, storeRemoteNotifications: true });
  const seeded = await seedOrganization(server, count, noCode);
  const client = new WorkspacesClient({
    address: server.url,
    token: server.token,
    organization: server.organization,
    rateLimit: false,
  });
  return { server, seeded, client };
}

/** The statement of a generated program that declares the resource named `name` (up to the closing `);`). */
export function statementOf(program: string, kind: string, name: string): string {
  const start = program.indexOf(`new ${kind}(${JSON.stringify(name)},`);
  expect(start, `${kind} ${name} in the program`).toBeGreaterThanOrEqual(0);
  return program.slice(start, program.indexOf(");", start) + 2);
}

/**
 * Generates from `client` into a new folder under the system's temporary one (`prefix` starts
 * its name): one program (`one/index.ts`, with its bulk import file `one/import.json`), with the
 * requests its reads took on each route of `server`, then a split one (`split/`).
 */
export async function generateBoth(
  server: RunningServer,
  client: WorkspacesClient,
  prefix: string,
): Promise<{ dir: string; result: GenerateResult; reads: Record<string, number>; split: SplitResult }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const before = server.stats().byRoute;
  const result = await generate({
    client,
    out: path.join(dir, "one", "index.ts"),
    importFile: path.join(dir, "one", "import.json"),
  });
  const reads = Object.fromEntries(
    Object.entries(server.stats().byRoute)
      .map(([route, n]) => [route, n - (before[route] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
  const split = await generateSplit({ client, out: path.join(dir, "split") });
  return { dir, result, reads, split };
}
