/**
 * Team and organization tokens, in the hosted service's shapes: a team's legacy single
 * token (`/teams/:id/authentication-token`), its described tokens
 * (`/teams/:id/authentication-tokens`, `/organizations/:org/team-tokens`,
 * `/authentication-tokens/:id`), and an organization's token and audit-trail token
 * (`/organizations/:org/authentication-token?token=audit-trails`). The resource object is
 * the one agent tokens share (`authentication-tokens`); the secret (`token`) is answered
 * once, by the create.
 */
import { z } from "zod";
import { agentTokenDocumentSchema, agentTokenListDocumentSchema, agentTokenResourceSchema } from "./agent-tokens";

/** The kinds of organization token: one of each per organization. */
export const ORGANIZATION_TOKEN_TYPES = ["organization", "audit-trails"] as const;
/** One of {@link ORGANIZATION_TOKEN_TYPES}. */
export type OrganizationTokenType = (typeof ORGANIZATION_TOKEN_TYPES)[number];

/**
 * The query parameter that selects an organization token's type on create, read and
 * delete, as go-tfe sends it (`?token=audit-trails`); the local server also accepts
 * `token_type`. Absent: the organization token.
 */
export const ORGANIZATION_TOKEN_TYPE_PARAM = "token";

const expiredAt = z.iso.datetime({ offset: true, error: "must be an ISO 8601 time, such as 2031-01-02T03:04:05Z" });

/**
 * Body of `POST /teams/:id/authentication-token(s)` and
 * `POST /organizations/:org/authentication-token`. The body is optional (go-tfe sends
 * `{"data":{"type":"authentication-tokens"}}` or `{"data":{"type":"","attributes":{}}}`),
 * hence the liberal `type`; `description` (which may be empty) names one of a team's several tokens.
 */
export const authTokenCreateSchema = z
  .object({
    /** The token to mint: its description and expiry, both optional. */
    data: z
      .object({
        type: z.string().optional(),
        attributes: z
          .object({
            description: z.string().nullish(),
            "expired-at": expiredAt.nullish(),
          })
          .loose()
          .nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();
/** Body of a request that creates a team or organization token. */
export type AuthTokenCreateRequest = z.infer<typeof authTokenCreateSchema>;

/**
 * A team or organization token as read back: the agent token's shape (`expired-at` among
 * its attributes). Relationships: `team` (team tokens), `created-by` (a user, team or organization).
 */
export const authTokenResourceSchema = agentTokenResourceSchema;
/** A team or organization token as the service renders it. */
export type AuthTokenResource = z.infer<typeof authTokenResourceSchema>;
/** Body of a response holding one team or organization token. */
export const authTokenDocumentSchema = agentTokenDocumentSchema;
/** Body of one page of an organization's team tokens. */
export const authTokenListDocumentSchema = agentTokenListDocumentSchema;
