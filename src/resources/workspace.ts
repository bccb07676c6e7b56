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

export interface VcsRepoOutput {
  identifier: string;
  displayIdentifier?: string;
  oauthTokenId?: string | null;
  vcsAppInstallationId?: string | null;
  branch?: string;
  ingressSubmodules?: boolean;
  repositoryHttpUrl?: string;
  serviceProvider?: string | null;
  tagsRegex?: string | null;
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

  declare readonly name: pulumi.Output<string>;
  declare readonly organization: pulumi.Output<string>;
  /** Project id. */
  declare readonly project: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly executionMode: pulumi.Output<ExecutionMode>;
  declare readonly agentPoolId: pulumi.Output<string | null>;
  declare readonly operations: pulumi.Output<boolean>;
  declare readonly autoApply: pulumi.Output<boolean>;
  declare readonly autoApplyRunTrigger: pulumi.Output<boolean>;
  declare readonly allowDestroyPlan: pulumi.Output<boolean>;
  declare readonly assessmentsEnabled: pulumi.Output<boolean>;
  declare readonly autoDestroyAt: pulumi.Output<string | null>;
  declare readonly autoDestroyActivityDuration: pulumi.Output<string | null>;
  declare readonly autoDestroyStatus: pulumi.Output<string | null>;
  declare readonly inheritsProjectAutoDestroy: pulumi.Output<boolean | null>;
  declare readonly fileTriggersEnabled: pulumi.Output<boolean>;
  declare readonly globalRemoteState: pulumi.Output<boolean>;
  declare readonly queueAllRuns: pulumi.Output<boolean>;
  declare readonly sourceName: pulumi.Output<string | null>;
  declare readonly sourceUrl: pulumi.Output<string | null>;
  declare readonly speculativeEnabled: pulumi.Output<boolean>;
  declare readonly engineVersion: pulumi.Output<string>;
  declare readonly triggerPatterns: pulumi.Output<string[]>;
  declare readonly triggerPrefixes: pulumi.Output<string[]>;
  declare readonly vcsRepo: pulumi.Output<VcsRepoOutput | null>;
  declare readonly vcsRepoIdentifier: pulumi.Output<string | null>;
  declare readonly workingDirectory: pulumi.Output<string | null>;
  declare readonly settingOverwrites: pulumi.Output<{ executionMode: boolean; agentPool: boolean }>;
  /** Key-value tags bound directly to the workspace. */
  declare readonly tags: pulumi.Output<Record<string, string>>;
  /** Flat tags, lower-cased as the service stores them. */
  declare readonly tagNames: pulumi.Output<string[]>;
  declare readonly sshKeyId: pulumi.Output<string | null>;
  declare readonly forceDelete: pulumi.Output<boolean>;
  declare readonly actions: pulumi.Output<{ isDestroyable: boolean }>;
  declare readonly applyDurationAverage: pulumi.Output<number | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly latestChangeAt: pulumi.Output<string>;
  declare readonly lastAssessmentResultAt: pulumi.Output<string | null>;
  declare readonly environment: pulumi.Output<string>;
  declare readonly locked: pulumi.Output<boolean>;
  declare readonly lockedReason: pulumi.Output<string | null>;
  /** User id holding the lock, if any. */
  declare readonly lockedBy: pulumi.Output<string | null>;
  declare readonly oauthClientName: pulumi.Output<string | null>;
  /** The caller's permissions on the workspace (spec 2.3), camelCase. */
  declare readonly permissions: pulumi.Output<Record<string, boolean>>;
  declare readonly planDurationAverage: pulumi.Output<number | null>;
  declare readonly policyCheckFailures: pulumi.Output<number | null>;
  declare readonly resourceCount: pulumi.Output<number>;
  declare readonly runFailures: pulumi.Output<number | null>;
  declare readonly source: pulumi.Output<string | null>;
  /** No-code module the workspace was created from, if any. */
  declare readonly sourceModuleId: pulumi.Output<string | null>;
  declare readonly noCodeUpgradeAvailable: pulumi.Output<boolean | null>;
  declare readonly noCodeModuleVersionId: pulumi.Output<string | null>;
  declare readonly structuredRunOutputEnabled: pulumi.Output<boolean>;
  declare readonly workspaceKpisRunsCount: pulumi.Output<number | null>;
  /**
   * Key-value tags in effect: direct bindings plus those inherited from the project.
   * A workspace created with flat tags (one request) shows its direct bindings here
   * until the next refresh adds the inherited ones.
   */
  declare readonly effectiveTags: pulumi.Output<Record<string, string>>;
  declare readonly currentRunId: pulumi.Output<string | null>;
  declare readonly currentStateVersionId: pulumi.Output<string | null>;
  declare readonly currentConfigurationVersionId: pulumi.Output<string | null>;
  /** API path of the workspace (`links.self`). */
  declare readonly selfLink: pulumi.Output<string>;
  /** UI path of the workspace (`links.self-html`). */
  declare readonly htmlLink: pulumi.Output<string>;

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
