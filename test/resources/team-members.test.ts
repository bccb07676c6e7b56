/**
 * `TeamMembers` against the real local server, through the entry point as the engine calls
 * it: check failures with their property paths, one owner per team list refused at preview
 * naming both resources, additive mode that adds and removes only its own people, the
 * authoritative list that never removes a service user or an ignored username, people
 * compared as people whichever list names them, drift read back and restored, 0 writes when
 * the team already is as declared, import by the team's id, and a team deleted first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { CLAIMANT_KEY } from "../../src/resources/process/claims";
import { api, startHarness, uniqueName, type Harness } from "./helpers";
import { familyCalls } from "./entry-calls";

type Props = Record<string, any>;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const KIND = "TeamMembers";
const { call, check, create, diff, update } = familyCalls();

/** Writes the server has answered so far (POST, PATCH, DELETE). */
function writes(): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

async function newTeam(): Promise<string> {
  return (await h.client.teams.create(h.org, { name: uniqueName("team"), visibility: "organization" })).id;
}

interface Person {
  membershipId: string;
  userId: string;
  username: string;
}

/** A person invited into the organization; accepted (active, with a username) unless `invited`. */
async function person(invited = false): Promise<Person> {
  const m = await h.client.organizationMemberships.create(h.org, { email: `${uniqueName("p")}@example.test` });
  if (!invited) {
    const accepted = await api(h, "POST", `/organization-memberships/${m.id}/actions/accept`);
    expect(accepted.status).toBe(200);
  }
  const read = await h.client.organizationMemberships.read(m.id);
  return { membershipId: m.id, userId: String(read.userId), username: read.username ?? "" };
}

/** The team's members as the service shows them: people by user id, and whether any service user is there. */
async function membersOf(teamId: string) {
  const all = await h.client.teamMembers.list(teamId);
  return {
    people: all
      .filter((m) => !m.serviceAccount)
      .map((m) => m.userId)
      .sort(),
    serviceUsers: all.filter((m) => m.serviceAccount).length,
  };
}

const ids = (...people: Person[]) => people.map((p) => p.userId).sort();

/** A refresh as the engine makes it, then the diff against the program's inputs. */
async function refreshAndDiff(id: string, outs: Props, news: Props) {
  const read = await call(KIND, "read", id, outs);
  return { read, diffed: await diff(KIND, id, read.props, news) };
}

describe("check", () => {
  it("refuses a bad team, mode, username or membership id, and ignoreUsernames in additive mode, with paths", async () => {
    const f = async (news: Props) => (await check(KIND, news)).failures;
    expect(await f({ teamId: "ws-1", mode: "owner" })).toEqual([
      { property: "teamId", reason: "must be a team id (team-...)" },
      { property: "mode", reason: 'must be "additive" or "authoritative", not "owner"' },
    ]);
    expect(
      await f({
        teamId: "team-1",
        usernames: ["alice", "bob@example.test", "alice"],
        organizationMembershipIds: ["user-1"],
      }),
    ).toEqual([
      {
        property: "usernames[1]",
        reason:
          'must be a username, not an email (invite a person by email with OrganizationMembership and list its id in organizationMembershipIds), not "bob@example.test"',
      },
      { property: "usernames[2]", reason: "alice is listed twice" },
      {
        property: "organizationMembershipIds[0]",
        reason: 'must be an organization membership id (ou-...), not "user-1"',
      },
    ]);
    const additiveIgnores = await f({ teamId: "team-1", ignoreUsernames: ["carol"] });
    expect(additiveIgnores.map((x) => x.property)).toEqual(["ignoreUsernames"]);
    expect(additiveIgnores[0].reason).toContain('applies to mode "authoritative" only');
    expect(
      await f({ teamId: "team-1", mode: "authoritative", usernames: ["carol"], ignoreUsernames: ["carol"] }),
    ).toEqual([
      {
        property: "ignoreUsernames[0]",
        reason: "carol is in usernames too: a member is either declared or ignored",
      },
    ]);
    expect(await f({})).toEqual([{ property: "teamId", reason: "is required" }]);
    // Unknown until apply: judged by the check that runs when they are known.
    expect(await f({ teamId: UNKNOWN, usernames: [UNKNOWN] })).toEqual([]);
  });

  it("defaults to additive, records no claimant, and returns the team's name when the team exists", async () => {
    const teamId = await newTeam();
    const team = await h.client.teams.read(teamId);
    const { inputs } = await check(KIND, { teamId, usernames: [], [CLAIMANT_KEY]: uniqueName("rec") });
    expect(inputs).toEqual({ teamId, usernames: [], mode: "additive", teamName: team.name });
    // A team that cannot be read gives no name, and no failure: the write reports it.
    const unread = await check(KIND, { teamId: "team-nope" });
    expect(unread.failures).toEqual([]);
    expect(unread.inputs.teamName).toBeUndefined();
  });

  it("one owner per team list: refused at preview naming both resources", async () => {
    const f = async (claimant: string, news: Props) =>
      (await check(KIND, { ...news, [CLAIMANT_KEY]: claimant })).failures;
    const teamId = "team-claimed";
    const [a, b, c, d] = ["a", "b", "c", "d"].map((n) => uniqueName(n));
    expect(await f(a, { teamId, mode: "authoritative" })).toEqual([]);
    const second = await f(b, { teamId, mode: "authoritative" });
    expect(second).toHaveLength(1);
    expect(second[0].property).toBe("teamId");
    expect(second[0].reason).toContain(`this one and "${a}"`);
    expect(second[0].reason).toContain("A list has one owner");
    const additive = await f(c, { teamId, usernames: ["alice"] });
    expect(additive[0].reason).toContain(`"${a}" is authoritative and this one is additive`);

    const other = "team-claimed-2";
    expect(await f(c, { teamId: other, usernames: ["alice"] })).toEqual([]);
    const same = await f(d, { teamId: other, usernames: ["bob", "alice"] });
    expect(same).toEqual([
      {
        property: "usernames",
        reason: expect.stringContaining(`this one and "${c}": both add alice to it`),
      },
    ]);
    expect(await f(d, { teamId: other, usernames: ["bob"], organizationMembershipIds: ["ou-x"] })).toEqual([]);
  });

  it("one person named two ways by two additive resources is one person: refused", async () => {
    const f = async (claimant: string, news: Props) =>
      (await check(KIND, { ...news, [CLAIMANT_KEY]: claimant })).failures;
    const teamId = await newTeam();
    const alice = await person();
    await h.client.teamMembers.addUsers(teamId, [alice.username]);
    const [a, b] = [uniqueName("a"), uniqueName("b")];
    expect(await f(a, { teamId, usernames: [alice.username] })).toEqual([]);
    expect(await f(b, { teamId, organizationMembershipIds: [alice.membershipId] })).toEqual([
      {
        property: "organizationMembershipIds",
        reason: expect.stringContaining(`this one and "${a}": both add ${alice.membershipId} to it`),
      },
    ]);
  });
});

describe("additive (the default)", () => {
  it("adds its people, removes only those it added, and re-adds one removed out of band", async () => {
    const teamId = await newTeam();
    const [alice, bob, carol, dave] = [await person(), await person(), await person(true), await person()];
    // Dave is in the team before the resource: someone else's.
    await h.client.teamMembers.addUsers(teamId, [dave.username]);

    const news = {
      teamId,
      usernames: [alice.username, dave.username],
      organizationMembershipIds: [carol.membershipId],
    };
    const { id, outs } = await create(KIND, news);
    expect(id).toBe(teamId);
    expect((await membersOf(teamId)).people).toEqual(ids(alice, carol, dave));
    expect(outs).toMatchObject({
      mode: "additive",
      usernames: [alice.username, dave.username].sort(),
      organizationMembershipIds: [carol.membershipId],
      // Dave was there already: not this resource's to remove.
      addedUserIds: ids(alice, carol),
    });

    // Someone adds Bob out of band: additive mode leaves him, and shows no change.
    await h.client.teamMembers.addUsers(teamId, [bob.username]);
    const quiet = await refreshAndDiff(id, outs, news);
    expect(quiet.diffed.changes).toBe(false);

    // Alice removed out of band: the refresh shows it, the update adds her again.
    await h.client.teamMembers.removeUsers(teamId, [alice.username]);
    const drifted = await refreshAndDiff(id, outs, news);
    expect(drifted.read.props.usernames).toEqual([dave.username]);
    expect(drifted.diffed.changes).toBe(true);
    const restored = await update(KIND, id, drifted.read.props, news);
    expect((await membersOf(teamId)).people).toEqual(ids(alice, bob, carol, dave));
    expect(restored.addedUserIds).toEqual(ids(alice, carol));

    // Alice and Dave dropped: Alice goes (this resource added her), Dave stays (it did not).
    const fewer = { teamId, organizationMembershipIds: [carol.membershipId] };
    const after = await update(KIND, id, restored, fewer);
    expect((await membersOf(teamId)).people).toEqual(ids(bob, carol, dave));
    expect(after.addedUserIds).toEqual(ids(carol));

    // Delete removes only its own: Carol, still invited, by her membership (#761's kind of person).
    await call(KIND, "delete", id, after);
    expect((await membersOf(teamId)).people).toEqual(ids(bob, dave));
  });

  it("compares people, not names: one person by username and by membership is one member", async () => {
    const teamId = await newTeam();
    const alice = await person();
    const news = { teamId, usernames: [alice.username], organizationMembershipIds: [alice.membershipId] };
    const { id, outs } = await create(KIND, news);
    expect((await membersOf(teamId)).people).toEqual(ids(alice));
    expect(outs.addedUserIds).toEqual(ids(alice));
    // Named by membership only now: still declared, so not removed, and no write.
    const before = writes();
    const byMembership = await update(KIND, id, outs, { teamId, organizationMembershipIds: [alice.membershipId] });
    expect(writes() - before).toBe(0);
    expect((await membersOf(teamId)).people).toEqual(ids(alice));
    expect(byMembership.addedUserIds).toEqual(ids(alice));
  });

  it("refuses a username that is no active member, naming it and the way out", async () => {
    const teamId = await newTeam();
    const invited = await person(true);
    const checked = await check(KIND, { teamId, usernames: ["nobody-here"] });
    await expect(call(KIND, "create", checked.inputs)).rejects.toThrow(
      /cannot add \["nobody-here"\] to the members of team ".*" \(team-.*\): .*Check usernames: each must be the username of an active member/,
    );
    expect((await membersOf(teamId)).people).toEqual([]);
    // An invited person is reached by membership.
    await create(KIND, { teamId, organizationMembershipIds: [invited.membershipId] });
    expect((await membersOf(teamId)).people).toEqual(ids(invited));
  });
});

describe("authoritative", () => {
  it("never removes a service user or an ignored username, even when it declares no one", async () => {
    const teamId = await newTeam();
    const [kept, stranger, invited] = [await person(), await person(), await person(true)];
    // The team's token puts its service user among the team's users (#708).
    await h.client.teamTokens.create(teamId);
    await h.client.teamMembers.addUsers(teamId, [kept.username, stranger.username]);
    await h.client.teamMembers.addOrganizationMemberships(teamId, [invited.membershipId]);
    expect((await membersOf(teamId)).serviceUsers).toBe(1);

    // No list at all: absent declares no one, as [] does.
    const news = { teamId, mode: "authoritative", ignoreUsernames: [kept.username] };
    const { id, outs } = await create(KIND, news);
    const after = await membersOf(teamId);
    expect(after.people).toEqual(ids(kept));
    expect(after.serviceUsers).toBe(1);
    expect(outs).toMatchObject({ usernames: [], organizationMembershipIds: [], ignoreUsernames: [kept.username] });

    // A member added out of band shows in the next diff; the update removes them, and only them.
    await h.client.teamMembers.addUsers(teamId, [stranger.username]);
    const drifted = await refreshAndDiff(id, outs, news);
    expect(drifted.read.props.usernames).toEqual([stranger.username]);
    expect(drifted.diffed.changes).toBe(true);
    await update(KIND, id, drifted.read.props, news);
    expect(await membersOf(teamId)).toEqual({ people: ids(kept), serviceUsers: 1 });

    // Delete removes the people it declares: none here; the ignored one and the service user stay.
    await call(KIND, "delete", id, outs);
    expect(await membersOf(teamId)).toEqual({ people: ids(kept), serviceUsers: 1 });
  });

  it("a create that finds the team as declared writes nothing; one that differs writes the difference", async () => {
    const teamId = await newTeam();
    const [alice, bob] = [await person(), await person(true)];
    await h.client.teamMembers.addUsers(teamId, [alice.username]);
    await h.client.teamMembers.addOrganizationMemberships(teamId, [bob.membershipId]);
    const news = {
      teamId,
      mode: "authoritative",
      usernames: [alice.username],
      organizationMembershipIds: [bob.membershipId],
    };
    const before = writes();
    const { id, outs } = await create(KIND, news);
    expect(writes() - before).toBe(0);
    expect(outs).toMatchObject({ usernames: [alice.username], organizationMembershipIds: [bob.membershipId] });
    expect((await refreshAndDiff(id, outs, news)).diffed.changes).toBe(false);

    // Bob dropped from the declaration: removed; delete then removes Alice, whom it declares.
    const onlyAlice = await update(KIND, id, outs, { ...news, organizationMembershipIds: [] });
    expect((await membersOf(teamId)).people).toEqual(ids(alice));
    await call(KIND, "delete", id, onlyAlice);
    expect((await membersOf(teamId)).people).toEqual([]);
  });
});

describe("import, and a team gone", () => {
  it("an import declares every person, additive, by membership, never the service user", async () => {
    const teamId = await newTeam();
    const [alice, bob] = [await person(), await person(true)];
    await h.client.teamTokens.create(teamId);
    await h.client.teamMembers.addUsers(teamId, [alice.username]);
    await h.client.teamMembers.addOrganizationMemberships(teamId, [bob.membershipId]);
    const team = await h.client.teams.read(teamId);
    const imported = await call(KIND, "read", teamId, {});
    expect(imported.id).toBe(teamId);
    expect(imported.props).toEqual({
      teamId,
      teamName: team.name,
      mode: "additive",
      usernames: [],
      organizationMembershipIds: [alice.membershipId, bob.membershipId].sort(),
      ignoreUsernames: [],
      addedUserIds: [],
      organization: h.org,
    });
    // Deleting the imported resource removes no one: it added no one.
    await call(KIND, "delete", teamId, imported.props);
    expect((await membersOf(teamId)).people).toEqual(ids(alice, bob));
  });

  it("a person whose membership is deleted out of band is no longer in the team: refresh shows it, delete passes", async () => {
    const teamId = await newTeam();
    const [alice, bob] = [await person(), await person(true)];
    const news = { teamId, usernames: [alice.username], organizationMembershipIds: [bob.membershipId] };
    const { id, outs } = await create(KIND, news);
    await h.client.organizationMemberships.delete(bob.membershipId);
    const { read, diffed } = await refreshAndDiff(id, outs, news);
    expect(read.props.organizationMembershipIds).toEqual([]);
    expect(read.props.addedUserIds).toEqual(ids(alice));
    expect(diffed.changes).toBe(true);
    // Adding Bob again is refused with the reason and the way out; removing what is left works.
    await expect(update(KIND, id, read.props, news)).rejects.toThrow(
      new RegExp(`knows no membership ${bob.membershipId} .*Check organizationMembershipIds`),
    );
    await call(KIND, "delete", id, read.props);
    expect((await membersOf(teamId)).people).toEqual([]);
  });

  it("a team deleted first leaves nothing to do; a create on a team that does not exist says so", async () => {
    const teamId = await newTeam();
    const alice = await person();
    const { id, outs } = await create(KIND, { teamId, usernames: [alice.username] });
    await h.client.teams.delete(teamId);
    expect(await call(KIND, "read", id, outs)).toEqual({});
    await call(KIND, "delete", id, outs);
    const checked = await check(KIND, { teamId: "team-doesnotexist", usernames: [] });
    await expect(call(KIND, "create", checked.inputs)).rejects.toThrow(
      /cannot set the members of team team-doesnotexist: the service answered 404 .* Check teamId/,
    );
  });
});
