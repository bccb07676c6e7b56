/**
 * `WorkspaceLock`: holds a workspace's lock for as long as the resource exists
 * (spec 3, 4.7), e.g. to freeze a workspace during a migration.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/** Inputs of a {@link WorkspaceLock}. */
export interface WorkspaceLockArgs {
  /** Workspace to lock (`ws-...`). A change replaces the lock. */
  workspaceId: pulumi.Input<string>;
  /** Reason stored with the lock. Default empty. A change re-locks (unlock, then lock). */
  reason?: pulumi.Input<string>;
  /** On delete, force-unlock (admin access) instead of unlock, e.g. when another user took the lock over. Default false. */
  force?: pulumi.Input<boolean>;
}

export const WORKSPACE_LOCK_OUTPUTS = ["workspaceId", "reason", "force", "locked", "lockedBy"] as const;

/** Holds a workspace's lock while it exists: create locks, delete unlocks (or force-unlocks with `force`). A change of `workspaceId` or `reason` replaces it. */
export class WorkspaceLock extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.WorkspaceLock;

  /** Adopts an existing lock; `id` is the workspace id or `ws-.../lock`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): WorkspaceLock {
    return new WorkspaceLock(name, undefined as unknown as WorkspaceLockArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is WorkspaceLock {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.WorkspaceLock;
  }

  /** Workspace (`ws-...`) the lock holds. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** Reason stored with the lock. */
  declare readonly reason: pulumi.Output<string>;
  /** Whether delete force-unlocks (the input, echoed). */
  declare readonly force: pulumi.Output<boolean>;
  /** Whether the workspace is locked. */
  declare readonly locked: pulumi.Output<boolean>;
  /** User id holding the lock. */
  declare readonly lockedBy: pulumi.Output<string | null>;

  /** Declares a lock on a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: WorkspaceLockArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.WorkspaceLock,
        name,
        dynamicProps(
          "WorkspaceLock",
          name,
          withOutputs(args as unknown as Record<string, unknown>, WORKSPACE_LOCK_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
