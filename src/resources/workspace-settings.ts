/**
 * `WorkspaceSettings`: the execution and sharing settings of a workspace this stack does
 * not own (terraform-provider-tfe's `tfe_workspace_settings`), each setting's rules those
 * of the workspace field table (src/api/workspace-fields.ts).
 *
 * Only the declared settings are managed: an omitted one is never written, read or
 * compared; `remoteStateConsumerIds: []` removes every consumer. Create and update change
 * only what differs from the workspace (nothing when everything matches); destroy puts
 * back the value each setting had before this resource first set it, where the workspace
 * still has the value this resource set, and never deletes the workspace.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { CLAIMANT_KEY } from "./process/claims";
import type { ValueOf, WorkspaceFieldName, WorkspaceFieldTable } from "../api/workspace-fields";
import type { ArgOf } from "./workspace-fields";

/** The workspace settings a `WorkspaceSettings` declares, by the field table's names, in table order. */
export const WORKSPACE_SETTINGS_FIELDS = [
  "description",
  "executionMode",
  "agentPoolId",
  "autoApply",
  "autoApplyRunTrigger",
  "assessmentsEnabled",
  "fileTriggersEnabled",
  "globalRemoteState",
  "queueAllRuns",
  "speculativeEnabled",
] as const satisfies readonly WorkspaceFieldName[];

/** A setting of the field table that `WorkspaceSettings` declares. */
type WorkspaceSettingName = (typeof WORKSPACE_SETTINGS_FIELDS)[number];

/** The input that lists the workspaces that may read the state (not a field of the workspace document). */
export const CONSUMERS_INPUT = "remoteStateConsumerIds";

type Arg<K extends WorkspaceSettingName> = ArgOf<WorkspaceFieldTable[K]>;
type Value<K extends WorkspaceSettingName> = ValueOf<WorkspaceFieldTable[K]>;

/** Inputs of a {@link WorkspaceSettings}. Every setting left out is not managed: never written, read or compared. */
export interface WorkspaceSettingsArgs {
  /** Workspace (`ws-...`) whose settings this resource manages; it is never created or deleted by it. A change replaces this resource. */
  workspaceId: pulumi.Input<string>;
  /** Where runs execute: `remote`, `local` or `agent`. A mode other than `agent` also removes the workspace's agent pool, in the same write. Omitted: not managed. */
  executionMode?: Arg<"executionMode">;
  /**
   * Agent pool (`apool-...`) that runs the workspace; only with `executionMode: "agent"`.
   * Omitted with `agent`: the pool of the workspace's project default, if it has one (the
   * service refuses agent mode without a pool). A pool that does not allow the workspace
   * yet, allowed by an `AgentPoolAllowedWorkspaces` or `AgentPoolAllowedProjects` of the
   * same stack, is set as soon as that list is written, in the same `pulumi up`.
   */
  agentPoolId?: Arg<"agentPoolId">;
  /** Whether a successful plan applies without confirmation. Omitted: not managed. */
  autoApply?: Arg<"autoApply">;
  /** Whether runs started by a run trigger apply without confirmation. Omitted: not managed. */
  autoApplyRunTrigger?: Arg<"autoApplyRunTrigger">;
  /** Whether health assessments (drift detection) run. Omitted: not managed. */
  assessmentsEnabled?: Arg<"assessmentsEnabled">;
  /** Whether only changes under the trigger prefixes or patterns start runs. Omitted: not managed. */
  fileTriggersEnabled?: Arg<"fileTriggersEnabled">;
  /**
   * Whether every workspace of the organization may read this workspace's state.
   * Independent of `remoteStateConsumerIds`, which the service ignores while it is true.
   * Omitted: not managed.
   */
  globalRemoteState?: Arg<"globalRemoteState">;
  /** Whether runs are queued before a configuration is uploaded. Omitted: not managed. */
  queueAllRuns?: Arg<"queueAllRuns">;
  /** Whether pull requests get speculative plans. Omitted: not managed. */
  speculativeEnabled?: Arg<"speculativeEnabled">;
  /** Free-text description. `""` removes it (as does `null` in TypeScript). Omitted: not managed. */
  description?: Arg<"description">;
  /**
   * Workspaces (`ws-...`) that may read this workspace's state; order does not matter.
   * The list is the whole set: workspaces not listed lose access, and the empty list `[]`
   * removes every consumer. Omitted: consumers are not managed (those the workspace has are
   * left alone). Never together with a `RemoteStateConsumers` of the same workspace.
   */
  remoteStateConsumerIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * `pulumi preview` then says, for a new resource, which declared settings differ from the
   * workspace's. Create never writes a setting that already has the declared value, with or
   * without it. Default false.
   */
  adopt?: pulumi.Input<boolean>;
}

/** Values of the managed settings: each declared setting and nothing else. */
export interface WorkspaceSettingsValues {
  /** Description; absent when it has none. */
  description?: Value<"description">;
  /** Where runs execute: `remote`, `local` or `agent`. */
  executionMode?: Value<"executionMode">;
  /** Agent pool (`apool-...`); absent when the mode is not `agent`. */
  agentPoolId?: Value<"agentPoolId">;
  /** Whether a successful plan applies without confirmation. */
  autoApply?: Value<"autoApply">;
  /** Whether runs started by a run trigger apply without confirmation. */
  autoApplyRunTrigger?: Value<"autoApplyRunTrigger">;
  /** Whether health assessments run. */
  assessmentsEnabled?: Value<"assessmentsEnabled">;
  /** Whether only changes under the trigger prefixes or patterns start runs. */
  fileTriggersEnabled?: Value<"fileTriggersEnabled">;
  /** Whether every workspace of the organization may read the state. */
  globalRemoteState?: Value<"globalRemoteState">;
  /** Whether runs are queued before a configuration is uploaded. */
  queueAllRuns?: Value<"queueAllRuns">;
  /** Whether pull requests get speculative plans. */
  speculativeEnabled?: Value<"speculativeEnabled">;
  /** Workspaces that may read the state, sorted. */
  remoteStateConsumerIds?: string[];
}

export const WORKSPACE_SETTINGS_OUTPUTS = [
  "workspaceId",
  "organization",
  ...WORKSPACE_SETTINGS_FIELDS,
  CONSUMERS_INPUT,
  "previous",
  "applied",
] as const;

/**
 * The settings of a workspace owned elsewhere: execution mode and agent pool, auto-apply,
 * remote state sharing and consumers, and the other settings below; only those declared are
 * managed. A change of `workspaceId` replaces it.
 *
 * Refused by `check`, naming both resources, when one setting of a workspace is declared
 * twice in a stack: by this resource and a `Workspace` (the same field, `operations` counting
 * as `executionMode`), by two `WorkspaceSettings`, or consumers by this resource and a
 * `RemoteStateConsumers`. Caught during `pulumi preview` when the workspace's id is known
 * then (an existing workspace); otherwise during `pulumi up`, as soon as the id is known and
 * before this resource writes anything.
 *
 * Destroy puts back the value each setting had before this resource first set it (the
 * `previous` output), only where the workspace still has the value this resource set (the
 * `applied` output): a change made since by someone else is left alone. A workspace already
 * deleted is fine; the workspace itself is never deleted.
 */
export class WorkspaceSettings extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.WorkspaceSettings;

  /** Reads the settings of a workspace; `id` is the workspace id (`ws-...`). Read only: every setting is reported. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): WorkspaceSettings {
    return new WorkspaceSettings(name, undefined as unknown as WorkspaceSettingsArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is WorkspaceSettings {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.WorkspaceSettings
    );
  }

  /** Workspace (`ws-...`) whose settings this resource manages. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** Organization of the workspace. */
  declare readonly organization: pulumi.Output<string>;
  /** Description, when declared; absent when the workspace has none. */
  declare readonly description: pulumi.Output<Value<"description"> | undefined>;
  /** Execution mode, when declared. */
  declare readonly executionMode: pulumi.Output<Value<"executionMode"> | undefined>;
  /** Agent pool, when declared (or when `executionMode` is). */
  declare readonly agentPoolId: pulumi.Output<Value<"agentPoolId"> | undefined>;
  /** Auto-apply, when declared. */
  declare readonly autoApply: pulumi.Output<Value<"autoApply"> | undefined>;
  /** Auto-apply of run-trigger runs, when declared. */
  declare readonly autoApplyRunTrigger: pulumi.Output<Value<"autoApplyRunTrigger"> | undefined>;
  /** Health assessments, when declared. */
  declare readonly assessmentsEnabled: pulumi.Output<Value<"assessmentsEnabled"> | undefined>;
  /** File triggers, when declared. */
  declare readonly fileTriggersEnabled: pulumi.Output<Value<"fileTriggersEnabled"> | undefined>;
  /** Global remote state, when declared. */
  declare readonly globalRemoteState: pulumi.Output<Value<"globalRemoteState"> | undefined>;
  /** Queueing of all runs, when declared. */
  declare readonly queueAllRuns: pulumi.Output<Value<"queueAllRuns"> | undefined>;
  /** Speculative plans, when declared. */
  declare readonly speculativeEnabled: pulumi.Output<Value<"speculativeEnabled"> | undefined>;
  /** Workspaces that may read the state, sorted, when declared. */
  declare readonly remoteStateConsumerIds: pulumi.Output<string[] | undefined>;
  /** The value each managed setting had before this resource first set it: what destroy puts back. */
  declare readonly previous: pulumi.Output<WorkspaceSettingsValues>;
  /** The value this resource last set for each managed setting: destroy puts a setting back only while the workspace still has it. */
  declare readonly applied: pulumi.Output<WorkspaceSettingsValues>;

  /** Declares the settings of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: WorkspaceSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.WorkspaceSettings,
        name,
        dynamicProps(
          "WorkspaceSettings",
          name,
          withOutputs(
            args ? { ...(args as unknown as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined,
            WORKSPACE_SETTINGS_OUTPUTS,
          ),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
