import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { ApiError, UnexpectedResponseError } from "../../src/client";
import { Transport } from "../../src/client/transport";
import { resolveSettings } from "../../src/client/connection-settings";
import { workspaceDocumentSchema } from "../../src/api/workspaces";
import { clientFor, emptyHome, startTestServer, uniqueName } from "./helpers";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: 3 });
});
afterAll(async () => {
  await server?.close();
});

/** Everything a caller could print about an error. */
function renderings(err: unknown): string[] {
  const e = err as Error;
  return [String(e), e.message, e.stack ?? "", JSON.stringify(e), inspect(e, { depth: 10, showHidden: true })];
}

describe("the token never appears in errors or logs", () => {
  it("across 401, 404, 409, 422, 429, 503 and dropped connections", async () => {
    const lines: string[] = [];
    const errors: unknown[] = [];
    const capture = (p: Promise<unknown>) => p.catch((e) => errors.push(e));
    const client = clientFor(server, {
      rateLimit: false,
      logger: (l) => lines.push(l),
      retry: { maxAttempts: 2, baseDelayMs: 5 },
    });
    const org = server.organization;

    const ws = await client.workspaces.create(org, { name: uniqueName("secret") });
    await capture(client.workspaces.read("ws-missing"));
    await client.workspaces.lock(ws.id);
    await capture(client.workspaces.lock(ws.id));
    await capture(client.workspaces.create(org, { name: "not valid!" }));
    await Promise.all(Array.from({ length: 8 }, () => capture(client.organizations.read(org))));
    server.setFaults({ failureRate: 1, failureMode: "503" });
    await capture(client.workspaces.read(ws.id));
    server.setFaults({ failureRate: 1, failureMode: "drop" });
    await capture(client.workspaces.read(ws.id));
    server.setFaults({});

    const wrongToken = "wrong-token-abcdefghijklmnop";
    const stranger = clientFor(server, { token: wrongToken, rateLimit: false, logger: (l) => lines.push(l) });
    await capture(stranger.workspaces.read(ws.id));

    const statuses = new Set(errors.map((e) => (e as ApiError).status));
    for (const s of [0, 401, 404, 409, 422, 429, 503]) expect(statuses).toContain(s);
    expect(lines.length).toBeGreaterThan(10);
    for (const text of [...lines, ...errors.flatMap(renderings)]) {
      expect(text).not.toContain(server.token);
      expect(text).not.toContain(wrongToken);
      expect(text).not.toMatch(/Bearer\s+\S/);
    }
  });

  it("even when the token is passed where an identifier belongs and the service echoes it", async () => {
    const client = clientFor(server, { rateLimit: false });
    const errors: unknown[] = [];
    for (const call of [
      () => client.workspaces.readByName(server.organization, server.token),
      () => client.organizations.read(server.token),
      () => client.sshKeys.list(server.token).all(),
      () => client.registryModules.create(server.token, { name: "m", provider: "aws" }),
    ]) {
      errors.push(await call().catch((e) => e));
    }
    // The service names the organization it could not find: here that echoes the token.
    expect((errors[1] as ApiError).detail).toMatch(/organization "\[redacted\]" not found/);
    expect((errors[1] as ApiError).errors[0].detail).toContain("[redacted]");
    for (const err of errors) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).path).toContain("[redacted]");
      for (const text of renderings(err)) expect(text).not.toContain(server.token);
    }
  });
});

describe("responses of an unexpected shape", () => {
  it("names the path of what makes it another document; attributes it lacks read as absent", async () => {
    const settings = resolveSettings({ address: server.url, token: server.token, env: {}, homeDir: emptyHome });
    const transport = new Transport(settings, { rateLimit: false });
    // An organization document is a real response, but not a workspace document.
    let err: unknown;
    try {
      await transport.requestParsed(
        { method: "GET", path: `/organizations/${server.organization}`, repeat: "idempotent" },
        workspaceDocumentSchema,
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    const paths = (err as UnexpectedResponseError).issues.map((i) => i.path);
    // Missing workspace attributes (execution-mode, locked) are read as absent; the type is what is wrong.
    expect(paths).toEqual(["/data/type"]);
    expect((err as Error).message).toContain("/data/type");
  });
});
