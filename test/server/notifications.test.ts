/**
 * Notification configurations over real HTTP: the write-only token (never in a response,
 * a log line or the database file in plain text), verification delivered to a loopback
 * receiver and signed with the token, any other destination refused, and 4xx answers.
 */
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATION_TRIGGERS } from "../../src/api/notifications";
import { Api, createWorkspace, expectStatus } from "./helpers";
import { startServer, type RunningServer } from "../../src/server";

let dir: string;
let server: RunningServer;
let api: Api;
let log = "";
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const TOKEN = `nc-token-${randomBytes(12).toString("hex")}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ws-notify-"));
  server = await startServer({
    port: 0,
    db: join(dir, "server.db"),
    rateLimit: false,
    logLevel: "debug",
    logDestination: { write: (l: string) => (log += l) },
  });
  api = new Api(server.url, server.token);
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.end("received");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  await server.close();
  await new Promise((r) => receiver.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const body = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: "notification-configurations", attributes, ...(relationships ? { relationships } : {}) },
});

function databaseBytes(): string {
  return ["", "-wal"]
    .map((suffix) => {
      try {
        return readFileSync(join(dir, "server.db" + suffix)).toString("latin1");
      } catch {
        return "";
      }
    })
    .join("");
}

describe("notification configurations", () => {
  it("keep the token write-only: no response, log line or database byte shows it", async () => {
    const ws = await createWorkspace(api, server.organization, "notify-token");
    const responses: string[] = [];
    const created = await expectStatus(
      api.post(
        `/workspaces/${ws.id}/notification-configurations`,
        body({
          name: "ops",
          "destination-type": "generic",
          enabled: true,
          url: receiverUrl,
          token: TOKEN,
          triggers: ["run:errored", "run:completed"],
        }),
      ),
      201,
    );
    responses.push(created.text);
    const id = created.body.data.id;
    expect(created.body.data.attributes).toMatchObject({ enabled: true, triggers: ["run:errored", "run:completed"] });
    expect(created.body.data.attributes).not.toHaveProperty("token");
    responses.push((await expectStatus(api.get(`/notification-configurations/${id}`), 200)).text);
    responses.push((await expectStatus(api.get(`/workspaces/${ws.id}/notification-configurations`), 200)).text);
    responses.push(
      (await expectStatus(api.patch(`/notification-configurations/${id}`, body({ name: "ops-renamed" })), 200)).text,
    );
    const verified = await expectStatus(api.post(`/notification-configurations/${id}/actions/verify`), 200);
    responses.push(verified.text);

    for (const text of responses) expect(text).not.toContain(TOKEN);
    expect(log).not.toContain(TOKEN);
    expect(log.length).toBeGreaterThan(0);
    expect(databaseBytes()).not.toContain(TOKEN);

    // The delivery reached the loopback receiver, signed with the token.
    const delivery = received.at(-1)!;
    expect(JSON.parse(delivery.body).notification_configuration_id).toBe(id);
    expect(delivery.headers["x-tfe-notification-signature"]).toBe(
      createHmac("sha512", TOKEN).update(delivery.body).digest("hex"),
    );
    expect(verified.body.data.attributes["delivery-responses"][0]).toMatchObject({
      code: "200",
      successful: "true",
      body: "received",
    });
  });

  it("refuses to deliver anywhere but loopback, with a message that says so", async () => {
    const ws = await createWorkspace(api, server.organization, "notify-remote");
    const deliveredBefore = received.length;
    for (const url of [
      "https://hooks.example.com/x",
      "http://10.0.0.1/x",
      "http://[::2]/x",
      "http://127.0.0.1.nip.io/x",
    ]) {
      const created = await expectStatus(
        api.post(
          `/workspaces/${ws.id}/notification-configurations`,
          body({ name: `remote ${url}`, "destination-type": "slack", enabled: false, url }),
        ),
        201,
      );
      const refused = await api.post(`/notification-configurations/${created.body.data.id}/actions/verify`);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].detail).toMatch(/only to loopback addresses/);
      expect(refused.body.errors[0].source.pointer).toBe("/data/attributes/url");
    }
    expect(received.length).toBe(deliveredBefore);
  });

  it("accepts every trigger of the shared list, email configurations with users of the organization, and projects", async () => {
    const ws = await createWorkspace(api, server.organization, "notify-triggers");
    await expectStatus(
      api.post(
        `/workspaces/${ws.id}/notification-configurations`,
        body({
          name: "all",
          "destination-type": "microsoft-teams",
          enabled: false,
          url: receiverUrl,
          triggers: [...NOTIFICATION_TRIGGERS],
        }),
      ),
      201,
    );
    const member = await expectStatus(
      api.post(`/organizations/${server.organization}/organization-memberships`, {
        data: { type: "organization-memberships", attributes: { email: "dev@example.com" } },
      }),
      201,
    );
    const userId = member.body.data.relationships.user.data.id;
    const email = await expectStatus(
      api.post(
        `/workspaces/${ws.id}/notification-configurations`,
        body(
          { name: "mail", "destination-type": "email", enabled: true },
          { users: { data: [{ type: "users", id: userId }] } },
        ),
      ),
      201,
    );
    expect(email.body.data.relationships.users.data).toEqual([{ id: userId, type: "users" }]);
    const project = await expectStatus(
      api.post(`/organizations/${server.organization}/projects`, {
        data: { type: "projects", attributes: { name: "notify" } },
      }),
      201,
    );
    const onProject = await expectStatus(
      api.post(
        `/projects/${project.body.data.id}/notification-configurations`,
        body({ name: "p", "destination-type": "generic", enabled: false, url: receiverUrl }),
      ),
      201,
    );
    expect(onProject.body.data.relationships.subscribable.data).toEqual({ id: project.body.data.id, type: "projects" });
    const list = await expectStatus(api.get(`/workspaces/${ws.id}/notification-configurations?page[number]=1`), 200);
    expect(list.body.meta.pagination["total-count"]).toBe(2);
  });

  it("answers bad input with a 4xx and writes nothing", async () => {
    const ws = await createWorkspace(api, server.organization, "notify-bad");
    const post = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      api.post(`/workspaces/${ws.id}/notification-configurations`, body(attributes, relationships));
    const base = { name: "n", "destination-type": "generic", enabled: false, url: receiverUrl };
    expect((await post({ ...base, triggers: ["run:exploded"] })).status).toBe(422);
    expect((await post({ ...base, "destination-type": "pager" })).status).toBe(422);
    expect((await post({ ...base, url: undefined })).status).toBe(422);
    expect((await post({ ...base, url: "not a url" })).status).toBe(422);
    expect((await post({ ...base, url: "ftp://127.0.0.1/x" })).status).toBe(422);
    expect((await post({ ...base, name: "" })).status).toBe(422);
    expect(
      (
        await post(
          { ...base, "destination-type": "email", url: undefined },
          { users: { data: [{ type: "users", id: "user-nobody" }] } },
        )
      ).status,
    ).toBe(422);
    expect((await post({ ...base, "email-addresses": ["not-an-address"] })).status).toBe(422);
    const list = await expectStatus(api.get(`/workspaces/${ws.id}/notification-configurations`), 200);
    expect(list.body.data).toEqual([]);
    expect((await api.get(`/notification-configurations/nc-missing`)).status).toBe(404);
    expect((await api.post(`/notification-configurations/nc-missing/actions/verify`)).status).toBe(404);
    expect((await api.post(`/workspaces/ws-missing/notification-configurations`, body(base))).status).toBe(404);
  });
});
