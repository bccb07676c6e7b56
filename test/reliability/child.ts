/**
 * The server as a separate process (`node dist/server/cli.js`), for what an in-process
 * server cannot show: two processes writing one database file, and a `kill -9`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "dist", "server", "cli.js");

/** Builds the package when its CLI is missing (`npm test` builds before the unit tests); returns the CLI's path. */
export function ensureBuilt(): string {
  if (!existsSync(CLI)) {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(ROOT, "tsconfig.json")],
      { stdio: "inherit" },
    );
    if (r.status !== 0) throw new Error("build failed");
  }
  return CLI;
}

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<string>;
}

export function startChildServer(args: string[]): Promise<ChildServer> {
  const cli = ensureBuilt();
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          process: child,
          output: () => out,
          exited,
          stop: (signal = "SIGTERM") => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${how}) before listening: ${out}`));
    });
  });
}
