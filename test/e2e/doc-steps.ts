/**
 * Following a page's steps as a reader would: the commands of a fenced shell block under a
 * heading, run one by one in a stack's folder (the real Pulumi CLI, this package's
 * generator), with only the placeholders a reader fills in (the service's address, the
 * token) replaced by the local server's. A command this runner does not know fails the
 * test, so a step added to the page is either followed here or noticed.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningServer } from "../../src/server";
import { root, sectionOf, shellCommands, snippetsOf } from "../docs/snippets";
import { repoRoot, type TestStack } from "./harness";

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
  /** Writes the server answered during the step. */
  writes: string[];
}

/** `pulumi-workspaces ARGS` as the packaged command runs it, in `cwd` with `env`. */
export function runGenerator(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, "dist", "generate", "cli.js"), ...args],
      { cwd: options.cwd, env: options.env },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/**
 * Runs `commands` in `stack`'s folder, each with `fill` applied (placeholder -> value), and
 * fails at the first that exits non-zero. Knows `export`, `mv FROM TO`, `pulumi ...` (run
 * non-interactively, `--yes` where the command asks) and `[npx] pulumi-workspaces ...`.
 */
export async function follow(
  commands: string[],
  stack: TestStack,
  server: RunningServer,
  fill: Record<string, string>,
): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const written of commands) {
    let command = written;
    for (const [placeholder, value] of Object.entries(fill)) command = command.split(placeholder).join(value);
    const argv = words(command);
    const before = { ...server.stats().byRoute };
    let r: { code: number; output: string };
    if (argv[0] === "export") {
      for (const assignment of argv.slice(1)) {
        const at = assignment.indexOf("=");
        stack.env[assignment.slice(0, at)] = assignment.slice(at + 1);
      }
      r = { code: 0, output: "" };
    } else if (argv[0] === "mv" && argv.length === 3) {
      fs.renameSync(path.resolve(stack.dir, argv[1]), path.resolve(stack.dir, argv[2]));
      r = { code: 0, output: "" };
    } else if (argv[0] === "pulumi") {
      const args = argv.slice(1);
      const confirms = ["up", "destroy", "refresh", "import"].includes(args[0]) && !args.includes("--yes");
      r = await stack.pulumi([...args, "--non-interactive", ...(confirms ? ["--yes"] : [])]);
    } else if (argv[0] === "pulumi-workspaces" || (argv[0] === "npx" && argv[1] === "pulumi-workspaces")) {
      r = await runGenerator(argv.slice(argv[0] === "npx" ? 2 : 1), { cwd: stack.dir, env: stack.env });
    } else {
      throw new Error(`no runner for the step ${JSON.stringify(written)}: follow it here, or leave it out of the page`);
    }
    const result = { command: written, code: r.code, output: r.output, writes: writesSince(server, before) };
    results.push(result);
    if (r.code !== 0)
      throw new Error(`the step ${JSON.stringify(written)} exited ${r.code}:\n${r.output.slice(-4000)}`);
  }
  return results;
}
