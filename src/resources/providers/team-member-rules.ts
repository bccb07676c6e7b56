/**
 * What `TeamMembers` declares and what its `check` judges: the team, the mode, the people
 * (by username or organization membership), the ignored usernames, and one owner per team
 * list in this stack (../process/claims.ts).
 */
import { isId } from "../../api/common";
import type { TeamMember } from "../../client/team-members";
import { isUnknown } from "./unknowns";
import { idsOf, itemFailures, listClaimFailures } from "./record-list-rules";
import type { CheckFailure, Props } from "./types";
import type { OwnershipMode } from "../workspace-tags";

/** The kind of claims of a team's list of members. */
export const TEAM_MEMBERS_CLAIMS = "team-members";

/** Additive unless the program says authoritative: a team's list is never taken over by default. */
export function memberModeOf(p: { mode?: unknown }): OwnershipMode {
  return p.mode === "authoritative" ? "authoritative" : "additive";
}

/** How messages name the list: `the members of team "devs" (team-...)`. */
export function membersLabel(teamId: string, teamName?: unknown): string {
  return typeof teamName === "string" && teamName !== ""
    ? `the members of team "${teamName}" (${teamId})`
    : `the members of team ${teamId}`;
}

/** Usernames are letters, digits, `-`, `_` and `.`; an email is the commonest mistake. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function usernameRefusal(v: unknown): string | undefined {
  if (typeof v === "string" && v.includes("@"))
    return "must be a username, not an email (invite a person by email with OrganizationMembership and list its id in organizationMembershipIds)";
  return typeof v === "string" && USERNAME.test(v) ? undefined : "must be a username";
}

function listFailures(news: Props, arg: string, invalid: (v: unknown) => string | undefined): CheckFailure[] {
  const v = news[arg];
  if (v === undefined || v === null || isUnknown(v)) return [];
  if (!Array.isArray(v)) return [{ property: arg, reason: `${arg} must be a list` }];
  return itemFailures(arg, v, invalid);
}

/** The failures of the inputs' shapes, each with its property path. */
export function checkMembers(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const teamId = news.teamId;
  if (teamId === undefined || teamId === null) failures.push({ property: "teamId", reason: "teamId is required" });
  else if (!isUnknown(teamId) && !isId("team", teamId))
    failures.push({ property: "teamId", reason: "teamId must be a team id (team-...)" });
  const mode = news.mode;
  if (mode !== undefined && !isUnknown(mode) && mode !== "additive" && mode !== "authoritative")
    failures.push({
      property: "mode",
      reason: `mode must be "additive" or "authoritative", not ${JSON.stringify(mode)}`,
    });
  failures.push(...listFailures(news, "usernames", usernameRefusal));
  failures.push(
    ...listFailures(news, "organizationMembershipIds", (v) =>
      isId("organizationMembership", v) ? undefined : "must be an organization membership id (ou-...)",
    ),
  );
  const ignored = news.ignoreUsernames;
  if (Array.isArray(ignored) && ignored.length > 0 && mode !== "authoritative" && !isUnknown(mode))
    failures.push({
      property: "ignoreUsernames",
      reason:
        'ignoreUsernames applies to mode "authoritative" only: an additive list never removes anyone it did not add. ' +
        'Set mode: "authoritative", or remove ignoreUsernames.',
    });
  failures.push(...listFailures(news, "ignoreUsernames", usernameRefusal));
  const declared = Array.isArray(news.usernames) ? news.usernames : [];
  if (Array.isArray(ignored))
    ignored.forEach((name: unknown, i: number) => {
      if (!isUnknown(name) && declared.includes(name))
        failures.push({
          property: `ignoreUsernames[${i}]`,
          reason: `ignoreUsernames[${i}]: ${String(name)} is in usernames too: a member is either declared or ignored`,
        });
    });
  return failures;
}

/**
 * The claim key of a person as the program names them: a membership id as it is, a
 * username as `user:<name>` (see {@link keptBy}).
 */
const usernameKey = (name: string) => `user:${name}`;

/** The claim keys a member goes by: `user:<username>` and the membership id, as the service shows them. */
function keysOf(m: TeamMember): string[] {
  const keys = m.username !== "" ? [usernameKey(m.username)] : [];
  return m.organizationMembershipId !== undefined ? [...keys, m.organizationMembershipId] : keys;
}

/**
 * By claim key, every key of the same person among the team's members: so that two
 * resources naming one member differently (one by username, one by membership) claim the
 * same person.
 */
export type Aliases = ReadonlyMap<string, readonly string[]>;

export function aliasesOf(members: readonly TeamMember[]): Aliases {
  const out = new Map<string, string[]>();
  for (const m of members) for (const key of keysOf(m)) out.set(key, keysOf(m));
  return out;
}

/** The people the inputs add, for the claims: their keys, and each key's aliases (see {@link aliasesOf}). */
function addedKeys(news: Props, aliases: Aliases): Map<string, string> {
  const declared = [...idsOf(news.usernames).map(usernameKey), ...idsOf(news.organizationMembershipIds)];
  // Each key claimed, with the key the program wrote that it stands for.
  const keys = new Map<string, string>();
  for (const key of declared) for (const k of [key, ...(aliases.get(key) ?? [])]) if (!keys.has(k)) keys.set(k, key);
  return keys;
}

/** True when every list of the inputs is known, so the claim says all it holds. */
export function complete(news: Props): boolean {
  if (isUnknown(news.mode)) return false;
  return ["usernames", "organizationMembershipIds"].every((arg) => {
    const v = news[arg];
    return !isUnknown(v) && !(Array.isArray(v) && v.some(isUnknown));
  });
}

/**
 * Two owners of one team's list in this stack, refused naming both (see listClaimFailures).
 * `aliases` (the team's members, when another resource of the stack declares the team)
 * make one person named two ways one person.
 */
export function memberClaimFailures(news: Props, claimant: string, aliases: Aliases = new Map()): CheckFailure[] {
  const teamId = String(news.teamId);
  const keys = addedKeys(news, aliases);
  const written = (item: string) => keys.get(item) ?? item;
  const byName = (item: string) => written(item).startsWith("user:");
  return listClaimFailures(
    {
      kind: TEAM_MEMBERS_CLAIMS,
      label: membersLabel(teamId, news.teamName),
      ownerArg: "teamId",
      mode: memberModeOf(news),
      holding: { list: teamId, items: memberModeOf(news) === "authoritative" ? "all" : [...keys.keys()] },
      itemArg: (item) => (byName(item) ? "usernames" : "organizationMembershipIds"),
      itemName: (item) => (byName(item) ? written(item).slice("user:".length) : written(item)),
      items: "people",
    },
    claimant,
  );
}

/** Whether another resource's claim (`kept`, see claimedItems) names this member, by username or membership. */
export function keptBy(kept: "all" | string[], m: TeamMember): boolean {
  return kept === "all" || keysOf(m).some((key) => kept.includes(key));
}
