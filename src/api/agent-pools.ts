/**
 * Agent pools and their lists of who may use them, in the hosted service's shapes
 * (`/organizations/:org/agent-pools`, `/agent-pools/:id`). A pool that is not
 * organization-scoped serves only the workspaces it allows (its allowed workspaces, or
 * the workspaces of its allowed projects) and never its excluded workspaces.
 */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, optionalTimestampSchema, orAbsent, resourceSchema } from "./common";

/** The lists of an agent pool, as its relationships name them on the wire. */
export const AGENT_POOL_LISTS = ["allowed-workspaces", "allowed-projects", "excluded-workspaces"] as const;
/** One of {@link AGENT_POOL_LISTS}. */
export type AgentPoolList = (typeof AGENT_POOL_LISTS)[number];
/** The record type each list holds. */
export const AGENT_POOL_LIST_TYPES: Readonly<Record<AgentPoolList, "workspaces" | "projects">> = {
  "allowed-workspaces": "workspaces",
  "allowed-projects": "projects",
  "excluded-workspaces": "workspaces",
};

/** `include` values of an agent pool read or list. */
export const AGENT_POOL_INCLUDES = ["workspaces", "hyok-configurations"] as const;

/** `sort` values of an agent pool list (a leading `-` reverses). */
export const AGENT_POOL_SORTS = ["name", "-name", "created-at", "-created-at"] as const;

/**
 * The detail of the service's 422 for a workspace put on a pool that does not allow it
 * (pointer `/data/attributes/agent-pool-id`): said once, for the server that answers it
 * and the client that recognises it.
 */
export const AGENT_POOL_NOT_ALLOWED_DETAIL = "Agent pool workspace does not have access to use this agent pool";

const identifiers = (type: "workspaces" | "projects") =>
  z
    .object({ data: z.array(z.object({ type: z.literal(type), id: z.string().min(1) }).loose()) })
    .loose()
    .optional();

/** The lists a create or update may give; a list given replaces the pool's, `[]` clears it, an absent one is kept. */
const listsSchema = z
  .object({
    "allowed-workspaces": identifiers("workspaces"),
    "allowed-projects": identifiers("projects"),
    "excluded-workspaces": identifiers("workspaces"),
  })
  .loose()
  .optional();

/** Body of `POST /organizations/:org/agent-pools`. */
export const agentPoolCreateRequestSchema = z
  .object({
    /** The pool to create: its name, scope and the lists of who may use it. */
    data: z
      .object({
        type: z.literal("agent-pools"),
        attributes: z.object({ name: z.string().min(1), "organization-scoped": z.boolean().optional() }).loose(),
        relationships: listsSchema,
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates an agent pool. */
export type AgentPoolCreateRequest = z.infer<typeof agentPoolCreateRequestSchema>;

/** Body of `PATCH /agent-pools/:id`: absent attributes and lists keep their value. */
export const agentPoolUpdateRequestSchema = z
  .object({
    /** What changes: attributes and lists that are given; the rest is kept. */
    data: z
      .object({
        type: z.literal("agent-pools"),
        attributes: z
          .object({ name: z.string().min(1).optional(), "organization-scoped": z.boolean().optional() })
          .loose()
          .optional(),
        relationships: listsSchema,
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates an agent pool. */
export type AgentPoolUpdateRequest = z.infer<typeof agentPoolUpdateRequestSchema>;

/**
 * An agent pool as read back (`agent-pools`, id `apool-`). Its relationships
 * `allowed-workspaces`, `allowed-projects` and `excluded-workspaces` hold the lists
 * (read them with {@link relationshipIds}); `workspaces` the workspaces running on it.
 */
export const agentPoolResourceSchema = resourceSchema(
  "agent-pools",
  z
    .object({
      name: orAbsent(z.string(), ""),
      "organization-scoped": maybe(z.boolean()),
      "agent-count": maybe(z.number().int()),
      "created-at": optionalTimestampSchema,
    })
    .loose(),
);
/** An agent pool as the service renders it. */
export type AgentPoolResource = z.infer<typeof agentPoolResourceSchema>;
/** Body of a response holding one agent pool. */
export const agentPoolDocumentSchema = documentSchema(agentPoolResourceSchema);
/** Body of one page of an organization's agent pools. */
export const agentPoolListDocumentSchema = listDocumentSchema(agentPoolResourceSchema);

/** The ids a to-many relationship of a resource holds (none when the relationship is absent or `null`). */
export function relationshipIds(
  resource: { relationships?: Record<string, { data?: unknown }> | undefined },
  name: string,
): string[] {
  const data = resource.relationships?.[name]?.data;
  return Array.isArray(data) ? data.map((d: { id: string }) => d.id) : [];
}
