/**
 * Agent tokens of an agent pool (`client.agentTokens`): what the pool's agents
 * authenticate with. The secret is answered once, by the create, and never again.
 */
import {
  agentTokenCreateRequestSchema,
  agentTokenDocumentSchema,
  agentTokenListDocumentSchema,
  type AgentTokenResource,
} from "../api/agent-tokens";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { checkedBody, relId } from "./wire";

/** An agent token as every read shows it: without its secret. */
export interface AgentToken {
  /** Agent token id (`at-...`). */
  id: string;
  /** Description given at create. */
  description: string;
  /** When the token was created (`created-at`, ISO 8601), or null when the service does not say. */
  createdAt: string | null;
  /** When an agent last used it (`last-used-at`, ISO 8601), or null when never or when the service does not say. */
  lastUsedAt: string | null;
  /** The user who created it (`created-by`), or null when the service does not say. */
  createdById: string | null;
}

/** A token just created: the only answer that carries its secret. */
export interface CreatedAgentToken extends AgentToken {
  /** The secret the agents start with, or null when the answer left it out; the service never shows it again. */
  token: string | null;
}

function toAgentToken(r: AgentTokenResource): AgentToken {
  const a = r.attributes;
  return {
    id: r.id,
    description: a.description,
    createdAt: a["created-at"] ?? null,
    lastUsedAt: a["last-used-at"] ?? null,
    createdById: relId(r, "created-by"),
  };
}

/** Agent token calls of a {@link WorkspacesClient} (`client.agentTokens`). No call logs or keeps the secret. */
export class AgentTokens {
  constructor(private readonly transport: Transport) {}

  /** `GET /agent-pools/:id/authentication-tokens`, 100 per page, without their secrets. */
  list(agentPoolId: string): PagedList<AgentToken> {
    return pagedGet(
      this.transport,
      urlPath("agent-pools", agentPoolId, "authentication-tokens"),
      {},
      agentTokenListDocumentSchema,
      toAgentToken,
    );
  }

  /** `GET /authentication-tokens/:id`, without its secret. */
  async read(agentTokenId: string): Promise<AgentToken> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("authentication-tokens", agentTokenId), repeat: "idempotent" },
      agentTokenDocumentSchema,
    );
    return toAgentToken(doc.data);
  }

  /**
   * `POST /agent-pools/:id/authentication-tokens`: a new token with its secret, which no
   * later call can read. Never repeated after it reached the service: a repeat would make
   * a second token (tokens have no unique name).
   */
  async create(agentPoolId: string, description: string): Promise<CreatedAgentToken> {
    const path = urlPath("agent-pools", agentPoolId, "authentication-tokens");
    const body = checkedBody(agentTokenCreateRequestSchema, "POST", path, {
      data: { type: "authentication-tokens", attributes: { description } },
    });
    const doc = await this.transport.requestParsed(
      { method: "POST", path, body, repeat: "once", conflict: "create" },
      agentTokenDocumentSchema,
    );
    const token = doc.data.attributes.token;
    return { ...toAgentToken(doc.data), token: typeof token === "string" && token !== "" ? token : null };
  }

  /** `DELETE /authentication-tokens/:id`: the agents using it are refused from then on. A retry that finds it gone means the first attempt deleted it. */
  async delete(agentTokenId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("authentication-tokens", agentTokenId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
