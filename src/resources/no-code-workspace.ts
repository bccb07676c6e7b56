/**
 * `NoCodeWorkspace`: a workspace created from a no-code module (spec 4.15, 4.16).
 *
 * A change of `moduleVersion` or `variables` upgrades the workspace in place
 * through the plan-then-confirm flow, keeping its id and state (or, with
 * `upgradeStrategy: "replace"`, replaces the workspace). A change of
 * `noCodeModuleId` or `organization` is a different workspace: it is replaced,
 * deleting the old one first because names are unique.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretItems, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { secretsOf } from "./secret-values";
import { withOriginInput } from "./origin";
import type { Integer } from "../api/common";
import type { NoCodeExecutionMode, ValueOf, WorkspaceFieldTable } from "../api/workspace-fields";
import type { ArgOf } from "./workspace-fields";
import {
  NO_CODE_REPORTED,
  NO_CODE_SETTINGS,
  type NoCodeReportedName,
  type NoCodeSettingName,
} from "./no-code-workspace-fields";

/** Where a no-code variable goes: `engine` (a variable of the engine's configuration) or `env` (an environment variable of its runs). */
export type NoCodeVariableCategory = "engine" | "env";

/** How a change of a no-code workspace's version or variables is carried out: `in-place` (an upgrade run) or `replace` (a new workspace). */
export type UpgradeStrategy = "in-place" | "replace";

/** A variable of the workspace (spec 4.15). */
export interface NoCodeVariableArgs {
  /** Variable name; unique in the workspace. */
  key: pulumi.Input<string>;
  /** The variable's value. Default empty. With `sensitive`, it is stored in the state only as a secret, even when given as plain text. */
  value?: pulumi.Input<string>;
  /** `engine` (a variable of the engine's configuration), `env` (an environment variable of its runs) or `terraform` (an alias of `engine`, the wire's own word). */
  category: pulumi.Input<NoCodeVariableCategory | "terraform">;
  /** Evaluate the value as HCL. Default false; no effect for `env`. */
  hcl?: pulumi.Input<boolean>;
  /** Write-once on the service; the value is kept only as a secret in state. Default false. */
  sensitive?: pulumi.Input<boolean>;
  /** Description. Default empty. */
  description?: pulumi.Input<string>;
}

/** The table's no-code settings as inputs; `name`, `project` and `executionMode` are stated below. */
type NoCodeTableArgs = {
  [K in Exclude<NoCodeSettingName, "name" | "project" | "executionMode">]?: ArgOf<WorkspaceFieldTable[K]>;
};

/**
 * Inputs of a {@link NoCodeWorkspace}. A setting left out is not managed; the empty
 * string `""` (or `null` in TypeScript) clears `description` or `agentPoolId` on the
 * service and keeps them cleared. Other inputs refuse `null`.
 */
export interface NoCodeWorkspaceArgs extends NoCodeTableArgs {
  /** No-code module id (`nocode-...`). A change replaces the workspace (delete first). */
  noCodeModuleId: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment, then the module's. A change replaces the workspace (delete first).
   */
  organization?: pulumi.Input<string>;
  /** Name: letters, digits, `-` and `_`; unique in the organization. A change renames in place. */
  name: pulumi.Input<string>;
  /** Project id (`prj-...`). Required. A change moves the workspace. */
  project: pulumi.Input<string>;
  /** `remote` or `agent`. Omitted: the service makes the workspace `remote`, and the mode is not managed. */
  executionMode?: pulumi.Input<NoCodeExecutionMode>;
  /** Module variables. A change runs an in-place upgrade. Keys must be unique. */
  variables?: pulumi.Input<pulumi.Input<NoCodeVariableArgs>[]>;
  /**
   * Module version the workspace should run; a change runs an in-place upgrade to
   * the module's pinned version, which must then equal this value. Omitted: the
   * version is not managed.
   */
  moduleVersion?: pulumi.Input<string>;
  /** Delete even when the workspace still manages resources. Default false (safe delete). */
  forceDelete?: pulumi.Input<boolean>;
  /** Confirm an upgrade once its plan has settled. Default true; false fails the update with the plan URL to confirm by hand. */
  autoConfirm?: pulumi.Input<boolean>;
  /** How long an upgrade may take, plan and apply together, in seconds. Default 1800. */
  upgradeTimeoutSeconds?: pulumi.Input<Integer>;
  /**
   * How a change of `moduleVersion` or `variables` is carried out.
   * `in-place` (default): an upgrade run (plan, confirm, apply) on the same workspace,
   * which keeps its id, state and history.
   * `replace`: the workspace is replaced, the old one deleted first (names are unique),
   * and a new one created from the module; preview shows `+-`. For disposable
   * workspaces (sandboxes, previews). The delete is still a safe delete: a workspace
   * that manages resources is not replaced unless `forceDelete` is true. The old
   * workspace is deleted first only when the new inputs pass the module (variable
   * options, version pin, organization) and the new name is free; otherwise the new
   * workspace is created first, so a replacement the service refuses fails with its
   * reason and deletes nothing.
   * A change of this input alone changes nothing on the service.
   */
  upgradeStrategy?: pulumi.Input<UpgradeStrategy>;
  /**
   * Take over the workspace of this `organization` and `name` if it already exists; it
   * must have been made from `noCodeModuleId`. `create` then reads it and changes only
   * what this program declares differently (settings in one update; variables or version
   * through an upgrade; nothing when everything matches), and from then on the stack owns
   * it. Sensitive variable values, which the service never shows, are taken to be the
   * declared ones. `pulumi preview` says whether such a resource adopts a workspace and
   * which properties change. Without it, an existing workspace of that name makes the
   * create fail with an error that names it. Default false; no effect once the resource
   * is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

/** A variable of a no-code workspace as the service reports it (a sensitive value is in `sensitiveValues`, as a secret). */
export interface NoCodeVariableOutput {
  /** Variable name. */
  key: string;
  /** The variable's value; absent for sensitive variables, whose values are in `sensitiveValues`. */
  value?: string;
  /** `engine` or `env`. */
  category: NoCodeVariableCategory;
  /** Whether the value is parsed as HCL. */
  hcl: boolean;
  /** Whether the value is write-only. */
  sensitive: boolean;
  /** Description; absent when it has none. */
  description?: string;
}

/** The upgrade run that last changed a no-code workspace's version or variables. */
export interface NoCodeWorkspaceLastUpgrade {
  /** The upgrade's run (`run-...`). */
  runId: string;
  /** The run's status as the service reports it (`applied` once done). */
  status: string;
  /** Address of the run's plan, where an upgrade that is not confirmed automatically is confirmed by hand; absent when the run has no plan page yet. */
  planUrl: string | null;
}

/** Output names: the module's inputs, the workspace settings and reported values of the field table, the upgrade's. */
export const NO_CODE_WORKSPACE_OUTPUTS = [
  "noCodeModuleId",
  "organization",
  ...NO_CODE_SETTINGS,
  "variables",
  "sensitiveValues",
  "moduleVersion",
  "forceDelete",
  "autoConfirm",
  "upgradeTimeoutSeconds",
  "upgradeStrategy",
  "lastUpgrade",
  ...NO_CODE_REPORTED,
] as const;

/** Outputs that may hold sensitive values: always stored as secrets (see ./secret-values.ts). */
export const NO_CODE_WORKSPACE_SECRET_OUTPUTS: readonly string[] = secretsOf("NoCodeWorkspace").outputs;

/** Outputs of a {@link NoCodeWorkspace} that come from the field table: its settings as the service reports them, and the values it reports. */
type NoCodeTableOutputs = {
  readonly [K in NoCodeSettingName | NoCodeReportedName]: pulumi.Output<ValueOf<WorkspaceFieldTable[K]>>;
};

// The table's outputs are declared through the field table: this interface merges into the class.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface NoCodeWorkspace extends NoCodeTableOutputs {}

/** A workspace created from a no-code module. Changes of its version or variables upgrade it in place (plan, confirm, apply) unless `upgradeStrategy` is `replace`; a change of `noCodeModuleId` or `organization` replaces it. Delete uses safe-delete unless `forceDelete` is set. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class NoCodeWorkspace extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.NoCodeWorkspace;

  /** Adopts a workspace created from a no-code module; `id` is its workspace id (`ws-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): NoCodeWorkspace {
    return new NoCodeWorkspace(name, undefined as unknown as NoCodeWorkspaceArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is NoCodeWorkspace {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.NoCodeWorkspace
    );
  }

  /** No-code module (`nocode-...`) the workspace was created from. */
  declare readonly noCodeModuleId: pulumi.Output<string>;
  /** Organization holding the workspace. */
  declare readonly organization: pulumi.Output<string>;
  /** The variables, sensitive values left out. */
  declare readonly variables: pulumi.Output<NoCodeVariableOutput[]>;
  /** Values of the sensitive variables by key (secret). */
  declare readonly sensitiveValues: pulumi.Output<Record<string, string>>;
  /** Module version the workspace runs; absent when not managed. */
  declare readonly moduleVersion: pulumi.Output<string | null>;
  /** Whether delete removes the workspace even while it manages resources (the input, echoed). */
  declare readonly forceDelete: pulumi.Output<boolean>;
  /** Whether an upgrade's plan is confirmed without review (the input, echoed). */
  declare readonly autoConfirm: pulumi.Output<boolean>;
  /** Longest wait for an upgrade, in seconds (the input, echoed). */
  declare readonly upgradeTimeoutSeconds: pulumi.Output<Integer>;
  /** How a version or variable change is carried out: `in-place` (an upgrade run) or `replace`. */
  declare readonly upgradeStrategy: pulumi.Output<UpgradeStrategy>;
  /** The last upgrade run (its id, status and plan address); absent before the first upgrade. */
  declare readonly lastUpgrade: pulumi.Output<NoCodeWorkspaceLastUpgrade | null>;

  /** Declares a workspace made from a no-code module; `name` is the Pulumi resource name. */
  constructor(name: string, args: NoCodeWorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = args ? withSecretItems("NoCodeWorkspace", args) : undefined;
    const limit = quietStacks();
    try {
      super(
        TOKENS.NoCodeWorkspace,
        name,
        dynamicProps(
          "NoCodeWorkspace",
          name,
          withOutputs(withOriginInput("NoCodeWorkspace", name, inputs), NO_CODE_WORKSPACE_OUTPUTS),
        ),
        withSecretOutputs(opts, NO_CODE_WORKSPACE_SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
