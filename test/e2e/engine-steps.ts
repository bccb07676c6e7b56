/**
 * Steps several end-to-end tests take the same way: counting the writes a run sent,
 * waiting until requests a killed run had sent are all answered, and `pulumi import`
 * through the provider plugin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import type { RunningServer } from "../../src/server";
import type { PulumiResult, StateResource, TestStack } from "./harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as { pluginLauncher(dir: string): string };

/** Write requests (POST, PATCH, PUT, DELETE) by route since `since` (a copy of `server.stats().byRoute`). */
export function writesSince(server: RunningServer, since: Record<string, number>): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `fn`'s answer, asked again `everyMs` later when it fails (the rate limit refuses a read
 * now and then), at most `tries` times; then the test fails naming `what` and the last
 * error, instead of looping until the file's timeout.
 */
export async function attempts<T>(what: string, tries: number, everyMs: number, fn: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
    }
    await sleep(everyMs);
  }
  throw new Error(
    `${what}: still failing after ${tries} tries ${everyMs} ms apart: ${last instanceof Error ? last.message : String(last)}`,
  );
}

/** Tries of one listing, 250 ms apart: ten seconds, ten of the rate limit's windows. */
const LIST_TRIES = 40;
/**
 * Listings half a second apart before the server must have settled: thirty seconds, where
 * a killed run's requests in flight (the engine's parallelism of them, each held at most
 * the tests' injected 300 ms) are all answered within a few.
 */
const SETTLE_TRIES = 60;

/**
 * What `list` answers once the server settled: creates in flight when a CLI died still
 * land, so it lists until two listings half a second apart are as long. A failed listing
 * (the rate limit) is asked again. Both waits are bounded, and fail naming `what`.
 */
export async function settledList<T>(list: () => Promise<T[]>, what = "the listing"): Promise<T[]> {
  const once = () => attempts(what, LIST_TRIES, 250, list);
  let last = await once();
  for (let i = 0; i < SETTLE_TRIES; i++) {
    await sleep(500);
    const now = await once();
    if (now.length === last.length) return now;
    last = now;
  }
  throw new Error(
    `${what} still changed after ${SETTLE_TRIES} listings half a second apart (${last.length} now): the server never settled`,
  );
}

/**
 * `pulumi import workspaces:index:<type> <name> <id>` through the provider plugin (dynamic
 * resources cannot be imported: pulumi/pulumi#16175), then the record leaves the stack
 * again (`pulumi state delete`: the program does not declare it) and stays on the server.
 * Returns the resource as the import recorded it.
 */
export async function importAndForget(
  stack: TestStack,
  type: string,
  name: string,
  id: string,
): Promise<StateResource | undefined> {
  const plugins = engine.pluginLauncher(path.join(stack.root, "plugins"));
  const env = {
    PATH: [String(stack.env.PATH).split(path.delimiter)[0], plugins, stack.env.PATH].join(path.delimiter),
  };
  const token = `workspaces:index:${type}`;
  await stack.ok(
    ["import", token, name, id, "--generate-code=false", "--protect=false", "--yes", "--non-interactive"],
    env,
  );
  const [imported] = stack.resources(token).filter((r) => r.id === id);
  if (imported) await stack.ok(["state", "delete", imported.urn, "--yes"], env);
  return imported;
}

/** Every file under `dir` whose bytes hold `needle` (a secret that must be in none). */
export function filesHolding(dir: string, needle: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(needle)) out.push(file);
  }
  return out;
}

/**
 * `pulumi import --file` of `imports` (`[type, name, id]`, `type` without its
 * `workspaces:index:` prefix) through the provider plugin in one engine run; the CLI's
 * result.
 */
export async function importEach(
  stack: TestStack,
  imports: Array<[type: string, name: string, id: string]>,
): Promise<PulumiResult> {
  const file = path.join(stack.root, "imports.json");
  fs.writeFileSync(
    file,
    JSON.stringify({ resources: imports.map(([type, name, id]) => ({ type: `workspaces:index:${type}`, name, id })) }),
  );
  // Dynamic resources cannot be imported (pulumi/pulumi#16175): the provider plugin imports them.
  const plugins = engine.pluginLauncher(path.join(stack.root, "plugins"));
  const env = {
    PATH: [String(stack.env.PATH).split(path.delimiter)[0], plugins, stack.env.PATH].join(path.delimiter),
  };
  return stack.ok(
    ["import", "--file", file, "--generate-code=false", "--protect=false", "--yes", "--non-interactive"],
    env,
  );
}

/**
 * Every resource the provider plugin holds in the stack (what `pulumi import` recorded) leaves
 * it again in one state edit (`stack export`, `stack import`); the records stay on the server.
 */
export async function forgetPluginResources(stack: TestStack): Promise<void> {
  const state = JSON.parse((await stack.ok(["stack", "export"])).stdout);
  state.deployment.resources = state.deployment.resources.filter(
    (r: { type: string }) =>
      !r.type.startsWith("workspaces:index:") && !r.type.startsWith("pulumi:providers:workspaces"),
  );
  const file = path.join(stack.root, "state.json");
  fs.writeFileSync(file, JSON.stringify(state));
  await stack.ok(["stack", "import", "--file", file]);
}

/**
 * `secret` is in no output of the CLI and no answer of the server a test kept (`printed`),
 * the server's log, its database's folder, the state backend, or a file of the program's
 * folder but the program itself (which may hold the literal).
 */
export function expectSecretNowhere(
  secret: string,
  where: { printed: string[]; log: string; dbDir: string; stack: TestStack },
): void {
  for (const out of where.printed) expect(out.includes(secret), "a CLI output or a server answer").toBe(false);
  expect(where.log.length).toBeGreaterThan(0);
  expect(where.log.includes(secret), "the server's log").toBe(false);
  expect(filesHolding(where.dbDir, secret), "the server's database").toEqual([]);
  expect(filesHolding(where.stack.backendDir, secret), "the state backend").toEqual([]);
  const program = path.join(where.stack.dir, "index.ts");
  expect(
    filesHolding(where.stack.dir, secret).filter((f) => f !== program),
    "the program's folder",
  ).toEqual([]);
}
