/** State version outputs (`/state-version-outputs/:id`, `/workspaces/:id/current-state-version-outputs`), as the hosted service sends them. */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";

/** An output as read back; `value` is null for a sensitive output the caller may not see. */
export const stateVersionOutputResourceSchema = resourceSchema(
  "state-version-outputs",
  z
    .object({
      name: orAbsent(z.string(), ""),
      sensitive: orAbsent(z.boolean(), false),
      type: maybe(z.string()),
      value: z.unknown().optional(),
      "detailed-type": z.unknown().optional(),
    })
    .loose(),
);
/** An output of a state version (`state-version-outputs`, id `wsout-`). */
export type StateVersionOutputResource = z.infer<typeof stateVersionOutputResourceSchema>;
/** Body of a response holding one output. */
export const stateVersionOutputDocumentSchema = documentSchema(stateVersionOutputResourceSchema);
/** Body of a list of outputs (a workspace's current state's). */
export const stateVersionOutputListDocumentSchema = listDocumentSchema(stateVersionOutputResourceSchema);
