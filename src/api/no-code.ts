/**
 * No-code provisioning (spec 2.7 to 2.9, 4.12 to 4.16): modules enabled for no-code use,
 * their variable options, workspaces created from them and their upgrades.
 *
 * Response attributes are read liberally (see ./common.ts): `null` or a missing key reads
 * as the attribute's absent value; only `id` and `type` are required. Request schemas
 * (the bodies the client sends and the local server checks) stay strict.
 */
import { z } from "zod";
import { documentSchema, maybe, orAbsent, resourceSchema } from "./common";
import { WORKSPACE_NAME_PATTERN } from "./workspaces";
import { VARIABLE_CATEGORY_SPELLINGS } from "./variables";
import { NO_CODE_EXECUTION_MODES, noCodeSettingsShape } from "./workspace-fields";

/** Upgrade (run) statuses: the API documentation names the first six; the rest complete the run's life. */
export const UPGRADE_STATUSES = [
  "pending",
  "fetching",
  "planning",
  "planned",
  "cost_estimated",
  "planned_and_finished",
  "confirmed",
  "applying",
  "applied",
  "errored",
  "discarded",
  "canceled",
] as const;
/** Status of a workspace upgrade (the run that applies it). */
export type UpgradeStatus = (typeof UPGRADE_STATUSES)[number];
/** Statuses at which the plan has settled and the upgrade may be confirmed (or has nothing to apply). */
export const UPGRADE_PLAN_SETTLED: readonly UpgradeStatus[] = ["planned", "cost_estimated", "planned_and_finished"];
/** Statuses after which nothing more happens. */
export const UPGRADE_FINAL: readonly UpgradeStatus[] = [
  "planned_and_finished",
  "applied",
  "errored",
  "discarded",
  "canceled",
];

/** Attributes of a variable options record: the variable, its type and the values allowed for it. */
export const variableOptionsAttributesSchema = z
  .object({
    /** Name of the module variable. */
    "variable-name": orAbsent(z.string(), ""),
    /** Type of the variable as the module declares it (`string`, `number`, ...). */
    "variable-type": orAbsent(z.string(), ""),
    /** Values a workspace made from the module may give the variable. */
    options: orAbsent(z.array(z.unknown()), []),
  })
  .loose();

/** A set of allowed values for one module variable (`variable-options`, id `ncvaropt-`). */
export const variableOptionsResourceSchema = resourceSchema("variable-options", variableOptionsAttributesSchema);
/** A set of allowed values for one module variable (`variable-options`, id `ncvaropt-`). */
export type VariableOptionsResource = z.infer<typeof variableOptionsResourceSchema>;

/** A module enabled for no-code provisioning (`no-code-modules`, id `nocode-`). */
export const noCodeModuleResourceSchema = resourceSchema(
  "no-code-modules",
  z
    .object({
      /** Whether workspaces may be created from the module; the spec's initial value, false, when absent. */
      enabled: orAbsent(z.boolean(), false),
      /** Module version new workspaces are created from. */
      "version-pin": orAbsent(z.string(), ""),
    })
    .loose(),
);
/** A module enabled for no-code provisioning (`no-code-modules`, id `nocode-`). */
export type NoCodeModuleResource = z.infer<typeof noCodeModuleResourceSchema>;
/** Body of a response holding one no-code module. */
export const noCodeModuleDocumentSchema = documentSchema(noCodeModuleResourceSchema);
/** Body of a response holding one no-code module. */
export type NoCodeModuleDocument = z.infer<typeof noCodeModuleDocumentSchema>;

/** `include` values of `GET /no-code-modules/:id` (spec 4.14). */
export const NO_CODE_MODULE_INCLUDES = ["variable_options"] as const;
/** go-tfe asks for `include=variable-options`; the service takes it as `variable_options`. */
export const NO_CODE_MODULE_INCLUDE_ALIASES: Record<string, (typeof NO_CODE_MODULE_INCLUDES)[number]> = {
  "variable-options": "variable_options",
};

/** go-tfe types the bodies of workspace creation and upgrade `no-code-module-workspace`; the API documentation says `workspaces`. */
export const NO_CODE_WORKSPACE_BODY_TYPES = ["workspaces", "no-code-module-workspace"] as const;

const variableOptionsRequestItemSchema = z
  .object({
    type: z.literal("variable-options"),
    id: z.string().min(1).optional(),
    attributes: z
      .object({
        "variable-name": z.string().min(1),
        "variable-type": z.string().min(1),
        options: z.array(z.unknown()),
      })
      .loose(),
  })
  .loose();

/** The service accepts both spellings of the registry module type. */
const registryModuleRelationshipRequestSchema = z
  .object({ data: z.object({ id: z.string().min(1), type: z.enum(["registry-module", "registry-modules"]) }).loose() })
  .loose();

const noCodeModuleAttributesRequestSchema = z
  .object({ "version-pin": z.string().min(1).optional(), enabled: z.boolean().optional() })
  .loose()
  .optional();
const variableOptionsRelationshipRequestSchema = z
  .object({ data: z.array(variableOptionsRequestItemSchema) })
  .loose()
  .optional();

/** Body of `POST /organizations/:organization_name/no-code-modules` (spec 4.12): the registry module is required. */
export const noCodeModuleEnableRequestSchema = z
  .object({
    /** The module to enable: its version pin, registry module and variable options. */
    data: z
      .object({
        type: z.literal("no-code-modules"),
        attributes: noCodeModuleAttributesRequestSchema,
        relationships: z
          .object({
            "registry-module": registryModuleRelationshipRequestSchema,
            "variable-options": variableOptionsRelationshipRequestSchema,
          })
          .loose(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that enables a registry module for no-code provisioning. */
export type NoCodeModuleEnableRequest = z.infer<typeof noCodeModuleEnableRequestSchema>;

/** Body of `PATCH /no-code-modules/:id` (spec 4.13): everything optional, absent keys keep their value. */
export const noCodeModuleUpdateRequestSchema = z
  .object({
    /** The changes: version pin, enabled flag, registry module, variable options. */
    data: z
      .object({
        type: z.literal("no-code-modules"),
        attributes: noCodeModuleAttributesRequestSchema,
        relationships: z
          .object({
            "registry-module": registryModuleRelationshipRequestSchema.optional(),
            "variable-options": variableOptionsRelationshipRequestSchema,
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a no-code module. */
export type NoCodeModuleUpdateRequest = z.infer<typeof noCodeModuleUpdateRequestSchema>;

/** A variable of a workspace created from, or upgraded to, a no-code module (spec 4.15). */
export const noCodeVariableRequestSchema = z
  .object({
    /** Always `vars`. */
    type: z.literal("vars"),
    /** The variable: key, value, category (`engine`, `env`, or the vendor's `terraform`), and its flags. */
    attributes: z
      .object({
        key: z.string().min(1),
        value: z.string().optional(),
        description: z.string().nullable().optional(),
        category: z.enum(VARIABLE_CATEGORY_SPELLINGS),
        hcl: z.boolean().optional(),
        sensitive: z.boolean().optional(),
      })
      .loose(),
  })
  .loose();
/** A variable given when a workspace is created from, or upgraded to, a no-code module. */
export type NoCodeVariableRequest = z.infer<typeof noCodeVariableRequestSchema>;

const varsRelationshipRequestSchema = z.object({ data: z.array(noCodeVariableRequestSchema) }).loose();

/** Body of `POST /no-code-modules/:id/workspaces` (spec 4.15). `auto_apply` is spelled with an underscore. */
export const noCodeWorkspaceCreateRequestSchema = z
  .object({
    /** The workspace to create: its settings, project and variables. */
    data: z
      .object({
        type: z.enum(NO_CODE_WORKSPACE_BODY_TYPES),
        attributes: z
          .object({
            // The field table's no-code settings (`auto-apply` among them, as workspace
            // bodies elsewhere spell it), narrowed where this endpoint is stricter.
            ...noCodeSettingsShape,
            name: z.string().regex(WORKSPACE_NAME_PATTERN, "must contain only letters, digits, - and _"),
            "agent-pool-id": z.string().min(1).nullable().optional(),
            /** The spec's spelling of `auto-apply` on this endpoint. */
            auto_apply: z.boolean().optional(),
            "execution-mode": z.enum(NO_CODE_EXECUTION_MODES).optional(),
          })
          .loose(),
        relationships: z
          .object({
            project: z
              .object({
                data: z.object({ id: z.string().min(1), type: z.enum(["projects", "project"]).optional() }).loose(),
              })
              .loose()
              .optional(),
            vars: varsRelationshipRequestSchema.optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a workspace from a no-code module. */
export type NoCodeWorkspaceCreateRequest = z.infer<typeof noCodeWorkspaceCreateRequestSchema>;

/** Body of `POST /no-code-modules/:no_code_module_id/workspaces/:id/upgrade` (spec 4.16). */
export const workspaceUpgradeRequestSchema = z
  .object({
    /** The upgrade: the variables to set, if any. */
    data: z
      .object({
        type: z.enum(NO_CODE_WORKSPACE_BODY_TYPES),
        relationships: z.object({ vars: varsRelationshipRequestSchema.optional() }).loose().optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that starts a workspace upgrade. */
export type WorkspaceUpgradeRequest = z.infer<typeof workspaceUpgradeRequestSchema>;

/** A workspace upgrade (`workspace-upgrade`); its `id` is the run id (spec 2.9). */
export const workspaceUpgradeResourceSchema = resourceSchema(
  "workspace-upgrade",
  z.object({ status: orAbsent(z.string(), "pending"), "plan-url": maybe(z.string()) }).loose(),
);
/** A workspace upgrade (`workspace-upgrade`); its `id` is the run id. */
export type WorkspaceUpgradeResource = z.infer<typeof workspaceUpgradeResourceSchema>;
/** Body of a response holding one workspace upgrade. */
export const workspaceUpgradeDocumentSchema = documentSchema(workspaceUpgradeResourceSchema);

/** Confirm answers with a short completion message rather than a resource (spec 4.16). */
export const workspaceUpgradeConfirmResponseSchema = z.object({ message: maybe(z.string()) }).loose();
