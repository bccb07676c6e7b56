/**
 * Team tokens (`client.teamTokens`): what a team's automation authenticates with. A team
 * has at most one legacy token (`/teams/:id/authentication-token`; a create replaces the
 * previous one) and any number of described ones (`/teams/:id/authentication-tokens`,
 * their descriptions unique in the team). The secret is answered once, by the create, and
 * never again; no call logs or keeps it.
 */
import {
  authTokenCreateSchema,
  authTokenDocumentSchema,
  authTokenListDocumentSchema,
  type AuthTokenResource,
} from "../api/auth-tokens";
import { orUnavailable, organizationOwner } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import type { RequestSpec } from "./request-spec";
import { type Transport, urlPath } from "./transport";
import { checkedBody, relId } from "./wire";

/** Who made a token (`created-by`): a user, a team or an organization, as the service names it. */
export interface TokenCreator {
  /** The JSON:API type of the creator (`users`, `teams`, `organizations`). */
  type: string;
  /** Its id (`user-...`, `team-...`) or, for an organization, its name. */
  id: string;
}

/** What every team and organization token shows: never its secret. */
export interface AuthToken {
  /** Token id (`at-...`). */
  id: string;
  /** The description given at create, or null for a token made without one. */
  description: string | null;
  /** When the token was created (ISO 8601), or null when the service does not say. */
  createdAt: string | null;
  /** When it was last used (ISO 8601), or null when never or when the service does not say. */
  lastUsedAt: string | null;
  /** When it stops working (`expired-at`, ISO 8601), or null when it does not expire. */
  expiredAt: string | null;
  /** Who made it, when the service says. */
  createdBy?: TokenCreator;
}

/** A team token. */
export interface TeamToken extends AuthToken {
  /** The team (`team-...`) whose rights the token carries. */
  teamId: string;
}

/** The answer of a create: the only one that carries the secret. */
export type Created<T> = T & {
  /** The secret, or null when the answer left it out; the service never shows it again. */
  token: string | null;
};

/** A team token to make. */
export interface TeamTokenCreateOptions {
  /** Given: one of the team's several described tokens (unique in the team). Absent: the team's legacy token, replacing the one it has. */
  description?: string;
  /** When the token stops working (RFC 3339, `expired-at`); absent: never. */
  expiredAt?: string;
}

/** Filters of the organization's team token list. */
export interface TeamTokenListOptions {
  /** Only the tokens of this team (`team-...`). */
  teamId?: string;
}

/** The fields every team and organization token has, from its resource object. */
export function toAuthToken(r: AuthTokenResource): AuthToken {
  const a = r.attributes;
  const out: AuthToken = {
    id: r.id,
    description: a.description === "" ? null : a.description,
    createdAt: a["created-at"] ?? null,
    lastUsedAt: a["last-used-at"] ?? null,
    expiredAt: a["expired-at"] ?? null,
  };
  const creator = r.relationships?.["created-by"]?.data;
  if (creator && !Array.isArray(creator)) out.createdBy = { type: creator.type, id: creator.id };
  return out;
}

/** `token` of a create's answer: the secret, or null when the answer left it out. */
export function secretOf(r: AuthTokenResource): string | null {
  const token = r.attributes.token;
  return typeof token === "string" && token !== "" ? token : null;
}

/** The body of a token create: its description and expiry, when given. */
export function tokenCreateBody(method: "POST", path: string, attributes: Record<string, unknown>) {
  return checkedBody(authTokenCreateSchema, method, path, { data: { type: "authentication-tokens", attributes } });
}

/** Sends a token create; never repeated after it reached the service (a repeat would make a second token, or replace the first). */
export function createSpec(path: string, body: unknown, query?: RequestSpec["query"]): RequestSpec {
  return { method: "POST", path, query, body, repeat: "once", conflict: "create" };
}

const toTeamToken = (r: AuthTokenResource, teamId: string | null): TeamToken => ({
  ...toAuthToken(r),
  teamId: relId(r, "team") ?? teamId ?? "",
});

/** Team token calls of a {@link WorkspacesClient} (`client.teamTokens`). */
export class TeamTokens {
  constructor(private readonly transport: Transport) {}

  /**
   * Makes a token: with a description `POST /teams/:id/authentication-tokens` (a server
   * without described tokens, OTF, raises {@link FeatureUnavailableError}), without one
   * the legacy `POST /teams/:id/authentication-token`, which replaces the team's legacy
   * token. The answer carries the secret, which no later call can read.
   */
  async create(teamId: string, options: TeamTokenCreateOptions = {}): Promise<Created<TeamToken>> {
    const described = options.description !== undefined;
    const path = urlPath("teams", teamId, described ? "authentication-tokens" : "authentication-token");
    const attributes: Record<string, unknown> = {};
    if (described) attributes.description = options.description;
    if (options.expiredAt !== undefined) attributes["expired-at"] = options.expiredAt;
    const spec = createSpec(path, tokenCreateBody("POST", path, attributes));
    const send = () => this.transport.requestParsed(spec, authTokenDocumentSchema);
    const doc = described
      ? await orUnavailable(this.transport, "multiple team tokens", urlPath("teams", teamId), send)
      : await send();
    return { ...toTeamToken(doc.data, teamId), token: secretOf(doc.data) };
  }

  /** `GET /teams/:id/authentication-token`: the team's legacy token, without its secret (404 when it has none). */
  async readLegacy(teamId: string): Promise<TeamToken> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("teams", teamId, "authentication-token"), repeat: "idempotent" },
      authTokenDocumentSchema,
    );
    return toTeamToken(doc.data, teamId);
  }

  /** `GET /authentication-tokens/:id`: any team token by id, without its secret. */
  async read(tokenId: string): Promise<TeamToken> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("authentication-tokens", tokenId), repeat: "idempotent" },
      authTokenDocumentSchema,
    );
    return toTeamToken(doc.data, null);
  }

  /**
   * `GET /organizations/:org/team-tokens`, 100 per page: the organization's team tokens
   * the caller may see, legacy and described, without their secrets. A server without the
   * list (OTF) raises {@link FeatureUnavailableError}.
   */
  list(organization: string, options: TeamTokenListOptions = {}): PagedList<TeamToken> {
    const { teamId } = options;
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "team-tokens"),
      {},
      authTokenListDocumentSchema,
      (r) => toTeamToken(r, null),
      (request) => orUnavailable(this.transport, "multiple team tokens", organizationOwner(organization), request),
      teamId ? (t) => t.teamId === teamId : undefined,
    );
  }

  /** `DELETE /teams/:id/authentication-token`: revokes the team's legacy token. A retry that finds it gone means the first attempt deleted it. */
  async deleteLegacy(teamId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("teams", teamId, "authentication-token"),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `DELETE /authentication-tokens/:id`: revokes one token, legacy or described. A retry that finds it gone means the first attempt deleted it. */
  async delete(tokenId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("authentication-tokens", tokenId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
