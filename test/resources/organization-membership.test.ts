/**
 * `OrganizationMembership` against the real local server, through the entry point as the
 * engine calls it: bad input refused at check with its property path and no request, a pure
 * diff (an email change replaces, its case and the status never count), an invitation that
 * stays pending and is shown so, its delete (#761), adoption with no write, a pending
 * invitation of an interrupted create taken over instead of a second one, the 404 rule, and
 * import by both id forms.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { entryCalls } from "./entry-calls";
import { api, providersAs, startHarness, teamTokenWith, uniqueName, writesTo, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => providersAs(h, h.server.token));

const { call, check, create } = entryCalls("OrganizationMembership");
const email = () => `${uniqueName("person")}@example.com`;
const posts = () =>
  Object.entries(h.server.stats().byRoute)
    .filter(([route]) => route.startsWith("POST /api/v2/organizations/:organization_name/organization-memberships"))
    .reduce((n, [, count]) => n + count, 0);

/** A user of the local server with this email and a token of their own, made before any invitation of it. */
async function person(address: string): Promise<{ username: string; token: string }> {
  const username = uniqueName("user");
  const user = await api(h, "POST", "/admin/users", {
    data: { type: "users", attributes: { username, email: address } },
  });
  const token = await api(h, "POST", `/users/${user.json.data.id}/authentication-tokens`, {
    data: { type: "authentication-tokens", attributes: { description: "own" } },
  });
  return { username, token: token.json.data.attributes.token };
}

/** The person accepts the invitation `membershipId` with their own token. */
async function accept(membershipId: string, token: string): Promise<void> {
  const res = await fetch(`${h.server.url}/organization-memberships/${membershipId}/actions/accept`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBeLessThan(300);
}

describe("check and diff", () => {
  it("refuses a missing or malformed email with its property path, and sends nothing", async () => {
    const before = h.server.stats().total;
    const f = async (news: Props) => (await check(news)).failures;
    expect(await f({ email: "ada@example.com" })).toEqual([]);
    expect(await f({ email: UNKNOWN })).toEqual([]);
    expect(await f({})).toEqual([{ property: "email", reason: "is required: the address the invitation goes to" }]);
    expect(await f({ email: "ada at example.com" })).toEqual([
      { property: "email", reason: 'must be an email address (ada@example.com), not "ada at example.com"' },
    ]);
    expect((await f({ email: 42 }))[0].property).toBe("email");
    expect((await f({ email: "ada@example.com", organization: 7 }))[0].property).toBe("organization");
    expect((await f({ email: "ada@example.com", adopt: "yes" }))[0].property).toBe("adopt");
    expect(h.server.stats().total).toBe(before);
  });

  it("an email or organization change replaces; the email's case and the status never count; no request", async () => {
    const before = h.server.stats().total;
    const olds = {
      email: "ada@example.com",
      organization: "acme",
      status: "invited",
      userId: "user-1",
      username: null,
    };
    const diff = (news: Props) => call("diff", "ou-1", olds, news);
    expect(await diff({ email: "ada@example.com", organization: "acme" })).toMatchObject({ changes: false });
    expect(await diff({ email: "Ada@Example.com", organization: "acme" })).toMatchObject({ changes: false });
    expect(
      await call("diff", "ou-1", { ...olds, status: "active" }, { email: "ada@example.com", organization: "acme" }),
    ).toMatchObject({ changes: false });
    expect(await diff({ email: "grace@example.com", organization: "acme" })).toMatchObject({ replaces: ["email"] });
    expect(await diff({ email: "ada@example.com", organization: "other" })).toMatchObject({
      replaces: ["organization"],
    });
    expect(h.server.stats().total).toBe(before);
  });
});

describe("OrganizationMembership", () => {
  it("invites: pending until accepted, shown by a refresh and never a change; delete of a pending one works", async () => {
    const address = email();
    const { username, token } = await person(address);
    const { id, outs } = await create({ email: address });
    expect(id).toMatch(/^ou-/);
    expect(outs).toMatchObject({ email: address, organization: h.org, status: "invited" });
    const pendingRead = await call("read", id, outs);
    expect(pendingRead.props).toMatchObject({ status: "invited" });

    await accept(id, token);
    const read = await call("read", id, { ...outs, __inputNames: ["email", "organization"] });
    expect(read.props).toMatchObject({ status: "active", username });
    expect(read.inputs).toEqual({ email: address, organization: h.org });
    expect((await call("diff", id, read.props, (await check({ email: address }, read.props)).inputs)).changes).toBe(
      false,
    );
    await call("delete", id, read.props);
    await expect(h.client.organizationMemberships.read(id)).rejects.toThrow(/404/);

    // #761: a membership still pending is deleted as well.
    const pending = await create({ email: email() });
    await call("delete", pending.id, pending.outs);
    await expect(h.client.organizationMemberships.read(pending.id)).rejects.toThrow(/404/);
  });

  it("adopt takes the email's membership, active or pending, with no write", async () => {
    const address = email();
    const { token } = await person(address);
    const existing = await h.client.organizationMemberships.create(h.org, { email: address });
    await accept(existing.id, token);
    const before = writesTo(h);
    const adopted = await create({ email: address.toUpperCase(), adopt: true });
    expect(writesTo(h) - before).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).toMatchObject({ status: "active", adopt: true });
  });

  it("an active membership of the email is refused without adopt, naming it and the way out", async () => {
    const address = email();
    const { token } = await person(address);
    const existing = await h.client.organizationMemberships.create(h.org, { email: address });
    await accept(existing.id, token);
    const checked = await check({ email: address });
    const refused: Error = await call("create", checked.inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`organization membership of ${address} (${existing.id}, active)`);
    expect(refused.message).toContain("adopt: true");
  });

  it("a pending invitation an interrupted create sent is taken over: no second invitation", async () => {
    // A runner killed after the invitation went out: the membership exists, the stack has none.
    const address = email();
    const sent = await h.client.organizationMemberships.create(h.org, { email: address });
    const before = posts();
    const { id } = await create({ email: address });
    expect(id).toBe(sent.id);
    // The one attempt the service refused (422), and no other invitation.
    expect(posts() - before).toBe(1);
    expect(await h.client.organizationMemberships.list(h.org, { emails: [address] }).all()).toHaveLength(1);

    // The answer lost on the way: the same create finds what it made.
    const lost = email();
    const checked = await check({ email: lost });
    h.server.setFaults({ failureRate: 1, failureMode: "drop", failureStage: "after", methods: ["POST"] });
    let made: { id: string };
    try {
      made = await call("create", checked.inputs);
    } finally {
      h.server.setFaults({});
    }
    const found = await h.client.organizationMemberships.list(h.org, { emails: [lost] }).all();
    expect(found.map((m) => m.id)).toEqual([made.id]);
  });

  it("a membership deleted out of band is dropped only for a token that could have seen it", async () => {
    const { id, outs } = await create({ email: email() });
    await h.client.organizationMemberships.delete(id);
    providersAs(h, await teamTokenWith(h, { "manage-workspaces": true }));
    await expect(call("read", id, outs)).rejects.toThrow(
      /cannot refresh organization membership of .*the service answered 404.*pulumi state delete/s,
    );
    providersAs(h, h.server.token);
    expect(await call("read", id, outs)).toEqual({});
    await call("delete", id, outs);
  });

  it("imports by ou-<id> and by <organization>/<email>; another id is refused", async () => {
    const address = email();
    const m = await h.client.organizationMemberships.create(h.org, { email: address });
    const byId = await call("read", m.id, {});
    expect(byId).toMatchObject({ id: m.id, props: { email: address, organization: h.org, status: "invited" } });
    const byEmail = await call("read", `${h.org}/${address}`, {});
    expect(byEmail).toMatchObject({ id: m.id, props: { email: address } });
    expect(await call("read", `${h.org}/${email()}`, {})).toEqual({});
    await expect(call("read", "team-1", {})).rejects.toThrow(/ou-<id>.*<organization>\/<email>/);
  });
});
