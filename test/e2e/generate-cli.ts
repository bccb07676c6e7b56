/** Runs the packaged `pulumi-workspaces generate` (dist/generate/cli.js) against a test server, as a user runs it. */
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { RunningServer } from "../../src/server";
import { repoRoot, serverEnv } from "./harness";

/** `generate --organization <the server's> --out <out> --force`; resolves with its exit code and what it printed on stderr. */
export function generateWithCli(server: RunningServer, out: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(repoRoot, "dist/generate/cli.js"),
        "generate",
        "--organization",
        server.organization,
        "--out",
        out,
        "--force",
      ],
      { env: { ...process.env, ...serverEnv(server) } },
      (err, _stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}
