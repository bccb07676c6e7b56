/**
 * `AgentToken` against the real local server, through the entry point as the engine calls
 * it: check failures, a pure diff where every change is a replacement named by its
 * property, the secret kept from the create alone, the origin appended to the description
 * and stripped from the output, the recovery of a token an interrupted create made (and
 * no other), adoption of the one token of a description with no write, the 404 rule, and
 * import by both id forms.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { originFor } from "../../src/resources/providers/origin";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { entryCalls } from "./entry-calls";
import { providersAs, startHarness, teamTokenWith, uniqueName, writesTo, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => providersAs(h, h.server.token));

const { call, check, create } = entryCalls("AgentToken");
const as = (token: string) => providersAs(h, token);
const writes = () => writesTo(h);
const teamToken = (flags: Record<string, boolean>) => teamTokenWith(h, flags);

const origin = (name: string) => originFor("0123456789abcdef0123456789abcdef", "proj", "dev", "AgentToken", name);

async function pool(): Promise<string> {
  return (await h.client.agentPools.create(h.org, { name: uniqueName("pool") })).id;
}

describe("check and diff", () => {
  it("one clear failure per bad input, with its property path", async () => {
    const f = async (news: Props) => (await check(news)).failures;
    expect(await f({ agentPoolId: "apool-1", description: "agents" })).toEqual([]);
    expect(await f({})).toEqual([
      { property: "agentPoolId", reason: "is required" },
      { property: "description", reason: "is required" },
    ]);
    expect(await f({ agentPoolId: "ws-1", description: " " })).toEqual([
      { property: "agentPoolId", reason: "must be an agent pool id (apool-...)" },
      { property: "description", reason: "must be a non-empty string" },
    ]);
    expect(await f({ agentPoolId: "apool-1", description: "d", rotation: 3 })).toEqual([
      { property: "rotation", reason: "must be a string" },
    ]);
    expect((await f({ agentPoolId: "apool-1", description: `d [${origin("x")}]` }))[0].property).toBe("description");
    expect(await f({ agentPoolId: UNKNOWN, description: UNKNOWN, rotation: UNKNOWN })).toEqual([]);
  });

  it("every change replaces the token, named by its property; nothing else does; no request is made", async () => {
    const olds = { agentPoolId: "apool-1", description: "agents", createdAt: null, lastUsedAt: null, token: "s" };
    const before = h.server.stats().total;
    const diff = (news: Props) => call("diff", "at-1", olds, news);
    const base = { agentPoolId: "apool-1", description: "agents" };
    expect(await diff(base)).toMatchObject({ changes: false, replaces: [] });
    expect(await diff({ ...base, rotation: "2026-12" })).toMatchObject({ changes: true, replaces: ["rotation"] });
    expect(await diff({ ...base, description: "other" })).toMatchObject({ replaces: ["description"] });
    expect(await diff({ ...base, agentPoolId: "apool-2" })).toMatchObject({ replaces: ["agentPoolId"] });
    const rotated = { ...olds, rotation: "2026-12" };
    expect(await call("diff", "at-1", rotated, { ...base, rotation: "2026-12" })).toMatchObject({ changes: false });
    expect(await call("diff", "at-1", rotated, { ...base, rotation: "2027-01" })).toMatchObject({
      replaces: ["rotation"],
    });
    expect(await call("diff", "at-1", rotated, base)).toMatchObject({ replaces: ["rotation"] });
    expect(await call("diff", "at-1", rotated, { ...base, rotation: UNKNOWN })).toMatchObject({
      replaces: ["rotation"],
    });
    expect(h.server.stats().total).toBe(before);
  });
});

describe("AgentToken", () => {
  it("keeps the secret from the create, carries the origin in the description, and reads the declared one back", async () => {
    const agentPoolId = await pool();
    const news = { agentPoolId, description: "build agents", rotation: "1", __origin: origin("agents") };
    const { id, outs } = await create(news);
    expect(id).toMatch(/^at-/);
    expect(typeof outs.token).toBe("string");
    expect(outs.token.length).toBeGreaterThan(16);
    expect(outs).toMatchObject({ agentPoolId, description: "build agents", rotation: "1", organization: h.org });
    const onService = await h.client.agentTokens.read(id);
    expect(onService.description).toBe(`build agents [${origin("agents")}&rotation=1]`);

    // A refresh keeps the stack's copy of the secret and gives back exactly the declared inputs.
    const read = await call("read", id, { ...outs, __inputNames: ["agentPoolId", "description", "rotation"] });
    expect(read.props.token).toBe(outs.token);
    expect(read.inputs).toEqual({ agentPoolId, description: "build agents", rotation: "1" });
    expect((await call("diff", id, read.props, (await check(news, read.props)).inputs)).changes).toBe(false);

    await call("delete", id, outs);
    await expect(h.client.agentTokens.read(id)).rejects.toThrow(/404/);
  });

  it("a token an interrupted create made is deleted and replaced by the next create; no other token is touched", async () => {
    const agentPoolId = await pool();
    const news = { agentPoolId, description: "agents", __origin: origin("agents") };
    const lost = await create(news);
    // Tokens of another resource, another rotation, or no origin at all, with the same description.
    const other = await create({ ...news, __origin: origin("other") });
    const rotated = await create({ ...news, rotation: "2" });
    const plain = await h.client.agentTokens.create(agentPoolId, "agents");

    const again = await create(news);
    expect(again.id).not.toBe(lost.id);
    expect(again.outs.token).not.toBe(lost.outs.token);
    const ids = (await h.client.agentTokens.list(agentPoolId).all()).map((t) => t.id).sort();
    expect(ids).toEqual([again.id, other.id, rotated.id, plain.id].sort());
  });

  it("a create whose answer was lost leaves a token that the next create replaces: one token in the end", async () => {
    const agentPoolId = await pool();
    const checked = await check({ agentPoolId, description: "agents", __origin: origin("lost") });
    h.server.setFaults({ failureRate: 1, failureMode: "drop", failureStage: "after", methods: ["POST"] });
    try {
      await expect(call("create", checked.inputs)).rejects.toThrow();
    } finally {
      h.server.setFaults({});
    }
    const orphan = await h.client.agentTokens.list(agentPoolId).all();
    expect(orphan).toHaveLength(1);
    const again = await call("create", checked.inputs);
    expect((await h.client.agentTokens.list(agentPoolId).all()).map((t) => t.id)).toEqual([again.id]);
    expect(again.id).not.toBe(orphan[0].id);
  });

  it("adopt takes the one token of that description with no write and no secret; two are refused naming both", async () => {
    const agentPoolId = await pool();
    const existing = await h.client.agentTokens.create(agentPoolId, "legacy agents");
    const before = writes();
    const adopted = await create({ agentPoolId, description: "legacy agents", adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).toMatchObject({ agentPoolId, description: "legacy agents", adopt: true });
    expect(adopted.outs).not.toHaveProperty("token");

    const second = await h.client.agentTokens.create(agentPoolId, "legacy agents");
    const checked = await check({ agentPoolId, description: "legacy agents", adopt: true });
    const refused = await call("create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`the pool has 2 tokens of that description (${existing.id}, ${second.id})`);
    // A token this package made (its description carries the origin) is adopted by its declared description.
    const ours = await create({ agentPoolId, description: "made here", __origin: origin("made") });
    const beforeOurs = writes();
    const adoptedOurs = await create({ agentPoolId, description: "made here", adopt: true });
    expect(writes() - beforeOurs).toBe(0);
    expect(adoptedOurs.id).toBe(ours.id);
    // None of that description: adopt makes a new one.
    const made = await create({ agentPoolId, description: "fresh agents", adopt: true });
    expect(typeof made.outs.token).toBe("string");
  });

  it("a token deleted out of band is dropped only for a token that could have seen it", async () => {
    const agentPoolId = await pool();
    const { id, outs } = await create({ agentPoolId, description: "gone" });
    await h.client.agentTokens.delete(id);
    as(await teamToken({ "manage-workspaces": true }));
    await expect(call("read", id, outs)).rejects.toThrow(
      /cannot refresh agent token .*the service answered 404.*cannot see every agent token.*pulumi state delete/s,
    );
    as(h.server.token);
    expect(await call("read", id, outs)).toEqual({});
    await call("delete", id, outs);
  });

  it("imports by at-<id> (finding its pool) and by apool-<id>/at-<id>, without a secret; another id is refused", async () => {
    const agentPoolId = await pool();
    const t = await h.client.agentTokens.create(agentPoolId, "imported");
    const byId = await call("read", t.id, {});
    expect(byId.id).toBe(t.id);
    expect(byId.props).toMatchObject({ agentPoolId, description: "imported", organization: h.org });
    expect(byId.props).not.toHaveProperty("token");
    const byPair = await call("read", `${agentPoolId}/${t.id}`, {});
    expect(byPair).toMatchObject({ id: t.id, props: { agentPoolId } });
    await expect(call("read", "ws-1", {})).rejects.toThrow(/at-<id>.*apool-<id>\/at-<id>/);
  });
});
