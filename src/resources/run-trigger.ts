/**
 * `RunTrigger`: a run applied in one workspace queues a run in another
 * (`/workspaces/:id/run-triggers`).
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { CLAIMANT_KEY } from "./process/claims";

/** Inputs of a {@link RunTrigger}. */
export interface RunTriggerArgs {
  /** The workspace (`ws-...`) whose runs are triggered. A change replaces the trigger. */
  workspaceId: pulumi.Input<string>;
  /** The source workspace (`ws-...`): a run applied there queues a run in `workspaceId`. Another workspace of the same organization. A change replaces the trigger. */
  sourceWorkspaceId: pulumi.Input<string>;
  /**
   * Take over the trigger if the workspace already has one from this source: `create` then
   * writes nothing, and from then on this resource owns it (delete removes it). Without it,
   * an existing trigger fails the create with an error that names its id. Default false; no
   * effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const RUN_TRIGGER_OUTPUTS = [
  "workspaceId",
  "sourceWorkspaceId",
  "workspaceName",
  "sourceWorkspaceName",
] as const;

/**
 * A run trigger: a run applied in `sourceWorkspaceId` queues a run in `workspaceId`. Any
 * change replaces it (the new trigger first, then the old one removed). Delete removes this
 * trigger alone.
 *
 * Checked at preview: a workspace that triggers itself, ids that are not workspace ids, two
 * resources of the stack for the same pair, and more sources for one workspace in the stack
 * than the service allows (20). Triggers made outside the stack are not counted at preview:
 * the create then fails with the service's message. A pair that already exists is never
 * taken over without `adopt` (the error names the `rt-` id to import or adopt).
 *
 * Drift: a refresh reads the trigger; one removed outside the program, or removed with a
 * workspace it joined, is dropped from the state (the 404 rule) and `pulumi up` creates it
 * again.
 *
 * After an interrupted `pulumi up`: a trigger has no field that could say whose it is; one
 * the interrupted update made fails the next `up` with the error that names `adopt: true`.
 * Set `adopt: true` for one `pulumi up`, then remove it.
 */
export class RunTrigger extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.RunTrigger;

  /** Reads a trigger without managing it; `id` is its `rt-...` id. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): RunTrigger {
    return new RunTrigger(name, undefined as unknown as RunTriggerArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is RunTrigger {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.RunTrigger;
  }

  /** The workspace whose runs are triggered. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The source workspace. */
  declare readonly sourceWorkspaceId: pulumi.Output<string>;
  /** Name of the triggered workspace, as the service reports it; absent when it does not. */
  declare readonly workspaceName: pulumi.Output<string | null>;
  /** Name of the source workspace, as the service reports it; absent when it does not. */
  declare readonly sourceWorkspaceName: pulumi.Output<string | null>;

  /** Declares a run trigger; `name` is the Pulumi resource name. */
  constructor(name: string, args: RunTriggerArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.RunTrigger,
        name,
        dynamicProps(
          "RunTrigger",
          name,
          withOutputs(
            args ? { ...(args as unknown as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined,
            RUN_TRIGGER_OUTPUTS,
          ),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
