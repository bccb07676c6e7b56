/**
 * Variables (`vars`): a workspace's own and a variable set's, in the hosted service's
 * shape. On the wire the engine's own category is spelled `terraform`; programs say
 * `engine`. Both spellings are read and accepted, and the server answers a request in
 * the spelling it was given (go-tfe compares against its `terraform` constant).
 *
 * Response attributes are read liberally (see ./common.ts); request schemas are strict
 * about the keys the service defines, so that bad input gets a 422 naming the key.
 */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";
import { VARIABLE_CATEGORY_SPELLINGS } from "./variable-categories";

export {
  VARIABLE_CATEGORIES,
  VARIABLE_CATEGORY_ALIASES,
  VARIABLE_CATEGORY_ON_THE_WIRE,
  VARIABLE_CATEGORY_SPELLINGS,
  variableCategoryOf,
  type VariableCategory,
} from "./variable-categories";

/**
 * A variable key: letters, digits, `_`, `-` and `.`, at most 128 characters. It may start
 * with a digit (go-tfe's tests use random UUIDs as keys); it has no space, `=` or control
 * character, which neither an engine input nor an environment variable can carry.
 */
export const VARIABLE_KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** Longest variable key the service accepts. */
export const VARIABLE_KEY_MAX = 128;
/** Longest variable description the service accepts. */
export const VARIABLE_DESCRIPTION_MAX = 512;

/** The reason a key is refused, or null when it is a good one (one rule for the server's 422 and a program's check). */
export function variableKeyProblem(key: string): string | null {
  if (key.length === 0) return "can't be blank";
  if (key.length > VARIABLE_KEY_MAX) return `is too long (maximum is ${VARIABLE_KEY_MAX} characters)`;
  if (!VARIABLE_KEY_PATTERN.test(key))
    return "is invalid: use letters, digits, '_', '-' and '.', starting with a letter, a digit or '_'";
  return null;
}

const keySchema = z.string().superRefine((key, ctx) => {
  const problem = variableKeyProblem(key);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const descriptionSchema = z
  .string()
  .max(VARIABLE_DESCRIPTION_MAX, `is too long (maximum is ${VARIABLE_DESCRIPTION_MAX} characters)`)
  .nullable();
const categorySchema = z.enum(VARIABLE_CATEGORY_SPELLINGS, {
  error: "is not included in the list (terraform, engine, env)",
});

/** Attributes of a variable as the service renders it. `value` is null (or absent) for a sensitive variable. */
export const variableAttributesSchema = z
  .object({
    key: orAbsent(z.string(), ""),
    value: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    /** `terraform` (read as `engine`) or `env`; a server that does not say reads as `engine`. */
    category: orAbsent(z.string(), "engine"),
    hcl: maybe(z.boolean()),
    sensitive: maybe(z.boolean()),
    /** Changes on every update of the variable. */
    "version-id": maybe(z.string()),
  })
  .loose();

/**
 * A variable (`vars`) as the hosted service renders it: a workspace's own (relationship
 * `configurable`) or a variable set's (relationship `varset`). A sensitive value is never shown.
 */
export const variableResourceSchema = resourceSchema("vars", variableAttributesSchema);
/** A variable (`vars`, id `var-`). */
export type VariableResource = z.infer<typeof variableResourceSchema>;
/** Body of a response holding one variable. */
export const variableDocumentSchema = documentSchema(variableResourceSchema);
/** Body of a list of variables (a workspace's, a variable set's, or a workspace's effective ones). */
export const variableListDocumentSchema = listDocumentSchema(variableResourceSchema);

/** Body of `POST /workspaces/:id/vars` and `POST /varsets/:id/relationships/vars`. */
export const variableCreateRequestSchema = z
  .object({
    /** The variable to create. */
    data: z
      .object({
        type: z.literal("vars"),
        attributes: z
          .object({
            key: keySchema,
            value: z.string().nullable().optional(),
            description: descriptionSchema.optional(),
            category: categorySchema,
            hcl: z.boolean().optional(),
            sensitive: z.boolean().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a variable. */
export type VariableCreateRequest = z.infer<typeof variableCreateRequestSchema>;

/** Body of `PATCH /workspaces/:id/vars/:var_id` and `PATCH /varsets/:id/relationships/vars/:var_id`: only the given attributes change. */
export const variableUpdateRequestSchema = z
  .object({
    /** The changes to make. */
    data: z
      .object({
        type: z.literal("vars"),
        id: z.string().optional(),
        attributes: z
          .object({
            key: keySchema.optional(),
            value: z.string().nullable().optional(),
            description: descriptionSchema.optional(),
            category: categorySchema.optional(),
            hcl: z.boolean().optional(),
            sensitive: z.boolean().optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a variable. */
export type VariableUpdateRequest = z.infer<typeof variableUpdateRequestSchema>;
