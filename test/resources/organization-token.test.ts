/**
 * `OrganizationToken` against the real local server, through the entry point as the
 * engine calls it: check failures; the diff (a replacement deletes the old token first);
 * the secret from the create alone, with the organization token's rights (or, for the
 * audit-trail token, none beyond the audit trail); a token found refused, replaced or
 * adopted with no write; a token replaced out of band is gone and its delete leaves the
 * successor alone; import by `<org>` and `<org>/audit-trails`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { entryCalls } from "./entry-calls";
import { providersAs, startHarness, teamTokenWith, statusWith, uniqueName, writesTo, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(async () => {
  providersAs(h, h.server.token);
  delete process.env.WORKSPACES_TEST_NOW;
  // Each test starts from an organization without tokens of either type.
  for (const tokenType of ["organization", "audit-trails"] as const)
    await h.client.organizationTokens.delete(h.org, { tokenType }).catch(() => undefined);
});

const { call, check, create } = entryCalls("OrganizationToken");
const writes = () => writesTo(h);

describe("check and diff", () => {
  it("one clear failure per bad input; the organization defaults to the provider's", async () => {
    const f = async (news: Props) => (await check(news)).failures;
    expect(await check({})).toMatchObject({ inputs: { organization: h.org }, failures: [] });
    expect(await f({ tokenType: "audit" })).toEqual([
      { property: "tokenType", reason: 'must be "organization" or "audit-trails", not "audit"' },
    ]);
    expect((await f({ expiresInDays: -3 }))[0].property).toBe("expiresInDays");
    expect((await f({ expiresAt: "2031-02-30" }))[0].property).toBe("expiresAt");
  });

  it("a change of type, organization or rotation replaces the token, the old one deleted first", async () => {
    const olds = { organization: "acme", tokenType: "organization", createdAt: null, lastUsedAt: null };
    const diff = (news: Props) => call("diff", "at-1", olds, news);
    expect(await diff({ organization: "acme" })).toEqual({ changes: false, replaces: [] });
    expect(await diff({ organization: "acme", tokenType: "organization" })).toEqual({ changes: false, replaces: [] });
    expect(await diff({ organization: "acme", tokenType: "audit-trails" })).toEqual({
      changes: true,
      replaces: ["tokenType"],
      deleteBeforeReplace: true,
    });
    expect(await diff({ organization: "other" })).toMatchObject({ replaces: ["organization"] });
    expect(await diff({ organization: "acme", rotation: "x" })).toMatchObject({ replaces: ["rotation"] });
  });
});

describe("OrganizationToken", () => {
  it("keeps the secret from the create; it has the organization token's rights; delete revokes it", async () => {
    const { id, outs } = await create({ expiresInDays: 7 });
    expect(id).toMatch(/^at-/);
    expect(outs).toMatchObject({ organization: h.org, tokenType: "organization", tokenId: id, expiresInDays: 7 });
    expect(typeof outs.token).toBe("string");
    expect(Date.parse(outs.expiredAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    const ws = { data: { type: "workspaces", attributes: { name: uniqueName("w") } } };
    expect(await statusWith(h, outs.token, "POST", `/organizations/${h.org}/workspaces`, ws)).toBe(201);
    const read = await call("read", id, outs);
    expect(read).toMatchObject({ id, props: { token: outs.token, organization: h.org } });
    await call("delete", id, outs);
    expect(await statusWith(h, outs.token, "GET", `/organizations/${h.org}/workspaces`)).toBe(401);
  });

  it("the audit-trail token reads no workspace", async () => {
    const { outs } = await create({ tokenType: "audit-trails" });
    expect(outs.tokenType).toBe("audit-trails");
    expect([401, 403, 404]).toContain(await statusWith(h, outs.token, "GET", `/organizations/${h.org}/workspaces`));
  });

  it("a token found is refused naming when and by whom; adopt takes it with no write; replaceExisting revokes it", async () => {
    const existing = await h.client.organizationTokens.create(h.org);
    const refused = await call("create", (await check({})).inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`cannot create organization token of organization "${h.org}"`);
    expect(refused.message).toContain(`${existing.id}, made on ${existing.createdAt}`);
    expect(refused.message).toMatch(/adopt: true.*replaceExisting: true/s);

    const before = writes();
    const adopted = await create({ adopt: true });
    expect(writes() - before).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).not.toHaveProperty("token");

    const replaced = await create({ replaceExisting: true });
    expect(replaced.id).not.toBe(existing.id);
    expect(await statusWith(h, existing.token!, "GET", `/organizations/${h.org}/workspaces`)).toBe(401);
    // The adopted token is gone (replaced): a refresh drops it, its delete leaves the successor alone.
    expect(await call("read", adopted.id, adopted.outs)).toEqual({});
    await call("delete", adopted.id, adopted.outs);
    expect((await h.client.organizationTokens.read(h.org)).id).toBe(replaced.id);
  });

  it("a token deleted out of band is dropped by an owners token only", async () => {
    const { id, outs } = await create({});
    await h.client.organizationTokens.delete(h.org);
    providersAs(h, await teamTokenWith(h, { "manage-workspaces": true }));
    await expect(call("read", id, outs)).rejects.toThrow(/cannot refresh organization token .*404/s);
    providersAs(h, h.server.token);
    expect(await call("read", id, outs)).toEqual({});
  });

  it("imports by <org> and <org>/audit-trails, without a secret", async () => {
    const org = await h.client.organizationTokens.create(h.org);
    const audit = await h.client.organizationTokens.create(h.org, { tokenType: "audit-trails" });
    expect(await call("read", h.org, {})).toMatchObject({ id: org.id, props: { tokenType: "organization" } });
    const byAudit = await call("read", `${h.org}/audit-trails`, {});
    expect(byAudit).toMatchObject({ id: audit.id, props: { organization: h.org, tokenType: "audit-trails" } });
    expect(byAudit.props).not.toHaveProperty("token");
    await expect(call("read", `${h.org}/x/y`, {})).rejects.toThrow(/<organization>\/audit-trails/);
  });
});
