/**
 * Policies (`policies`, id `pol-`): one Sentinel or OPA policy of an organization, in the
 * hosted service's shapes (`/organizations/:org/policies`, `/policies/:id`). The policy's
 * code travels apart from its document: `PUT /policies/:id/upload` (raw bytes) and
 * `GET /policies/:id/download`.
 *
 * How strictly a policy is enforced is said two ways on the wire: the legacy `enforce`
 * list (`[{path, mode}]`, one entry) and `enforcement-level`. A request gives one of them;
 * the service answers both, saying the same level.
 */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, optionalTimestampSchema, orAbsent, resourceSchema } from "./common";

/** Policy kinds this release knows: `sentinel` (the service's default) and `opa`. */
export const POLICY_KINDS = ["sentinel", "opa"] as const;
/** One of {@link POLICY_KINDS}. */
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** The enforcement levels each kind accepts. */
export const ENFORCEMENT_LEVELS: Readonly<Record<PolicyKind, readonly string[]>> = {
  sentinel: ["advisory", "soft-mandatory", "hard-mandatory"],
  opa: ["advisory", "mandatory"],
};
/** Every enforcement level of any kind. */
export const ALL_ENFORCEMENT_LEVELS = ["advisory", "soft-mandatory", "hard-mandatory", "mandatory"] as const;

/** The file extension of a kind's code (`.sentinel`, `.rego`): the legacy `enforce` path's default. */
export const POLICY_FILE_EXTENSIONS: Readonly<Record<PolicyKind, string>> = { sentinel: ".sentinel", opa: ".rego" };

/**
 * A policy or policy set name: letters, digits, `-`, `_` and `.`, as go-tfe checks before
 * sending; at most {@link POLICY_NAME_MAX} characters.
 */
export const POLICY_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
/** Longest policy or policy set name the service accepts. */
export const POLICY_NAME_MAX = 128;
/** Longest policy or policy set description the service accepts. */
export const POLICY_DESCRIPTION_MAX = 500;

/** The reason a policy or policy set name is refused, or null for a good one (one rule for the server's 422 and a program's check). */
export function policyNameProblem(name: string): string | null {
  if (name.length === 0) return "can't be blank";
  if (name.length > POLICY_NAME_MAX) return `is too long (maximum is ${POLICY_NAME_MAX} characters)`;
  if (!POLICY_NAME_PATTERN.test(name)) return "is invalid: use letters, digits, '-', '_' and '.'";
  return null;
}

/** The reason `level` does not suit `kind`, or null when it does (a kind this release does not know accepts any level). */
export function enforcementLevelProblem(kind: string, level: string): string | null {
  const levels = ENFORCEMENT_LEVELS[kind as PolicyKind] as readonly string[] | undefined;
  if (!levels || levels.includes(level)) return null;
  return `is not valid for a policy of kind ${kind} (${levels.join(", ")})`;
}

/** A name as requests carry it. */
export const policyNameSchema = z.string().superRefine((name, ctx) => {
  const problem = policyNameProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
/** A description as requests carry it. */
export const policyDescriptionSchema = z
  .string()
  .max(POLICY_DESCRIPTION_MAX, `is too long (maximum is ${POLICY_DESCRIPTION_MAX} characters)`)
  .nullable();
const levelSchema = z.enum(ALL_ENFORCEMENT_LEVELS, {
  error: `is not included in the list (${ALL_ENFORCEMENT_LEVELS.join(", ")})`,
});
/** The legacy `enforce` list: one entry, its path the policy's file name. */
const enforceSchema = z.array(z.object({ path: z.string().nullable().optional(), mode: levelSchema }).loose());

/** Body of `POST /organizations/:org/policies`: `enforce` or `enforcement-level`, not both. */
export const policyCreateRequestSchema = z
  .object({
    /** The policy to create. */
    data: z
      .object({
        type: z.literal("policies"),
        attributes: z
          .object({
            name: policyNameSchema,
            /** `sentinel` when absent; a kind this release does not know is sent as given (the service decides). */
            kind: z.string().min(1).optional(),
            /** The OPA query the policy answers (`data.<package>.<rule>`); required for `opa`. */
            query: z.string().nullable().optional(),
            description: policyDescriptionSchema.optional(),
            enforce: enforceSchema.optional(),
            "enforcement-level": levelSchema.optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a policy. */
export type PolicyCreateRequest = z.infer<typeof policyCreateRequestSchema>;

/** Body of `PATCH /policies/:id`: given attributes change, the rest is kept; name and kind never change. */
export const policyUpdateRequestSchema = z
  .object({
    /** What changes. */
    data: z
      .object({
        type: z.literal("policies"),
        attributes: z
          .object({
            query: z.string().nullable().optional(),
            description: policyDescriptionSchema.optional(),
            enforce: enforceSchema.optional(),
            "enforcement-level": levelSchema.optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a policy. */
export type PolicyUpdateRequest = z.infer<typeof policyUpdateRequestSchema>;

/** Attributes of a policy as the service renders it. */
export const policyAttributesSchema = z
  .object({
    name: orAbsent(z.string(), ""),
    /** `sentinel`, `opa`, or a kind this release does not know (read as given). */
    kind: orAbsent(z.string(), "sentinel"),
    /** The OPA query; absent for Sentinel. */
    query: maybe(z.string()),
    description: maybe(z.string()),
    /** The legacy spelling of the level: `[{path, mode}]`. */
    enforce: maybe(z.array(z.object({ path: maybe(z.string()), mode: maybe(z.string()) }).loose())),
    "enforcement-level": maybe(z.string()),
    /** How many policy sets hold the policy. */
    "policy-set-count": maybe(z.number().int()),
    "updated-at": optionalTimestampSchema,
  })
  .loose();

/** A policy (`policies`, id `pol-`); relationship `organization`. */
export const policyResourceSchema = resourceSchema("policies", policyAttributesSchema);
/** A policy as the service renders it. */
export type PolicyResource = z.infer<typeof policyResourceSchema>;
/** Body of a response holding one policy. */
export const policyDocumentSchema = documentSchema(policyResourceSchema);
/** Body of one page of an organization's policies. */
export const policyListDocumentSchema = listDocumentSchema(policyResourceSchema);

/** The level a policy document says: `enforcement-level`, else the legacy `enforce` list's first mode. */
export function enforcementLevelOf(attributes: z.infer<typeof policyAttributesSchema>): string | undefined {
  return attributes["enforcement-level"] ?? attributes.enforce?.[0]?.mode;
}
