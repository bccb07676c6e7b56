/**
 * Who is in the organization and the tokens its automation runs with, in the organization
 * stack (organization.json): the records made over HTTP before the first step (a person
 * invited, put in their team, and a described token of their team, which the import step
 * takes over with the organization's own token), the person who accepts an invitation, the
 * drift made over HTTP, and what the server holds.
 */
import type { RunningServer } from "../../src/server";
import { expectStatus } from "../e2e/server-helpers";
import { api } from "./organization-agents";
import { organization, type MembersExpected } from "./organization";
import type { Obj } from "./stack";

/** A JSON:API write that must succeed; its body. */
function write(server: RunningServer, method: string, path: string, body: unknown, what: string): Promise<any> {
  return expectStatus(api<any>(server, path, { method, body }), [200, 201, 204], what);
}

function read(server: RunningServer, path: string, what: string): Promise<any> {
  return expectStatus(api<any>(server, path), [200], what);
}

const memberships = (ids: string[]) => ({ data: ids.map((id) => ({ type: "organization-memberships", id })) });

/**
 * Made over HTTP before the first step: their member (invited, in their team) and a described
 * token of their team, and the organization's own token, all of which the import step takes over.
 */
export async function makeMemberRecords(
  server: RunningServer,
  theirTeamId: string,
): Promise<{
  theirMembershipId: string;
  theirTeamTokenId: string;
  theirOrganizationTokenId: string;
  organization: string;
}> {
  const t = organization.server.theirs;
  const member = await write(
    server,
    "POST",
    `/organizations/${server.organization}/organization-memberships`,
    { data: { type: "organization-memberships", attributes: t.member } },
    "their member",
  );
  await write(
    server,
    "POST",
    `/teams/${theirTeamId}/relationships/organization-memberships`,
    memberships([member.data.id]),
    "their member in their team",
  );
  const token = await write(
    server,
    "POST",
    `/teams/${theirTeamId}/authentication-tokens`,
    { data: { type: "authentication-tokens", attributes: t.teamToken } },
    "their team's token",
  );
  const organizationToken = await write(
    server,
    "POST",
    `/organizations/${server.organization}/authentication-token`,
    { data: { type: "authentication-tokens", attributes: {} } },
    "the organization's token",
  );
  return {
    theirMembershipId: member.data.id,
    theirTeamTokenId: token.data.id,
    theirOrganizationTokenId: organizationToken.data.id,
    organization: server.organization,
  };
}

/** The person invited to `membershipId` accepts (the local server's own route; its site administrator may act for them). */
export async function accept(server: RunningServer, membershipId: string): Promise<void> {
  await write(server, "POST", `/organization-memberships/${membershipId}/actions/accept`, undefined, "accept");
}

/** Drift made over HTTP after the edit: a member of the program's team removed. */
export async function removeMember(server: RunningServer, teamId: string, membershipId: string): Promise<void> {
  await write(
    server,
    "DELETE",
    `/teams/${teamId}/relationships/organization-memberships`,
    memberships([membershipId]),
    "drift: a member removed from the team",
  );
}

/** The memberships of these emails, each as the server holds it (absent: no membership). */
export async function membershipsOf(server: RunningServer, emails: string[]): Promise<Record<string, any>> {
  const body = await read(
    server,
    `/organizations/${server.organization}/organization-memberships?filter%5Bemail%5D=${emails.map(encodeURIComponent).join(",")}&page%5Bsize%5D=100`,
    "list organization memberships",
  );
  return Object.fromEntries(body.data.map((m: any) => [m.attributes.email, m]));
}

/**
 * What the server holds for the program's members and tokens, as `MembersExpected` states
 * them: `ids` the program's ids by resource name, `teamId` the program's team.
 */
export async function membersHeld(
  server: RunningServer,
  ids: Record<string, string>,
  teamId: string,
  want: MembersExpected,
): Promise<MembersExpected> {
  const found = await membershipsOf(server, Object.keys(want.memberships));
  const team = await read(server, `/teams/${teamId}?include=organization-memberships`, "the program's team");
  const inTeam: string[] = (team.data.relationships?.["organization-memberships"]?.data ?? []).map((x: any) => x.id);
  const emailOf = Object.fromEntries(Object.values(found).map((m: any) => [m.id, m.attributes.email]));
  const tokens = await Promise.all(
    Object.keys(organization.programs.first.teamTokens as Obj).map(
      async (k) => (await read(server, `/authentication-tokens/${ids[k]}`, `team token ${k}`)).data.attributes,
    ),
  );
  return {
    memberships: Object.fromEntries(Object.entries(found).map(([email, m]) => [email, m.attributes.status])),
    team: inTeam.map((id) => emailOf[id] ?? id).sort(),
    teamTokens: tokens.map((t: any, i) =>
      t.description.startsWith(want.teamTokens[i]) ? want.teamTokens[i] : t.description,
    ),
  };
}

/** The organization's token of `tokenType` (its id), or undefined when it has none. */
export async function organizationTokenId(server: RunningServer, tokenType: string): Promise<string | undefined> {
  const query = tokenType === "organization" ? "" : `?token_type=${tokenType}`;
  const r = await api<any>(server, `/organizations/${server.organization}/authentication-token${query}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`the organization's ${tokenType} token: HTTP ${r.status}`);
  return r.body.data.id;
}

/** The HTTP status of a GET with `token`. */
export async function statusWith(server: RunningServer, token: string, path: string): Promise<number> {
  return (await api(server, path, { token })).status;
}
