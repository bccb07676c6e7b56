/**
 * `AgentPool` and `getAgentPool` against the real local server, through the entry point as
 * the engine calls them: check failures with their property paths, a diff that sends no
 * request, create, drift read back and restored, a rename and a scope change in place, a
 * name taken refused with one message and adopted with no write, a pool that workspaces
 * still run on refused before any write, the 404 rule, import by both id forms, and the
 * lookup by name with the pool's lists.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { getAgentPool, lookupSettingsFrom } from "../../src/resources/lookups";
import { entryCalls } from "./entry-calls";
import { providersAs, startHarness, teamTokenWith, uniqueName, writesTo, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  lookupSettingsFrom(() => ({ address: h.server.url, token: h.server.token, organization: h.org }));
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => providersAs(h, h.server.token));

const { call, check, create } = entryCalls("AgentPool");
const as = (token: string) => providersAs(h, token);
const writes = () => writesTo(h);
const teamToken = (flags: Record<string, boolean>) => teamTokenWith(h, flags);

async function update(id: string, olds: Props, news: Props): Promise<Props> {
  return (await call("update", id, olds, (await check(news, olds)).inputs)).outs;
}

describe("check and diff", () => {
  it("one clear failure per bad input, with its property path", async () => {
    const f = async (news: Props) => (await check({ organization: h.org, ...news })).failures;
    expect(await f({ name: "builders" })).toEqual([]);
    expect(await f({})).toEqual([{ property: "name", reason: "is required" }]);
    expect(await f({ name: "  " })).toEqual([{ property: "name", reason: "must be a non-empty string" }]);
    expect(await f({ name: "p", organizationScoped: "no" })).toEqual([
      { property: "organizationScoped", reason: "must be true or false" },
    ]);
    expect(await f({ name: UNKNOWN, organizationScoped: UNKNOWN })).toEqual([]);
    // The stack's organization is the default.
    expect((await check({ name: "p" })).inputs.organization).toBe(h.org);
  });

  it("a rename and a scope change are updates, a change of organization a replacement; no request is made", async () => {
    const olds = { name: "a", organization: h.org, organizationScoped: true, createdAt: "2026-01-01T00:00:00Z" };
    const before = h.server.stats().total;
    const diff = (news: Props) => call("diff", "apool-1", olds, news);
    expect(await diff({ name: "b", organization: h.org })).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ name: "a", organization: h.org, organizationScoped: false })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await diff({ name: "a", organization: "other" })).toMatchObject({ replaces: ["organization"] });
    // Omitted, the scope is not managed.
    expect((await diff({ name: "a", organization: h.org })).changes).toBe(false);
    expect((await diff({ name: "a", organization: h.org, organizationScoped: true })).changes).toBe(false);
    expect(h.server.stats().total).toBe(before);
  });
});

describe("AgentPool", () => {
  it("creates, reads drift back, restores it, and renames and rescopes in place", async () => {
    const name = uniqueName("pool");
    const news = { name, organization: h.org, organizationScoped: false };
    const { id, outs } = await create(news);
    expect(id).toMatch(/^apool-/);
    expect(outs).toMatchObject({ name, organization: h.org, organizationScoped: false });
    expect(Date.parse(outs.createdAt)).not.toBeNaN();
    expect((await call("diff", id, outs, (await check(news, outs)).inputs)).changes).toBe(false);

    await h.client.agentPools.update(id, { organizationScoped: true });
    const read = await call("read", id, outs);
    expect(read.props.organizationScoped).toBe(true);
    expect(await call("diff", id, read.props, (await check(news, read.props)).inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const restored = await update(id, read.props, news);
    expect(restored.organizationScoped).toBe(false);
    expect((await h.client.agentPools.read(id)).organizationScoped).toBe(false);

    const renamed = await update(id, restored, { ...news, name: `${name}-b` });
    expect(renamed.name).toBe(`${name}-b`);
    const onService = await h.client.agentPools.read(id);
    expect(onService).toMatchObject({ id, name: `${name}-b`, organizationScoped: false });
  });

  it("a name taken: one message naming the id and adopt: true, no write; adopt takes it over with no write", async () => {
    const name = uniqueName("taken");
    const existing = await h.client.agentPools.create(h.org, { name, organizationScoped: false });
    const checked = await check({ name, organization: h.org, organizationScoped: false });
    const before = writes();
    const refused = await call("create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(
      `agent pool "${name}" (${existing.id}) in organization "${h.org}" already exists`,
    );
    expect(refused.message).toContain("adopt: true");
    expect(refused.message).toContain("pulumi import workspaces:index:AgentPool");
    // The refused create was the only write: nothing else was sent.
    expect(writes() - before).toBe(1);

    const start = writes();
    const adopted = await create({ name, organization: h.org, organizationScoped: false, adopt: true });
    expect(writes() - start).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).toMatchObject({ name, organizationScoped: false, adopt: true });
    // Adopting with another scope changes only that.
    const rescoped = await create({ name, organization: h.org, organizationScoped: true, adopt: true });
    expect(rescoped.id).toBe(existing.id);
    expect(writes() - start).toBe(1);
    expect((await h.client.agentPools.read(existing.id)).organizationScoped).toBe(true);
  });

  it("a create whose answer is lost keeps the pool it made: one pool, no error", async () => {
    const name = uniqueName("lost");
    const checked = await check({ name, organization: h.org });
    // The POST commits and then loses its answer; reads go through.
    h.server.setFaults({ failureRate: 1, failureMode: "drop", failureStage: "after", methods: ["POST"] });
    try {
      const created = await call("create", checked.inputs);
      h.server.setFaults({});
      const named = (await h.client.agentPools.list(h.org, { query: name }).all()).filter((p) => p.name === name);
      expect(named.map((p) => p.id)).toEqual([created.id]);
    } finally {
      h.server.setFaults({});
    }
  });

  it("delete refuses, before any write, a pool that workspaces run on, naming the count and the ways out", async () => {
    const { id, outs } = await create({ name: uniqueName("busy"), organization: h.org });
    const a = await h.client.workspaces.create(h.org, { name: uniqueName("on-a") });
    const b = await h.client.workspaces.create(h.org, { name: uniqueName("on-b") });
    for (const ws of [a, b]) await h.client.workspaces.update(ws.id, { executionMode: "agent", agentPoolId: id });
    const before = writes();
    const refused = await call("delete", id, outs).catch((e: Error) => e);
    expect(writes()).toBe(before);
    expect(refused.message).toContain(`cannot delete agent pool "${outs.name}" (${id}): 2 workspaces still run on it`);
    expect(refused.message).toContain("WorkspaceSettings");
    expect(refused.message).toContain("pulumi state delete");
    expect((await h.client.agentPools.read(id)).id).toBe(id);

    for (const ws of [a, b]) await h.client.workspaces.update(ws.id, { executionMode: "remote" });
    await call("delete", id, outs);
    await expect(h.client.agentPools.read(id)).rejects.toThrow(/404/);
    // Gone, and the token could have seen it: a refresh drops it, a second delete succeeds.
    expect(await call("read", id, outs)).toEqual({});
    await call("delete", id, outs);
  });

  it("a 404 for a token that may not see every pool drops nothing and says why", async () => {
    const { id, outs } = await create({ name: uniqueName("hidden"), organization: h.org });
    await h.client.agentPools.delete(id);
    as(await teamToken({}));
    await expect(call("read", id, outs)).rejects.toThrow(
      /cannot refresh agent pool .*: the service answered 404.*cannot see every agent pool.*pulumi state delete/s,
    );
    as(h.server.token);
    expect(await call("read", id, outs)).toEqual({});
  });

  it("a token that may not create pools gets one message naming the pool, the organization and who may", async () => {
    const checked = await check({ name: uniqueName("refused"), organization: h.org });
    as(await teamToken({ "manage-workspaces": true }));
    await expect(call("create", checked.inputs)).rejects.toThrow(
      new RegExp(
        `cannot create agent pool "${checked.inputs.name}" in organization "${h.org}": the service answered 404.*owners token`,
      ),
    );
  });

  it("imports by apool-<id> and by <organization>/<name>; another id is refused with the forms", async () => {
    const name = uniqueName("imp");
    const p = await h.client.agentPools.create(h.org, { name, organizationScoped: false });
    expect((await call("read", p.id, {})).props).toMatchObject({
      name,
      organization: h.org,
      organizationScoped: false,
    });
    const byName = await call("read", `${h.org}/${name}`, {});
    expect(byName.id).toBe(p.id);
    expect(byName.props).toMatchObject({ name, organization: h.org });
    expect(await call("read", `${h.org}/no-such-pool`, {})).toEqual({});
    await expect(call("read", "ws-1", {})).rejects.toThrow(/apool-<id>.*<organization>\/<name>/);
  });
});

describe("getAgentPool", () => {
  it("a pool by name with its scope and lists; none found says why", async () => {
    const name = uniqueName("lookup");
    const ws = await h.client.workspaces.create(h.org, { name: uniqueName("allowed") });
    const out = await h.client.workspaces.create(h.org, { name: uniqueName("excluded") });
    const pool = await h.client.agentPools.create(h.org, {
      name,
      organizationScoped: false,
      allowedWorkspaceIds: [ws.id],
      excludedWorkspaceIds: [out.id],
    });
    // Another pool whose name holds this one's: the lookup takes the exact name.
    await h.client.agentPools.create(h.org, { name: `${name}-2` });
    expect(await getAgentPool({ name })).toEqual({
      id: pool.id,
      name,
      organization: h.org,
      organizationScoped: false,
      allowedWorkspaceIds: [ws.id],
      allowedProjectIds: [],
      excludedWorkspaceIds: [out.id],
    });
    await expect(getAgentPool({ name: "no-such-pool" })).rejects.toThrow(
      /getAgentPool: no agent pool "no-such-pool" in organization .* may see/,
    );
    await expect(getAgentPool({ name: "" })).rejects.toThrow(/getAgentPool/);
  });
});
