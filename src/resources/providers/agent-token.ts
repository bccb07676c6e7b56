/**
 * Provider of `AgentToken` (`/agent-pools/:id/authentication-tokens`,
 * `/authentication-tokens/:id`), id `at-...`. The secret is answered once, by the create,
 * and kept from then on as the stack's own copy.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { ORIGIN_SOURCE_NAME, originQuery } from "../../api/origin";
import type { AgentToken as ApiAgentToken, WorkspacesClient } from "../../client";
import { reportInfo } from "../process/engine-status";
import { defaultOrganization } from "../provider-settings";
import { echoAdopt, reportsAdoption, type AdoptionLookup } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { childRecord, confirmGone, organizationUnder, type MissingRecord, type Parent } from "./gone";
import { sameOrigin, withOrigin } from "./origin";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { AgentTokenArgs } from "../agent-token";

/** Inputs as the engine hands them over. */
type AgentTokenInputs = pulumi.Unwrap<AgentTokenArgs>;

/** Outputs as stored in state. */
type AgentTokenOutputs = {
  agentPoolId: string;
  description: string;
  rotation?: string;
  /** The secret, from the create's answer; absent for an adopted or imported token. */
  token?: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  /** The pool's organization, for the 404 rule once the pool is gone. */
  organization: string | null;
};

/** Nothing and an empty text are the same rotation: none. */
function sameRotation(desired: unknown, actual: unknown): boolean {
  const none = (v: unknown) => v === undefined || v === null || v === "";
  return none(desired) ? none(actual) : desired === actual;
}

const FIELDS: FieldRule[] = [
  { name: "agentPoolId", replaces: true },
  { name: "description", replaces: true },
  { name: "rotation", replaces: true, absentIsValue: true, same: sameRotation },
];

// ---------------------------------------------------------------------------
// The origin a create appends to the description: ` [<origin address>]`.

/** ` [<address>]` at the end of a description, where the address is an origin this package wrote. */
const ORIGIN_SUFFIX = / \[(https:\/\/[^\]\s]+)\]$/;

/** A token's description split into what the program declared and the origin its create appended, if any. */
export function splitDescription(raw: string): { declared: string; origin?: string } {
  const m = ORIGIN_SUFFIX.exec(raw);
  if (!m || !originQuery(m[1])) return { declared: raw };
  return { declared: raw.slice(0, m.index), origin: m[1] };
}

/**
 * The origin a create of these inputs writes: the resource's origin address with its
 * rotation, so that the token a replacement is rotating away from never reads as this
 * create's. Undefined without an origin (no key yet, or an earlier state).
 */
function originOf(inputs: Props): string | undefined {
  const given = withOrigin(inputs);
  if (given.sourceName !== ORIGIN_SOURCE_NAME || typeof given.sourceUrl !== "string") return undefined;
  const rotation = inputs.rotation;
  if (typeof rotation !== "string" || rotation === "") return given.sourceUrl;
  const base = given.sourceUrl.slice(0, given.sourceUrl.indexOf("?") + 1);
  const query = originQuery(given.sourceUrl)!;
  query.set("rotation", rotation);
  return base + query.toString();
}

/** Whether a token's description is one a create of these inputs wrote (same resource, stack, rotation and description). */
function madeByThisResource(inputs: Props, raw: string): boolean {
  const { declared, origin } = splitDescription(raw);
  if (!origin || declared !== inputs.description) return false;
  const rotation = typeof inputs.rotation === "string" ? inputs.rotation : "";
  if ((originQuery(origin)?.get("rotation") ?? "") !== rotation) return false;
  return sameOrigin(inputs, { sourceName: ORIGIN_SOURCE_NAME, sourceUrl: origin });
}

// ---------------------------------------------------------------------------

function tokenLabel(id: string | undefined, description: unknown, agentPoolId: unknown): string {
  const what = `agent token${id ? ` ${id}` : ""}`;
  const described = typeof description === "string" && description !== "" ? ` "${description}"` : "";
  const pool = typeof agentPoolId === "string" && agentPoolId !== "" ? ` of agent pool ${agentPoolId}` : "";
  return `${what}${described}${pool}`;
}

function parents(props: Props): Parent[] {
  return [{ kind: "agent pool", id: props.agentPoolId }];
}

/** The 404 rule's record (./gone.ts), with the organization the outputs record, else the pool's. */
function missing(client: WorkspacesClient, id: string, props: Props): Promise<MissingRecord> {
  const record = { label: tokenLabel(id, props.description, props.agentPoolId), kind: "agent token" as const };
  return childRecord(client, record, props, parents(props));
}

function outputsOf(
  t: ApiAgentToken,
  agentPoolId: string,
  from: Props,
  organization: string | undefined,
  token?: string | null,
): AgentTokenOutputs {
  const rotation = from.rotation;
  const secret = token ?? (typeof from.token === "string" ? from.token : undefined);
  return {
    agentPoolId,
    description: splitDescription(t.description).declared,
    ...(typeof rotation === "string" ? { rotation } : {}),
    ...(secret ? { token: secret } : {}),
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    organization: organization ?? null,
  };
}

/** Outputs that carry `adopt` and the origin along, so that a refresh can rebuild the inputs from them. */
function echoed(outs: AgentTokenOutputs, from: Props): AgentTokenOutputs {
  return echoAdopt(outs, from) as AgentTokenOutputs;
}

function checkInputs(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const pool = news.agentPoolId;
  if (pool === undefined || pool === null)
    failures.push({ property: "agentPoolId", reason: "agentPoolId is required" });
  else if (!isUnknown(pool) && !isId("agentPool", pool))
    failures.push({ property: "agentPoolId", reason: "agentPoolId must be an agent pool id (apool-...)" });
  const d = news.description;
  if (d === undefined || d === null) failures.push({ property: "description", reason: "description is required" });
  else if (!isUnknown(d) && (typeof d !== "string" || d.trim() === ""))
    failures.push({ property: "description", reason: "description must be a non-empty string" });
  else if (typeof d === "string" && splitDescription(d).origin)
    failures.push({
      property: "description",
      reason: "description must not end with an origin address in brackets: the create appends the stack's own",
    });
  const r = news.rotation;
  if (r !== undefined && r !== null && !isUnknown(r) && typeof r !== "string")
    failures.push({ property: "rotation", reason: "rotation must be a string" });
  return failures;
}

/** The pool's tokens, or a message naming the pool when the service answers 404 for it. */
async function tokensOf(client: WorkspacesClient, agentPoolId: string, doing: string): Promise<ApiAgentToken[]> {
  try {
    return await client.agentTokens.list(agentPoolId).all();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new ProviderError(
      `cannot ${doing}: the service answered 404 for agent pool ${agentPoolId}, so it does not exist or the token in use may not see its tokens (managing agent tokens takes an owners token, an organization token or a team that manages agent pools).`,
    );
  }
}

/**
 * The pool's one token of exactly this description (a token this package made is read
 * without its origin suffix, as its `description` output shows it), undefined when it has
 * none, an error naming them when several.
 */
async function adoptable(client: WorkspacesClient, inputs: Props): Promise<ApiAgentToken | undefined> {
  const agentPoolId = String(inputs.agentPoolId);
  const description = String(inputs.description);
  const same = (await tokensOf(client, agentPoolId, `adopt an agent token of agent pool ${agentPoolId}`)).filter(
    (t) => splitDescription(t.description ?? "").declared === description,
  );
  if (same.length > 1)
    throw new ProviderError(
      `cannot adopt the agent token "${description}" of agent pool ${agentPoolId}: the pool has ${same.length} tokens of that description (${same.map((t) => t.id).join(", ")}). ` +
        "Delete the ones the agents no longer use, or import one by its at- id (`pulumi import`, on the provider plugin); or drop adopt and let this resource make a new token.",
    );
  return same[0];
}

/** The token an interrupted create of this resource made, if any: deleted, since its secret was lost with the runner. */
async function replaceLost(client: WorkspacesClient, inputs: Props): Promise<void> {
  if (!originOf(inputs)) return;
  const agentPoolId = String(inputs.agentPoolId);
  const tokens = await tokensOf(
    client,
    agentPoolId,
    `create ${tokenLabel(undefined, inputs.description, agentPoolId)}`,
  );
  for (const t of tokens.filter((t) => madeByThisResource(inputs, t.description))) {
    await client.agentTokens.delete(t.id);
    reportInfo(
      `deleted ${tokenLabel(t.id, inputs.description, agentPoolId)}, created by an interrupted update of this stack (its secret was lost with it); a new token replaces it`,
    );
  }
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

const provider: ProviderImpl<AgentTokenInputs & Props, AgentTokenOutputs> = {
  async check(_olds, news) {
    return { inputs: news, failures: checkInputs(news) };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const client = getClient();
    const agentPoolId = String(inputs.agentPoolId);
    const organization = await organizationUnder(client, {}, parents(inputs));
    if (inputs.adopt === true) {
      const found = await adoptable(client, inputs);
      if (found) return { id: found.id, outs: echoed(outputsOf(found, agentPoolId, inputs, organization), inputs) };
    }
    await replaceLost(client, inputs);
    const origin = originOf(inputs);
    const description = String(inputs.description);
    let created;
    try {
      created = await client.agentTokens.create(agentPoolId, origin ? `${description} [${origin}]` : description);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      throw new ProviderError(
        `cannot create ${tokenLabel(undefined, description, agentPoolId)}: the service answered 404 for the pool, so it does not exist or the token in use may not see it (managing agent tokens takes an owners token, an organization token or a team that manages agent pools).`,
      );
    }
    return {
      id: created.id,
      outs: echoed(outputsOf(created, agentPoolId, inputs, organization, created.token), inputs),
    };
  },

  async read(id, props) {
    const client = getClient();
    const ids = idsOf(id);
    let t: ApiAgentToken;
    try {
      t = await client.agentTokens.read(ids.tokenId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await missing(client, ids.tokenId, props), "refresh");
      return {};
    }
    let agentPoolId = typeof props.agentPoolId === "string" ? props.agentPoolId : ids.agentPoolId;
    if (!agentPoolId) {
      const org = (await organizationUnder(client, props, [])) ?? defaultOrganization();
      agentPoolId = org ? await poolOfToken(client, ids.tokenId, org) : undefined;
      if (!agentPoolId)
        throw new ProviderError(
          `cannot read ${tokenLabel(ids.tokenId, t.description, undefined)}: the service does not say which agent pool holds it, and none of organization "${org ?? "(none set)"}" does. Give the id as apool-<id>/${ids.tokenId}.`,
        );
    }
    const organization = await organizationUnder(client, props, parents({ agentPoolId }));
    const outs = outputsOf(t, agentPoolId, props, organization);
    return { id: ids.tokenId, props: echoed(outs, props) };
  },

  async update(_id, olds, news) {
    // Every input but `adopt` replaces the token, and `adopt` sends nothing.
    return { outs: echoed(olds, news) };
  },

  async delete(id, props) {
    const client = getClient();
    const { tokenId } = idsOf(id);
    try {
      await client.agentTokens.delete(tokenId);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, await missing(client, tokenId, props), "delete");
    }
  },
};

const agentTokenLookup: AdoptionLookup = {
  noun: "agent token",
  key(inputs) {
    const { agentPoolId, description } = inputs;
    if ([agentPoolId, description].some((v) => typeof v !== "string" || isUnknown(v))) return undefined;
    return `"${String(description)}" of agent pool ${String(agentPoolId)}`;
  },
  async find(client, inputs) {
    const t = await adoptable(client, inputs);
    if (!t) return undefined;
    return {
      id: t.id,
      label: tokenLabel(t.id, t.description, inputs.agentPoolId),
      seed: { agentPoolId: inputs.agentPoolId, rotation: inputs.rotation, adopt: true },
    };
  },
};

/** The provider, with the preview's line for a token marked `adopt: true`. */
export const agentTokenProvider = reportsAdoption(provider, agentTokenLookup);
