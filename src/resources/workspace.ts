/**
 * `Workspace`: a workspace of the service (spec 2.2, 4.2, 4.3, 4.6, 4.8).
 *
 * Omitting an input leaves the service's value alone (the service default on
 * create); set `vcsRepo` to null to remove a repository. A change of
 * `organization` replaces the workspace; everything else is updated in place.
 */
import * as pulumi from "@pulumi/pulumi";
import { providers } from "./closure";
import { typeTokens as TOKENS, TYPE_TOKEN_MODULE as MODULE } from "./tokens";
import { adoptOptions, withOutputs } from "./base";
import { resolveWorkspaceRef } from "./adopt";

/** Where a workspace's runs execute: `remote` (the service), `local` (state storage only) or `agent` (an agent pool). */
export type ExecutionMode = "remote" | "local" | "agent";

/** VCS repository settings (spec 2.4, 4.2, 4.3). */
export interface VcsRepoArgs {
  /** Repository, `:org/:repo` (or `:org/:project/_git/:repo` for one provider). Required. */
  identifier: pulumi.Input<string>;
  /** VCS OAuth token id (`ot-...`). Required unless `vcsAppInstallationId` is given; never together with it. */
  oauthTokenId?: pulumi.Input<string>;
  /** Branch to track; empty means the repository's default branch. */
  branch?: pulumi.Input<string>;
  /** Whether submodules are fetched. Default false. */
  ingressSubmodules?: pulumi.Input<boolean>;
  /** Runs start when a VCS event carries a Git tag matching this regular expression. */
  tagsRegex?: pulumi.Input<string>;
  /** VCS app installation to use instead of an OAuth token; never together with `oauthTokenId`. */
  vcsAppInstallationId?: pulumi.Input<string>;
}

/** Which settings are set on the workspace rather than inherited from the organization default. */
export interface SettingOverwritesArgs {
  /** True: `executionMode` is the workspace's own; then `executionMode` must be given. Default true. */
  executionMode?: pulumi.Input<boolean>;
  /** True: `agentPoolId` is the workspace's own. Default true. */
  agentPool?: pulumi.Input<boolean>;
}

/** Inputs of a {@link Workspace}. Every setting left out keeps the service's value (its default on create). */
export interface WorkspaceArgs {
  /** Name: letters, digits, `-` and `_`; unique in the organization. A change renames the workspace in place. */
  name: pulumi.Input<string>;
  /**
   * Organization name. Defaults to the stack config `workspaces:organization`, then
   * `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. A change replaces the workspace.
   */
  organization?: pulumi.Input<string>;
  /** Project id (`prj-...`). Default: the organization's default project. A change moves the workspace (admin on both projects). */
  project?: pulumi.Input<string>;
  /** Free-text description. Default empty. */
  description?: pulumi.Input<string>;
  /** `remote`, `local` (state storage only) or `agent`. Never together with `operations`. */
  executionMode?: pulumi.Input<ExecutionMode>;
  /** Agent pool id (`apool-...`): required when `executionMode` is `agent`, refused otherwise. */
  agentPoolId?: pulumi.Input<string>;
  /** Deprecated; use `executionMode`. False means state storage only. Never together with `executionMode`. */
  operations?: pulumi.Input<boolean>;
  /** Apply automatically after a successful plan of runs started by VCS, UI or CLI. Default false. */
  autoApply?: pulumi.Input<boolean>;
  /** Apply automatically runs started by run triggers. Default false. */
  autoApplyRunTrigger?: pulumi.Input<boolean>;
  /** Whether destroy plans can be queued. Default true. */
  allowDestroyPlan?: pulumi.Input<boolean>;
  /** Health assessments (hosted offering only). Default false. */
  assessmentsEnabled?: pulumi.Input<boolean>;
  /** Timestamp (ISO 8601) of the next scheduled destroy run. */
  autoDestroyAt?: pulumi.Input<string>;
  /** Destroy after this much inactivity: 1 to 4 digits above 0 followed by `d` or `h`, such as `14d`. */
  autoDestroyActivityDuration?: pulumi.Input<string>;
  /** Only changes under `triggerPrefixes`/`triggerPatterns` start runs. Default true. */
  fileTriggersEnabled?: pulumi.Input<boolean>;
  /** Every workspace of the organization may read this one's state. Default false. Consumers are managed by `RemoteStateConsumers`. */
  globalRemoteState?: pulumi.Input<boolean>;
  /** Queue runs before the first configuration upload. Default false. */
  queueAllRuns?: pulumi.Input<boolean>;
  /** Shown as `Created via <sourceName>`. */
  sourceName?: pulumi.Input<string>;
  /** Address of the tool that created the workspace, shown with `sourceName`. */
  sourceUrl?: pulumi.Input<string>;
  /** Automatic speculative plans on pull requests. Default true. */
  speculativeEnabled?: pulumi.Input<boolean>;
  /** Engine version, exact or a constraint. Default: the latest release. */
  engineVersion?: pulumi.Input<string>;
  /** Glob patterns of files that start runs (order does not matter). */
  triggerPatterns?: pulumi.Input<pulumi.Input<string>[]>;
  /** Path prefixes that start runs, in addition to the working directory (order does not matter). */
  triggerPrefixes?: pulumi.Input<pulumi.Input<string>[]>;
  /** VCS repository; null removes it. */
  vcsRepo?: pulumi.Input<VcsRepoArgs | null>;
  /** Relative path the engine runs in; default the repository root. */
  workingDirectory?: pulumi.Input<string>;
  /** Which settings are the workspace's own rather than inherited from the organization default. */
  settingOverwrites?: pulumi.Input<SettingOverwritesArgs>;
  /**
   * Key-value tags bound directly to the workspace. When given, this resource owns
   * them: bindings not listed are removed. Do not also manage them with `WorkspaceTags`.
   */
  tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Flat tags. When given, this resource owns them: tags not listed are removed.
   * Compared without regard to case or order (the service stores them lower-cased).
   */
  tagNames?: pulumi.Input<pulumi.Input<string>[]>;
  /** SSH key id (`sshkey-...`) used to fetch private modules; an empty string unassigns it. */
  sshKeyId?: pulumi.Input<string>;
  /**
   * Delete even when the workspace still manages resources. Default false: delete
   * uses safe-delete and fails while the workspace manages resources.
   */
  forceDelete?: pulumi.Input<boolean>;
  /**
   * Take over the workspace of this `organization` and `name` if it already exists:
   * `create` then reads it and changes only what this program declares differently (one
   * update, or none when everything matches), and from then on the stack owns it like one
   * it created. `pulumi preview` says whether such a resource adopts a workspace and
   * which properties change. Without it, an existing workspace of that name makes the
   * create fail with an error that names it. Default false; no effect once the resource
   * is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

/** The VCS connection of a workspace as the service reports it. */
export interface VcsRepoOutput {
  /** Repository, `:org/:repo`. */
  identifier: string;
  /** The repository as the VCS provider displays it. */
  displayIdentifier?: string;
  /** VCS OAuth token id (`ot-...`), or null. */
  oauthTokenId?: string | null;
  /** VCS app installation used instead of an OAuth token, or null. */
  vcsAppInstallationId?: string | null;
  /** Branch tracked; empty for the repository's default branch. */
  branch?: string;
  /** Whether submodules are fetched. */
  ingressSubmodules?: boolean;
  /** HTTP address of the repository. */
  repositoryHttpUrl?: string;
  /** VCS provider of the connection, or null. */
  serviceProvider?: string | null;
  /** Git tags matching this regular expression start runs; null when branch pushes do. */
  tagsRegex?: string | null;
  /** Address the VCS provider calls on a push. */
  webhookUrl?: string;
}

/** Output names of `Workspace` (inputs echoed as the service reports them, plus what it computes). */
export const WORKSPACE_OUTPUTS = [
  "name", "organization", "project", "description", "executionMode", "agentPoolId", "operations", "autoApply",
  "autoApplyRunTrigger", "allowDestroyPlan", "assessmentsEnabled", "autoDestroyAt", "autoDestroyActivityDuration",
  "autoDestroyStatus", "inheritsProjectAutoDestroy", "fileTriggersEnabled", "globalRemoteState", "queueAllRuns",
  "sourceName", "sourceUrl", "speculativeEnabled", "engineVersion", "triggerPatterns", "triggerPrefixes", "vcsRepo",
  "vcsRepoIdentifier", "workingDirectory", "settingOverwrites", "tags", "tagNames", "sshKeyId", "forceDelete",
  "actions", "applyDurationAverage", "createdAt", "updatedAt", "latestChangeAt", "lastAssessmentResultAt", "environment",
  "locked", "lockedReason", "lockedBy", "oauthClientName", "permissions", "planDurationAverage", "policyCheckFailures",
  "resourceCount", "runFailures", "source", "sourceModuleId", "noCodeUpgradeAvailable", "noCodeModuleVersionId",
  "structuredRunOutputEnabled", "workspaceKpisRunsCount", "effectiveTags", "currentRunId", "currentStateVersionId",
  "currentConfigurationVersionId", "selfLink", "htmlLink",
] as const;

/** A workspace of the service, its settings and (when given) its key-value and flat tags. A change of `organization` replaces it; every other change, renames and project moves included, is made in place. Delete uses safe-delete unless `forceDelete` is set. */
export class Workspace extends pulumi.dynamic.Resource {
  static readonly __pulumiType = TOKENS.Workspace;

  /**
   * Adopts an existing workspace. `id` is a workspace id (`ws-...`) or `org/name`;
   * the latter is looked up when the program runs (with the stack config or
   * environment settings), so the adopted resource's id is the real `ws-` id.
   * The adopted workspace is read only: declare a `Workspace` to manage one.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Workspace {
    return new Workspace(name, undefined as unknown as WorkspaceArgs, adoptOptions(resolveWorkspaceRef(id), opts));
  }

  static isInstance(obj: unknown): obj is Workspace {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.Workspace;
  }

  /** Workspace name. */
  declare readonly name: pulumi.Output<string>;
  /** Organization holding the workspace. */
  declare readonly organization: pulumi.Output<string>;
  /** Project id. */
  declare readonly project: pulumi.Output<string>;
  /** Description, or null. */
  declare readonly description: pulumi.Output<string | null>;
  /** Where runs execute: `remote`, `local` or `agent`. */
  declare readonly executionMode: pulumi.Output<ExecutionMode>;
  /** Agent pool (`apool-...`) for the `agent` mode, or null. */
  declare readonly agentPoolId: pulumi.Output<string | null>;
  /** Deprecated mirror of the execution mode: false for `local`, true otherwise. */
  declare readonly operations: pulumi.Output<boolean>;
  /** Whether a successful plan applies without confirmation. */
  declare readonly autoApply: pulumi.Output<boolean>;
  /** Whether runs started by run triggers apply without confirmation. */
  declare readonly autoApplyRunTrigger: pulumi.Output<boolean>;
  /** Whether destroy plans may be queued. */
  declare readonly allowDestroyPlan: pulumi.Output<boolean>;
  /** Whether health assessments run. */
  declare readonly assessmentsEnabled: pulumi.Output<boolean>;
  /** Time (ISO 8601) of the next scheduled destroy run, or null. */
  declare readonly autoDestroyAt: pulumi.Output<string | null>;
  /** Inactivity after which the resources are destroyed (`14d`), or null. */
  declare readonly autoDestroyActivityDuration: pulumi.Output<string | null>;
  /** State of a scheduled auto-destroy as the service reports it, or null. */
  declare readonly autoDestroyStatus: pulumi.Output<string | null>;
  /** Whether the auto-destroy setting comes from the project, or null when the service does not say. */
  declare readonly inheritsProjectAutoDestroy: pulumi.Output<boolean | null>;
  /** Whether only changes under the trigger prefixes or patterns start runs. */
  declare readonly fileTriggersEnabled: pulumi.Output<boolean>;
  /** Whether every workspace of the organization may read this workspace's state. */
  declare readonly globalRemoteState: pulumi.Output<boolean>;
  /** Whether runs are queued before the first configuration upload. */
  declare readonly queueAllRuns: pulumi.Output<boolean>;
  /** Display name of the tool that created the workspace, or null. */
  declare readonly sourceName: pulumi.Output<string | null>;
  /** Address of the tool that created the workspace, or null. */
  declare readonly sourceUrl: pulumi.Output<string | null>;
  /** Whether pull requests get speculative plans. */
  declare readonly speculativeEnabled: pulumi.Output<boolean>;
  /** Engine version or constraint the workspace uses. */
  declare readonly engineVersion: pulumi.Output<string>;
  /** Glob patterns of files whose changes start runs. */
  declare readonly triggerPatterns: pulumi.Output<string[]>;
  /** Path prefixes whose changes start runs. */
  declare readonly triggerPrefixes: pulumi.Output<string[]>;
  /** VCS connection, or null. */
  declare readonly vcsRepo: pulumi.Output<VcsRepoOutput | null>;
  /** Repository of the VCS connection (`:org/:repo`), or null. */
  declare readonly vcsRepoIdentifier: pulumi.Output<string | null>;
  /** Directory of the repository the engine runs in, or null for the root. */
  declare readonly workingDirectory: pulumi.Output<string | null>;
  /** Which settings are the workspace's own rather than inherited. */
  declare readonly settingOverwrites: pulumi.Output<{ executionMode: boolean; agentPool: boolean }>;
  /** Key-value tags bound directly to the workspace. */
  declare readonly tags: pulumi.Output<Record<string, string>>;
  /** Flat tags, lower-cased as the service stores them. */
  declare readonly tagNames: pulumi.Output<string[]>;
  /** SSH key (`sshkey-...`) assigned for private modules, or null. */
  declare readonly sshKeyId: pulumi.Output<string | null>;
  /** Whether delete removes the workspace even while it manages resources (the input, echoed). */
  declare readonly forceDelete: pulumi.Output<boolean>;
  /** Actions the service currently allows (`isDestroyable`). */
  declare readonly actions: pulumi.Output<{ isDestroyable: boolean }>;
  /** Average apply duration in milliseconds, or null. */
  declare readonly applyDurationAverage: pulumi.Output<number | null>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Last update time (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** Time of the latest change to the workspace or its runs (ISO 8601). */
  declare readonly latestChangeAt: pulumi.Output<string>;
  /** Time of the latest health assessment (ISO 8601), or null. */
  declare readonly lastAssessmentResultAt: pulumi.Output<string | null>;
  /** Environment name the service assigns. */
  declare readonly environment: pulumi.Output<string>;
  /** Whether the workspace is locked. */
  declare readonly locked: pulumi.Output<boolean>;
  /** Reason given when it was locked, or null. */
  declare readonly lockedReason: pulumi.Output<string | null>;
  /** User id holding the lock, if any. */
  declare readonly lockedBy: pulumi.Output<string | null>;
  /** Name of the VCS OAuth client of the connection, or null. */
  declare readonly oauthClientName: pulumi.Output<string | null>;
  /** The caller's permissions on the workspace (spec 2.3), camelCase. */
  declare readonly permissions: pulumi.Output<Record<string, boolean>>;
  /** Average plan duration in milliseconds, or null. */
  declare readonly planDurationAverage: pulumi.Output<number | null>;
  /** Number of runs whose policy checks failed, or null. */
  declare readonly policyCheckFailures: pulumi.Output<number | null>;
  /** Number of resources in the workspace's current state. */
  declare readonly resourceCount: pulumi.Output<number>;
  /** Number of failed runs, or null. */
  declare readonly runFailures: pulumi.Output<number | null>;
  /** What created the workspace (for example `tfe-api` or `no-code`), or null. */
  declare readonly source: pulumi.Output<string | null>;
  /** No-code module the workspace was created from, if any. */
  declare readonly sourceModuleId: pulumi.Output<string | null>;
  /** For a workspace made from a no-code module: whether an upgrade is available; null otherwise. */
  declare readonly noCodeUpgradeAvailable: pulumi.Output<boolean | null>;
  /** For a workspace made from a no-code module: the module version it runs; null otherwise. */
  declare readonly noCodeModuleVersionId: pulumi.Output<string | null>;
  /** Whether run output is structured. */
  declare readonly structuredRunOutputEnabled: pulumi.Output<boolean>;
  /** Number of runs counted for the workspace's indicators, or null. */
  declare readonly workspaceKpisRunsCount: pulumi.Output<number | null>;
  /**
   * Key-value tags in effect: direct bindings plus those inherited from the project.
   * A workspace created with flat tags (one request) shows its direct bindings here
   * until the next refresh adds the inherited ones.
   */
  declare readonly effectiveTags: pulumi.Output<Record<string, string>>;
  /** Latest run (`run-...`), or null. */
  declare readonly currentRunId: pulumi.Output<string | null>;
  /** Current state version (`sv-...`), or null. */
  declare readonly currentStateVersionId: pulumi.Output<string | null>;
  /** Latest configuration version (`cv-...`), or null. */
  declare readonly currentConfigurationVersionId: pulumi.Output<string | null>;
  /** API path of the workspace (`links.self`). */
  declare readonly selfLink: pulumi.Output<string>;
  /** UI path of the workspace (`links.self-html`). */
  declare readonly htmlLink: pulumi.Output<string>;

  /** Declares a workspace. `name` is the Pulumi resource name; `args.name` is the workspace's name on the service. */
  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providers.Workspace,
      name,
      withOutputs(args as unknown as Record<string, unknown>, WORKSPACE_OUTPUTS),
      opts,
      MODULE,
      "Workspace",
    );
  }
}
