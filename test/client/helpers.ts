/**
 * Test plumbing: the real local server over loopback HTTP and a client aimed at it.
 * Settings come from explicit options with an empty environment and an empty home, so
 * the developer's own env and credentials file never leak into a test.
 */
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server";
import { WorkspacesClient, resetLimiters, type ClientOptions } from "../../src/client";

/** A home directory that does not exist: no credentials file is found there. */
export const emptyHome = path.join(os.tmpdir(), `ws-client-no-home-${process.pid}`);

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

/**
 * A request straight to the server for test setup the client has no method for (teams,
 * tokens, state uploads). Throws with the server's answer on failure.
 */
export async function serverRequest(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  token = server.token,
): Promise<any> {
  const res = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A team of the server's organization and its token. */
export async function teamToken(
  server: RunningServer,
  name: string,
  access: { manageWorkspaces?: boolean } = {},
): Promise<{ teamId: string; token: string }> {
  const team = await serverRequest(server, "POST", `/organizations/${server.organization}/teams`, {
    data: {
      type: "teams",
      attributes: { name, "organization-access": { "manage-workspaces": access.manageWorkspaces ?? false } },
    },
  });
  const token = await serverRequest(server, "POST", `/teams/${team.data.id}/authentication-token`, {
    data: { type: "authentication-tokens" },
  });
  return { teamId: team.data.id, token: token.data.attributes.token };
}

/** Uploads a state version holding `resources` resources (and `outputs`, when given); the caller must hold the lock. */
export async function uploadState(
  server: RunningServer,
  workspaceId: string,
  options: {
    serial: number;
    resources: number;
    outputs?: Record<string, unknown>;
    intermediate?: boolean;
    finalized?: boolean;
  },
  token = server.token,
): Promise<string> {
  const { createHash } = await import("node:crypto");
  const state = JSON.stringify({
    version: 4,
    serial: options.serial,
    ...(options.outputs ? { outputs: options.outputs } : {}),
    resources: Array.from({ length: options.resources }, (_, i) => ({ name: `r${i}` })),
  });
  const doc = await serverRequest(
    server,
    "POST",
    `/workspaces/${workspaceId}/state-versions`,
    {
      data: {
        type: "state-versions",
        attributes: {
          serial: options.serial,
          md5: createHash("md5").update(state).digest("hex"),
          state: Buffer.from(state).toString("base64"),
          intermediate: options.intermediate ?? false,
          finalized: options.finalized ?? true,
        },
      },
    },
    token,
  );
  return doc.data.id;
}

/** One server and one unpaced client shared by the tests of a file (or of the enclosing describe). */
export function useServer(
  options: ServerOptions = {},
  clientOptions: ClientOptions = {},
): { server: RunningServer; client: WorkspacesClient; org: string } {
  const shared = {} as { server: RunningServer; client: WorkspacesClient; org: string };
  beforeAll(async () => {
    shared.server = await startTestServer(options);
    shared.client = clientFor(shared.server, { rateLimit: false, ...clientOptions });
    shared.org = shared.server.organization;
  });
  afterAll(async () => {
    await shared.server?.close();
  });
  return shared;
}
