/**
 * Team and organization tokens over real HTTP: the secret answered once (never by a
 * read, a list, a later answer, the database file or a log line); a team's legacy token
 * replaced by the next, its described tokens one per description; the organization's
 * team-token list with its search, order and pages; expiry (two years by default, a
 * token past it refused with 401); the last use recorded; a token acting with its
 * team's rights and not past them; and organization tokens of both types, owners only.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authTokenDocumentSchema, authTokenListDocumentSchema } from "../../src/api";
import { startServer } from "../../src/server";
import { Api, createWorkspace, databaseBytes, expectStatus, grant, makeTeam, makeUser } from "./helpers";

let dir: string;
let file: string;
let server: Awaited<ReturnType<typeof startServer>>;
let api: Api;
let org: string;
let log = "";
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ws-team-tokens-"));
  file = join(dir, `tokens-${randomBytes(4).toString("hex")}.db`);
  server = await startServer({
    port: 0,
    db: file,
    rateLimit: false,
    logLevel: "trace",
    logDestination: { write: (l) => (log += l) },
  });
  api = new Api(server.url, server.token);
  org = server.organization;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const body = (attributes: Record<string, unknown> = {}) => ({ data: { type: "authentication-tokens", attributes } });
const secrets: string[] = [];
function secretOf(r: { body: unknown }) {
  const doc = authTokenDocumentSchema.parse(r.body);
  secrets.push(doc.data.attributes.token!);
  return { id: doc.data.id, token: doc.data.attributes.token!, doc };
}
async function newTeam(name: string, flags: Record<string, boolean> = {}) {
  const r = await expectStatus(
    api.post(`/organizations/${org}/teams`, {
      data: { type: "teams", attributes: { name, "organization-access": flags } },
    }),
    201,
  );
  return r.body.data.id as string;
}

describe("team tokens", () => {
  it("legacy: answered once, read without the secret, replaced by the next create, revoked by delete", async () => {
    const team = await newTeam("legacy-team");
    const first = secretOf(await expectStatus(api.post(`/teams/${team}/authentication-token`), 201));
    expect(first.doc.data.attributes).toMatchObject({ description: "" });
    expect(
      (await expectStatus(api.get(`/teams/${team}/authentication-token`), 200)).body.data.attributes.description,
    ).toBeNull();
    expect(first.doc.data.relationships?.team.data).toEqual({ type: "teams", id: team });
    expect(first.doc.data.relationships?.["created-by"].data).toMatchObject({ type: "users" });
    const read = await expectStatus(api.get(`/teams/${team}/authentication-token`), 200);
    expect(read.body.data.id).toBe(first.id);
    expect(read.body.data.attributes).not.toHaveProperty("token");
    expect(read.text).not.toContain(first.token);

    const second = secretOf(await expectStatus(api.post(`/teams/${team}/authentication-token`, body()), 201));
    expect(second.token).not.toBe(first.token);
    await expectStatus(api.as(first.token).get(`/organizations/${org}`), 401);
    await expectStatus(api.get(`/authentication-tokens/${first.id}`), 404);
    await expectStatus(api.delete(`/teams/${team}/authentication-token`), 204);
    await expectStatus(api.as(second.token).get(`/organizations/${org}`), 401);
    await expectStatus(api.delete(`/teams/${team}/authentication-token`), 404);
    await expectStatus(api.get(`/teams/${team}/authentication-token`), 404);
  });

  it("described: several per team, one per description (an empty one too), read and deleted by id", async () => {
    const team = await newTeam("described-team");
    const legacy = secretOf(await expectStatus(api.post(`/teams/${team}/authentication-token`), 201));
    const ci = secretOf(
      await expectStatus(api.post(`/teams/${team}/authentication-tokens`, body({ description: "ci" })), 201),
    );
    const empty = secretOf(
      await expectStatus(api.post(`/teams/${team}/authentication-tokens`, body({ description: "" })), 201),
    );
    expect(empty.doc.data.attributes.description).toBe("");
    const taken = await expectStatus(
      api.post(`/teams/${team}/authentication-tokens`, body({ description: "ci" })),
      422,
    );
    expect(taken.body.errors[0]).toMatchObject({
      title: "invalid attributes",
      detail: "Validation failed: Description has already been taken",
    });
    // A described token leaves the legacy one alone, and each works.
    for (const t of [legacy, ci, empty]) await expectStatus(api.as(t.token).get(`/organizations/${org}`), 200);
    const read = await expectStatus(api.get(`/authentication-tokens/${ci.id}`), 200);
    expect(read.body.data.attributes.description).toBe("ci");
    expect(read.body.data.relationships.team.data.id).toBe(team);
    expect(read.text).not.toContain(ci.token);
    await expectStatus(api.delete(`/authentication-tokens/${ci.id}`), 204);
    await expectStatus(api.as(ci.token).get(`/organizations/${org}`), 401);
    await expectStatus(api.get(`/authentication-tokens/${ci.id}`), 404);
    await expectStatus(api.as(legacy.token).get(`/organizations/${org}`), 200);
  });

  it("the organization's list: every team's tokens, searched by team name, ordered, paged, no secret", async () => {
    const org2 = "token-list-org";
    await expectStatus(
      api.post("/organizations", {
        data: { type: "organizations", attributes: { name: org2, email: "t@example.com" } },
      }),
      201,
    );
    const teamOf = async (name: string) =>
      (
        await expectStatus(
          api.post(`/organizations/${org2}/teams`, { data: { type: "teams", attributes: { name } } }),
          201,
        )
      ).body.data.id as string;
    const alpha = await teamOf("alpha");
    const beta = await teamOf("beta");
    const day = 24 * 3600 * 1000;
    const at = (days: number) => new Date(Date.now() + days * day).toISOString().replace(/\.\d{3}Z$/, "Z");
    const a = secretOf(
      await expectStatus(api.post(`/teams/${alpha}/authentication-token`, body({ "expired-at": at(2) })), 201),
    );
    const b = secretOf(
      await expectStatus(api.post(`/teams/${beta}/authentication-token`, body({ "expired-at": at(1) })), 201),
    );
    const c = secretOf(
      await expectStatus(
        api.post(`/teams/${alpha}/authentication-tokens`, body({ description: "x", "expired-at": at(3) })),
        201,
      ),
    );
    const list = async (q: string) => {
      const r = await expectStatus(api.get(`/organizations/${org2}/team-tokens${q}`), 200);
      for (const s of [a, b, c]) expect(r.text).not.toContain(s.token);
      return authTokenListDocumentSchema.parse(r.body);
    };
    expect((await list("")).data.map((t) => t.id).sort()).toEqual([a.id, b.id, c.id].sort());
    expect((await list("?q=ALPH")).data.map((t) => t.id).sort()).toEqual([a.id, c.id].sort());
    expect((await list("?sort=expired-at")).data.map((t) => t.id)).toEqual([b.id, a.id, c.id]);
    expect((await list("?sort=-expired-at")).data.map((t) => t.id)).toEqual([c.id, a.id, b.id]);
    const page = await list("?sort=expired-at&page[size]=2&page[number]=2");
    expect(page.data.map((t) => t.id)).toEqual([c.id]);
    expect(page.meta?.pagination?.["total-count"]).toBe(3);
    await expectStatus(api.get(`/organizations/${org2}/team-tokens?sort=digest`), 400);
  });

  it("expiry: the given one kept to the second, two years by default, in the past refused, past it a 401", async () => {
    const team = await newTeam("expiring-team");
    const when = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const given = secretOf(
      await expectStatus(
        api.post(`/teams/${team}/authentication-tokens`, body({ description: "d", "expired-at": when })),
        201,
      ),
    );
    expect(given.doc.data.attributes["expired-at"]).toBe(when);
    const byDefault = secretOf(await expectStatus(api.post(`/teams/${team}/authentication-token`), 201));
    const created = Date.parse(byDefault.doc.data.attributes["created-at"]!);
    const expires = new Date(created);
    expires.setUTCFullYear(expires.getUTCFullYear() + 2);
    expect(Math.abs(Date.parse(byDefault.doc.data.attributes["expired-at"]!) - expires.getTime())).toBeLessThan(2000);
    const past = await expectStatus(
      api.post(
        `/teams/${team}/authentication-tokens`,
        body({ description: "old", "expired-at": "2020-01-01T00:00:00Z" }),
      ),
      422,
    );
    expect(past.body.errors[0].source.pointer).toBe("/data/attributes/expired-at");

    const soon = new Date(Date.now() + 1500).toISOString();
    const short = secretOf(
      await expectStatus(
        api.post(`/teams/${team}/authentication-tokens`, body({ description: "short", "expired-at": soon })),
        201,
      ),
    );
    await expectStatus(api.as(short.token).get(`/organizations/${org}`), 200);
    await new Promise((r) => setTimeout(r, 1600));
    const refused = await expectStatus(api.as(short.token).get(`/organizations/${org}`), 401);
    const unknown = await expectStatus(api.as("x".repeat(20)).get(`/organizations/${org}`), 401);
    expect(refused.text).toBe(unknown.text);
  });

  it("records its last use, and the team shows its service user once it has a token (#708)", async () => {
    const team = await newTeam("used-team");
    let seen = await expectStatus(api.get(`/teams/${team}?include=users`), 200);
    expect(seen.body.data.relationships.users.data).toEqual([]);
    const t = secretOf(await expectStatus(api.post(`/teams/${team}/authentication-token`), 201));
    expect(t.doc.data.attributes["last-used-at"]).toBeUndefined();
    await expectStatus(api.as(t.token).get(`/organizations/${org}`), 200);
    const read = await expectStatus(api.get(`/teams/${team}/authentication-token`), 200);
    expect(Date.parse(read.body.data.attributes["last-used-at"])).toBeGreaterThan(Date.now() - 60_000);
    seen = await expectStatus(api.get(`/teams/${team}?include=users`), 200);
    expect(seen.body.included).toEqual([
      expect.objectContaining({ type: "users", attributes: expect.objectContaining({ "is-service-account": true }) }),
    ]);
  });

  it("acts with its team's rights and not past them", async () => {
    const team = await makeTeam(api, org, "readers");
    const readable = await createWorkspace(api, org, "readable-ws");
    const hidden = await createWorkspace(api, org, "hidden-ws");
    await grant(api, team.id, readable.id, "read");
    const asTeam = api.as(team.token);
    await expectStatus(asTeam.get(`/workspaces/${readable.id}`), 200);
    const write = await asTeam.patch(`/workspaces/${readable.id}`, {
      data: { type: "workspaces", attributes: { description: "changed" } },
    });
    expect([403, 404]).toContain(write.status);
    expect((await expectStatus(api.get(`/workspaces/${readable.id}`), 200)).body.data.attributes.description).not.toBe(
      "changed",
    );
    const notGranted = await expectStatus(asTeam.get(`/workspaces/${hidden.id}`), 404);
    const unknown = await expectStatus(asTeam.get(`/workspaces/ws-${"Q".repeat(16)}`), 404);
    expect(notGranted.text).toBe(unknown.text);
    // Nor may it mint tokens for another team, or its organization's.
    await expectStatus(asTeam.post(`/teams/${await newTeam("other-team")}/authentication-token`), 404);
    await expectStatus(asTeam.post(`/organizations/${org}/authentication-token`), 404);
  });

  it("is managed by manage-teams and by the team's people where the team allows it", async () => {
    const managers = await makeTeam(api, org, "team-managers", { flags: { "manage-teams": true } });
    const target = await newTeam("managed-team");
    await expectStatus(api.as(managers.token).post(`/teams/${target}/authentication-token`), 201);
    const person = await makeUser(api, "team-person");
    await expectStatus(
      api.post(`/teams/${target}/relationships/users`, { data: [{ type: "users", id: "team-person" }] }),
      204,
    );
    await expectStatus(
      api.as(person.token).post(`/teams/${target}/authentication-tokens`, body({ description: "mine" })),
      201,
    );
    await expectStatus(
      api.patch(`/teams/${target}`, {
        data: { type: "teams", attributes: { "allow-member-token-management": false } },
      }),
      200,
    );
    await expectStatus(
      api.as(person.token).post(`/teams/${target}/authentication-tokens`, body({ description: "no" })),
      404,
    );
  });
});

describe("organization tokens", () => {
  it("one of each type, replaced by the next of its type; the audit-trail token reaches no record", async () => {
    const created = secretOf(await expectStatus(api.post(`/organizations/${org}/authentication-token`), 201));
    const audit = secretOf(
      await expectStatus(api.post(`/organizations/${org}/authentication-token?token=audit-trails`), 201),
    );
    expect((await expectStatus(api.get(`/organizations/${org}/authentication-token`), 200)).body.data.id).toBe(
      created.id,
    );
    const readAudit = await expectStatus(
      api.get(`/organizations/${org}/authentication-token?token_type=audit-trails`),
      200,
    );
    expect(readAudit.body.data.id).toBe(audit.id);
    expect(readAudit.text).not.toContain(audit.token);
    // The organization token acts for the organization; the audit-trail one sees none of its records.
    await expectStatus(api.as(created.token).get(`/organizations/${org}/workspaces`), 200);
    await expectStatus(api.as(audit.token).get(`/organizations/${org}/workspaces`), 404);
    // Only owners: the organization token itself cannot mint one.
    await expectStatus(api.as(created.token).post(`/organizations/${org}/authentication-token`), 404);
    const next = secretOf(await expectStatus(api.post(`/organizations/${org}/authentication-token`), 201));
    await expectStatus(api.as(created.token).get(`/organizations/${org}`), 401);
    await expectStatus(api.as(audit.token).get(`/organizations/${org}/workspaces`), 404);
    await expectStatus(api.delete(`/organizations/${org}/authentication-token?token=audit-trails`), 204);
    await expectStatus(api.delete(`/organizations/${org}/authentication-token?token=audit-trails`), 404);
    await expectStatus(api.as(audit.token).get(`/organizations/${org}`), 401);
    await expectStatus(api.get(`/organizations/${org}/authentication-token?token=other`), 400);
    await expectStatus(api.as(next.token).get(`/organizations/${org}`), 200);
  });

  it("no secret is ever in the database file, a later answer or the request log", async () => {
    expect(secrets.length).toBeGreaterThan(10);
    const bytes = databaseBytes(file);
    expect(bytes.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(bytes.includes(Buffer.from(s))).toBe(false);
      expect(log).not.toContain(s);
    }
    expect(log).toContain("authentication-token");
  });
});
