/**
 * Team and organization tokens through the client, against the local server: the secret
 * answered by the create alone, the legacy token replaced by the next one, described tokens
 * side by side with their expiry, the organization's list, the audit-trail token beside the
 * organization's, and a server with the legacy token only (as OTF answers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureUnavailableError, NotFoundError, ValidationError, type WorkspacesClient } from "../../src/client";
import { fakeClient, otfPeople, reply, startFakeService, type FakeService } from "./fake-service";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

const team = async () => (await t.client.teams.create(t.org, { name: uniqueName("team") })).id;

describe("team tokens", () => {
  it("the legacy token: its secret once, read without it, replaced by the next create, deleted", async () => {
    const teamId = await team();
    const first = await t.client.teamTokens.create(teamId);
    expect(first).toMatchObject({ teamId, description: null });
    expect(first.id).toMatch(/^at-/);
    expect(first.token!.length).toBeGreaterThan(16);
    const read = await t.client.teamTokens.readLegacy(teamId);
    expect(read).toMatchObject({ id: first.id, teamId });
    expect(JSON.stringify(read)).not.toContain(first.token);
    expect(read.createdBy?.type).toBe("users");

    const second = await t.client.teamTokens.create(teamId);
    expect(second.id).not.toBe(first.id);
    expect(await failure(t.client.teamTokens.read(first.id))).toBeInstanceOf(NotFoundError);
    expect((await t.client.teamTokens.readLegacy(teamId)).id).toBe(second.id);

    await t.client.teamTokens.deleteLegacy(teamId);
    expect(await failure(t.client.teamTokens.readLegacy(teamId))).toBeInstanceOf(NotFoundError);
  });

  it("described tokens side by side, with their expiry, listed by the organization, read and deleted by id", async () => {
    const teamId = await team();
    const other = await team();
    const expiredAt = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const ci = await t.client.teamTokens.create(teamId, { description: "ci", expiredAt });
    const deploy = await t.client.teamTokens.create(teamId, { description: "deploy" });
    const elsewhere = await t.client.teamTokens.create(other, { description: "ci" });
    expect(ci).toMatchObject({ teamId, description: "ci" });
    expect(Date.parse(ci.expiredAt!)).toBe(Date.parse(expiredAt));

    const listed = await t.client.teamTokens.list(t.org, { teamId }).all();
    expect(listed.map((x) => x.id).sort()).toEqual([ci.id, deploy.id].sort());
    expect(JSON.stringify(listed)).not.toContain(ci.token);
    const all = await t.client.teamTokens.list(t.org).all();
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([ci.id, deploy.id, elsewhere.id]));

    expect(await t.client.teamTokens.read(ci.id)).toMatchObject({ id: ci.id, teamId, description: "ci" });
    await t.client.teamTokens.delete(ci.id);
    expect(await failure(t.client.teamTokens.read(ci.id))).toBeInstanceOf(NotFoundError);
    expect((await t.client.teamTokens.read(deploy.id)).id).toBe(deploy.id);
  });

  it("refuses an expiry that is not a time before sending anything", async () => {
    const before = t.client.stats.requests;
    const err = await failure(t.client.teamTokens.create("team-x", { description: "d", expiredAt: "next week" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems[0].pointer).toBe("/data/attributes/expired-at");
    expect(t.client.stats.requests).toBe(before);
  });
});

describe("organization tokens", () => {
  it("the organization token and the audit-trail token, one of each, each replaced by its own next create", async () => {
    const org = await t.client.organizationTokens.create(t.org);
    const audit = await t.client.organizationTokens.create(t.org, { tokenType: "audit-trails" });
    expect(org).toMatchObject({ organization: t.org, tokenType: "organization" });
    expect(audit).toMatchObject({ organization: t.org, tokenType: "audit-trails" });
    expect(org.token).not.toBe(audit.token);
    expect((await t.client.organizationTokens.read(t.org)).id).toBe(org.id);
    expect((await t.client.organizationTokens.read(t.org, { tokenType: "audit-trails" })).id).toBe(audit.id);

    const again = await t.client.organizationTokens.create(t.org, { tokenType: "audit-trails" });
    expect((await t.client.organizationTokens.read(t.org, { tokenType: "audit-trails" })).id).toBe(again.id);
    expect((await t.client.organizationTokens.read(t.org)).id).toBe(org.id);

    await t.client.organizationTokens.delete(t.org, { tokenType: "audit-trails" });
    expect(await failure(t.client.organizationTokens.read(t.org, { tokenType: "audit-trails" }))).toBeInstanceOf(
      NotFoundError,
    );
    expect((await t.client.organizationTokens.read(t.org)).id).toBe(org.id);
    await t.client.organizationTokens.delete(t.org);
  });
});

describe("a server with the legacy team token only (as OTF answers)", () => {
  let fake: FakeService;
  let client: WorkspacesClient;
  beforeAll(async () => {
    fake = await startFakeService(
      otfPeople((req, res, path) => {
        // OTF's legacy token: no team relationship, no description.
        if (path !== "/teams/team-1/authentication-token" || req.method !== "POST") return false;
        reply(res, 201, {
          data: {
            id: "at-1",
            type: "authentication-tokens",
            attributes: { "created-at": "2026-01-01T00:00:00Z", token: "otf-secret-0123456789", "expired-at": null },
          },
        });
        return true;
      }),
    );
    client = fakeClient(fake);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it("serves the legacy token, and raises FeatureUnavailableError for described tokens and the list", async () => {
    expect(await client.teamTokens.create("team-1")).toMatchObject({
      id: "at-1",
      teamId: "team-1",
      token: "otf-secret-0123456789",
    });
    const described = await failure(client.teamTokens.create("team-1", { description: "ci" }));
    expect(described).toBeInstanceOf(FeatureUnavailableError);
    expect((described as FeatureUnavailableError).feature).toBe("multiple team tokens");
    const listed = await failure(client.teamTokens.list("acme").all());
    expect((listed as FeatureUnavailableError).feature).toBe("multiple team tokens");
    // A team that does not read stays a 404.
    expect(await failure(client.teamTokens.create("team-2", { description: "ci" }))).toBeInstanceOf(NotFoundError);
  });
});
