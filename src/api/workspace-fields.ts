/**
 * The workspace field table: one line per attribute of a workspace, from which the
 * wire schema of the document's attributes and of the settings request
 * (./workspaces.ts), the client's mapping both ways and its `Workspace` type
 * (src/client/workspaces.ts), and the `Workspace` resource's arguments, outputs,
 * output groups and diff rules (src/resources) are derived.
 *
 * Each line says:
 * - `wire`: the attribute's name in the document (and in create/update bodies), as the
 *   hosted service and its official clients spell it (`terraform-version`);
 *   `alias`: the spec's neutral spelling of the same attribute (`engine-version`), read
 *   when `wire` is absent (when both are present and differ, `wire` wins: it is the
 *   name every server of this API stores); `rel`: the relationship it is read from
 *   instead. A line with neither is the resource's own (tags it binds, links, `forceDelete`).
 * - `read` / `write`: the zod schema of the attribute in a response / in a request
 *   (`write: "read"` reuses the response schema). Lines without `write` are computed.
 *   The document's attribute schema also takes `null` for every line (read as absent);
 *   requests stay as strict as `write` says.
 * - `absent`: the client's value when the service leaves the attribute out or sends `null`.
 * - `role`: `input` (given by programs only), `computed` (the service's) or `both`.
 * - `nullable`: a program's `null` clears the setting on the service, and the resource
 *   keeps `null` as the desired value (so a refresh that finds it set shows a diff).
 *   Other inputs refuse `null`; an omitted input is never managed.
 * - `diff`: how the resource compares a desired input with what the service reported
 *   (named rules; src/resources/providers/workspace.ts maps names to functions).
 * - `group`: where the `Workspace` resource puts it: a top-level output, one of the
 *   object outputs `metrics` / `status` / `permissions`, or `none` (not an output).
 * - `client`: the client's property name where it differs from the line's key (the
 *   resource's name).
 *
 * The type parameter of `field<T>()` is the value's type in programs; the derived
 * TypeScript types (client `Workspace`, resource outputs and groups) follow from it.
 * The doc comment of each line documents every derived member.
 */
import { z } from "zod";
import { timestampSchema } from "./common";

/** Who sets a field: the program only, the service only, or both (an input the service echoes). */
type FieldRole = "input" | "computed" | "both";

/** How an input compares with the value the service reported (see the resource provider). */
export type DiffRule =
  | "exact"
  | "replace"
  | "bool"
  | "optionalString"
  | "instant"
  | "stringSet"
  | "stringMap"
  | "tagNames"
  | "vcsRepo"
  | "settingOverwrites";

/** Where the `Workspace` resource places a field among its outputs. */
export type OutputGroup = "top" | "metrics" | "status" | "permissions" | "none";

/** How the client reads a value that is not a plain attribute copy. */
type WireShape = "camelKeys" | "vcsRepo";

/** One line of the table. */
export interface FieldDef {
  /** The attribute's name in the document and in create and update bodies, in the hosted service's spelling. */
  readonly wire?: string;
  /** The spec's neutral spelling of the attribute, read when `wire` is absent. */
  readonly alias?: string;
  /** The relationship the value is read from, for a line that is not an attribute. */
  readonly rel?: string;
  /** The client's property name, where it differs from the line's key. */
  readonly client?: string;
  /** Schema of the attribute in a response. */
  readonly read?: z.ZodType;
  /** Schema of the attribute in a request, or `"read"` to reuse `read`; absent for computed lines. */
  readonly write?: z.ZodType | "read";
  /** The client's value when the service leaves the attribute out or sends `null`. */
  readonly absent?: unknown;
  /** How the client converts a value that is not a plain copy. */
  readonly shape?: WireShape;
  /** Who sets the value. */
  readonly role: FieldRole;
  /** A program's `null` clears the setting on the service (see the module comment). */
  readonly nullable?: true;
  /** How the resource compares an input with the service's value. */
  readonly diff?: DiffRule;
  /** Where the `Workspace` resource places the value among its outputs. */
  readonly group: OutputGroup;
}

/** A line whose program-side value has type `T` (carried as a phantom member for the derived types). */
type Field<T, D extends FieldDef = FieldDef> = D & { readonly __value?: T };

function field<T>() {
  return <const D extends FieldDef>(d: D): Field<T, D> => d;
}

/** `vcs-repo` as the client describes it (spec 2.4). */
export interface VcsRepoValue {
  /** Repository as `owner/name` (or the provider's equivalent). */
  identifier: string;
  /** Branch the workspace follows; empty for the repository's default branch. */
  branch: string;
  /** The repository as the VCS provider displays it. */
  displayIdentifier: string | null;
  /** Whether runs fetch the repository's submodules. */
  ingressSubmodules: boolean;
  /** OAuth token (`ot-...`) of the VCS connection, or null when a VCS app installation is used. */
  oauthTokenId: string | null;
  /** VCS app installation used instead of an OAuth token (`github-app-installation-id` on the wire), or null. */
  vcsAppInstallationId: string | null;
  /** HTTP address of the repository, or null. */
  repositoryHttpUrl: string | null;
  /** VCS provider of the connection (for example `github`), or null. */
  serviceProvider: string | null;
  /** Regular expression of the git tags that start runs, or null when branch pushes do. */
  tagsRegex: string | null;
  /** Address the VCS provider calls on a push, or null. */
  webhookUrl: string | null;
}

/** `vcs-repo` as the service returns it (spec 2.4); every key may be missing or `null`. */
export const vcsRepoSchema = z
  .object({
    /** Branch the workspace follows; empty for the repository's default branch. */
    branch: z.string().nullable().optional(),
    /** The repository as the VCS provider displays it. */
    "display-identifier": z.string().nullable().optional(),
    /** Repository as `owner/name` (or the provider's equivalent). */
    identifier: z.string().nullable().optional(),
    /** Whether runs fetch the repository's submodules. */
    "ingress-submodules": z.boolean().nullable().optional(),
    /** OAuth token (`ot-...`) of the VCS connection, or null when a VCS app installation is used. */
    "oauth-token-id": z.string().nullable().optional(),
    /** GitHub App installation used instead of an OAuth token, as the hosted service spells it, or null. */
    "github-app-installation-id": z.string().nullable().optional(),
    /** The spec's spelling of `github-app-installation-id`, read when that is absent. */
    "vcs-app-installation-id": z.string().nullable().optional(),
    /** HTTP address of the repository. */
    "repository-http-url": z.string().nullable().optional(),
    /** VCS provider of the connection (for example `github`), or null. */
    "service-provider": z.string().nullable().optional(),
    /** Regular expression of the git tags that start runs, or null when branch pushes do. */
    "tags-regex": z.string().nullable().optional(),
    /** Address the VCS provider calls on a push. */
    "webhook-url": z.string().nullable().optional(),
  })
  .loose();

/** `vcs-repo` in a create or update body. Presence rules are checked by `workspaceSettingsProblems`. */
export const vcsRepoRequestSchema = z
  .object({
    /** Repository as `owner/name`; required when a workspace gets its first VCS connection. */
    identifier: z.string().min(1).optional(),
    /** OAuth token (`ot-...`) of the VCS connection; give it or `github-app-installation-id`, not both. */
    "oauth-token-id": z.string().min(1).nullable().optional(),
    /** The spec's spelling of `github-app-installation-id`, accepted for compatibility. */
    "vcs-app-installation-id": z.string().min(1).nullable().optional(),
    /** GitHub App installation to use instead of an OAuth token, as the hosted service and its clients spell it. */
    "github-app-installation-id": z.string().min(1).nullable().optional(),
    /** Branch to follow; empty for the repository's default branch. */
    branch: z.string().optional(),
    /** Whether runs fetch the repository's submodules. */
    "ingress-submodules": z.boolean().optional(),
    /** Regular expression of the git tags that start runs, or null to start runs on branch pushes. */
    "tags-regex": z.string().nullable().optional(),
  })
  .loose();

/** Workspace names: letters, digits, `-` and `_` (spec section 8). */
export const WORKSPACE_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** `auto-destroy-activity-duration`: a value of at most four digits followed by `d` or `h` (its value must also be above 0). */
export const AUTO_DESTROY_DURATION_PATTERN = /^\d{1,4}[dh]$/;

/** True for an `auto-destroy-activity-duration` the service accepts: `1d` to `9999d` or `1h` to `9999h`. */
export function isValidAutoDestroyDuration(value: string): boolean {
  return AUTO_DESTROY_DURATION_PATTERN.test(value) && Number.parseInt(value.slice(0, -1), 10) > 0;
}

/** Execution modes of the spec: where a workspace's runs execute. */
export const EXECUTION_MODES = ["remote", "local", "agent"] as const;
/** Where a workspace's runs execute: `remote` (the service), `local` (the caller's machine) or `agent` (an agent pool). */
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

const bool = z.boolean().optional();
const nullableString = z.string().nullable().optional();
const nullableNumber = z.number().nullable().optional();
const strings = z.array(z.string()).optional();
const flags = z.record(z.string(), z.boolean().nullable());

/** The table. Keys are the resource's names; `client` names the client's property where it differs. */
export const WORKSPACE_FIELDS = {
  /** Organization holding the workspace (from the `organization` relationship). A change replaces a `Workspace`. */
  organization: field<string | null>()({ rel: "organization", role: "both", diff: "replace", group: "top" }),
  /** Workspace name: letters, digits, `-` and `_`, unique in its organization regardless of case. */
  name: field<string>()({
    wire: "name",
    read: z.string(),
    absent: "",
    write: z.string().regex(WORKSPACE_NAME_PATTERN, "must contain only letters, digits, - and _").optional(),
    role: "both",
    diff: "exact",
    group: "top",
  }),
  /** Project (`prj-...`) holding the workspace. */
  project: field<string | null>()({
    rel: "project",
    client: "projectId",
    role: "both",
    diff: "optionalString",
    group: "top",
  }),
  /** Free-text description, or null. `null` removes it. */
  description: field<string | null>()({
    wire: "description",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
  }),
  /** Where runs execute: `remote`, `local` or `agent` (a newer service may send another value). */
  executionMode: field<ExecutionMode | (string & {})>()({
    wire: "execution-mode",
    read: z.string(),
    absent: "remote",
    write: z.enum(EXECUTION_MODES).optional(),
    role: "both",
    diff: "exact",
    group: "top",
  }),
  /** Agent pool (`apool-...`) that runs the workspace when the mode is `agent`, else null. Sent as `agent-pool-id`; `null` (or `""`) means no pool, with a mode other than `agent`. */
  agentPoolId: field<string | null>()({
    rel: "agent-pool",
    wire: "agent-pool-id",
    write: nullableString,
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
  }),
  /** Deprecated mirror of the execution mode: false for `local`, true otherwise. Never together with `executionMode`. */
  operations: field<boolean | null>()({
    wire: "operations",
    read: bool,
    write: "read",
    absent: null,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Whether a successful plan applies without confirmation. */
  autoApply: field<boolean>()({
    wire: "auto-apply",
    read: bool,
    write: "read",
    absent: false,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Whether runs started by a run trigger apply without confirmation. */
  autoApplyRunTrigger: field<boolean>()({
    wire: "auto-apply-run-trigger",
    read: bool,
    write: "read",
    absent: false,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Whether destroy plans may be queued. */
  allowDestroyPlan: field<boolean>()({
    wire: "allow-destroy-plan",
    read: bool,
    write: "read",
    absent: true,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Whether health assessments (drift detection) run. */
  assessmentsEnabled: field<boolean>()({
    wire: "assessments-enabled",
    read: bool,
    write: "read",
    absent: false,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Time (ISO 8601) at which the service destroys the workspace's resources, or null. `null` cancels a scheduled destroy. */
  autoDestroyAt: field<string | null>()({
    wire: "auto-destroy-at",
    read: nullableString,
    write: z.iso
      .datetime({
        offset: true,
        error:
          "must be an ISO 8601 time with an offset, such as 2031-01-02T03:04:05Z, or null to cancel a scheduled destroy",
      })
      .nullable()
      .optional(),
    absent: null,
    role: "both",
    nullable: true,
    diff: "instant",
    group: "top",
  }),
  /** Inactivity after which the service destroys the workspace's resources (`14d`, `12h`), or null. `null` turns it off. */
  autoDestroyActivityDuration: field<string | null>()({
    wire: "auto-destroy-activity-duration",
    read: nullableString,
    write: z
      .string()
      .refine(
        isValidAutoDestroyDuration,
        "must be a number above 0 of at most four digits followed by d or h, such as 14d or 12h, or null to turn it off",
      )
      .nullable()
      .optional(),
    absent: null,
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
  }),
  /** Whether only changes under the trigger prefixes or patterns start runs. */
  fileTriggersEnabled: field<boolean>()({
    wire: "file-triggers-enabled",
    read: bool,
    write: "read",
    absent: true,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Whether every workspace of the organization may read this workspace's state. */
  globalRemoteState: field<boolean>()({
    wire: "global-remote-state",
    read: bool,
    write: "read",
    absent: false,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Whether runs are queued before a configuration is uploaded. */
  queueAllRuns: field<boolean>()({
    wire: "queue-all-runs",
    read: bool,
    write: "read",
    absent: false,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Display name of the tool that created the workspace (shown as `Created via <sourceName>`), or null. */
  sourceName: field<string | null>()({
    wire: "source-name",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    diff: "optionalString",
    group: "top",
  }),
  /** Address of the tool that created the workspace, or null. */
  sourceUrl: field<string | null>()({
    wire: "source-url",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    diff: "optionalString",
    group: "top",
  }),
  /** Whether pull requests get speculative plans. */
  speculativeEnabled: field<boolean>()({
    wire: "speculative-enabled",
    read: bool,
    write: "read",
    absent: true,
    role: "both",
    diff: "bool",
    group: "top",
  }),
  /** Engine version, exact or a constraint (`terraform-version` on the wire; the spec's `engine-version` is read too), or null. */
  engineVersion: field<string | null>()({
    wire: "terraform-version",
    alias: "engine-version",
    read: nullableString,
    write: z.string().min(1).optional(),
    absent: null,
    role: "both",
    diff: "optionalString",
    group: "top",
  }),
  /** Glob patterns of files whose changes start runs (with `fileTriggersEnabled`; order does not matter). */
  triggerPatterns: field<string[]>()({
    wire: "trigger-patterns",
    read: strings,
    write: "read",
    absent: [],
    role: "both",
    diff: "stringSet",
    group: "top",
  }),
  /** Path prefixes whose changes start runs (with `fileTriggersEnabled`; order does not matter). */
  triggerPrefixes: field<string[]>()({
    wire: "trigger-prefixes",
    read: strings,
    write: "read",
    absent: [],
    role: "both",
    diff: "stringSet",
    group: "top",
  }),
  /** VCS connection, or null for a workspace without one. `null` removes the connection; `tagsRegex: null` inside it starts runs on branch pushes again. */
  vcsRepo: field<VcsRepoValue | null>()({
    wire: "vcs-repo",
    read: vcsRepoSchema.nullable().optional(),
    write: vcsRepoRequestSchema.nullable().optional(),
    shape: "vcsRepo",
    absent: null,
    role: "both",
    nullable: true,
    diff: "vcsRepo",
    group: "top",
  }),
  /** Directory of the repository the engine runs in, or null for the root. `null` removes it (runs start at the root). */
  workingDirectory: field<string | null>()({
    wire: "working-directory",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
  }),
  /** Which settings are set on the workspace itself rather than inherited from its project or organization. */
  settingOverwrites: field<{ executionMode?: boolean; agentPool?: boolean }>()({
    wire: "setting-overwrites",
    read: z
      .object({ "execution-mode": z.boolean().nullable().optional(), "agent-pool": z.boolean().nullable().optional() })
      .loose()
      .optional(),
    write: z
      .object({ "execution-mode": z.boolean().optional(), "agent-pool": z.boolean().optional() })
      .loose()
      .optional(),
    shape: "camelKeys",
    role: "both",
    diff: "settingOverwrites",
    group: "top",
  }),
  /** Key-value tags bound directly to the workspace. */
  tags: field<Record<string, string>>()({ role: "input", diff: "stringMap", group: "top" }),
  /** Flat tags, lower-cased as the service stores them. */
  tagNames: field<string[]>()({
    wire: "tag-names",
    read: strings,
    absent: [],
    role: "both",
    diff: "tagNames",
    group: "top",
  }),
  /** SSH key (`sshkey-...`) assigned for fetching private modules, or null. `null` (or `""`) unassigns it. */
  sshKeyId: field<string | null>()({
    rel: "ssh-key",
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
  }),
  /** Whether delete removes the workspace even while it manages resources (the input, echoed). */
  forceDelete: field<boolean>()({ role: "input", diff: "bool", group: "top" }),
  /**
   * Key-value tags in effect: direct bindings plus those inherited from the project.
   * A workspace created with flat tags (one request) shows its direct bindings here
   * until the next refresh adds the inherited ones.
   */
  effectiveTags: field<Record<string, string>>()({ role: "computed", group: "top" }),
  /** API path of the workspace (`links.self`), or null. */
  selfLink: field<string | null>()({ role: "computed", group: "top" }),
  /** UI path of the workspace (`links.self-html`), or null. */
  htmlLink: field<string | null>()({ role: "computed", group: "top" }),

  /** The caller's permissions on the workspace (spec 2.3), camel-cased (`canUpdate`, `canForceDelete`, ...). */
  permissions: field<Record<string, boolean>>()({
    wire: "permissions",
    read: flags.optional(),
    shape: "camelKeys",
    role: "computed",
    group: "permissions",
  }),

  /** Number of resources in the workspace's current state. */
  resourceCount: field<number>()({
    wire: "resource-count",
    read: z.number().int().optional(),
    absent: 0,
    role: "computed",
    group: "metrics",
  }),
  /** Average apply duration in milliseconds, or null. */
  applyDurationAverage: field<number | null>()({
    wire: "apply-duration-average",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Average plan duration in milliseconds, or null. */
  planDurationAverage: field<number | null>()({
    wire: "plan-duration-average",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Number of runs whose policy checks failed, or null. */
  policyCheckFailures: field<number | null>()({
    wire: "policy-check-failures",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Number of failed runs, or null. */
  runFailures: field<number | null>()({
    wire: "run-failures",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Number of runs counted for the workspace's indicators, or null. */
  workspaceKpisRunsCount: field<number | null>()({
    wire: "workspace-kpis-runs-count",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),

  /** Whether the workspace is locked. */
  locked: field<boolean>()({ wire: "locked", read: z.boolean(), absent: false, role: "computed", group: "status" }),
  /** Reason given when it was locked, or null. */
  lockedReason: field<string | null>()({
    wire: "locked-reason",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Id of the user (or run/team) holding the lock, or null. */
  lockedBy: field<string | null>()({ rel: "locked-by", client: "lockedById", role: "computed", group: "status" }),
  /** Actions the service currently allows (`isDestroyable`). */
  actions: field<{ isDestroyable?: boolean }>()({
    wire: "actions",
    read: z.object({ "is-destroyable": z.boolean().nullable().optional() }).loose().optional(),
    shape: "camelKeys",
    role: "computed",
    group: "status",
  }),
  /** State of a scheduled auto-destroy as the service reports it, or null. */
  autoDestroyStatus: field<string | null>()({
    wire: "auto-destroy-status",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Whether the auto-destroy setting comes from the project, or null when the service does not say. */
  inheritsProjectAutoDestroy: field<boolean | null>()({
    wire: "inherits-project-auto-destroy",
    read: z.boolean().nullable().optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Time of the latest health assessment (ISO 8601), or null. */
  lastAssessmentResultAt: field<string | null>()({
    wire: "last-assessment-result-at",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Latest run (`run-...`), or null. */
  currentRunId: field<string | null>()({ rel: "current-run", role: "computed", group: "status" }),
  /** Current state version (`sv-...`), or null. */
  currentStateVersionId: field<string | null>()({ rel: "current-state-version", role: "computed", group: "status" }),
  /** Latest configuration version (`cv-...`), or null. */
  currentConfigurationVersionId: field<string | null>()({
    rel: "current-configuration-version",
    role: "computed",
    group: "status",
  }),
  /** Creation time (ISO 8601). */
  createdAt: field<string>()({
    wire: "created-at",
    read: timestampSchema,
    absent: "",
    role: "computed",
    group: "status",
  }),
  /** Last update time (ISO 8601), or null. */
  updatedAt: field<string | null>()({
    wire: "updated-at",
    read: timestampSchema.optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Time of the latest change to the workspace or its runs (ISO 8601), or null. */
  latestChangeAt: field<string | null>()({
    wire: "latest-change-at",
    read: timestampSchema.optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Environment name the service assigns, or null. */
  environment: field<string | null>()({
    wire: "environment",
    read: z.string().optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** What created the workspace (for example `tfe-api` or `no-code`), or null. */
  source: field<string | null>()({
    wire: "source",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Registry module a no-code workspace was made from, or null. */
  sourceModuleId: field<string | null>()({
    wire: "source-module-id",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** For a no-code workspace: whether a newer module version or variable options are available; null otherwise. */
  noCodeUpgradeAvailable: field<boolean | null>()({
    wire: "no-code-upgrade-available",
    read: z.boolean().nullable().optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** For a no-code workspace: the module version it was provisioned from; null otherwise. */
  noCodeModuleVersionId: field<string | null>()({ rel: "no-code-module-version", role: "computed", group: "status" }),
  /** Whether run output is structured (the newer run UI). */
  structuredRunOutputEnabled: field<boolean>()({
    wire: "structured-run-output-enabled",
    read: bool,
    write: "read",
    absent: true,
    role: "computed",
    group: "status",
  }),
  /** Name of the VCS OAuth client of the connection, or null. */
  oauthClientName: field<string | null>()({
    wire: "oauth-client-name",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Repository of the VCS connection (`:org/:repo`), or null. */
  vcsRepoIdentifier: field<string | null>()({
    wire: "vcs-repo-identifier",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
} as const;

/** The type of the table, from which the derived types are computed. */
export type WorkspaceFieldTable = typeof WORKSPACE_FIELDS;
/** Key of a line of the table (the `Workspace` resource's name of the field). */
export type WorkspaceFieldName = keyof WorkspaceFieldTable;

/** The program-side value type of a line. */
export type ValueOf<F> = F extends { readonly __value?: infer T } ? T : never;

// ---------------------------------------------------------------------------
// Derived wire schemas

type ReadShape = {
  [
    K in WorkspaceFieldName as WorkspaceFieldTable[K] extends { wire: infer W extends string; read: z.ZodType }
      ? W
      : never
  ]: WorkspaceFieldTable[K] extends {
    read: infer S extends z.ZodType;
  }
    ? z.ZodOptional<z.ZodNullable<S>>
    : never;
};

/** The request schema of a line (its `write`, or its `read` where `write` is `"read"`). */
export type WriteSchemaOf<F> = F extends { write: "read"; read: infer S }
  ? S
  : F extends { write: infer S extends z.ZodType }
    ? S
    : never;
type WriteShape = {
  [
    K in WorkspaceFieldName as WorkspaceFieldTable[K] extends { wire: infer W extends string; write: unknown }
      ? W
      : never
  ]: WriteSchemaOf<WorkspaceFieldTable[K]>;
};

const entries = Object.entries(WORKSPACE_FIELDS) as [WorkspaceFieldName, FieldDef][];

/** The zod shape of the workspace document's attributes, one key per table line with `wire` and `read`; `null` and a missing key read as absent. */
export const workspaceAttributesShape = Object.fromEntries(
  entries.filter(([, f]) => f.wire && f.read).map(([, f]) => [f.wire!, f.read!.nullable().optional()]),
) as unknown as ReadShape;

/** The zod shape of the settable attributes of create and update, one key per table line with `write`. */
export const workspaceSettingsShape = Object.fromEntries(
  entries.filter(([, f]) => f.wire && f.write).map(([, f]) => [f.wire!, f.write === "read" ? f.read! : f.write!]),
) as unknown as WriteShape;

/** Plain settings the client sends in create and update bodies as they are, as `[client name, wire name]` (nested ones are built by the client). */
export const WORKSPACE_SETTING_WIRE: readonly (readonly [string, string])[] = entries
  .filter(([k, f]) => f.wire && f.write && k !== "name" && f.shape === undefined)
  .map(([k, f]) => [f.client ?? k, f.wire!] as const);

/** The client's property name of a line. */
export function clientName(key: WorkspaceFieldName): string {
  return (WORKSPACE_FIELDS[key] as FieldDef).client ?? key;
}

/** The table's lines as `[key, line]` pairs, in table order. */
export { entries as workspaceFieldEntries };
