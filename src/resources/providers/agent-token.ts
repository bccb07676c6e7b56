/**
 * Provider of `AgentToken` (`/agent-pools/:id/authentication-tokens`,
 * `/authentication-tokens/:id`), id `at-...`: a described token of an agent pool (see
 * ./minted-token.ts for what every minted token shares).
 */
import { isId } from "../../api/common";
import type { AgentToken as ApiAgentToken, WorkspacesClient } from "../../client";
import { defaultOrganization } from "../provider-settings";
import { childRecord, organizationUnder, type Parent } from "./gone";
import { mintedTokenProvider, splitDescription, type TokenKind } from "./minted-token";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

function tokenLabel(id: string | undefined, description: unknown, agentPoolId: unknown): string {
  const what = `agent token${id ? ` ${id}` : ""}`;
  const described = typeof description === "string" && description !== "" ? ` "${description}"` : "";
  const pool = typeof agentPoolId === "string" && agentPoolId !== "" ? ` of agent pool ${agentPoolId}` : "";
  return `${what}${described}${pool}`;
}

function parents(props: Props): Parent[] {
  return [{ kind: "agent pool", id: props.agentPoolId }];
}

/** The id of the pool that holds token `id`, searched in the organization's pools (an import by `at-` id alone). */
async function poolOfToken(client: WorkspacesClient, id: string, organization: string): Promise<string | undefined> {
  for await (const pool of client.agentPools.list(organization)) {
    const tokens = await client.agentTokens.list(pool.id).all();
    if (tokens.some((t) => t.id === id)) return pool.id;
  }
  return undefined;
}

/** The token and pool ids of an id `at-...` or `apool-.../at-...`. */
function idsOf(id: string): { tokenId: string; agentPoolId?: string } {
  const [first = "", second, ...rest] = id.split("/");
  if (second === undefined && isId("authenticationToken", first)) return { tokenId: first };
  if (rest.length === 0 && isId("agentPool", first) && isId("authenticationToken", second))
    return { tokenId: second, agentPoolId: first };
  throw new ProviderError(
    `${JSON.stringify(id)} is not the id of an AgentToken: give its at-<id> (at-3kqPzV6sYw8RnTdM), or apool-<id>/at-<id> to name its pool too`,
  );
}

function checkPool(_olds: Props, news: Props): CheckFailure[] {
  const pool = news.agentPoolId;
  if (pool === undefined || pool === null) return [{ property: "agentPoolId", reason: "agentPoolId is required" }];
  if (!isUnknown(pool) && !isId("agentPool", pool))
    return [{ property: "agentPoolId", reason: "agentPoolId must be an agent pool id (apool-...)" }];
  return [];
}

const agentTokens: TokenKind<ApiAgentToken> = {
  noun: "agent token",
  ownerFields: [{ name: "agentPoolId", replaces: true }],
  expires: false,
  description: "required",
  checkOwner: checkPool,
  label: (id, props) => tokenLabel(id, props.description, props.agentPoolId),
  holder: (props) => `agent pool ${String(props.agentPoolId)}`,
  holderNoun: "pool",
  whoMay: "managing agent tokens takes an owners token, an organization token or a team that manages agent pools",
  organization: (client, props) => organizationUnder(client, props, parents(props)),
  missing: (client, id, props) =>
    childRecord(
      client,
      { label: tokenLabel(id, props.description, props.agentPoolId), kind: "agent token" },
      props,
      parents(props),
    ),
  list: (client, inputs) => client.agentTokens.list(String(inputs.agentPoolId)).all(),
  current: async () => undefined,
  create: (client, inputs, { description }) => client.agentTokens.create(String(inputs.agentPoolId), description!),
  tokenIdOf: (id) => idsOf(id).tokenId,
  async read(client, id, props) {
    const ids = idsOf(id);
    const t = await client.agentTokens.read(ids.tokenId);
    let agentPoolId = typeof props.agentPoolId === "string" ? props.agentPoolId : ids.agentPoolId;
    if (!agentPoolId) {
      const org = (await organizationUnder(client, props, [])) ?? defaultOrganization();
      agentPoolId = org ? await poolOfToken(client, ids.tokenId, org) : undefined;
      if (!agentPoolId)
        throw new ProviderError(
          `cannot read ${tokenLabel(ids.tokenId, t.description, undefined)}: the service does not say which agent pool holds it, and none of organization "${org ?? "(none set)"}" does. Give the id as apool-<id>/${ids.tokenId}.`,
        );
    }
    return { token: t, owner: { agentPoolId } };
  },
  delete: (client, id) => client.agentTokens.delete(id),
  outputs: (t, from) => ({
    agentPoolId: from.agentPoolId,
    description: splitDescription(t.description).declared,
  }),
};

/** The provider, with the preview's line for a token marked `adopt: true`. */
export const agentTokenProvider = mintedTokenProvider(agentTokens);
