/** The lines of the workspace field table a program sets (./workspace-fields.ts), in table order. */
import { z } from "zod";
import {
  EXECUTION_MODES,
  isValidAutoDestroyDuration,
  WORKSPACE_NAME_PATTERN,
  bool,
  field,
  nullableString,
  strings,
  vcsRepoRequestSchema,
  vcsRepoSchema,
  type ExecutionMode,
  type SettingOverwritesValue,
  type VcsRepoValue,
} from "./workspace-field-kinds";

/** The first lines of the table: what programs set, and the tags and flags the resource owns. */
export const WORKSPACE_SETTING_FIELDS = {
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
    noCode: "setting",
  }),
  /** Project (`prj-...`) holding the workspace. */
  project: field<string | null>()({
    rel: "project",
    client: "projectId",
    role: "both",
    diff: "optionalString",
    group: "top",
    noCode: "setting",
  }),
  /** Free-text description; absent when it has none. `""` removes it (as does `null` in TypeScript). */
  description: field<string | null>()({
    wire: "description",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
    noCode: "setting",
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
    noCode: "setting",
  }),
  /** Agent pool (`apool-...`) that runs the workspace when the mode is `agent`; absent otherwise. Sent as `agent-pool-id`; `""` means no pool (as does `null` in TypeScript), with a mode other than `agent`. */
  agentPoolId: field<string | null>()({
    rel: "agent-pool",
    wire: "agent-pool-id",
    write: nullableString,
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
    noCode: "setting",
  }),
  /**
   * Deprecated mirror of the execution mode: false for `local`, true otherwise. Never together with `executionMode`.
   * @deprecated Use `executionMode` (`remote`, `local` or `agent`) instead; `operations` is its older, true-or-false form.
   */
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
    noCode: "setting",
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
  /** Time (ISO 8601) at which the service destroys the workspace's resources; absent when none is scheduled. `""` cancels a scheduled destroy (as does `null` in TypeScript). */
  autoDestroyAt: field<string | null>()({
    wire: "auto-destroy-at",
    read: nullableString,
    write: z.iso
      .datetime({
        offset: true,
        error:
          "must be an ISO 8601 time with an offset, such as 2031-01-02T03:04:05Z, or empty to cancel a scheduled destroy",
      })
      .nullable()
      .optional(),
    absent: null,
    role: "both",
    nullable: true,
    diff: "instant",
    group: "top",
  }),
  /** Inactivity after which the service destroys the workspace's resources (`14d`, `12h`); absent when off. `""` turns it off (as does `null` in TypeScript). */
  autoDestroyActivityDuration: field<string | null>()({
    wire: "auto-destroy-activity-duration",
    read: nullableString,
    write: z
      .string()
      .refine(
        isValidAutoDestroyDuration,
        "must be a number above 0 of at most four digits followed by d or h, such as 14d or 12h, or empty to turn it off",
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
  /** Display name of the tool that created the workspace (shown as `Created via <sourceName>`); absent when the service reports none. */
  sourceName: field<string | null>()({
    wire: "source-name",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    diff: "optionalString",
    group: "top",
    noCode: "setting",
  }),
  /** Address of the tool that created the workspace; absent when the service reports none. */
  sourceUrl: field<string | null>()({
    wire: "source-url",
    read: nullableString,
    write: "read",
    absent: null,
    role: "both",
    diff: "optionalString",
    group: "top",
    noCode: "setting",
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
  /** Engine version, exact or a constraint (`terraform-version` on the wire; the spec's `engine-version` is read too); absent when the service reports none. */
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
  /** VCS connection; absent for a workspace without one. An empty `vcsRepo` (`{}`, or `null` in TypeScript) removes the connection; `tagsRegex: ""` inside it starts runs on branch pushes again. */
  vcsRepo: field<VcsRepoValue | null>()({
    wire: "vcs-repo",
    read: vcsRepoSchema.nullable().optional(),
    write: vcsRepoRequestSchema.nullable().optional(),
    shape: "vcsRepo",
    absent: null,
    role: "both",
    nullable: true,
    nullableKeys: ["tagsRegex"],
    diff: "vcsRepo",
    group: "top",
  }),
  /** Directory of the repository the engine runs in; absent for the root. `""` removes it, and runs start at the root (as with `null` in TypeScript). */
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
  settingOverwrites: field<SettingOverwritesValue>()({
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
  /** SSH key (`sshkey-...`) assigned for fetching private modules; absent when none is. `""` unassigns it (as does `null` in TypeScript). */
  sshKeyId: field<string | null>()({
    rel: "ssh-key",
    role: "both",
    nullable: true,
    diff: "optionalString",
    group: "top",
  }),
  /** Whether delete removes the workspace even while it manages resources; otherwise delete is a safe delete. Default false. */
  forceDelete: field<boolean>()({ role: "input", diff: "bool", group: "top" }),
} as const;
