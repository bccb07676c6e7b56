/**
 * "Still processing" conflicts on delete: the real server with one extra domain in
 * front that answers 409 to the first safe-delete attempts, as the hosted service does
 * while a workspace is busy.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { startServer, type RunningServer, type Domain } from "../../src/server";
import { DOMAINS } from "../../src/server/domains";
import { WorkspacesClient, resetLimiters } from "../../src/client";
import { deleteWorkspace } from "../../src/resources/providers/deletion";

let server: RunningServer;
let client: WorkspacesClient;
const busy = new Map<string, number>();

const stillProcessing: Domain = {
  name: "still-processing",
  routes(api) {
    api.addHook("onRequest", async (request, reply) => {
      const m = /\/workspaces\/(ws-[^/]+)\/actions\/safe-delete$/.exec(request.url);
      const left = m ? (busy.get(m[1]) ?? 0) : 0;
      if (m && left > 0) {
        busy.set(m[1], left - 1);
        return reply
          .code(409)
          .header("content-type", "application/vnd.api+json")
          .send(
            JSON.stringify({
              errors: [{ status: "409", title: "conflict", detail: "workspace is still processing a run" }],
            }),
          );
      }
    });
  },
};

beforeAll(async () => {
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false }, [stillProcessing, ...DOMAINS]);
  resetLimiters();
  client = new WorkspacesClient({ address: server.url, token: server.token, rateLimit: false });
});
afterAll(async () => {
  await server.close();
});

describe("delete while the service is still processing", () => {
  it("waits the conflict out and deletes", async () => {
    const ws = await client.workspaces.create(server.organization, { name: "busy-then-idle" });
    busy.set(ws.id, 2);
    await deleteWorkspace(client, ws.id, { force: false, name: ws.name, budgetMs: 10_000 });
    expect(busy.get(ws.id)).toBe(0);
    await expect(client.workspaces.read(ws.id)).rejects.toThrow(/404/);
  });

  it("gives up after its budget with a message that says why, and the workspace stays", async () => {
    const ws = await client.workspaces.create(server.organization, { name: "busy-forever" });
    busy.set(ws.id, 1_000);
    const err = await deleteWorkspace(client, ws.id, { force: false, name: ws.name, budgetMs: 1_000 }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/still processing/);
    expect(err?.message).not.toMatch(/manages resources/);
    expect((await client.workspaces.read(ws.id)).id).toBe(ws.id);
  });
});

describe("delete of a locked workspace", () => {
  it("says the workspace is locked and how to go on, not that it manages resources, and the workspace stays", async () => {
    const ws = await client.workspaces.create(server.organization, { name: "held-by-a-lock" });
    await client.workspaces.lock(ws.id, "a run is writing state");
    const err = await deleteWorkspace(client, ws.id, { force: false, name: ws.name, budgetMs: 1_000 }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/is locked/);
    expect(err?.message).toMatch(/forceDelete: true/);
    expect(err?.message).not.toMatch(/manages resources/);
    expect((await client.workspaces.read(ws.id)).locked).toBe(true);
  });
});
