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
export type StateVersionOutputResource = z.infer<typeof stateVersionOutputResourceSchema>;
export const stateVersionOutputDocumentSchema = documentSchema(stateVersionOutputResourceSchema);
export const stateVersionOutputListDocumentSchema = listDocumentSchema(stateVersionOutputResourceSchema);
