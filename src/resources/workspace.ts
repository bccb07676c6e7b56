/**
 * `Workspace`: a workspace of the service (spec 2.2, 4.2, 4.3, 4.6, 4.8).
 *
 * Omitting an input leaves the service's value alone (the service default on
 * create); the empty string `""` (or `null`) clears a setting that can be cleared
 * (`description`, `agentPoolId`, `autoDestroyAt`, `autoDestroyActivityDuration`,
 * `workingDirectory`, `sshKeyId`, `vcsRepo.tagsRegex`; `vcsRepo: {}` removes the VCS
 * connection) and keeps it cleared. A change of `organization` replaces the workspace;
 * everything else is updated in place.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { resolveWorkspaceRef } from "./adopt-by-name";
import { withOriginInput } from "./origin";
import { CLAIMANT_KEY } from "./process/claims";
import type {
  ExecutionMode as ApiExecutionMode,
  ValueOf,
  VcsRepoValue,
  WorkspaceFieldTable,
} from "../api/workspace-fields";
import { WORKSPACE_OUTPUTS, type ArgOf, type WorkspaceInputName, type WorkspaceTopName } from "./workspace-fields";

/** Where a workspace's runs execute: `remote` (the service), `local` (state storage only) or `agent` (an agent pool). */
export type ExecutionMode = ApiExecutionMode;

/** VCS repository settings (spec 2.4, 4.2, 4.3). */
export interface VcsRepoArgs {
  /**
   * Repository, `:org/:repo` (or `:org/:project/_git/:repo` for one provider). Required to
   * connect a repository; an empty `vcsRepo` (`{}`, no repository) removes the connection.
   */
  identifier?: pulumi.Input<string>;
  /** VCS OAuth token id (`ot-...`). Required unless `vcsAppInstallationId` is given; never together with it. */
  oauthTokenId?: pulumi.Input<string>;
  /** Branch to track; empty means the repository's default branch. */
  branch?: pulumi.Input<string>;
  /** Whether submodules are fetched. Omitted: the service's default (false) on a new connection, and not managed. */
  ingressSubmodules?: pulumi.Input<boolean>;
  /**
   * Runs start when a VCS event carries a Git tag matching this regular expression.
   * `""` removes the expression (as does `null` in TypeScript): runs start on branch
   * pushes again, and one set by hand shows as a change at the next refresh. Omitted: not
   * managed.
   */
  tagsRegex?: pulumi.Input<string | null>;
  /** VCS app installation to use instead of an OAuth token; never together with `oauthTokenId`. */
  vcsAppInstallationId?: pulumi.Input<string>;
}

/** Which settings are set on the workspace rather than inherited from the organization default. */
export interface SettingOverwritesArgs {
  /** True: `executionMode` is the workspace's own; then `executionMode` must be given. Omitted: not managed. */
  executionMode?: pulumi.Input<boolean>;
  /** True: `agentPoolId` is the workspace's own. Omitted: not managed. */
  agentPool?: pulumi.Input<boolean>;
}

type TableArgs = {
  [K in Exclude<WorkspaceInputName, "name" | "executionMode" | "vcsRepo" | "settingOverwrites" | "tags">]?: ArgOf<
    WorkspaceFieldTable[K]
  >;
};

/**
 * Inputs of a {@link Workspace}: one per input line of the field table. Every setting
 * left out keeps the service's value (its default on create) and is not managed: a
 * change made by hand is left alone. The empty string `""` clears a setting on the
 * service (`description`, `agentPoolId`, `autoDestroyAt` cancels a scheduled destroy,
 * `autoDestroyActivityDuration`, `workingDirectory`, `sshKeyId`, `vcsRepo.tagsRegex`),
 * an empty `vcsRepo: {}` removes the VCS connection, and `null` does the same in
 * TypeScript; a cleared setting stays cleared: the state holds `null`, and a value set
 * by hand shows as a change at the next refresh and is cleared again by `pulumi up`.
 * Other inputs refuse `null` (`check` names them). A change of
 * `organization` replaces the workspace (it defaults to the stack config
 * `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`); a
 * change of `project` moves it (admin on both projects). `tags` and `tagNames`, when
 * given, are owned by this resource: tags not listed are removed. `forceDelete` makes
 * delete remove the workspace even while it manages resources (otherwise: safe-delete).
 */
export interface WorkspaceArgs extends TableArgs {
  /** Name: letters, digits, `-` and `_`; unique in the organization. A change renames the workspace in place. */
  name: pulumi.Input<string>;
  /** `remote`, `local` (state storage only) or `agent`. Never together with `operations`. */
  executionMode?: pulumi.Input<ExecutionMode>;
  /** VCS repository; an empty `vcsRepo` (`{}`, or `null` in TypeScript) removes it and keeps the workspace without one (a repository connected by hand shows as a change at the next refresh). */
  vcsRepo?: pulumi.Input<VcsRepoArgs | null>;
  /** Which settings are the workspace's own rather than inherited from the organization default. */
  settingOverwrites?: pulumi.Input<SettingOverwritesArgs>;
  /**
   * Key-value tags bound directly to the workspace. When given, this resource owns
   * them: bindings not listed are removed. Do not also manage them with `WorkspaceTags`.
   */
  tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
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

/** The VCS connection of a workspace as the service reports it (the `vcsRepo` output). */
export type VcsRepoOutput = VcsRepoValue;

export { WORKSPACE_OUTPUTS };
/**
 * Outputs of a {@link Workspace}: the field table's `top` lines, what the stack owns (the
 * inputs as the service reports them, id, name, organization, project, tags, effective
 * tags) and links. What the service reports and changes on its own (run metrics, lock,
 * current run, times, permissions) is not stored: read it with `getWorkspace`, whose
 * result has it as `metrics`, `status` and `permissions`.
 */
type WorkspaceOutputProperties = {
  readonly [K in WorkspaceTopName]: pulumi.Output<ValueOf<WorkspaceFieldTable[K]>>;
};

// The outputs are declared through the field table: this interface merges into the class.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Workspace extends WorkspaceOutputProperties {}

/** A workspace of the service, its settings and (when given) its key-value and flat tags. A change of `organization` replaces it; every other change, renames and project moves included, is made in place. Delete uses safe-delete unless `forceDelete` is set. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Workspace extends pulumi.CustomResource {
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

  /** Declares a workspace. `name` is the Pulumi resource name; `args.name` is the workspace's name on the service. */
  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.Workspace,
        name,
        dynamicProps(
          "Workspace",
          name,
          withOutputs(withOriginInput("Workspace", name, args && { ...args, [CLAIMANT_KEY]: name }), WORKSPACE_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
