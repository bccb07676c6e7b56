/**
 * `getOrganizationMembers` and `getTeamMembers` against the real local server: members with
 * their status and filters, a team's people by username and by membership (an invited
 * person too) beside its token's service user, and bad arguments and unknown teams, each
 * one message naming the lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getOrganizationMembers,
  getOrganizationMembersOutput,
  getTeamMembers,
  getTeamMembersOutput,
  lookupSettingsFrom,
} from "../../src/resources/lookups";
import { api, startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  lookupSettingsFrom(() => ({ address: h.server.url, token: h.server.token, organization: h.org }));
});
afterAll(async () => {
  await h?.close();
});

const email = () => `${uniqueName("person")}@example.com`;

/** An active member: a user of the local server with this email, invited, who accepted. */
async function activeMember(address: string): Promise<{ id: string; userId: string; username: string }> {
  const username = uniqueName("user");
  const user = await api(h, "POST", "/admin/users", {
    data: { type: "users", attributes: { username, email: address } },
  });
  const token = await api(h, "POST", `/users/${user.json.data.id}/authentication-tokens`, {
    data: { type: "authentication-tokens", attributes: { description: "own" } },
  });
  const m = await h.client.organizationMemberships.create(h.org, { email: address });
  const res = await fetch(`${h.server.url}/organization-memberships/${m.id}/actions/accept`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token.json.data.attributes.token}` },
  });
  expect(res.status).toBeLessThan(300);
  return { id: m.id, userId: user.json.data.id, username };
}

describe("getOrganizationMembers", () => {
  it("every membership with its status, user and teams; filtered by email and by status", async () => {
    const team = await h.client.teams.create(h.org, { name: uniqueName("team") });
    const activeEmail = email();
    const active = await activeMember(activeEmail);
    const pendingEmail = email();
    const pending = await h.client.organizationMemberships.create(h.org, { email: pendingEmail, teamIds: [team.id] });

    const all = await getOrganizationMembers();
    expect(all.organization).toBe(h.org);
    expect(all.members).toEqual(
      expect.arrayContaining([
        {
          id: active.id,
          email: activeEmail,
          status: "active",
          userId: active.userId,
          username: active.username,
          teamIds: [],
        },
        expect.objectContaining({ id: pending.id, email: pendingEmail, status: "invited", teamIds: [team.id] }),
      ]),
    );
    const byEmail = await getOrganizationMembers({ emails: [pendingEmail.toUpperCase()] });
    expect(byEmail.members.map((m) => m.id)).toEqual([pending.id]);
    const invited = getOrganizationMembersOutput({ status: "invited", organization: h.org });
    const ids = await new Promise<string[]>((resolve) => invited.apply((r) => resolve(r.members.map((m) => m.id))));
    expect(ids).toContain(pending.id);
    expect(ids).not.toContain(active.id);
  });

  it("refuses bad arguments and an organization the token cannot read, in one message each", async () => {
    await expect(getOrganizationMembers({ emails: ["not-an-email"] })).rejects.toThrow(/^getOrganizationMembers: /);
    await expect(getOrganizationMembers({ status: "pending" as never })).rejects.toThrow(
      /getOrganizationMembers: .*status/,
    );
    await expect(getOrganizationMembers({ organization: "nowhere" })).rejects.toThrow(
      /getOrganizationMembers: cannot read the memberships of organization "nowhere": the service answered 404/,
    );
  });
});

describe("getTeamMembers", () => {
  it("the team's people by username and by membership, an invited person too, and its token's service user", async () => {
    const team = await h.client.teams.create(h.org, { name: uniqueName("team") });
    const active = await activeMember(email());
    const pending = await h.client.organizationMemberships.create(h.org, { email: email() });
    await h.client.teamMembers.addUsers(team.id, [active.username]);
    await h.client.teamMembers.addOrganizationMemberships(team.id, [pending.id]);
    await h.client.teamTokens.create(team.id);

    const read = await getTeamMembers({ teamId: team.id });
    expect(read).toMatchObject({ teamId: team.id, teamName: team.name });
    expect(read.usernames).toContain(active.username);
    expect([...read.organizationMembershipIds].sort()).toEqual([active.id, pending.id].sort());
    expect(read.members).toHaveLength(3);
    expect(read.members).toEqual(
      expect.arrayContaining([
        {
          userId: active.userId,
          username: active.username,
          serviceAccount: false,
          organizationMembershipId: active.id,
        },
        expect.objectContaining({
          userId: pending.userId,
          serviceAccount: false,
          organizationMembershipId: pending.id,
        }),
      ]),
    );
    const service = read.members.filter((m) => m.serviceAccount);
    expect(service).toHaveLength(1);
    // A service user is no person: neither among the usernames nor the memberships.
    expect(read.usernames).not.toContain(service[0].username);
    expect(service[0]).not.toHaveProperty("organizationMembershipId");

    const viaOutput = await new Promise((resolve) => getTeamMembersOutput({ teamId: team.id }).apply(resolve));
    expect(viaOutput).toEqual(read);
  });

  it("refuses an id that is not a team's, and answers a team that is not there in one message", async () => {
    await expect(getTeamMembers({ teamId: "ws-1" })).rejects.toThrow(/^getTeamMembers: .*must be a team id/);
    await expect(getTeamMembers({ teamId: "team-doesnotexist1" })).rejects.toThrow(
      /^getTeamMembers: cannot read team team-doesnotexist1: the service answered 404: there is no such team/,
    );
  });
});
