/** Request bodies of runs. */
import { z } from "zod";

/** Minimal run creation in the hosted shape; runs here never execute, they only hold a status. */
export const runCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("runs"),
        attributes: z
          .object({
            message: z.string().optional(),
            "is-destroy": z.boolean().optional(),
            "auto-apply": z.boolean().optional(),
            "plan-only": z.boolean().optional(),
          })
          .loose()
          .optional(),
        relationships: z
          .object({ workspace: z.object({ data: z.object({ id: z.string().min(1) }).loose() }).loose() })
          .loose(),
      })
      .loose(),
  })
  .loose();
