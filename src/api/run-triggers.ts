/** Run triggers: a run in a source workspace queues a run in the workspace that names it (hosted service's shapes). */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, optionalTimestampSchema, resourceSchema } from "./common";

/** The directions a workspace's run triggers are listed in (`filter[run-trigger][type]`, required). */
export const RUN_TRIGGER_DIRECTIONS = ["inbound", "outbound"] as const;
/** One of {@link RUN_TRIGGER_DIRECTIONS}: `inbound` (its sources) or `outbound` (the workspaces it triggers). */
export type RunTriggerDirection = (typeof RUN_TRIGGER_DIRECTIONS)[number];

/** The service's limit of source workspaces per workspace. */
export const MAX_RUN_TRIGGER_SOURCES = 20;

/** What a run trigger's `include` may name. */
export const RUN_TRIGGER_INCLUDES = ["workspace", "sourceable"] as const;

/** Body of `POST /workspaces/:id/run-triggers`: the source workspace. */
export const runTriggerCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("run-triggers").optional(),
        relationships: z
          .object({
            sourceable: z
              .object({
                data: z.object({ id: z.string().min(1), type: z.literal("workspaces").optional() }).loose(),
              })
              .loose(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** A run trigger as read back. */
export const runTriggerResourceSchema = resourceSchema(
  "run-triggers",
  z
    .object({
      "created-at": optionalTimestampSchema,
      "sourceable-name": maybe(z.string()),
      "workspace-name": maybe(z.string()),
    })
    .loose(),
);
/** A run trigger (`run-triggers`, id `rt-`). */
export type RunTriggerResource = z.infer<typeof runTriggerResourceSchema>;
/** Body of a response holding one run trigger. */
export const runTriggerDocumentSchema = documentSchema(runTriggerResourceSchema);
/** Body of one page of a workspace's run triggers. */
export const runTriggerListDocumentSchema = listDocumentSchema(runTriggerResourceSchema);
