/**
 * Organization memberships and team members over real HTTP: an invitation by email is
 * `invited` until the person accepts (with their own token), gives no rights until then,
 * and can be deleted in either state; filters, search and pages; team members by
 * username (people who joined) and by membership (invited ones too); the owners team
 * keeps its last person; and who may do it: anybody else gets what an unknown id gets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationMembershipDocumentSchema, organizationMembershipListDocumentSchema } from "../../src/api";
import { startServer } from "../../src/server";
import { Api, createWorkspace, expectStatus, grant, makeTeam, makeUser } from "./helpers";

let server: Awaited<ReturnType<typeof startServer>>;
let api: Api;
let org: string;
beforeAll(async () => {
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
  api = new Api(server.url, server.token);
  org = server.organization;
});
afterAll(() => server.close());

const invite = (email: string, teamIds: string[] = []) => ({
  data: {
    type: "organization-memberships",
    attributes: { email },
    ...(teamIds.length ? { relationships: { teams: { data: teamIds.map((id) => ({ type: "teams", id })) } } } : {}),
  },
});
const members = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

async function teamMembers(teamId: string) {
  const r = await expectStatus(api.get(`/teams/${teamId}?include=users,organization-memberships`), 200);
  return {
    users: (r.body.data.relationships.users.data as { id: string }[]).map((u) => u.id),
    memberships: (r.body.data.relationships["organization-memberships"].data as { id: string }[]).map((m) => m.id),
    included: r.body.included as { id: string; type: string; attributes: Record<string, unknown> }[],
  };
}

describe("organization memberships", () => {
  it("invite by email: invited, on its initial teams, with no rights until the person accepts", async () => {
    const team = await makeTeam(api, org, "invitees");
    const ws = await createWorkspace(api, org, "invitee-ws");
    await grant(api, team.id, ws.id, "read");
    const created = await expectStatus(
      api.post(`/organizations/${org}/organization-memberships`, invite("Ann@example.com", [team.id])),
      201,
    );
    const doc = organizationMembershipDocumentSchema.parse(created.body);
    expect(doc.data.id).toMatch(/^ou-/);
    expect(doc.data.attributes).toMatchObject({ status: "invited", email: "Ann@example.com" });
    expect(doc.data.relationships?.teams.data).toEqual([{ type: "teams", id: team.id }]);
    const userId = (doc.data.relationships?.user.data as { id: string }).id;
    // The create's answer includes the user, as the service's does.
    expect(created.body.included).toEqual([
      expect.objectContaining({
        id: userId,
        type: "users",
        attributes: expect.objectContaining({ email: "Ann@example.com", "is-service-account": false }),
      }),
    ]);
    // A second invitation of the same address (in any case) is refused.
    const again = await expectStatus(
      api.post(`/organizations/${org}/organization-memberships`, invite("ann@EXAMPLE.com")),
      422,
    );
    expect(again.body.errors[0].source.pointer).toBe("/data/attributes/email");
    await expectStatus(api.post(`/organizations/${org}/organization-memberships`, invite("not-an-email")), 422);

    // Invited: the team lists the membership, not the user, and the user's token reaches nothing.
    let seen = await teamMembers(team.id);
    expect(seen.memberships).toContain(doc.data.id);
    expect(seen.users).not.toContain(userId);
    const personal = await expectStatus(api.post(`/users/${userId}/authentication-tokens`), 201);
    const ann = api.as(personal.body.data.attributes.token);
    await expectStatus(ann.get(`/workspaces/${ws.id}`), 404);

    // Someone else cannot accept it for her; she can.
    const bob = await makeUser(api, "bob-not-ann");
    await expectStatus(api.as(bob.token).post(`/organization-memberships/${doc.data.id}/actions/accept`), 404);
    const accepted = await expectStatus(ann.post(`/organization-memberships/${doc.data.id}/actions/accept`), 200);
    expect(accepted.body.data.attributes.status).toBe("active");
    seen = await teamMembers(team.id);
    expect(seen.users).toContain(userId);
    await expectStatus(ann.get(`/workspaces/${ws.id}`), 200);
    // Read access, no more: a write is refused.
    const write = await ann.patch(`/workspaces/${ws.id}`, {
      data: { type: "workspaces", attributes: { description: "x" } },
    });
    expect([403, 404]).toContain(write.status);
  });

  it("lists with email and status filters, a search, the user included, and pages", async () => {
    const org2 = "people-org";
    const founder = await makeUser(api, "founder");
    const asFounder = api.as(founder.token);
    await expectStatus(
      asFounder.post("/organizations", {
        data: { type: "organizations", attributes: { name: org2, email: "f@example.com" } },
      }),
      201,
    );
    const emails = ["p1@example.com", "p2@example.com", "zed@other.net"];
    const ids: string[] = [];
    for (const e of emails)
      ids.push(
        (await expectStatus(asFounder.post(`/organizations/${org2}/organization-memberships`, invite(e)), 201)).body
          .data.id,
      );
    const list = async (query: string) =>
      organizationMembershipListDocumentSchema.parse(
        (await expectStatus(asFounder.get(`/organizations/${org2}/organization-memberships${query}`), 200)).body,
      );

    // The founder is an active member of the organization they founded.
    const all = await list("");
    expect(all.meta?.pagination?.["total-count"]).toBe(4);
    expect(all.data.filter((m) => m.attributes.status === "active")).toHaveLength(1);
    expect((await list("?filter[status]=invited")).data.map((m) => m.id)).toEqual(ids);
    // go-tfe repeats the parameter for a list of emails; a comma list works too.
    expect((await list("?filter[email]=p1@example.com&filter[email]=zed@other.net")).data.map((m) => m.id)).toEqual([
      ids[0],
      ids[2],
    ]);
    expect((await list("?filter[email]=p2@example.com,p1@example.com")).data.map((m) => m.id)).toEqual([
      ids[0],
      ids[1],
    ]);
    expect((await list("?q=OTHER.net")).data.map((m) => m.id)).toEqual([ids[2]]);
    const included = await list("?include=user&filter[status]=invited");
    expect(included.included?.map((u) => u.type)).toEqual(["users", "users", "users"]);
    // The founder is on the owners team: `include=teams` brings it.
    const withTeams = await list("?include=teams&filter[status]=active");
    expect(withTeams.included?.map((t) => [t.type, t.attributes?.name])).toEqual([["teams", "owners"]]);
    const page = await list("?page[number]=2&page[size]=3");
    expect(page.data).toHaveLength(1);
    expect(page.meta?.pagination).toMatchObject({ "current-page": 2, "total-count": 4, "total-pages": 2 });
    await expectStatus(asFounder.get(`/organizations/${org2}/organization-memberships?filter[status]=gone`), 400);
    await expectStatus(asFounder.get(`/organization-memberships/${ids[0]}?include=users`), 400);
  });

  it("deletes an invited membership (#761) and an active one, which leaves the organization's teams", async () => {
    const team = await makeTeam(api, org, "leavers");
    const invited = (
      await expectStatus(
        api.post(`/organizations/${org}/organization-memberships`, invite("gone@example.com", [team.id])),
        201,
      )
    ).body.data;
    await expectStatus(api.delete(`/organization-memberships/${invited.id}`), 204);
    await expectStatus(api.get(`/organization-memberships/${invited.id}`), 404);
    expect((await teamMembers(team.id)).memberships).not.toContain(invited.id);

    const person = await makeUser(api, "active-leaver");
    await expectStatus(api.post(`/teams/${team.id}/relationships/users`, members("users", ["active-leaver"])), 204);
    const found = await expectStatus(api.get(`/organizations/${org}/organization-memberships?q=active-leaver`), 200);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0].attributes.status).toBe("active");
    await expectStatus(api.delete(`/organization-memberships/${found.body.data[0].id}`), 204);
    expect((await teamMembers(team.id)).users).not.toContain(person.id);
  });
});

describe("team members", () => {
  it("by username for people who joined, by membership for invited ones too; removed either way", async () => {
    const team = await makeTeam(api, org, "crew");
    const m = (
      await expectStatus(api.post(`/organizations/${org}/organization-memberships`, invite("crew@example.com")), 201)
    ).body.data;
    const invitedUser = created(m);
    const username = (await expectStatus(api.get(`/users/${invitedUser}`), 200)).body.data.attributes.username;
    const refused = await expectStatus(
      api.post(`/teams/${team.id}/relationships/users`, members("users", [username])),
      422,
    );
    expect(refused.body.errors[0].detail).toContain("organization membership");
    await expectStatus(
      api.post(`/teams/${team.id}/relationships/organization-memberships`, members("organization-memberships", [m.id])),
      204,
    );
    expect((await teamMembers(team.id)).memberships).toContain(m.id);
    await expectStatus(
      api.delete(
        `/teams/${team.id}/relationships/organization-memberships`,
        members("organization-memberships", [m.id]),
      ),
      204,
    );
    expect((await teamMembers(team.id)).memberships).not.toContain(m.id);

    await makeUser(api, "joiner");
    await expectStatus(api.post(`/teams/${team.id}/relationships/users`, members("users", ["joiner"])), 204);
    let seen = await teamMembers(team.id);
    const joiner = seen.included.find((u) => u.attributes.username === "joiner");
    expect(joiner?.attributes["is-service-account"]).toBe(false);
    // The team has a token (makeTeam made one): its service user is listed, marked (#708).
    const service = seen.included.filter((u) => u.type === "users" && u.attributes["is-service-account"] === true);
    expect(service).toHaveLength(1);
    await expectStatus(api.delete(`/teams/${team.id}/relationships/users`, members("users", ["joiner"])), 204);
    seen = await teamMembers(team.id);
    expect(seen.included.some((u) => u.attributes.username === "joiner")).toBe(false);
    await expectStatus(api.post(`/teams/${team.id}/relationships/users`, members("users", ["nobody-at-all"])), 404);
  });

  it("the owners team keeps its last person", async () => {
    const owner = await makeUser(api, "sole-owner");
    const teams = await expectStatus(api.get(`/organizations/${org}/teams?filter[names]=owners`), 200);
    const owners = teams.body.data[0].id;
    await expectStatus(api.post(`/teams/${owners}/relationships/users`, members("users", ["sole-owner"])), 204);
    const refused = await expectStatus(
      api.delete(`/teams/${owners}/relationships/users`, members("users", ["sole-owner"])),
      422,
    );
    expect(refused.body.errors[0].detail).toMatch(/owners team must keep at least one member/);
    const mine = await expectStatus(api.get(`/organizations/${org}/organization-memberships?q=sole-owner`), 200);
    await expectStatus(api.delete(`/organization-memberships/${mine.body.data[0].id}`), 422);
    expect((await teamMembers(owners)).users).toContain(owner.id);
  });

  it("manage-membership invites and moves people; a team without it gets what an unknown id gets", async () => {
    const managers = await makeTeam(api, org, "people-managers", { flags: { "manage-membership": true } });
    const plain = await makeTeam(api, org, "plain-team");
    const target = await makeTeam(api, org, "target-team");
    const asManager = api.as(managers.token);
    const m = await expectStatus(
      asManager.post(`/organizations/${org}/organization-memberships`, invite("managed@example.com")),
      201,
    );
    await expectStatus(
      asManager.post(
        `/teams/${target.id}/relationships/organization-memberships`,
        members("organization-memberships", [m.body.data.id]),
      ),
      204,
    );
    const asPlain = api.as(plain.token);
    const unknownOrg = await asPlain.post(
      `/organizations/no-such-org/organization-memberships`,
      invite("x@example.com"),
    );
    const refused = await asPlain.post(`/organizations/${org}/organization-memberships`, invite("x@example.com"));
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0].detail).toBe(unknownOrg.body.errors[0].detail.replace("no-such-org", org));
    await expectStatus(asPlain.delete(`/organization-memberships/${m.body.data.id}`), 404);
  });
});

function created(m: { relationships: { user: { data: { id: string } } } }): string {
  return m.relationships.user.data.id;
}
