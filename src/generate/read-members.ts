/**
 * Reads who is in the organization and its teams, and the tokens its automation runs with,
 * for the generator: the organization's memberships (one list), each team's members (one read
 * per team), the team tokens (one list) and the organization's two tokens (one read each). A
 * token's secret is never read: the service shows it once, on create. A server that does not
 * serve a kind (OTF has no memberships) has none of it to carry over: one request says so.
 */
import {
  FeatureUnavailableError,
  NotFoundError,
  type OrganizationMembership,
  type OrganizationToken,
  type Team,
  type TeamMember,
  type TeamToken,
  type WorkspacesClient,
} from "../client";
import { byCodePoint } from "./names";
import { noneIfUnavailable, perRecordList, pool } from "./read-lists";

/** Who is in the organization and its teams, and its team and organization tokens, without their secrets. */
export interface MembersAndTokens {
  /** The organization's memberships, invited and active, by email. */
  memberships: OrganizationMembership[];
  /**
   * Each team that has people (`teamId`, `team-...`), in the order of the teams, with its people
   * by username, then by membership id (an invited person has no username yet); the service
   * users behind tokens (`serviceAccount`) are left out.
   */
  teamMembers: { teamId: string; members: TeamMember[] }[];
  /** The team tokens, by team, then description (the legacy token of a team first). */
  teamTokens: TeamToken[];
  /** The organization token, then the audit-trail token, those the organization has. */
  organizationTokens: OrganizationToken[];
}

/** Nothing read: a program of one project declares none of what belongs to the organization. */
export const noMembersAndTokens = (): MembersAndTokens => ({
  memberships: [],
  teamMembers: [],
  teamTokens: [],
  organizationTokens: [],
});

/** Whether anything was read: a split program's stack `organization` declares it. */
export const hasMembersAndTokens = (m: MembersAndTokens) =>
  [m.memberships, m.teamMembers, m.teamTokens, m.organizationTokens].some((records) => records.length > 0);

const byPerson = (a: TeamMember, b: TeamMember) =>
  byCodePoint(a.username, b.username) ||
  byCodePoint(a.organizationMembershipId ?? "", b.organizationMembershipId ?? "") ||
  byCodePoint(a.userId, b.userId);

/** The organization's memberships, its teams' people (`teams`: sorted as the program lists them) and its tokens. */
export async function readMembersAndTokens(
  client: WorkspacesClient,
  organization: string,
  teams: Team[],
  concurrency: number,
  progress: ((line: string) => void) | undefined,
): Promise<MembersAndTokens> {
  // The organization's workspaces were just listed, so a 404 is a server without memberships.
  const listed = (await noneIfUnavailable(client.organizationMemberships.list(organization).all(), true)).sort(
    (a, b) => byCodePoint(a.email.toLowerCase(), b.email.toLowerCase()) || byCodePoint(a.id, b.id),
  );
  const membersOf = perRecordList("team members", (id) => client.teamMembers.list(id), progress);
  const serviceUsers = new Set<string>();
  const teamMembers = (
    await pool(teams, concurrency, async (team) => {
      const members = await membersOf(team.id);
      for (const m of members) if (m.serviceAccount) serviceUsers.add(m.userId);
      return { teamId: team.id, members: members.filter((m) => !m.serviceAccount).sort(byPerson) };
    })
  ).filter((r) => r.members.length > 0);
  // A service user is no person: should a server list one among the memberships, it is left out too.
  const people = listed.filter((m) => m.userId === null || !serviceUsers.has(m.userId));
  const teamOrder = new Map(teams.map((t, i) => [t.id, i]));
  const teamTokens = (await readTeamTokens(client, organization, teams, concurrency, progress)).sort(
    (a, b) =>
      (teamOrder.get(a.teamId) ?? teams.length) - (teamOrder.get(b.teamId) ?? teams.length) ||
      byCodePoint(a.teamId, b.teamId) ||
      byCodePoint(a.description ?? "", b.description ?? "") ||
      byCodePoint(a.id, b.id),
  );
  const organizationTokens: OrganizationToken[] = [];
  for (const tokenType of ["organization", "audit-trails"] as const) {
    // None of that type: 404. A server without organization tokens: unavailable.
    const token = await client.organizationTokens.read(organization, { tokenType }).catch((err: unknown) => {
      if (err instanceof NotFoundError || err instanceof FeatureUnavailableError) return undefined;
      throw err;
    });
    if (token) organizationTokens.push(token);
  }
  const read = { memberships: people, teamMembers, teamTokens, organizationTokens };
  const tokens = teamTokens.length + organizationTokens.length;
  if (hasMembersAndTokens(read))
    progress?.(
      `read ${people.length} organization membership${people.length === 1 ? "" : "s"}, the members of ` +
        `${teamMembers.length} team${teamMembers.length === 1 ? "" : "s"} and ${tokens} team and organization token${tokens === 1 ? "" : "s"}`,
    );
  return read;
}

/**
 * The organization's team tokens, legacy and described, in one list; a server without the
 * list (OTF) is asked for each team's legacy token, the one kind it serves.
 */
async function readTeamTokens(
  client: WorkspacesClient,
  organization: string,
  teams: Team[],
  concurrency: number,
  progress: ((line: string) => void) | undefined,
): Promise<TeamToken[]> {
  try {
    return await client.teamTokens.list(organization).all();
  } catch (err) {
    if (!(err instanceof FeatureUnavailableError || err instanceof NotFoundError)) throw err;
  }
  const legacyOf = perRecordList(
    "team tokens",
    (id) =>
      client.teamTokens.readLegacy(id).then(
        (token) => [token],
        (err: unknown) => {
          // This team has none.
          if (err instanceof NotFoundError) return [];
          throw err;
        },
      ),
    progress,
  );
  return (await pool(teams, concurrency, (team) => legacyOf(team.id))).flat();
}
