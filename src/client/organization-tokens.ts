/**
 * Organization tokens (`client.organizationTokens`): one organization token and one
 * audit-trail token per organization (`/organizations/:org/authentication-token`, the
 * type chosen by `?token=audit-trails`); a create replaces the previous token of its
 * type. The secret is answered once, by the create, and never again.
 */
import {
  authTokenDocumentSchema,
  ORGANIZATION_TOKEN_TYPE_PARAM,
  type AuthTokenResource,
  type OrganizationTokenType,
} from "../api/auth-tokens";
import type { RequestSpec } from "./request-spec";
import { createSpec, secretOf, toAuthToken, tokenCreateBody, type AuthToken, type Created } from "./team-tokens";
import { type Transport, urlPath } from "./transport";

export type { OrganizationTokenType };

/** An organization or audit-trail token. */
export interface OrganizationToken extends AuthToken {
  /** The organization whose token it is. */
  organization: string;
  /** `organization` (the organization's rights) or `audit-trails` (reads the audit trail only). */
  tokenType: OrganizationTokenType;
}

/** Which of the organization's two tokens a call is about. */
export interface OrganizationTokenTypeOptions {
  /** `organization` (the default) or `audit-trails`. */
  tokenType?: OrganizationTokenType;
}

/** An organization token to make. */
export interface OrganizationTokenCreateOptions extends OrganizationTokenTypeOptions {
  /** When the token stops working (RFC 3339, `expired-at`); absent: never. */
  expiredAt?: string;
}

/** Organization token calls of a {@link WorkspacesClient} (`client.organizationTokens`). */
export class OrganizationTokens {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /organizations/:org/authentication-token`: a new token of the type, replacing
   * the organization's previous one of that type. The answer carries the secret, which
   * no later call can read.
   */
  async create(
    organization: string,
    options: OrganizationTokenCreateOptions = {},
  ): Promise<Created<OrganizationToken>> {
    const path = this.path(organization);
    const attributes = options.expiredAt !== undefined ? { "expired-at": options.expiredAt } : {};
    const doc = await this.transport.requestParsed(
      createSpec(path, tokenCreateBody("POST", path, attributes), this.query(options)),
      authTokenDocumentSchema,
    );
    return { ...this.toToken(doc.data, organization, options), token: secretOf(doc.data) };
  }

  /** `GET /organizations/:org/authentication-token`: the token of the type, without its secret (404 when there is none). */
  async read(organization: string, options: OrganizationTokenTypeOptions = {}): Promise<OrganizationToken> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: this.path(organization), query: this.query(options), repeat: "idempotent" },
      authTokenDocumentSchema,
    );
    return this.toToken(doc.data, organization, options);
  }

  /** `DELETE /organizations/:org/authentication-token`: revokes the token of the type. A retry that finds it gone means the first attempt deleted it. */
  async delete(organization: string, options: OrganizationTokenTypeOptions = {}): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: this.path(organization),
      query: this.query(options),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  private path(organization: string): string {
    return urlPath("organizations", organization, "authentication-token");
  }

  /** The query that selects the audit-trail token; the organization token needs none. */
  private query(options: OrganizationTokenTypeOptions): RequestSpec["query"] {
    return options.tokenType === "audit-trails" ? { [ORGANIZATION_TOKEN_TYPE_PARAM]: "audit-trails" } : undefined;
  }

  private toToken(
    r: AuthTokenResource,
    organization: string,
    options: OrganizationTokenTypeOptions,
  ): OrganizationToken {
    return { ...toAuthToken(r), organization, tokenType: options.tokenType ?? "organization" };
  }
}
