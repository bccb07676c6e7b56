// The types of bench/shared-limit.js, a plain CommonJS module, as
// test/client/shared-limit.test.ts imports it (TypeScript checks no JavaScript here).

declare module "*/bench/shared-limit.js" {
  import type { RunningServer } from "../../src/server";

  /** What one worker process met. */
  interface WorkerReport {
    requests: number;
    retries: number;
    rateLimited: number;
    failed: number;
    /** The first few failures' messages. */
    errors: string[];
    started: number;
    ended: number;
  }

  /** Runs `processes` client processes of `requests` reads each, with one token, against `server`. */
  export function runSharedLimit(options: {
    dist: string;
    server: Pick<RunningServer, "url" | "token" | "organization" | "stats">;
    processes: number;
    requests: number;
    concurrency: number;
    workspaces?: number;
  }): Promise<{
    workers: WorkerReport[];
    served429: number;
    requests: number;
    failed: number;
    wallMs: number;
  }>;
}
