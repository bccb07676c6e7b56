/** Request bodies of agent pools (in the hosted service's shape). */
import { z } from "zod";

/** Body of `POST /organizations/:org/agent-pools`. */
export const agentPoolCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("agent-pools"),
        attributes: z.object({ name: z.string().min(1), "organization-scoped": z.boolean().optional() }).loose(),
      })
      .loose(),
  })
  .loose();

/** Body of `PATCH /agent-pools/:id`: absent attributes keep their value. */
export const agentPoolUpdateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("agent-pools"),
        attributes: z
          .object({ name: z.string().min(1).optional(), "organization-scoped": z.boolean().optional() })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
