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
import { MAX_NOTIFICATION_CONFIGURATIONS, NOTIFICATION_TRIGGERS } from "../../src/api/notifications";
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
      if (req.url?.endsWith("/fail")) res.writeHead(500);
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

  it("refuses to deliver anywhere but loopback, with a message that says so, and saves no enabled one", async () => {
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
      // Enabling it verifies it first: refused the same way, and it stays disabled.
      const enabling = await api.patch(`/notification-configurations/${created.body.data.id}`, body({ enabled: true }));
      expect(enabling.status).toBe(422);
      expect(enabling.body.errors[0].detail).toMatch(/only to loopback addresses.*--store-remote-notifications/);
      const after = await expectStatus(api.get(`/notification-configurations/${created.body.data.id}`), 200);
      expect(after.body.data.attributes.enabled).toBe(false);
      // Created enabled: refused, and not saved.
      const enabled = await api.post(
        `/workspaces/${ws.id}/notification-configurations`,
        body({ name: `enabled ${url}`, "destination-type": "generic", enabled: true, url }),
      );
      expect(enabled.status).toBe(422);
      expect(enabled.body.errors[0].detail).toMatch(/only to loopback addresses/);
    }
    const list = await expectStatus(api.get(`/workspaces/${ws.id}/notification-configurations`), 200);
    expect(list.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).not.toContainEqual(
      expect.stringMatching(/^enabled /),
    );
    expect(list.body.data).toHaveLength(4);
    expect(received.length).toBe(deliveredBefore);
  });

  it("verifies on create and on enabling, signed, and saves nothing the destination refused", async () => {
    const ws = await createWorkspace(api, server.organization, "notify-verify");
    const path = `/workspaces/${ws.id}/notification-configurations`;
    const before = received.length;
    const created = await expectStatus(
      api.post(
        path,
        body({ name: "on", "destination-type": "generic", enabled: true, url: receiverUrl, token: TOKEN }),
      ),
      201,
    );
    expect(received.length).toBe(before + 1);
    const delivery = received.at(-1)!;
    const message = JSON.parse(delivery.body);
    expect(message).toMatchObject({ notification_configuration_id: created.body.data.id, workspace_id: ws.id });
    expect(message.notifications[0].trigger).toBe("verification");
    expect(delivery.headers["x-tfe-notification-signature"]).toBe(
      createHmac("sha512", TOKEN).update(delivery.body).digest("hex"),
    );
    expect(created.body.data.attributes["delivery-responses"][0]).toMatchObject({ code: "200", successful: "true" });

    // A destination that answers 500: the create is refused and nothing is saved.
    const failing = await api.post(
      path,
      body({ name: "failing", "destination-type": "generic", enabled: true, url: `${receiverUrl}/fail` }),
    );
    expect(failing.status).toBe(422);
    expect(failing.body.errors[0].detail).toBe(
      `notification configuration "failing": the verification sent to ${receiverUrl}/fail failed (the destination answered 500); make the destination answer 2xx, or save the configuration with enabled: false`,
    );
    expect(received.length).toBe(before + 2);

    // Saved disabled, it is not verified; enabling it is, and refused while the destination fails.
    const off = await expectStatus(
      api.post(path, body({ name: "off", "destination-type": "generic", enabled: false, url: `${receiverUrl}/fail` })),
      201,
    );
    expect(received.length).toBe(before + 2);
    const enabling = await api.patch(`/notification-configurations/${off.body.data.id}`, body({ enabled: true }));
    expect(enabling.status).toBe(422);
    expect(received.length).toBe(before + 3);
    expect((await api.get(`/notification-configurations/${off.body.data.id}`)).body.data.attributes.enabled).toBe(
      false,
    );
    const fixed = await expectStatus(
      api.patch(`/notification-configurations/${off.body.data.id}`, body({ enabled: true, url: receiverUrl })),
      200,
    );
    expect(received.length).toBe(before + 4);
    expect(fixed.body.data.attributes).toMatchObject({ enabled: true, url: receiverUrl });
    // A rename of an enabled configuration sends nothing.
    await expectStatus(api.patch(`/notification-configurations/${off.body.data.id}`, body({ name: "renamed" })), 200);
    expect(received.length).toBe(before + 4);

    const names = (await expectStatus(api.get(path), 200)).body.data.map(
      (d: { attributes: { name: string } }) => d.attributes.name,
    );
    expect(names).toEqual(["on", "renamed"]);
  });

  it(`refuses a workspace's configuration past the service's limit of ${MAX_NOTIFICATION_CONFIGURATIONS}`, async () => {
    const ws = await createWorkspace(api, server.organization, "notify-limit");
    const path = `/workspaces/${ws.id}/notification-configurations`;
    const make = (i: number) =>
      api.post(path, body({ name: `n${i}`, "destination-type": "generic", enabled: false, url: receiverUrl }));
    for (let i = 0; i < MAX_NOTIFICATION_CONFIGURATIONS; i++) await expectStatus(make(i), 201);
    const over = await make(MAX_NOTIFICATION_CONFIGURATIONS);
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([
      {
        status: "422",
        title: "invalid attribute",
        detail: `workspace "notify-limit" already has ${MAX_NOTIFICATION_CONFIGURATIONS} notification configurations, the most the service allows: delete one first`,
        source: { pointer: "/data" },
      },
    ]);
    const list = await expectStatus(api.get(path), 200);
    expect(list.body.data).toHaveLength(MAX_NOTIFICATION_CONFIGURATIONS);
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

describe("a server started with storeRemoteNotifications", () => {
  it("stores destinations off this machine, enabled too, and delivers nothing to them", async () => {
    const rehearsal = await startServer({ port: 0, db: ":memory:", rateLimit: false, storeRemoteNotifications: true });
    try {
      const owner = new Api(rehearsal.url, rehearsal.token);
      const ws = await createWorkspace(owner, rehearsal.organization, "rehearse");
      const before = received.length;
      const created = await expectStatus(
        owner.post(
          `/workspaces/${ws.id}/notification-configurations`,
          body({ name: "real", "destination-type": "slack", enabled: true, url: "https://hooks.example.com/real" }),
        ),
        201,
      );
      expect(created.body.data.attributes).toMatchObject({ enabled: true, "delivery-responses": [] });
      const verified = await expectStatus(
        owner.post(`/notification-configurations/${created.body.data.id}/actions/verify`),
        200,
      );
      expect(verified.body.data.attributes["delivery-responses"]).toEqual([]);
      // Loopback destinations are still verified for real.
      await expectStatus(
        owner.post(
          `/workspaces/${ws.id}/notification-configurations`,
          body({ name: "local", "destination-type": "generic", enabled: true, url: receiverUrl }),
        ),
        201,
      );
      expect(received.length).toBe(before + 1);
    } finally {
      await rehearsal.close();
    }
  });
});
