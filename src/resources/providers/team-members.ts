/**
 * Provider of `TeamMembers`: who is in a team, by username (active members of the
 * organization) or by organization membership (invited people too), additive by default.
 * Id: the team's id (`team-...`).
 *
 * People are compared as people (their user id), whichever of the two lists names them.
 * No mode ever removes a service user (the users behind team and organization tokens, the
 * service's own hidden users) or, in authoritative mode, an ignored username. Each write
 * is a read-modify-write of the team taken in turn per team in this process
 * (../process/in-turn.ts), so two resources adding to one team in one `up` never lose each
 * other's people.
 */
import type { Team, WorkspacesClient } from "../../client";
import type { TeamMember } from "../../client/team-members";
import { FeatureUnavailableError, ValidationError } from "../../client/typed-errors";
import { CLAIMANT_KEY, claimedItems, heldByOthers } from "../process/claims";
import { inTurn } from "../process/in-turn";
import { getClient, isNotFound } from "./client";
import { diffFields, sameStringSet, type FieldRule } from "./compare";
import { childRecord, unlessGone, updatedUnlessGone } from "./gone";
import { ProviderError } from "./user-errors";
import { ownerIdOf } from "./record-lists";
import { idsOf } from "./record-list-rules";
import { isUnknown } from "./unknowns";
import type { ProviderImpl, Props } from "./types";
import {
  TEAM_MEMBERS_CLAIMS,
  aliasesOf,
  checkMembers,
  complete,
  keptBy,
  memberClaimFailures,
  memberModeOf,
  membersLabel,
} from "./team-member-rules";

/** The people the inputs name: by username and by organization membership. */
interface Declared {
  usernames: string[];
  membershipIds: string[];
}

function declaredOf(p: Props): Declared {
  return { usernames: idsOf(p.usernames), membershipIds: idsOf(p.organizationMembershipIds) };
}

const withUsername = (members: TeamMember[], name: string) => members.find((m) => m.username === name && name !== "");
const withMembership = (members: TeamMember[], id: string) => members.find((m) => m.organizationMembershipId === id);

/** The members the declaration names, whichever list names them. */
function declaredMembers(members: TeamMember[], d: Declared): TeamMember[] {
  return members.filter(
    (m) =>
      (m.username !== "" && d.usernames.includes(m.username)) ||
      (m.organizationMembershipId !== undefined && d.membershipIds.includes(m.organizationMembershipId)),
  );
}

/** Whether a mode may ever remove `m`: never a service user, never an ignored username. */
function removable(m: TeamMember, ignored: readonly string[]): boolean {
  return !m.serviceAccount && !(m.username !== "" && ignored.includes(m.username));
}

/** The declaration of a team's whole list as it is, in additive mode: people by membership where the service shows one. */
function everyone(members: TeamMember[]): Props {
  const people = members.filter((m) => !m.serviceAccount);
  return {
    mode: "additive",
    organizationMembershipIds: people.flatMap((m) => m.organizationMembershipId ?? []),
    usernames: people
      .filter((m) => m.organizationMembershipId === undefined && m.username !== "")
      .map((m) => m.username),
  };
}

function missing(client: WorkspacesClient, teamId: string, props: Props) {
  return childRecord(client, { label: membersLabel(teamId, props.teamName), kind: "team" }, props, [
    { kind: "team", id: teamId },
  ]);
}

/**
 * The outputs as the service shows the team. Additive: the declared people who are in it.
 * Authoritative: every member a write could remove, each under the list that declares them,
 * an undeclared one by username, or by membership while invited (so that the next diff
 * shows them).
 */
function outputsOf(team: Team, inputs: Props, members: TeamMember[], added: string[]): Props {
  const mode = memberModeOf(inputs);
  const d = declaredOf(inputs);
  const ignored = idsOf(inputs.ignoreUsernames);
  const lists = { usernames: new Set<string>(), organizationMembershipIds: new Set<string>() };
  const shown = mode === "authoritative" ? members.filter((m) => removable(m, ignored)) : declaredMembers(members, d);
  for (const m of shown) {
    const byName = m.username !== "" && d.usernames.includes(m.username);
    const byMembership =
      m.organizationMembershipId !== undefined && d.membershipIds.includes(m.organizationMembershipId);
    if (byName) lists.usernames.add(m.username);
    if (byMembership) lists.organizationMembershipIds.add(m.organizationMembershipId as string);
    if (byName || byMembership) continue;
    if (m.username !== "") lists.usernames.add(m.username);
    else if (m.organizationMembershipId !== undefined) lists.organizationMembershipIds.add(m.organizationMembershipId);
  }
  const present = new Set(members.map((m) => m.userId));
  return {
    teamId: team.id,
    teamName: team.name,
    mode,
    usernames: [...lists.usernames].sort(),
    organizationMembershipIds: [...lists.organizationMembershipIds].sort(),
    ignoreUsernames: ignored,
    addedUserIds: mode === "additive" ? added.filter((u) => present.has(u)).sort() : [],
    organization: team.organization ?? null,
  };
}

/** The error of a create whose team the service answered 404 for. */
function noTeam(teamId: string): ProviderError {
  return new ProviderError(
    `cannot set ${membersLabel(teamId)}: the service answered 404 for team ${teamId}, so it does not exist or the token in use may not see it. ` +
      `Check teamId, or use a token that may manage the organization's membership (an owners token, or a team with manage-membership).`,
  );
}

/** Why the service refused an add, when it says the people are wrong (a 422, or a 404 of a team that reads). */
function refusalOf(err: unknown): string | undefined {
  if (err instanceof ValidationError)
    return `the service refused them (${err.problems.map((p) => p.detail).join("; ")})`;
  if (isNotFound(err))
    return "the service answered 404, so one of them is not a member of the organization, or the token may read the team but not manage its members";
  return undefined;
}

/**
 * The memberships of `ids` that do not exist: a server answers 404 for a membership it does
 * not know, which reads to the client like a server without the route.
 */
async function unknownMemberships(client: WorkspacesClient, ids: string[]): Promise<string | undefined> {
  const gone = [];
  for (const id of ids) if (await client.organizationMemberships.read(id).then(() => false, isNotFound)) gone.push(id);
  return gone.length > 0 ? `the service knows no membership ${gone.join(", ")} (deleted, or never made)` : undefined;
}

/** Adds people by one of the two lists; a refusal names them, the reason and the way out. */
async function addBy(
  label: string,
  team: Team,
  arg: "usernames" | "organizationMembershipIds",
  names: string[],
  add: () => Promise<void>,
): Promise<void> {
  if (names.length === 0) return;
  try {
    await add();
  } catch (err) {
    const why =
      refusalOf(err) ??
      (arg === "organizationMembershipIds" && err instanceof FeatureUnavailableError
        ? await unknownMemberships(getClient(), names)
        : undefined);
    if (why === undefined) throw err;
    const org = team.organization ? ` of organization "${team.organization}"` : "";
    const each =
      arg === "usernames"
        ? `the username of an active member${org} (an invited person has none yet: list their membership's id in organizationMembershipIds)`
        : `the id of a membership${org} (OrganizationMembership's id)`;
    throw new ProviderError(
      `cannot add ${JSON.stringify(names)} to ${label}: ${why}. Check ${arg}: each must be ${each}; ` +
        `the token must be an owners token or a team's with manage-membership.`,
    );
  }
}

/** Removes members: by their membership when the service shows it (invited people too), else by username. */
async function removeMembers(client: WorkspacesClient, teamId: string, gone: TeamMember[]): Promise<void> {
  const byMembership = gone.flatMap((m) => (m.organizationMembershipId ? [m.organizationMembershipId] : []));
  const byName = gone.filter((m) => !m.organizationMembershipId && m.username !== "").map((m) => m.username);
  await client.teamMembers.removeOrganizationMemberships(teamId, byMembership);
  await client.teamMembers.removeUsers(teamId, byName);
}

/**
 * Brings the team to the declaration, in the team's turn: authoritative, every member it
 * may remove and does not declare goes; additive, the people it added earlier and no longer
 * declares go (unless another resource of the stack declares them in this update). Declared
 * people not in the team are added. Writes nothing when the team already is as it should be.
 */
function apply(teamId: string, inputs: Props, previouslyAdded: string[]): Promise<Props> {
  return inTurn(teamId, async () => {
    const client = getClient();
    // A 404 here is the team's (create and update each say what it means).
    const team = await client.teams.read(teamId);
    const label = membersLabel(teamId, team.name);
    let members = await client.teamMembers.list(teamId);
    const d = declaredOf(inputs);
    const addNames = d.usernames.filter((n) => !withUsername(members, n));
    const addIds = d.membershipIds.filter((id) => !withMembership(members, id));
    const people = new Set(declaredMembers(members, d).map((m) => m.userId));
    const kept = claimedItems(TEAM_MEMBERS_CLAIMS, teamId);
    const ignored = idsOf(inputs.ignoreUsernames);
    const drop = members.filter((m) =>
      memberModeOf(inputs) === "authoritative"
        ? removable(m, ignored) && !people.has(m.userId)
        : previouslyAdded.includes(m.userId) && !people.has(m.userId) && !keptBy(kept, m),
    );
    await addBy(label, team, "usernames", addNames, () => client.teamMembers.addUsers(teamId, addNames));
    await addBy(label, team, "organizationMembershipIds", addIds, () =>
      client.teamMembers.addOrganizationMemberships(teamId, addIds),
    );
    await removeMembers(client, teamId, drop);
    if (addNames.length + addIds.length + drop.length > 0) members = await client.teamMembers.list(teamId);
    const joined = declaredMembers(members, { usernames: addNames, membershipIds: addIds }).map((m) => m.userId);
    const still = new Set(declaredMembers(members, d).map((m) => m.userId));
    const added = [...new Set([...previouslyAdded.filter((u) => still.has(u)), ...joined])];
    return outputsOf(team, inputs, members, added);
  });
}

const FIELDS: FieldRule[] = [
  { name: "teamId", replaces: true },
  { name: "mode", same: (a, b) => memberModeOf({ mode: a }) === memberModeOf({ mode: b }) },
  // Absent declares no one by that list, as `[]` does: an authoritative list shows a member added out of band.
  { name: "usernames", same: (a, b) => sameStringSet(a, b), absentIsValue: true },
  { name: "organizationMembershipIds", same: (a, b) => sameStringSet(a, b), absentIsValue: true },
  { name: "ignoreUsernames", same: (a, b) => sameStringSet(a, b), absentIsValue: true },
];

/** The team's name, for the inputs `check` returns (the pack tells the owners team by it); the recorded one when the team cannot be read. */
async function teamNameOf(teamId: string, olds: Props): Promise<string | undefined> {
  const recorded = olds.teamId === teamId && typeof olds.teamName === "string" ? olds.teamName : undefined;
  return getClient()
    .teams.read(teamId)
    .then(
      (t) => t.name,
      () => recorded,
    );
}

export const teamMembersProvider: ProviderImpl = {
  async check(olds, news) {
    const { [CLAIMANT_KEY]: claimant, teamName: _given, ...inputs } = news;
    if (inputs.mode === undefined) inputs.mode = "additive";
    const failures = checkMembers(inputs);
    const known = failures.length === 0 && !isUnknown(inputs.teamId);
    if (known) {
      const name = await teamNameOf(String(inputs.teamId), olds);
      if (name !== undefined) inputs.teamName = name;
    }
    if (known && typeof claimant === "string" && complete(inputs)) {
      // Another resource of the stack adds to this team: the members say who is one person.
      const teamId = String(inputs.teamId);
      const shared = memberModeOf(inputs) === "additive" && heldByOthers(TEAM_MEMBERS_CLAIMS, teamId, claimant);
      const members = shared
        ? await getClient()
            .teamMembers.list(teamId)
            .catch(() => [])
        : [];
      failures.push(...memberClaimFailures(inputs, claimant, aliasesOf(members)));
    }
    return { inputs, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const teamId = String(inputs.teamId);
    const outs = await apply(teamId, inputs, []).catch((err: unknown) => {
      throw isNotFound(err) ? noTeam(teamId) : err;
    });
    return { id: teamId, outs };
  },

  async read(id, props) {
    const teamId = ownerIdOf(id);
    const client = getClient();
    return unlessGone(
      client,
      () => missing(client, teamId, props),
      "refresh",
      async () => {
        const team = await client.teams.read(teamId);
        const members = await client.teamMembers.list(teamId);
        // Imported or read with `get`: every member, additive, by membership where the
        // service shows one (what the generator writes), so the import adds and removes no one.
        const inputs = props.mode === undefined ? everyone(members) : props;
        const outs = outputsOf(team, inputs, members, idsOf(props.addedUserIds));
        return { id: teamId, props: outs };
      },
      () => ({}),
    );
  },

  async update(id, olds, news) {
    const teamId = ownerIdOf(id);
    const client = getClient();
    const record = await missing(client, teamId, olds);
    const previouslyAdded = memberModeOf(olds) === "additive" ? idsOf(olds.addedUserIds) : [];
    return { outs: await updatedUnlessGone(client, record, () => apply(teamId, news, previouslyAdded)) };
  },

  async delete(id, props) {
    const teamId = ownerIdOf(id);
    const client = getClient();
    await unlessGone(
      client,
      () => missing(client, teamId, props),
      "delete",
      () =>
        inTurn(teamId, async () => {
          // Whom another resource of this stack declares in this update (this one renamed,
          // or the people handed to another) stays.
          const kept = claimedItems(TEAM_MEMBERS_CLAIMS, teamId);
          if (kept === "all") return;
          const members = await client.teamMembers.list(teamId);
          const ours =
            memberModeOf(props) === "authoritative"
              ? declaredMembers(members, declaredOf(props))
              : members.filter((m) => idsOf(props.addedUserIds).includes(m.userId));
          const ignored = idsOf(props.ignoreUsernames);
          await removeMembers(
            client,
            teamId,
            ours.filter((m) => removable(m, ignored) && !keptBy(kept, m)),
          );
        }),
      () => undefined,
    );
  },
};
