/**
 * `TeamToken` against the real local server, through the entry point as the engine calls
 * it: check failures with their property paths; a pure diff in which only a declared
 * rotation or a due expiry (the clock moved by WORKSPACES_TEST_NOW) plans a replacement;
 * the secret from the create alone, working with the team's rights and no more; described
 * tokens (several per team, the interrupted create's one replaced) and the legacy one (a
 * found token refused, replaced or adopted); adoption with no write; the 404 rule; import.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { originFor } from "../../src/resources/providers/origin";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { entryCalls } from "./entry-calls";
import {
  api,
  providersAs,
  startHarness,
  teamTokenWith,
  statusWith,
  uniqueName,
  writesTo,
  type Harness,
} from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  providersAs(h, h.server.token);
  delete process.env.WORKSPACES_TEST_NOW;
});

const { call, check, create } = entryCalls("TeamToken");
const writes = () => writesTo(h);
const DAY = 24 * 60 * 60 * 1000;

const origin = (name: string) => originFor("0123456789abcdef0123456789abcdef", "proj", "dev", "TeamToken", name);

async function team(access: Record<string, boolean> = {}): Promise<string> {
  return (await h.client.teams.create(h.org, { name: uniqueName("ci"), organizationAccess: access })).id;
}

describe("check and diff", () => {
  it("one clear failure per bad input, with its property path", async () => {
    const f = async (news: Props) => (await check(news)).failures;
    const later = new Date(Date.now() + 30 * DAY).toISOString();
    expect(await f({ teamId: "team-1" })).toEqual([]);
    expect(await f({ teamId: "team-1", description: "ci", expiresAt: later, rotateBeforeDays: 7 })).toEqual([]);
    expect(await f({})).toEqual([{ property: "teamId", reason: "is required" }]);
    expect(await f({ teamId: "ws-1", description: " " })).toEqual([
      { property: "teamId", reason: "must be a team id (team-...)" },
      { property: "description", reason: "must be a non-empty string" },
    ]);
    const bad = await f({ teamId: "team-1", expiresAt: "next week", expiresInDays: 0, rotateBeforeDays: -1 });
    expect(bad.map((x) => x.property)).toEqual(["expiresAt", "expiresInDays", "expiresInDays", "rotateBeforeDays"]);
    expect(bad[0].reason).toMatch(/RFC 3339/);
    expect(bad[2].reason).toMatch(/exclusive/);
    expect((await f({ teamId: "team-1", expiresAt: "2020-01-01T00:00:00Z" }))[0]).toMatchObject({
      property: "expiresAt",
      reason: expect.stringMatching(/in the past/),
    });
    expect((await f({ teamId: "team-1", expiresInDays: 1.5 }))[0].property).toBe("expiresInDays");
    expect(await f({ teamId: "team-1", replaceExisting: "yes", rotation: 3 })).toEqual([
      { property: "rotation", reason: "must be a string" },
      { property: "replaceExisting", reason: "must be true or false" },
    ]);
    expect((await f({ teamId: "team-1", description: `d [${origin("x")}]` }))[0].property).toBe("description");
    expect(await f({ teamId: UNKNOWN, description: UNKNOWN, expiresAt: UNKNOWN, expiresInDays: UNKNOWN })).toEqual([]);
  });

  it("only a declared rotation or a due expiry replaces an unchanged token; no request is made", async () => {
    const expiredAt = "2030-06-30T00:00:00.000Z";
    const olds = { teamId: "team-1", expiresInDays: 30, createdAt: null, lastUsedAt: null, token: "s", expiredAt };
    const news = { teamId: "team-1", expiresInDays: 30 };
    const before = h.server.stats().total;
    const diff = (n: Props, o: Props = olds) => call("diff", "at-1", o, n);
    // Unchanged, a month or a day before the expiry: nothing, however often it is asked.
    process.env.WORKSPACES_TEST_NOW = "2030-05-30T00:00:00Z";
    expect(await diff(news)).toEqual({ changes: false, replaces: [] });
    process.env.WORKSPACES_TEST_NOW = "2030-06-29T00:00:00Z";
    expect(await diff(news)).toEqual({ changes: false, replaces: [] });
    // Within rotateBeforeDays, or past the expiry: a replacement, the legacy token's old one deleted first.
    expect(await diff({ ...news, rotateBeforeDays: 7 })).toEqual({
      changes: true,
      replaces: ["expiredAt"],
      deleteBeforeReplace: true,
    });
    process.env.WORKSPACES_TEST_NOW = "2030-07-01T00:00:00Z";
    expect(await diff(news)).toMatchObject({ replaces: ["expiredAt"] });
    // A described token's new one is made before the old one is deleted.
    const described = { ...olds, description: "ci" };
    expect(await diff({ ...news, description: "ci" }, described)).toEqual({ changes: true, replaces: ["expiredAt"] });
    delete process.env.WORKSPACES_TEST_NOW;
    expect(await diff({ ...news, rotation: "2" })).toMatchObject({ replaces: ["rotation"] });
    expect(await diff({ ...news, description: "ci" })).toMatchObject({ replaces: ["description"] });
    expect(await diff({ teamId: "team-1", expiresInDays: 60 })).toMatchObject({ replaces: ["expiresInDays"] });
    expect(await diff({ ...news, teamId: "team-2" })).toMatchObject({ replaces: ["teamId"] });
    // rotateBeforeDays and replaceExisting alone change the outputs, never the token.
    expect(await diff({ ...news, rotateBeforeDays: 3, replaceExisting: true })).toEqual({
      changes: true,
      replaces: [],
    });
    // lastUsedAt never shows as a change.
    expect(await diff(news, { ...olds, lastUsedAt: "2030-05-01T00:00:00Z" })).toEqual({ changes: false, replaces: [] });
    expect(h.server.stats().total).toBe(before);
  });
});

describe("TeamToken", () => {
  it("keeps the secret from the create; it works with the team's rights and no more", async () => {
    const teamId = await team({ "manage-policies": true });
    const news = { teamId, description: "ci", expiresInDays: 30, rotation: "1", __origin: origin("ci") };
    const { id, outs } = await create(news);
    expect(id).toMatch(/^at-/);
    expect(outs).toMatchObject({ teamId, tokenId: id, description: "ci", rotation: "1", organization: h.org });
    expect(typeof outs.token).toBe("string");
    expect(Math.abs(Date.parse(outs.expiredAt) - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    const onService = await h.client.teamTokens.read(id);
    expect(onService.description).toBe(`ci [${origin("ci")}&rotation=1]`);
    expect(Date.parse(onService.expiredAt!)).toBe(Date.parse(outs.expiredAt));
    // The service never answers the secret again.
    const raw = await api(h, "GET", `/authentication-tokens/${id}`);
    expect(JSON.stringify(raw.json)).not.toContain(outs.token);

    // The token acts with the team's rights: policy sets yes, workspaces no.
    const set = { data: { type: "policy-sets", attributes: { name: uniqueName("p") } } };
    expect(await statusWith(h, outs.token, "POST", `/organizations/${h.org}/policy-sets`, set)).toBe(201);
    const ws = { data: { type: "workspaces", attributes: { name: uniqueName("w") } } };
    expect([403, 404]).toContain(await statusWith(h, outs.token, "POST", `/organizations/${h.org}/workspaces`, ws));

    // A refresh keeps the stack's copy and gives back the declared inputs; the next diff is quiet.
    const read = await call("read", id, {
      ...outs,
      __inputNames: ["teamId", "description", "expiresInDays", "rotation"],
    });
    expect(read.props.token).toBe(outs.token);
    expect(read.inputs).toEqual({ teamId, description: "ci", expiresInDays: 30, rotation: "1" });
    expect((await call("diff", id, read.props, (await check(news, read.props)).inputs)).changes).toBe(false);

    await call("delete", id, outs);
    expect(await statusWith(h, outs.token, "GET", `/organizations/${h.org}/policy-sets`)).toBe(401);
  });

  it("a team has several described tokens; the one an interrupted create made is replaced, no other", async () => {
    const teamId = await team();
    const news = { teamId, description: "ci", __origin: origin("ci") };
    const lost = await create(news);
    const other = await create({ ...news, __origin: origin("other") });
    const plain = await h.client.teamTokens.create(teamId, { description: "ci" });
    const again = await create(news);
    expect(again.id).not.toBe(lost.id);
    const ids = (await h.client.teamTokens.list(h.org, { teamId }).all()).map((t) => t.id).sort();
    expect(ids).toEqual([again.id, other.id, plain.id].sort());
  });

  it("a legacy token found is refused, naming when and by whom; replaceExisting revokes it; adopt takes it with no write", async () => {
    const teamId = await team();
    const existing = await h.client.teamTokens.create(teamId);
    const refused = await call("create", (await check({ teamId })).inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`cannot create legacy team token of team ${teamId}`);
    expect(refused.message).toContain(`${existing.id}, made on ${existing.createdAt} by`);
    expect(refused.message).toMatch(/adopt: true.*replaceExisting: true/s);

    const before = writes();
    const adopted = await create({ teamId, adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).not.toHaveProperty("token");

    const replaced = await create({ teamId, replaceExisting: true });
    expect(replaced.id).not.toBe(existing.id);
    expect(typeof replaced.outs.token).toBe("string");
    expect(existing.token && (await statusWith(h, existing.token, "GET", `/teams/${teamId}`))).toBe(401);
    expect((await h.client.teamTokens.readLegacy(teamId)).id).toBe(replaced.id);
    // The adopted token was replaced: its delete finds it gone and leaves the successor alone.
    await call("delete", adopted.id, adopted.outs);
    expect((await h.client.teamTokens.readLegacy(teamId)).id).toBe(replaced.id);
    // Its own delete revokes the legacy token by id.
    await call("delete", replaced.id, replaced.outs);
    await expect(h.client.teamTokens.readLegacy(teamId)).rejects.toThrow(/404/);
    expect(await statusWith(h, replaced.outs.token, "GET", `/teams/${teamId}`)).toBe(401);
  });

  it("adopt takes the one described token of that description with no write; two are refused naming both", async () => {
    const teamId = await team();
    const existing = await h.client.teamTokens.create(teamId, { description: "deploy" });
    const before = writes();
    const adopted = await create({ teamId, description: "deploy", adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted).toMatchObject({ id: existing.id, outs: { teamId, description: "deploy", adopt: true } });
    expect(adopted.outs).not.toHaveProperty("token");
    const ours = await create({ teamId, description: "deploy", __origin: origin("deploy") });
    const refused = await call("create", (await check({ teamId, description: "deploy", adopt: true })).inputs).catch(
      (e: Error) => e,
    );
    expect(refused.message).toContain(`the team has 2 tokens of that description (${existing.id}, ${ours.id})`);
  });

  it("a token deleted out of band is dropped only for a token that could have seen it; up makes a new one", async () => {
    const teamId = await team();
    const { id, outs } = await create({ teamId, description: "gone" });
    await h.client.teamTokens.delete(id);
    providersAs(h, await teamTokenWith(h, { "manage-workspaces": true }));
    await expect(call("read", id, outs)).rejects.toThrow(/cannot refresh team token .*404.*pulumi state delete/s);
    providersAs(h, h.server.token);
    expect(await call("read", id, outs)).toEqual({});
    await call("delete", id, outs);
    const again = await create({ teamId, description: "gone" });
    expect(again.id).not.toBe(id);
  });

  it("imports by at-<id> and by team-<id> (the legacy token), without a secret; another id is refused", async () => {
    const teamId = await team();
    const described = await h.client.teamTokens.create(teamId, { description: "imported" });
    const legacy = await h.client.teamTokens.create(teamId);
    const byId = await call("read", described.id, {});
    expect(byId).toMatchObject({ id: described.id, props: { teamId, description: "imported", organization: h.org } });
    expect(byId.props).not.toHaveProperty("token");
    const byTeam = await call("read", teamId, {});
    expect(byTeam).toMatchObject({ id: legacy.id, props: { teamId, tokenId: legacy.id } });
    expect(byTeam.props).not.toHaveProperty("description");
    await expect(call("read", "ws-1", {})).rejects.toThrow(/at-<id>.*team-<id>/);
  });
});
