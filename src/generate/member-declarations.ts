/**
 * Who is in the organization and its teams, and the tokens its automation runs with, in a
 * generated program: each membership adopted by email, each team's people as an additive
 * `TeamMembers` referring to the memberships, and the team and organization tokens adopted as
 * they are (the service never shows a token's secret again), each with the expiry it has.
 */
import type { OrganizationToken, TeamToken } from "../client";
import type { AccessContext } from "./access-declarations";
import type { Counts } from "./declaration-types";
import { Code } from "./code";
import { byCodePoint } from "./names";
import { noMembersAndTokens, type MembersAndTokens } from "./read-members";

/** A team name or a token description as part of a resource name: spaces become `-`. */
const namePart = (name: string) => name.trim().replace(/\s+/g, "-");

/** The classes {@link declareMembersAndTokens} used, and how many of each it declared. */
export interface MemberDeclarations {
  kinds: string[];
  counts: Pick<Counts, "organizationMemberships" | "teamMembers" | "teamTokens" | "organizationTokens">;
}

/** The expiry a token has, as the declaration that adopts it states it (so adoption plans no rotation). */
const expiryOf = (t: { expiredAt: string | null }) => (t.expiredAt ? { expiresAt: t.expiredAt } : {});

/**
 * Declares the memberships (`adopt: true`, by email), then each team's people as an additive
 * `TeamMembers` (by membership, referring to the membership declared here; by username where
 * the service names no membership), then the tokens to adopt. `tokenDescription` gives the
 * description a program declares for a token's description on the service; a token that has
 * expired (it no longer authenticates), or whose description another token of its team
 * shares (adoption takes the one token of a description), is named in a comment instead.
 */
export function declareMembersAndTokens(
  at: AccessContext,
  read: MembersAndTokens = noMembersAndTokens(),
  tokenDescription: (description: string) => string,
  now: number = Date.now(),
): MemberDeclarations {
  const kinds = new Set<string>();
  const membershipIdent = new Map<string, string>();
  if (read.memberships.length) {
    at.section("// Organization memberships: each person, invited or active, adopted by email");
    for (const m of read.memberships) {
      const ident = at.identifier(`${m.email}-membership`, "member");
      membershipIdent.set(m.id, ident);
      at.declare(
        "OrganizationMembership",
        at.resourceName(m.email),
        m.id,
        { email: m.email, organization: new Code("organization"), adopt: true },
        ident,
      );
    }
    kinds.add("OrganizationMembership");
  }

  if (read.teamMembers.length) {
    at.section(
      [
        "// Who is in each team: additive, each list adds the people it names and removes only those it added;",
        "// the service users behind the team's and the organization's tokens are never listed",
      ].join("\n"),
    );
    // In the order the memberships are declared (by email); one not declared here after them, by id.
    const order = new Map(read.memberships.map((m, i) => [m.id, i]));
    const position = (id: string) => order.get(id) ?? read.memberships.length;
    for (const { teamId, members } of read.teamMembers) {
      const ids = members
        .flatMap((m) => (m.organizationMembershipId !== undefined ? [m.organizationMembershipId] : []))
        .sort((a, b) => position(a) - position(b) || byCodePoint(a, b))
        .map((id) => {
          const ident = membershipIdent.get(id);
          return ident !== undefined ? new Code(`${ident}.id`) : id;
        });
      const usernames = members.filter((m) => m.organizationMembershipId === undefined && m.username !== "");
      at.declare("TeamMembers", at.resourceName(`${namePart(at.teamName(teamId))}-members`), teamId, {
        teamId: at.teamRef(teamId),
        ...(ids.length ? { organizationMembershipIds: ids } : {}),
        ...(usernames.length ? { usernames: usernames.map((m) => m.username) } : {}),
      });
    }
    kinds.add("TeamMembers");
  }

  const tokens = declareTokens(at, read, tokenDescription, now);
  for (const k of tokens.kinds) kinds.add(k);
  return {
    kinds: [...kinds],
    counts: {
      organizationMemberships: read.memberships.length,
      teamMembers: read.teamMembers.length,
      teamTokens: tokens.teamTokens,
      organizationTokens: tokens.organizationTokens,
    },
  };
}

function declareTokens(
  at: AccessContext,
  read: MembersAndTokens,
  tokenDescription: (description: string) => string,
  now: number,
): { kinds: string[]; teamTokens: number; organizationTokens: number } {
  const notDeclared: string[] = [];
  const expired = (t: TeamToken | OrganizationToken, what: string) => {
    if (!t.expiredAt || Date.parse(t.expiredAt) > now) return false;
    notDeclared.push(`// Not declared: ${what} (${t.id}) expired on ${t.expiredAt} and no longer authenticates.`);
    return true;
  };
  const team: { token: TeamToken; description?: string }[] = [];
  const byTeam = new Map<string, Map<string, TeamToken[]>>();
  for (const t of read.teamTokens) {
    const teamName = at.teamName(t.teamId);
    if (t.description === null || t.description === undefined) {
      if (!expired(t, `the legacy token of team ${teamName}`)) team.push({ token: t });
      continue;
    }
    const description = tokenDescription(t.description);
    if (expired(t, `the token of team ${teamName} described ${JSON.stringify(description)}`)) continue;
    const described = byTeam.get(t.teamId) ?? new Map<string, TeamToken[]>();
    byTeam.set(t.teamId, described);
    described.set(description, [...(described.get(description) ?? []), t]);
  }
  for (const [teamId, described] of byTeam) {
    for (const [description, shared] of described) {
      if (shared.length === 1 && description.trim() !== "") team.push({ token: shared[0], description });
      else
        notDeclared.push(
          `// Not declared: the tokens of team ${at.teamName(teamId)} described ${JSON.stringify(description)} (${shared.map((t) => t.id).join(", ")}): adoption takes the one token of a description.`,
        );
    }
  }
  const orgTokens = read.organizationTokens.filter(
    (t) => !expired(t, t.tokenType === "audit-trails" ? "the audit-trail token" : "the organization token"),
  );
  if (!team.length && !orgTokens.length && !notDeclared.length)
    return { kinds: [], teamTokens: 0, organizationTokens: 0 };
  at.section(
    [
      "// Team and organization tokens, adopted as they are, each with the expiry it has (adoption plans no rotation).",
      "// The service never shows a token's secret again, so an adopted token has no `token` output: to get one,",
      '// set `rotation` (any label, such as "2026-12"); the next `pulumi up` replaces the token and keeps the new',
      "// secret as a secret output.",
      ...notDeclared,
    ].join("\n"),
  );
  for (const { token, description } of team) {
    const teamName = namePart(at.teamName(token.teamId));
    at.declare(
      "TeamToken",
      at.resourceName(description === undefined ? `${teamName}-token` : `${teamName}-${namePart(description)}-token`),
      // A described token by its own id; the team's single legacy token by the team's.
      description === undefined ? token.teamId : token.id,
      {
        teamId: at.teamRef(token.teamId),
        ...(description !== undefined ? { description } : {}),
        ...expiryOf(token),
        adopt: true,
      },
    );
  }
  for (const token of orgTokens) {
    const audit = token.tokenType === "audit-trails";
    at.declare(
      "OrganizationToken",
      at.resourceName(audit ? "audit-trail-token" : "organization-token"),
      audit ? `${token.organization}/audit-trails` : token.organization,
      {
        organization: new Code("organization"),
        ...(audit ? { tokenType: "audit-trails" } : {}),
        ...expiryOf(token),
        adopt: true,
      },
    );
  }
  return {
    kinds: [...(team.length ? ["TeamToken"] : []), ...(orgTokens.length ? ["OrganizationToken"] : [])],
    teamTokens: team.length,
    organizationTokens: orgTokens.length,
  };
}
