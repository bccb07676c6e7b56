/**
 * Provider of `TeamToken`, id `at-...`: with a `description`, one of the team's several
 * described tokens (`/teams/:id/authentication-tokens`, listed by
 * `/organizations/:org/team-tokens`); without one, the team's single legacy token
 * (`/teams/:id/authentication-token`). Both are read and deleted by id
 * (`/authentication-tokens/:id`). What every minted token shares is ./minted-token.ts.
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

/** The token id of an id `at-...`, or the team id of `team-...` (its legacy token). */
function idsOf(id: string): { tokenId?: string; teamId?: string } {
  if (isId("authenticationToken", id)) return { tokenId: id };
  if (isId("team", id)) return { teamId: id };
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
    if (ids.teamId) {
      const legacy = await legacyOf(client, ids.teamId);
      return legacy ? { token: legacy, owner: { teamId: ids.teamId } } : undefined;
    }
    const t = await client.teamTokens.read(ids.tokenId!);
    const teamId = t.teamId || (typeof props.teamId === "string" ? props.teamId : "");
    return { token: t, owner: { teamId } };
  },
  delete: (client, id) => client.teamTokens.delete(id),
  outputs: (t, from) => ({
    teamId: from.teamId,
    tokenId: t.id,
    ...(t.description ? { description: splitDescription(t.description).declared } : {}),
  }),
};

/** The provider, with the preview's line for a token marked `adopt: true`. */
export const teamTokenProvider = mintedTokenProvider(teamTokens);
