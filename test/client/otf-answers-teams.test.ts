/**
 * Teams, team access and notification configurations against a server answering as OTF
 * does (a fake service over real HTTP), and against the local server for the answers the
 * hosted service gives: a team filter the server ignores, routes it lacks, a destination
 * type it refuses with a 500, an echoed empty token and an empty URL.
 */
import type * as http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FeatureUnavailableError,
  NotFoundError,
  ServerError,
  type Feature,
  type WorkspacesClient,
} from "../../src/client";
import { fakeClient, reply, startFakeService, type FakeService } from "./fake-service";
import { failure, uniqueName, useServer } from "./helpers";

const team = (id: string, name: string) => ({
  id,
  type: "teams",
  attributes: { name, "organization-access": { "manage-workspaces": false }, visibility: "secret" },
  relationships: { users: { data: [] } },
});

/** A notification configuration as OTF renders it: `token: ""`, `url: ""` without one, null lists. */
const otfConfiguration = (id: string, destination: string, url: string) => ({
  id,
  type: "notification-configurations",
  attributes: {
    name: "n",
    "destination-type": destination,
    enabled: true,
    token: "",
    url,
    triggers: null,
    "email-addresses": null,
    "delivery-responses": null,
  },
  relationships: { subscribable: { data: { id: "ws-1", type: "workspaces" } }, users: { data: [] } },
});

const notFound = (res: http.ServerResponse) => {
  // OTF's router answers a route it lacks with a plain-text 404.
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("404 page not found\n");
};

/** Answers as OTF: teams listed whole whatever the filter, records that read, no team or project access routes. */
function otfLike(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const url = new URL(req.url ?? "/", "http://x");
  const p = url.pathname.replace(/^\/api\/v2/, "");
  if (p === "/ping") return reply(res, 204, undefined);
  if (p === "/organizations/acme/teams")
    return reply(res, 200, {
      data: [team("team-owners", "owners"), team("team-devs", "devs"), team("team-ops", "Ops")],
    });
  if (/^\/teams\/team-(owners|devs)$/.test(p)) return reply(res, 200, { data: team("team-devs", "devs") });
  if (/^\/workspaces\/ws-1$/.test(p))
    return reply(res, 200, { data: { id: "ws-1", type: "workspaces", attributes: {} } });
  if (/^\/projects\/prj-1$/.test(p))
    return reply(res, 200, { data: { id: "prj-1", type: "projects", attributes: {} } });
  if (p === "/workspaces/ws-1/notification-configurations" && req.method === "POST") {
    return body.includes('"name":"down"')
      ? reply(res, 500, { errors: [{ status: "500", title: "Internal Server Error", detail: "database down" }] })
      : reply(res, 500, {
          errors: [{ status: "500", title: "Internal Server Error", detail: "unsupported notification destination" }],
        });
  }
  if (p === "/notification-configurations/nc-email" && req.method === "GET")
    return reply(res, 200, { data: otfConfiguration("nc-email", "email", "") });
  if (p === "/notification-configurations/nc-hook" && req.method === "GET")
    return reply(res, 200, { data: otfConfiguration("nc-hook", "generic", "http://127.0.0.1:9/hook") });
  if (p.startsWith("/teams/") || p.startsWith("/notification-configurations/nc-") || p.startsWith("/projects/"))
    return reply(res, 404, { errors: [{ status: "404", title: "not found" }] });
  notFound(res);
}

let otf: FakeService;
let client: WorkspacesClient;
beforeAll(async () => {
  otf = await startFakeService(otfLike);
  client = fakeClient(otf, { rateLimit: false });
});
afterAll(async () => otf.close());

async function unavailable(p: Promise<unknown>, feature: Feature): Promise<FeatureUnavailableError> {
  const err = await failure(p);
  expect(err).toBeInstanceOf(FeatureUnavailableError);
  expect((err as FeatureUnavailableError).feature).toBe(feature);
  expect(err.message).toContain(`does not offer ${feature}`);
  return err as FeatureUnavailableError;
}

describe("a server answering as OTF", () => {
  it("lists only the teams named or matched, though the server lists them all", async () => {
    expect((await client.teams.list("acme", { names: ["devs"] }).all()).map((t) => t.id)).toEqual(["team-devs"]);
    expect((await client.teams.list("acme", { query: "O" }).all()).map((t) => t.name)).toEqual(["owners", "Ops"]);
    expect(await client.teams.list("acme").all()).toHaveLength(3);
    expect(otf.requests).toContain(
      "GET /api/v2/organizations/acme/teams?filter%5Bnames%5D=devs&page%5Bnumber%5D=1&page%5Bsize%5D=100",
    );
  });

  it("names team workspace and team project access as missing while the records they join read", async () => {
    await unavailable(client.teamAccess.add("team-devs", "ws-1", { access: "read" }), "team workspace access");
    await unavailable(client.teamAccess.list("ws-1").all(), "team workspace access");
    await unavailable(client.teamProjectAccess.add("team-devs", "prj-1", { access: "read" }), "team project access");
    await unavailable(client.teamProjectAccess.list("prj-1").all(), "team project access");
  });

  it("keeps a 404 a NotFoundError when a record the grant names does not read", async () => {
    for (const call of [
      client.teamAccess.add("team-gone", "ws-1", { access: "read" }),
      client.teamAccess.add("team-devs", "ws-gone", { access: "read" }),
      client.teamProjectAccess.add("team-devs", "prj-gone", { access: "read" }),
    ]) {
      const err = await failure(call);
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err).not.toBeInstanceOf(FeatureUnavailableError);
    }
  });

  it("reads an empty URL as none and never keeps the echoed token", async () => {
    const email = await client.notificationConfigurations.read("nc-email");
    expect(email).toMatchObject({ url: null, triggers: [], emailAddresses: [], deliveryResponses: [] });
    expect("token" in email.attributes).toBe(false);
    expect((await client.notificationConfigurations.read("nc-hook")).url).toBe("http://127.0.0.1:9/hook");
  });

  it("names Microsoft Teams as missing when the server refuses the destination, and only then", async () => {
    const create = (name: string, destinationType: "microsoft-teams" | "generic") =>
      client.notificationConfigurations.create("ws-1", {
        name,
        destinationType,
        enabled: true,
        url: "https://example.com/hook",
      });
    const err = await unavailable(create("teams", "microsoft-teams"), "Microsoft Teams notifications");
    expect(err.message).toContain("answered 500: unsupported notification destination");
    // Another type refused for the same words is the server's error as it came.
    const generic = await failure(create("hook", "generic"));
    expect(generic).toBeInstanceOf(ServerError);
    expect(generic).not.toBeInstanceOf(FeatureUnavailableError);
    // So is a Microsoft Teams create refused for another reason.
    const down = await failure(create("down", "microsoft-teams"));
    expect(down).toBeInstanceOf(ServerError);
    expect(down.message).toContain("database down");
  });

  it("names verification as missing while the configuration reads; a configuration gone stays a 404", async () => {
    await unavailable(client.notificationConfigurations.verify("nc-hook"), "notification verification");
    const gone = await failure(client.notificationConfigurations.verify("nc-gone"));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).not.toBeInstanceOf(FeatureUnavailableError);
  });
});

describe("the local server, which offers them all", () => {
  const t = useServer();

  it("filters teams by query and keeps a missing team's 404 on a grant", async () => {
    const name = uniqueName("Filtered");
    const made = await t.client.teams.create(t.org, { name });
    expect((await t.client.teams.list(t.org, { query: name.toLowerCase() }).all()).map((x) => x.id)).toEqual([made.id]);
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("grant") });
    const err = await failure(t.client.teamAccess.add("team-aaaaaaaaaaaaaaaa", ws.id, { access: "read" }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).not.toBeInstanceOf(FeatureUnavailableError);
    const granted = await t.client.teamAccess.add(made.id, ws.id, { access: "read" });
    expect((await t.client.teamAccess.list(ws.id).all()).map((a) => a.id)).toEqual([granted.id]);
  });

  it("reads an email configuration's URL as none", async () => {
    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("mail") });
    const c = await t.client.notificationConfigurations.create(ws.id, {
      name: "mail",
      destinationType: "email",
      enabled: false,
    });
    expect(c.url).toBeNull();
    expect("token" in (await t.client.notificationConfigurations.read(c.id)).attributes).toBe(false);
  });
});
