/**
 * `RemoteStateConsumers`: which workspaces may read a workspace's state (spec 4.9).
 * The only place consumers are managed: a resource of its own avoids cycles between
 * workspaces that read each other's state.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import type { OwnershipMode } from "./workspace-tags";
import { CLAIMANT_KEY } from "./process/claims";

/** Inputs of a {@link RemoteStateConsumers}. */
export interface RemoteStateConsumersArgs {
  /**
   * Workspace whose state is read (`ws-...`). Its `globalRemoteState` must be false:
   * with it true every workspace of the organization is a consumer already.
   * A change replaces this resource.
   */
  workspaceId: pulumi.Input<string>;
  /** Workspaces (`ws-...`) allowed to read the state; order does not matter; must not list `workspaceId` itself. */
  consumerIds: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * `authoritative` (default): the consumer set becomes exactly `consumerIds`
   * (replace endpoint; needs a team that manages all workspaces of the organization);
   * delete removes every consumer.
   * `additive`: adds the listed consumers and on delete removes only those it added
   * (add and remove endpoints; enough for workspace admins).
   */
  mode?: pulumi.Input<OwnershipMode>;
}

export const REMOTE_STATE_CONSUMERS_OUTPUTS = [
  "workspaceId",
  "consumerIds",
  "mode",
  "allConsumerIds",
  "addedConsumerIds",
] as const;

/** Which workspaces may read a workspace's state, in `authoritative` or `additive` mode. A change of `workspaceId` replaces it; delete removes its consumers (in additive mode only those it added). */
export class RemoteStateConsumers extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.RemoteStateConsumers;

  /** Adopts the consumers of a workspace; `id` is the workspace id or `ws-.../remote-state-consumers`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): RemoteStateConsumers {
    return new RemoteStateConsumers(name, undefined as unknown as RemoteStateConsumersArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is RemoteStateConsumers {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.RemoteStateConsumers
    );
  }

  /** Workspace (`ws-...`) whose state the consumers read. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** Managed consumers present on the workspace (all consumers in authoritative mode), sorted. */
  declare readonly consumerIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Every consumer the caller can see, managed here or not, sorted. */
  declare readonly allConsumerIds: pulumi.Output<string[]>;
  /** Additive mode: consumers this resource added (removed again on delete). */
  declare readonly addedConsumerIds: pulumi.Output<string[]>;

  /** Declares the remote state consumers of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: RemoteStateConsumersArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.RemoteStateConsumers,
        name,
        dynamicProps(
          "RemoteStateConsumers",
          name,
          withOutputs(
            args ? { ...(args as unknown as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined,
            REMOTE_STATE_CONSUMERS_OUTPUTS,
          ),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
