/**
 * Policy sets (`policy-sets`, id `polset-`), their parameters (`vars` under
 * `/policy-sets/:id/parameters`, id `var-`) and their versions (`policy-set-versions`,
 * id `polsetver-`), in the hosted service's shapes.
 *
 * A set holds its policies one of two ways: attached individually (relationship
 * `policies`) or as a version, a `.tar.gz` of a policies folder uploaded to the version's
 * `links.upload`. It applies to the workspaces and projects it lists, less its exclusions,
 * or to every workspace when `global`.
 */
import { z } from "zod";
import {
  documentSchema,
  identifiersBodySchema,
  listDocumentSchema,
  maybe,
  optionalTimestampSchema,
  orAbsent,
  resourceSchema,
} from "./common";
import { policyDescriptionSchema, policyNameSchema } from "./policies";

/** The lists of a policy set, as its relationships name them on the wire. */
export const POLICY_SET_LISTS = [
  "policies",
  "workspaces",
  "workspace-exclusions",
  "projects",
  "project-exclusions",
] as const;
/** One of {@link POLICY_SET_LISTS}. */
export type PolicySetList = (typeof POLICY_SET_LISTS)[number];
/** The record type each list holds. */
export const POLICY_SET_LIST_TYPES: Readonly<Record<PolicySetList, "policies" | "workspaces" | "projects">> = {
  policies: "policies",
  workspaces: "workspaces",
  "workspace-exclusions": "workspaces",
  projects: "projects",
  "project-exclusions": "projects",
};

/** `include` values of a policy set read or list (go-tfe spells them with `_`). */
export const POLICY_SET_INCLUDES = [
  "policies",
  "workspaces",
  "workspace_exclusions",
  "projects",
  "project_exclusions",
  "newest_version",
  "current_version",
] as const;

/**
 * The detail of the service's 422 for a parameter on a set that cannot use one: an OPA
 * set, or a set whose policies are attached individually (only a versioned Sentinel set
 * passes parameters to its policies). Said once, for the server that answers it and the
 * resources that refuse it at preview.
 */
export const PARAMETER_NOT_ALLOWED_DETAIL =
  "Parameters can only be set on a Sentinel policy set whose policies come from a version (uploaded or VCS), not on an OPA set or one whose policies are attached individually";

/** The only category of a policy set parameter. */
export const POLICY_SET_PARAMETER_CATEGORY = "policy-set";

/** A tag selector of a set: workspaces whose tag `tag-key` (of value `tag-value`, any value when null) it includes or excludes. */
const tagSelectorSchema = z
  .object({
    "tag-key": z.string().min(1, "can't be blank"),
    "tag-value": z.string().nullable().optional(),
    "is-exclude": z.boolean().optional(),
  })
  .loose();

const identifiers = (type: "policies" | "workspaces" | "projects") =>
  z
    .object({ data: z.array(z.object({ type: z.literal(type), id: z.string().min(1) }).loose()) })
    .loose()
    .optional();

/** The attributes a create or update may give (name and kind apart). */
const settableAttributes = {
  description: policyDescriptionSchema.optional(),
  global: z.boolean().optional(),
  /** OPA only: whether a member of the organization may override a failed mandatory policy. */
  overridable: z.boolean().nullable().optional(),
  "agent-enabled": z.boolean().optional(),
  "policy-tool-version": z.string().nullable().optional(),
  "policy-update-patterns": z.array(z.string()).nullable().optional(),
  "policies-path": z.string().nullable().optional(),
  "tag-selector-matching-logic": z.enum(["any", "all"]).nullable().optional(),
};

/** Body of `POST /organizations/:org/policy-sets`. */
export const policySetCreateRequestSchema = z
  .object({
    /** The set to create: its attributes and the lists it starts with. */
    data: z
      .object({
        type: z.literal("policy-sets"),
        attributes: z
          .object({
            name: policyNameSchema,
            /** `sentinel` when absent; a kind this release does not know is sent as given (the service decides). */
            kind: z.string().min(1).optional(),
            ...settableAttributes,
            "tag-selectors": z.array(tagSelectorSchema).nullable().optional(),
          })
          .loose(),
        relationships: z
          .object({
            policies: identifiers("policies"),
            workspaces: identifiers("workspaces"),
            "workspace-exclusions": identifiers("workspaces"),
            projects: identifiers("projects"),
            "project-exclusions": identifiers("projects"),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a policy set. */
export type PolicySetCreateRequest = z.infer<typeof policySetCreateRequestSchema>;

/** Body of `PATCH /policy-sets/:id`: given attributes change, the rest is kept; the kind never changes. */
export const policySetUpdateRequestSchema = z
  .object({
    /** What changes. */
    data: z
      .object({
        type: z.literal("policy-sets"),
        attributes: z
          .object({ name: policyNameSchema.optional(), ...settableAttributes })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a policy set. */
export type PolicySetUpdateRequest = z.infer<typeof policySetUpdateRequestSchema>;

/** Body of `POST`/`DELETE /policy-sets/:id/relationships/policies`. */
export const policySetPoliciesBodySchema = identifiersBodySchema("policies");
/** Body of `POST`/`DELETE /policy-sets/:id/relationships/{workspaces,workspace-exclusions}`. */
export const policySetWorkspacesBodySchema = identifiersBodySchema("workspaces");
/** Body of `POST`/`DELETE /policy-sets/:id/relationships/{projects,project-exclusions}`. */
export const policySetProjectsBodySchema = identifiersBodySchema("projects");
/** Body of `POST`/`DELETE /policy-sets/:id/tag-selectors`. */
export const policySetTagSelectorsBodySchema = z.object({ data: z.array(tagSelectorSchema) }).loose();

/** Attributes of a policy set as the service renders it. */
export const policySetAttributesSchema = z
  .object({
    name: orAbsent(z.string(), ""),
    description: maybe(z.string()),
    /** `sentinel`, `opa`, or a kind this release does not know (read as given). */
    kind: orAbsent(z.string(), "sentinel"),
    /** OPA only; null for a Sentinel set. */
    overridable: maybe(z.boolean()),
    global: maybe(z.boolean()),
    "policies-path": maybe(z.string()),
    "policy-count": maybe(z.number().int()),
    "workspace-count": maybe(z.number().int()),
    "project-count": maybe(z.number().int()),
    "agent-enabled": maybe(z.boolean()),
    "policy-tool-version": maybe(z.string()),
    "policy-update-patterns": maybe(z.array(z.string())),
    "tag-selectors": maybe(
      z.array(
        z
          .object({
            "tag-key": orAbsent(z.string(), ""),
            "tag-value": maybe(z.string()),
            "is-exclude": maybe(z.boolean()),
          })
          .loose(),
      ),
    ),
    "created-at": optionalTimestampSchema,
    "updated-at": optionalTimestampSchema,
  })
  .loose();

/**
 * A policy set (`policy-sets`, id `polset-`). Relationships `policies`, `workspaces`,
 * `workspace-exclusions`, `projects` and `project-exclusions` hold its lists (read them
 * with `relationshipIds`), `newest-version` and `current-version` its versions.
 */
export const policySetResourceSchema = resourceSchema("policy-sets", policySetAttributesSchema);
/** A policy set as the service renders it. */
export type PolicySetResource = z.infer<typeof policySetResourceSchema>;
/** Body of a response holding one policy set. */
export const policySetDocumentSchema = documentSchema(policySetResourceSchema);
/** Body of one page of an organization's policy sets. */
export const policySetListDocumentSchema = listDocumentSchema(policySetResourceSchema);

/** Body of `POST /policy-sets/:id/parameters`. */
export const policySetParameterCreateRequestSchema = z
  .object({
    /** The parameter to create. */
    data: z
      .object({
        type: z.literal("vars"),
        attributes: z
          .object({
            key: z.string().min(1, "can't be blank"),
            value: z.string().nullable().optional(),
            category: z.literal(POLICY_SET_PARAMETER_CATEGORY, { error: "must be policy-set" }),
            sensitive: z.boolean().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a policy set parameter. */
export type PolicySetParameterCreateRequest = z.infer<typeof policySetParameterCreateRequestSchema>;

/** Body of `PATCH /policy-sets/:id/parameters/:param_id`: only the given attributes change. */
export const policySetParameterUpdateRequestSchema = z
  .object({
    /** The changes to make. */
    data: z
      .object({
        type: z.literal("vars"),
        id: z.string().optional(),
        attributes: z
          .object({
            key: z.string().min(1, "can't be blank").optional(),
            value: z.string().nullable().optional(),
            sensitive: z.boolean().optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a policy set parameter. */
export type PolicySetParameterUpdateRequest = z.infer<typeof policySetParameterUpdateRequestSchema>;

/**
 * A policy set parameter (`vars`, id `var-`; relationship `configurable` names the set).
 * A sensitive value is never answered: `value` is empty.
 */
export const policySetParameterResourceSchema = resourceSchema(
  "vars",
  z
    .object({
      key: orAbsent(z.string(), ""),
      value: maybe(z.string()),
      category: orAbsent(z.string(), POLICY_SET_PARAMETER_CATEGORY),
      sensitive: maybe(z.boolean()),
    })
    .loose(),
);
/** A policy set parameter as the service renders it. */
export type PolicySetParameterResource = z.infer<typeof policySetParameterResourceSchema>;
/** Body of a response holding one policy set parameter. */
export const policySetParameterDocumentSchema = documentSchema(policySetParameterResourceSchema);
/** Body of a set's parameters. */
export const policySetParameterListDocumentSchema = listDocumentSchema(policySetParameterResourceSchema);

/** Statuses of a policy set version: `pending` until its tarball arrives, then `ready`, or `errored` for a bad one. */
export const POLICY_SET_VERSION_STATUSES = ["pending", "ingressing", "ready", "errored"] as const;

/**
 * A policy set version (`policy-set-versions`, id `polsetver-`): `links.upload` is where
 * its `.tar.gz` goes; relationship `policy-set` names the set.
 */
export const policySetVersionResourceSchema = resourceSchema(
  "policy-set-versions",
  z
    .object({
      /** `tfe-api` for an uploaded version; a VCS provider's name for one from a repository. */
      source: maybe(z.string()),
      status: orAbsent(z.string(), "pending"),
      "status-timestamps": maybe(z.record(z.string(), z.string().nullable())),
      error: maybe(z.string()),
      "error-message": maybe(z.string()),
      "created-at": optionalTimestampSchema,
      "updated-at": optionalTimestampSchema,
    })
    .loose(),
);
/** A policy set version as the service renders it. */
export type PolicySetVersionResource = z.infer<typeof policySetVersionResourceSchema>;
/** Body of a response holding one policy set version. */
export const policySetVersionDocumentSchema = documentSchema(policySetVersionResourceSchema);
