/**
 * Seeds who is in the organization and its teams, and the tokens its automation runs with,
 * over the service's API, on top of {@link seedOrganization}: two teams, three people invited
 * (two accept, one stays invited), people put in teams by username and by membership, team
 * tokens (the legacy one, described ones with and without an expiry, one that has expired by
 * the time the generator reads) and the organization's two tokens.
 */
import type { WorkspacesClient } from "../../src/client";
import type { SeedServer } from "./seed";

export interface SeededMembers {
  /** Team id by name: `developers`, `operators`, and the owners team. */
  teams: Map<string, string>;
  /** Membership id by email. */
  memberships: Map<string, string>;
  /** Username by email, of the people who accepted. */
  usernames: Map<string, string>;
  /** The email of the person who is still invited. */
  invited: string;
  /** Token id by `<team>-<description>` (`<team>-legacy` for a team's legacy token), of the tokens that have not expired. */
  teamTokens: Map<string, string>;
  /** The id of the team token that has expired. */
  expiredToken: string;
  /** The expiry (`expired-at`) of each token that has one, by the keys of `teamTokens` and `organization`. */
  expiries: Map<string, string>;
  /** Every token's secret: none may appear in a generated file. */
  secrets: string[];
}

/** The emails invited: the first two accept, the last stays invited. */
export const EMAILS = ["alice@example.com", "bob@example.com", "carol@example.com"];

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** An invitation accepted, as the local server lets its site admin accept one on the person's behalf. */
async function accept(server: SeedServer, membershipId: string): Promise<void> {
  const res = await fetch(`${server.url}/organization-memberships/${membershipId}/actions/accept`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/vnd.api+json" },
  });
  if (res.status >= 300) throw new Error(`accept ${membershipId}: HTTP ${res.status} ${await res.text()}`);
}

export async function seedMembers(server: SeedServer, client: WorkspacesClient): Promise<SeededMembers> {
  const org = server.organization;
  const teams = new Map((await client.teams.list(org).all()).map((t) => [t.name, t.id]));
  for (const name of ["developers", "operators"]) teams.set(name, (await client.teams.create(org, { name })).id);

  const memberships = new Map<string, string>();
  const usernames = new Map<string, string>();
  for (const [i, email] of EMAILS.entries()) {
    const m = await client.organizationMemberships.create(org, {
      email,
      ...(i === 0 ? { teamIds: [teams.get("developers")!] } : {}),
    });
    memberships.set(email, m.id);
    if (i < 2) {
      await accept(server, m.id);
      const username = (await client.organizationMemberships.read(m.id)).username;
      if (username === undefined) throw new Error(`${email} accepted but has no username`);
      usernames.set(email, username);
    }
  }
  // Bob joins operators by username; Carol, still invited, by her membership.
  await client.teamMembers.addUsers(teams.get("operators")!, [usernames.get(EMAILS[1])!]);
  await client.teamMembers.addOrganizationMemberships(teams.get("operators")!, [memberships.get(EMAILS[2])!]);

  const teamTokens = new Map<string, string>();
  const expiries = new Map<string, string>();
  const secrets: string[] = [];
  for (const [team, description, expiredAt] of [
    // The legacy token puts its service user among the developers' users.
    ["developers", undefined, inDays(30)],
    ["developers", "ci", inDays(60)],
    // Without an expiry of its own: the service gives it its default one.
    ["operators", "deploy", undefined],
  ] as const) {
    const t = await client.teamTokens.create(teams.get(team)!, {
      ...(description !== undefined ? { description } : {}),
      ...(expiredAt !== undefined ? { expiredAt } : {}),
    });
    const key = `${team}-${description ?? "legacy"}`;
    teamTokens.set(key, t.id);
    if (t.expiredAt) expiries.set(key, t.expiredAt);
    if (t.token) secrets.push(t.token);
  }
  // Expires a moment after it is made: by the time the generator reads, it no longer authenticates.
  const short = await client.teamTokens.create(teams.get("operators")!, {
    description: "short-lived",
    expiredAt: new Date(Date.now() + 1500).toISOString(),
  });
  if (short.token) secrets.push(short.token);
  const organization = await client.organizationTokens.create(org, { expiredAt: inDays(80) });
  if (organization.expiredAt) expiries.set("organization", organization.expiredAt);
  // Without an expiry of its own: the service gives it its default one.
  const audit = await client.organizationTokens.create(org, { tokenType: "audit-trails" });
  if (audit.expiredAt) expiries.set("audit-trails", audit.expiredAt);
  for (const t of [organization, audit]) if (t.token) secrets.push(t.token);
  await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(short.expiredAt!) - Date.now() + 100)));
  return {
    teams,
    memberships,
    usernames,
    invited: EMAILS[2],
    teamTokens,
    expiredToken: short.id,
    expiries,
    secrets,
  };
}
