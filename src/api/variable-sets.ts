/**
 * Variable sets (`varsets`): named groups of variables an organization applies to
 * workspaces, to projects or to every workspace (`global`), and the precedence between
 * a workspace's own variables and those of its sets, as the hosted service documents it.
 * The rule lives in ./precedence.ts (without zod, so that the web view's page bundles it
 * too) and is re-exported here: the local server's `GET /workspaces/:id/all-vars`, the
 * client's effective-variables lookup and the page are one rule.
 */
import { z } from "zod";
import { documentSchema, identifiersBodySchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";
import { VARIABLE_DESCRIPTION_MAX, variableCreateRequestSchema } from "./variables";

export {
  effectiveVariablesOf,
  type EffectiveVariable,
  type KeyedVariable,
  type PrecedenceSet,
  type VariableSetScope,
  type VariableSource,
} from "./precedence";

/** Longest variable set name the service accepts. */
export const VARIABLE_SET_NAME_MAX = 128;

/** Attributes of a variable set as the service renders it. */
export const variableSetAttributesSchema = z
  .object({
    name: orAbsent(z.string(), ""),
    description: z.string().nullable().optional(),
    /** Applied to every workspace of the organization. */
    global: maybe(z.boolean()),
    /** Its variables override a workspace's own (and the command line's). */
    priority: maybe(z.boolean()),
    "updated-at": maybe(z.string()),
    "var-count": maybe(z.number()),
    "workspace-count": maybe(z.number()),
    "project-count": maybe(z.number()),
  })
  .loose();

/** A variable set (`varsets`, id `varset-`). */
export const variableSetResourceSchema = resourceSchema("varsets", variableSetAttributesSchema);
/** A variable set as received. */
export type VariableSetResource = z.infer<typeof variableSetResourceSchema>;
/** Body of a response holding one variable set. */
export const variableSetDocumentSchema = documentSchema(variableSetResourceSchema);
/** Body of a list of variable sets. */
export const variableSetListDocumentSchema = listDocumentSchema(variableSetResourceSchema);

/** `include` values of a variable set read or list. */
export const VARIABLE_SET_INCLUDES = ["workspaces", "projects", "vars"] as const;

const nameSchema = z
  .string()
  .min(1, "can't be blank")
  .max(VARIABLE_SET_NAME_MAX, `is too long (maximum is ${VARIABLE_SET_NAME_MAX} characters)`);
const descriptionSchema = z
  .string()
  .max(VARIABLE_DESCRIPTION_MAX, `is too long (maximum is ${VARIABLE_DESCRIPTION_MAX} characters)`)
  .nullable();
const identifiers = (type: "workspaces" | "projects") =>
  z
    .object({ data: z.array(z.object({ type: z.literal(type), id: z.string().min(1) }).loose()) })
    .loose()
    .optional();
/** The owner of a set: the organization (the default) or one project, whose admins then manage it. */
const parentSchema = z
  .object({
    data: z
      .object({ type: z.enum(["organizations", "projects"]), id: z.string().min(1) })
      .loose()
      .nullable(),
  })
  .loose()
  .optional();

/** The attributes a create gives; an update gives any of them. */
const setAttributes = z
  .object({
    name: nameSchema,
    description: descriptionSchema.optional(),
    global: z.boolean().optional(),
    priority: z.boolean().optional(),
  })
  .loose();

/** Body of `POST /organizations/:org/varsets`: the set, and optionally where it applies and its first variables. */
export const variableSetCreateRequestSchema = z
  .object({
    /** The variable set to create. */
    data: z
      .object({
        type: z.literal("varsets"),
        attributes: setAttributes,
        relationships: z
          .object({
            workspaces: identifiers("workspaces"),
            projects: identifiers("projects"),
            vars: z
              .object({ data: z.array(variableCreateRequestSchema.shape.data) })
              .loose()
              .optional(),
            parent: parentSchema,
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a variable set. */
export type VariableSetCreateRequest = z.infer<typeof variableSetCreateRequestSchema>;

/** Body of `PATCH /varsets/:id`: only the given attributes change; a relationship given replaces the set's list. */
export const variableSetUpdateRequestSchema = z
  .object({
    /** The changes to make. */
    data: z
      .object({
        type: z.literal("varsets"),
        attributes: setAttributes.extend({ name: nameSchema.optional() }).optional(),
        relationships: z
          .object({ workspaces: identifiers("workspaces"), projects: identifiers("projects") })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a variable set. */
export type VariableSetUpdateRequest = z.infer<typeof variableSetUpdateRequestSchema>;

/** Body of `POST`/`DELETE /varsets/:id/relationships/workspaces`. */
export const variableSetWorkspacesBodySchema = identifiersBodySchema("workspaces");
/** Body of `POST`/`DELETE /varsets/:id/relationships/projects`. */
export const variableSetProjectsBodySchema = identifiersBodySchema("projects");
