/** The lines of the workspace field table the service reports (./workspace-fields.ts), in table order. */
import { z } from "zod";
import { timestampSchema, type Integer } from "./common";
import {
  bool,
  field,
  flags,
  nullableNumber,
  nullableString,
  type WorkspaceStatusActions,
} from "./workspace-field-kinds";

/** The last lines of the table: what the service computes and reports. */
export const WORKSPACE_REPORTED_FIELDS = {
  /**
   * Key-value tags in effect: direct bindings plus those inherited from the project.
   * A workspace created with flat tags (one request) shows its direct bindings here
   * until the next refresh adds the inherited ones.
   */
  effectiveTags: field<Record<string, string>>()({ role: "computed", group: "top" }),
  /** API path of the workspace (`links.self`); absent when the service sends none. */
  selfLink: field<string | null>()({ role: "computed", group: "top", noCode: "reported" }),
  /** UI path of the workspace (`links.self-html`); absent when the service sends none. */
  htmlLink: field<string | null>()({ role: "computed", group: "top", noCode: "reported" }),

  /** The caller's permissions on the workspace (spec 2.3), camel-cased (`canUpdate`, `canForceDelete`, ...). */
  permissions: field<Record<string, boolean>>()({
    wire: "permissions",
    read: flags.optional(),
    shape: "camelKeys",
    role: "computed",
    group: "permissions",
  }),

  /** Number of resources in the workspace's current state. */
  resourceCount: field<Integer>()({
    wire: "resource-count",
    read: z.number().int().optional(),
    absent: 0,
    role: "computed",
    group: "metrics",
    noCode: "reported",
  }),
  /** Average apply duration in milliseconds; absent when the service reports none. */
  applyDurationAverage: field<number | null>()({
    wire: "apply-duration-average",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Average plan duration in milliseconds; absent when the service reports none. */
  planDurationAverage: field<number | null>()({
    wire: "plan-duration-average",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Number of runs whose policy checks failed; absent when the service reports none. */
  policyCheckFailures: field<Integer | null>()({
    wire: "policy-check-failures",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Number of failed runs; absent when the service reports none. */
  runFailures: field<Integer | null>()({
    wire: "run-failures",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),
  /** Number of runs counted for the workspace's indicators; absent when the service reports none. */
  workspaceKpisRunsCount: field<Integer | null>()({
    wire: "workspace-kpis-runs-count",
    read: nullableNumber,
    absent: null,
    role: "computed",
    group: "metrics",
  }),

  /** Whether the workspace is locked. */
  locked: field<boolean>()({
    wire: "locked",
    read: z.boolean(),
    absent: false,
    role: "computed",
    group: "status",
    noCode: "reported",
  }),
  /** Reason given when it was locked; absent when the service reports none. */
  lockedReason: field<string | null>()({
    wire: "locked-reason",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Id of the user (or run/team) holding the lock; absent when the service reports none. */
  lockedBy: field<string | null>()({ rel: "locked-by", client: "lockedById", role: "computed", group: "status" }),
  /** Actions the service currently allows (`isDestroyable`). */
  actions: field<WorkspaceStatusActions>()({
    wire: "actions",
    read: z.object({ "is-destroyable": z.boolean().nullable().optional() }).loose().optional(),
    shape: "camelKeys",
    role: "computed",
    group: "status",
  }),
  /** State of a scheduled auto-destroy as the service reports it; absent when the service reports none. */
  autoDestroyStatus: field<string | null>()({
    wire: "auto-destroy-status",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Whether the auto-destroy setting comes from the project; absent when the service does not say. */
  inheritsProjectAutoDestroy: field<boolean | null>()({
    wire: "inherits-project-auto-destroy",
    read: z.boolean().nullable().optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Time of the latest health assessment (ISO 8601); absent when the service reports none. */
  lastAssessmentResultAt: field<string | null>()({
    wire: "last-assessment-result-at",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Latest run (`run-...`); absent when the service reports none. */
  currentRunId: field<string | null>()({ rel: "current-run", role: "computed", group: "status" }),
  /** Current state version (`sv-...`); absent when the service reports none. */
  currentStateVersionId: field<string | null>()({ rel: "current-state-version", role: "computed", group: "status" }),
  /** Latest configuration version (`cv-...`); absent when the service reports none. */
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
    noCode: "reported",
  }),
  /** Last update time (ISO 8601); absent when the service reports none. */
  updatedAt: field<string | null>()({
    wire: "updated-at",
    read: timestampSchema.optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Time of the latest change to the workspace or its runs (ISO 8601); absent when the service reports none. */
  latestChangeAt: field<string | null>()({
    wire: "latest-change-at",
    read: timestampSchema.optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Environment name the service assigns; absent when the service reports none. */
  environment: field<string | null>()({
    wire: "environment",
    read: z.string().optional(),
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** What created the workspace (for example `tfe-api` or `no-code`); absent when the service reports none. */
  source: field<string | null>()({
    wire: "source",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Registry module a no-code workspace was made from; absent when the service reports none. */
  sourceModuleId: field<string | null>()({
    wire: "source-module-id",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
    noCode: "reported",
  }),
  /** For a no-code workspace: whether a newer module version or variable options are available; absent otherwise. */
  noCodeUpgradeAvailable: field<boolean | null>()({
    wire: "no-code-upgrade-available",
    read: z.boolean().nullable().optional(),
    absent: null,
    role: "computed",
    group: "status",
    noCode: "reported",
  }),
  /** For a no-code workspace: the module version it was provisioned from; absent otherwise. */
  noCodeModuleVersionId: field<string | null>()({
    rel: "no-code-module-version",
    role: "computed",
    group: "status",
    noCode: "reported",
  }),
  /** Whether run output is structured (the newer run UI). */
  structuredRunOutputEnabled: field<boolean>()({
    wire: "structured-run-output-enabled",
    read: bool,
    write: "read",
    absent: true,
    role: "computed",
    group: "status",
  }),
  /** Name of the VCS OAuth client of the connection; absent when the service reports none. */
  oauthClientName: field<string | null>()({
    wire: "oauth-client-name",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
  /** Repository of the VCS connection (`:org/:repo`); absent when the service reports none. */
  vcsRepoIdentifier: field<string | null>()({
    wire: "vcs-repo-identifier",
    read: nullableString,
    absent: null,
    role: "computed",
    group: "status",
  }),
} as const;
