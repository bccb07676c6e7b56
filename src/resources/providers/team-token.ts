/**
 * Provider of `TeamToken`, id `at-...`: with a `description`, one of the team's several
 * described tokens (`/teams/:id/authentication-tokens`, listed by
 * `/organizations/:org/team-tokens`); without one, the team's single legacy token
 * (`/teams/:id/authentication-token`). A described token is read and deleted by id
 * (`/authentication-tokens/:id`); the legacy token through its team's route, where every
 * server that has team tokens serves it (OTF serves the by-id route for agent tokens only),
 * and only while it is still this resource's token: one made since is its successor. What
 * every minted token shares is ./minted-token.ts.
 */
import { isId } from "../../api/common";
import type { TeamToken as ApiTeamToken, WorkspacesClient } from "../../client";
import { defaultOrganization } from "../provider-settings";
import { childRecord, organizationUnder, type Parent } from "./gone";
import { isNotFound } from "./client";
import { mintedTokenProvider, splitDescription, type TokenKind } from "./minted-token";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

function tokenLabel(id: string | undefined, props: Props): string {
  const d = props.description;
  const what = typeof d === "string" && d !== "" ? `team token${id ? ` ${id}` : ""} "${d}"` : "legacy team token";
  const legacyId = typeof d === "string" && d !== "" ? "" : id ? ` ${id}` : "";
  const team = typeof props.teamId === "string" && props.teamId !== "" ? ` of team ${props.teamId}` : "";
  return `${what}${legacyId}${team}`;
}

function parents(props: Props): Parent[] {
  return [{ kind: "team", id: props.teamId }];
}

function checkTeam(_olds: Props, news: Props): CheckFailure[] {
  const team = news.teamId;
  if (team === undefined || team === null) return [{ property: "teamId", reason: "teamId is required" }];
  if (!isUnknown(team) && !isId("team", team))
    return [{ property: "teamId", reason: "teamId must be a team id (team-...)" }];
  return [];
}

/**
 * The token id of an id `at-...` (or OTF's `tt-...`), or
 * the team id of `team-...` (its legacy token).
 */
function idsOf(id: string): { tokenId?: string; teamId?: string } {
  if (isId("team", id)) return { teamId: id };
  if (isId("authenticationToken", id) || /^tt-[A-Za-z0-9]+$/.test(id)) return { tokenId: id };
  throw new ProviderError(
    `${JSON.stringify(id)} is not the id of a TeamToken: give its at-<id> (at-3kqPzV6sYw8RnTdM), or team-<id> for the team's legacy token`,
  );
}

/** The team's legacy token, undefined when it has none; a 404 for the team itself is thrown. */
async function legacyOf(client: WorkspacesClient, teamId: string): Promise<ApiTeamToken | undefined> {
  try {
    return await client.teamTokens.readLegacy(teamId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await client.teams.read(teamId);
    return undefined;
  }
}

/** The team of a legacy token (one declared without a description), from its inputs or state. */
function legacyTeamOf(props: Props): string | undefined {
  const d = props.description;
  if (typeof d === "string" && d !== "") return undefined;
  return typeof props.teamId === "string" && isId("team", props.teamId) ? props.teamId : undefined;
}

async function organizationOf(client: WorkspacesClient, props: Props): Promise<string | undefined> {
  return (await organizationUnder(client, props, parents(props))) ?? defaultOrganization();
}

const teamTokens: TokenKind<ApiTeamToken> = {
  noun: "team token",
  ownerFields: [{ name: "teamId", replaces: true }],
  expires: true,
  description: "optional",
  checkOwner: checkTeam,
  label: tokenLabel,
  holder: (props) => `team ${String(props.teamId)}`,
  holderNoun: "team",
  whoMay:
    "managing a team's tokens takes an owners token, a team that manages teams, or a member of the team where its visibility and settings allow",
  organization: (client, props) => organizationUnder(client, props, parents(props)),
  missing: (client, id, props) =>
    childRecord(client, { label: tokenLabel(id, props), kind: "team token" }, props, parents(props)),
  async list(client, inputs) {
    const teamId = String(inputs.teamId);
    const organization = await organizationOf(client, inputs);
    // The organization's list shows a team's tokens only to who may see them; the team's own 404 names the holder.
    if (!organization) await client.teams.read(teamId);
    return client.teamTokens.list(String(organization), { teamId }).all();
  },
  current: (client, inputs) => legacyOf(client, String(inputs.teamId)),
  create: (client, inputs, { description, expiredAt }) =>
    client.teamTokens.create(String(inputs.teamId), {
      ...(description !== undefined ? { description } : {}),
      ...(expiredAt ? { expiredAt } : {}),
    }),
  tokenIdOf: (id) => idsOf(id).tokenId ?? id,
  async read(client, id, props) {
    const ids = idsOf(id);
    const legacyTeam = ids.teamId ?? legacyTeamOf(props);
    if (legacyTeam) {
      const legacy = await legacyOf(client, legacyTeam);
      // The team's token now is another one: this one was replaced, so it is gone.
      if (!legacy || (ids.tokenId && legacy.id !== ids.tokenId)) return undefined;
      return { token: legacy, owner: { teamId: legacyTeam } };
    }
    const t = await client.teamTokens.read(ids.tokenId!);
    const teamId = t.teamId || (typeof props.teamId === "string" ? props.teamId : "");
    return { token: t, owner: { teamId } };
  },
  async delete(client, id, props) {
    const legacyTeam = legacyTeamOf(props);
    if (!legacyTeam) return client.teamTokens.delete(id);
    const legacy = await legacyOf(client, legacyTeam);
    // Another legacy token of the team is its successor (a replacement or another program):
    // never deleted here. One imported by its team's id is whichever the team holds.
    const wanted = idsOf(id).tokenId;
    if (legacy && (wanted === undefined || legacy.id === wanted)) await client.teamTokens.deleteLegacy(legacyTeam);
  },
  outputs: (t, from) => ({
    teamId: from.teamId,
    tokenId: t.id,
    ...(t.description ? { description: splitDescription(t.description).declared } : {}),
  }),
};

/** The provider, with the preview's line for a token marked `adopt: true`. */
export const teamTokenProvider = mintedTokenProvider(teamTokens);
