/**
 * Test plumbing: the real local server over loopback HTTP and a client aimed at it.
 * Settings come from explicit options with an empty environment and an empty home, so
 * the developer's own env and credentials file never leak into a test.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server";
import { WorkspacesClient, resetLimiters, type ClientOptions } from "../../src/client";

export const emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), "ws-client-empty-home-"));

export async function startTestServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Ports are reused across servers of one test process; a limiter cached for a previous
  // server on the same port would carry that server's announced limit.
  resetLimiters();
  return startServer({ port: 0, db: ":memory:", rateLimit: false, ...options });
}

export function clientFor(server: RunningServer, options: ClientOptions = {}): WorkspacesClient {
  return new WorkspacesClient({
    address: server.url,
    token: server.token,
    organization: server.organization,
    env: {},
    homeDir: emptyHome,
    ...options,
  });
}

let counter = 0;
/** A workspace name unique within the test process. */
export function uniqueName(prefix = "ws"): string {
  counter++;
  return `${prefix}-${process.pid}-${counter}`;
}

/** Captures an async failure for assertions on its class and fields. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
