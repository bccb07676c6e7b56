/** `pulumi up` stopped in the middle, as a dying CI runner stops it (interrupted.test.ts, test/otf). */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { TestStack } from "./harness";

/**
 * `pulumi up` in its own process group, sent `signal` (to the whole group, as a job
 * runner or a terminal does) as soon as `reached()` says so; polled every 20 ms.
 *
 * A kill that lands while the engine writes a checkpoint can leave the file backend's
 * `<stack>.json.attrs` empty, and every later command fails with "failed to load
 * checkpoint: EOF". That file is then removed, the step docs/interrupted-updates.md
 * gives, and `emptyAttrsRemoved` says so.
 */
export function upInterrupted(
  stack: TestStack,
  signal: NodeJS.Signals,
  reached: () => boolean | Promise<boolean>,
): Promise<{ code: number | null; output: string; emptyAttrsRemoved: boolean }> {
  const bin = String(stack.env.PATH).split(path.delimiter)[0];
  const child = spawn(path.join(bin, "pulumi"), ["up", "--yes", "--non-interactive", "--skip-preview"], {
    cwd: stack.dir,
    env: stack.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let done = false;
  let busy = false;
  const poll = setInterval(() => {
    if (done || busy) return;
    busy = true;
    void Promise.resolve(reached())
      .catch(() => false)
      .then((yes) => {
        busy = false;
        if (!yes || done) return;
        done = true;
        clearInterval(poll);
        process.kill(-child.pid!, signal);
      });
  }, 20);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      done = true;
      clearInterval(poll);
      const attrs = path.join(stack.backendDir, ".pulumi", "stacks", stack.project, `${stack.stack}.json.attrs`);
      const empty = fs.existsSync(attrs) && fs.statSync(attrs).size === 0;
      if (empty) fs.rmSync(attrs);
      resolve({ code, output, emptyAttrsRemoved: empty });
    });
  });
}
