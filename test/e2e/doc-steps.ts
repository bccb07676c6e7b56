/**
 * Following a page's steps as a reader would: the commands of a fenced shell block under a
 * heading, run one by one from a stack's folder (the real Pulumi CLI, this package's
 * generator and the programs it writes), with only the placeholders a reader fills in (the
 * service's address, the token) replaced by the local server's. A command this runner does
 * not know fails the test, so a step added to the page is either followed here or noticed.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningServer } from "../../src/server";
import { root, sectionOf, shellCommands, snippetsOf } from "../docs/snippets";
import { repoRoot, type TestStack } from "./harness";

// Plain CommonJS shared with the demo and the benchmark.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as {
  linkPackage(dir: string): void;
  runPulumi(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; output: string }>;
};

/** The `n`-th fenced block in language `lang` under the heading `title` of `page` (absolute, or relative to the repository). */
export function blockUnder(page: string, title: string, lang: string, n = 0): string {
  const section = sectionOf(fs.readFileSync(path.resolve(root, page), "utf8"), title);
  const blocks = snippetsOf(page, section).filter((s) => s.lang === lang);
  if (!blocks[n]) throw new Error(`${page} has no ${lang} block #${n + 1} under "${title}"`);
  return blocks[n].code;
}

/** The commands of the `n`-th shell block under `title`, as a reader types them. */
export function stepsUnder(page: string, title: string, n = 0): string[] {
  return shellCommands(blockUnder(page, title, "sh", n));
}

/** The writes (requests other than GET) the server answered since `since` (a copy of `server.stats().byRoute`). */
export function writesSince(server: RunningServer, since: Record<string, number>): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

/** The words of a command as a shell splits them, quotes removed (the pages use no escapes inside quotes). */
function words(command: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (const m of command.matchAll(/"([^"]*)"|'([^']*)'|(\s+)|([^\s"']+)/g)) {
    if (m[3] !== undefined) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? "") + (m[1] ?? m[2] ?? m[4]);
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** What one step did. */
export interface StepResult {
  command: string;
  code: number;
  output: string;
  /** Requests the server answered during the step. */
  requests: number;
  /** Writes among them. */
  writes: string[];
}

/** `node FILE ARGS` (this package's generator when FILE is omitted), in `cwd` with `env`. */
function runNode(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file, ...args],
      { cwd: options.cwd, env: options.env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** `pulumi-workspaces ARGS` as the packaged command runs it. */
export function runGenerator(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return runNode(path.join(repoRoot, "dist", "generate", "cli.js"), args, options);
}

function requestCount(server: RunningServer): number {
  return Object.entries(server.stats().byRoute)
    .filter(([route]) => !route.includes("/_stats"))
    .reduce((n, [, c]) => n + c, 0);
}

/**
 * A reader at a shell in `stack`'s folder, with `stack`'s environment (the engine's, the
 * file backend's). `follow` runs a page's commands one by one, each with `fill` applied
 * (placeholder -> value), and fails at the first that exits non-zero. It knows `export`,
 * `cd DIR`, `mv FROM TO`, `npm install` (this checkout linked, as the harness installs it),
 * `node FILE ...`, `pulumi ...` (run non-interactively, `--yes` where the command asks) and
 * `[npx] pulumi-workspaces ...`.
 */
export class Reader {
  cwd: string;

  constructor(
    readonly stack: TestStack,
    readonly server: RunningServer,
    readonly fill: Record<string, string>,
  ) {
    this.cwd = stack.dir;
  }

  async follow(commands: string[]): Promise<StepResult[]> {
    const results: StepResult[] = [];
    for (const written of commands) {
      let command = written;
      for (const [placeholder, value] of Object.entries(this.fill)) command = command.split(placeholder).join(value);
      const before = { ...this.server.stats().byRoute };
      const requestsBefore = requestCount(this.server);
      const r = await this.run(words(command), written);
      const result = {
        command: written,
        ...r,
        requests: requestCount(this.server) - requestsBefore,
        writes: writesSince(this.server, before),
      };
      results.push(result);
      if (r.code !== 0)
        throw new Error(`the step ${JSON.stringify(written)} exited ${r.code}:\n${r.output.slice(-4000)}`);
    }
    return results;
  }

  protected async run(argv: string[], written: string): Promise<{ code: number; output: string }> {
    const at = (p: string) => path.resolve(this.cwd, p);
    const env = this.stack.env;
    const [program, ...args] = argv;
    if (program === "export") {
      for (const assignment of args)
        env[assignment.slice(0, assignment.indexOf("="))] = assignment.slice(assignment.indexOf("=") + 1);
      return { code: 0, output: "" };
    }
    if (program === "cd" && args.length === 1) {
      this.cwd = at(args[0]);
      return { code: 0, output: "" };
    }
    if (program === "mv" && args.length === 2) {
      fs.renameSync(at(args[0]), at(args[1]));
      return { code: 0, output: "" };
    }
    if (program === "npm" && args.join(" ") === "install") {
      engine.linkPackage(this.cwd);
      return { code: 0, output: "" };
    }
    if (program === "node" && args.length > 0) return runNode(at(args[0]), args.slice(1), { cwd: this.cwd, env });
    if (program === "pulumi") {
      const confirms = ["up", "destroy", "refresh", "import"].includes(args[0]) && !args.includes("--yes");
      return engine.runPulumi([...args, "--non-interactive", ...(confirms ? ["--yes"] : [])], { cwd: this.cwd, env });
    }
    if (program === "pulumi-workspaces" || (program === "npx" && args[0] === "pulumi-workspaces"))
      return runGenerator(program === "npx" ? args.slice(1) : args, { cwd: this.cwd, env });
    throw new Error(`no runner for the step ${JSON.stringify(written)}: follow it here, or leave it out of the page`);
  }
}
