/**
 * Organization memberships and team members through the client, against the local server:
 * invitations pending until accepted, filters, a second invitation refused with the
 * membership it met, team members by username and by membership (invited people too) with
 * the team token's service user, and a server without memberships (as OTF answers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FeatureUnavailableError,
  MembershipExistsError,
  NotFoundError,
  ValidationError,
  type WorkspacesClient,
} from "../../src/client";
import { fakeClient, otfPeople, reply, startFakeService, type FakeService } from "./fake-service";
import { failure, serverRequest, uniqueName, useServer } from "./helpers";

const t = useServer();
const email = () => `${uniqueName("person")}@example.com`;

/** A user of the local server with a token of its own (the site admin's route). */
async function userWithToken(address: string): Promise<{ id: string; username: string; token: string }> {
  const username = uniqueName("user");
  const user = await serverRequest(t.server, "POST", "/admin/users", {
    data: { type: "users", attributes: { username, email: address } },
  });
  const token = await serverRequest(t.server, "POST", `/users/${user.data.id}/authentication-tokens`, {
    data: { type: "authentication-tokens", attributes: { description: "own" } },
  });
  return { id: user.data.id, username, token: token.data.attributes.token };
}

describe("organization memberships", () => {
  it("invites an email: invited until accepted, then active with the person's username", async () => {
    const address = email();
    const person = await userWithToken(address);
    const invited = await t.client.organizationMemberships.create(t.org, { email: address });
    expect(invited).toMatchObject({ email: address, status: "invited", organization: t.org, userId: person.id });
    expect(invited.id).toMatch(/^ou-/);

    await serverRequest(
      t.server,
      "POST",
      `/organization-memberships/${invited.id}/actions/accept`,
      undefined,
      person.token,
    );
    const active = await t.client.organizationMemberships.read(invited.id);
    expect(active).toMatchObject({ id: invited.id, status: "active", username: person.username });

    await t.client.organizationMemberships.delete(invited.id);
    expect(await failure(t.client.organizationMemberships.read(invited.id))).toBeInstanceOf(NotFoundError);
  });

  it("lists with filters: emails in any case, status, and a search", async () => {
    const a = email();
    const b = email();
    const first = await t.client.organizationMemberships.create(t.org, { email: a });
    const second = await t.client.organizationMemberships.create(t.org, { email: b });
    const byEmail = await t.client.organizationMemberships.list(t.org, { emails: [a.toUpperCase(), b] }).all();
    expect(byEmail.map((m) => m.id).sort()).toEqual([first.id, second.id].sort());
    const invited = await t.client.organizationMemberships.list(t.org, { status: "invited" }).all();
    expect(invited.map((m) => m.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(invited.every((m) => m.status === "invited")).toBe(true);
    const searched = await t.client.organizationMemberships.list(t.org, { query: a.split("@")[0] }).all();
    expect(searched.map((m) => m.id)).toEqual([first.id]);
    expect(await t.client.organizationMemberships.findByEmail(t.org, a.toUpperCase())).toMatchObject({ id: first.id });
    expect(await t.client.organizationMemberships.findByEmail(t.org, email())).toBeNull();
  });

  it("puts the invited person in the initial teams", async () => {
    const team = await t.client.teams.create(t.org, { name: uniqueName("team") });
    const m = await t.client.organizationMemberships.create(t.org, { email: email(), teamIds: [team.id] });
    expect((await t.client.organizationMemberships.read(m.id)).teamIds).toEqual([team.id]);
  });

  it("refuses a second invitation of one email with the membership it met", async () => {
    const address = email();
    const first = await t.client.organizationMemberships.create(t.org, { email: address });
    const err = await failure(t.client.organizationMemberships.create(t.org, { email: address }));
    expect(err).toBeInstanceOf(MembershipExistsError);
    expect((err as MembershipExistsError).existing).toMatchObject({ id: first.id, status: "invited" });
    expect(err.message).toContain(first.id);
  });

  it("refuses an address that is not one before sending anything", async () => {
    const before = t.client.stats.requests;
    const err = await failure(t.client.organizationMemberships.create(t.org, { email: "not-an-email" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).problems[0].pointer).toBe("/data/attributes/email");
    expect(t.client.stats.requests).toBe(before);
  });
});

describe("team members", () => {
  it("adds by username and by membership (an invited person too), lists the token's service user, removes", async () => {
    const team = await t.client.teams.create(t.org, { name: uniqueName("team") });
    const address = email();
    const person = await userWithToken(address);
    const joined = await t.client.organizationMemberships.create(t.org, { email: address });
    await serverRequest(
      t.server,
      "POST",
      `/organization-memberships/${joined.id}/actions/accept`,
      undefined,
      person.token,
    );
    const pending = await t.client.organizationMemberships.create(t.org, { email: email() });
    await t.client.teamTokens.create(team.id);

    await t.client.teamMembers.addUsers(team.id, [person.username]);
    await t.client.teamMembers.addOrganizationMemberships(team.id, [pending.id]);
    const reads = t.client.stats.requests;
    const members = await t.client.teamMembers.list(team.id);
    // One read: the local server answers users and memberships together.
    expect(t.client.stats.requests - reads).toBe(1);
    expect(members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          userId: person.id,
          username: person.username,
          serviceAccount: false,
          organizationMembershipId: joined.id,
        }),
        expect.objectContaining({
          userId: pending.userId,
          serviceAccount: false,
          organizationMembershipId: pending.id,
        }),
        expect.objectContaining({ serviceAccount: true }),
      ]),
    );
    expect(members).toHaveLength(3);

    await t.client.teamMembers.removeUsers(team.id, [person.username]);
    await t.client.teamMembers.removeOrganizationMemberships(team.id, [pending.id]);
    const left = await t.client.teamMembers.list(team.id);
    expect(left.map((m) => m.serviceAccount)).toEqual([true]);
    // An empty list sends nothing.
    const before = t.client.stats.requests;
    await t.client.teamMembers.addUsers(team.id, []);
    expect(t.client.stats.requests).toBe(before);
  });
});

describe("a server without organization memberships (as OTF answers)", () => {
  let fake: FakeService;
  let client: WorkspacesClient;
  beforeAll(async () => {
    fake = await startFakeService(
      otfPeople((req, res, path) => {
        if (path === "/teams/team-2") {
          // A server that knows the users include alone: the pair and memberships are refused.
          const include = new URL(req.url ?? "/", "http://x").searchParams.get("include");
          if (include !== "users") reply(res, 400, { errors: [{ status: "400", title: "invalid include parameter" }] });
          else
            reply(res, 200, {
              data: {
                id: "team-2",
                type: "teams",
                attributes: { name: "ops" },
                relationships: { users: { data: [{ id: "user-1", type: "users" }] } },
              },
              included: [{ id: "user-1", type: "users", attributes: { username: "ada" } }],
            });
          return true;
        }
        // OTF's stand-in for an invitation: an id and a user, no email, nothing kept.
        if (path !== "/organizations/acme/organization-memberships" || req.method !== "POST") return false;
        reply(res, 201, {
          data: {
            id: "ou-fake",
            type: "organization-memberships",
            relationships: { user: { data: { id: "user-x", type: "users" } } },
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

  it("raises FeatureUnavailableError for the list, an invitation answered without its email, and members by membership", async () => {
    const listed = await failure(client.organizationMemberships.list("acme").all());
    expect(listed).toBeInstanceOf(FeatureUnavailableError);
    expect((listed as FeatureUnavailableError).feature).toBe("organization memberships");
    const created = await failure(client.organizationMemberships.create("acme", { email: "ada@example.com" }));
    expect(created).toBeInstanceOf(FeatureUnavailableError);
    expect(created.message).toMatch(/does not offer organization memberships .*without the email/);
    const byMembership = await failure(client.teamMembers.addOrganizationMemberships("team-1", ["ou-1"]));
    expect((byMembership as FeatureUnavailableError).feature).toBe("team members by organization membership");
    // A missing organization stays a 404.
    expect(await failure(client.organizationMemberships.list("nope").all())).toBeInstanceOf(NotFoundError);
  });

  it("lists a team's members from a server that refuses the memberships include: by username, without memberships", async () => {
    expect(await client.teamMembers.list("team-2")).toEqual([
      { userId: "user-1", username: "ada", serviceAccount: false },
    ]);
  });
});
