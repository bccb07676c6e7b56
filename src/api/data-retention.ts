/** Data retention policies of a workspace (in the hosted service's shape). */
import { z } from "zod";

/** Type of a policy that deletes state versions older than some days. */
export const DELETE_OLDER = "data-retention-policy-delete-olders";
/** Type of a policy that keeps every state version. */
export const DONT_DELETE = "data-retention-policy-dont-deletes";

/** Body of `PATCH /workspaces/:id/relationships/data-retention-policy`: delete state versions older than some days, or keep them all. */
export const dataRetentionPolicyRequestSchema = z
  .object({
    data: z.discriminatedUnion("type", [
      z
        .object({
          type: z.literal(DELETE_OLDER),
          attributes: z.object({ "delete-older-than-n-days": z.number().int().min(1) }).loose(),
        })
        .loose(),
      z.object({ type: z.literal(DONT_DELETE), attributes: z.object({}).loose().optional() }).loose(),
    ]),
  })
  .loose();
