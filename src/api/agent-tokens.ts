/**
 * Agent tokens of an agent pool, in the hosted service's shapes
 * (`/agent-pools/:id/authentication-tokens`, `/authentication-tokens/:id`). The secret
 * (`token`) is answered once, by the create; no read ever carries it again.
 */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, optionalTimestampSchema, orAbsent, resourceSchema } from "./common";

/** Body of `POST /agent-pools/:id/authentication-tokens` (go-tfe sends the type `agent-tokens`). */
export const agentTokenCreateRequestSchema = z
  .object({
    /** The token to create: its description. */
    data: z
      .object({
        type: z.enum(["agent-tokens", "authentication-tokens"]),
        attributes: z.object({ description: z.string().trim().min(1, "can't be blank") }).loose(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates an agent token. */
export type AgentTokenCreateRequest = z.infer<typeof agentTokenCreateRequestSchema>;

/**
 * An agent token as read back (`authentication-tokens`, id `at-`); `token` is present
 * only in the create's answer. Relationship `created-by` names the user who made it.
 * Team and organization tokens share the shape (./auth-tokens.ts).
 */
export const agentTokenResourceSchema = resourceSchema(
  "authentication-tokens",
  z
    .object({
      description: orAbsent(z.string(), ""),
      /** The secret: only in the answer to the create. */
      token: maybe(z.string()),
      "created-at": optionalTimestampSchema,
      "last-used-at": optionalTimestampSchema,
      /** When the token stops working (team and organization tokens; agent tokens have none). */
      "expired-at": optionalTimestampSchema,
    })
    .loose(),
);
/** An agent token as the service renders it. */
export type AgentTokenResource = z.infer<typeof agentTokenResourceSchema>;
/** Body of a response holding one agent token. */
export const agentTokenDocumentSchema = documentSchema(agentTokenResourceSchema);
/** Body of one page of a pool's agent tokens. */
export const agentTokenListDocumentSchema = listDocumentSchema(agentTokenResourceSchema);
