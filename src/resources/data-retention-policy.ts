/**
 * `DataRetentionPolicy`: the data retention policy of one workspace (spec 4.11), which
 * only the self-managed offering has.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Integer } from "../api/common";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/** Inputs of a {@link DataRetentionPolicy}: the workspace and exactly one of `deleteOlderThanNDays` and `dontDelete`. */
export interface DataRetentionPolicyArgs {
  /** Workspace whose policy this is (`ws-...`). A change replaces the resource (the old workspace's policy is removed first). */
  workspaceId: pulumi.Input<string>;
  /**
   * Delete the workspace's backing data (state versions, run data) older than this many
   * days: a whole number of at least 1. Give this or `dontDelete: true`, not both.
   * Switching between the two is an update in place.
   */
  deleteOlderThanNDays?: pulumi.Input<Integer>;
  /** `true`: never delete the workspace's backing data, whatever the organization's default. Give this or `deleteOlderThanNDays`, not both. */
  dontDelete?: pulumi.Input<boolean>;
}

export const DATA_RETENTION_POLICY_OUTPUTS = ["workspaceId", "deleteOlderThanNDays", "dontDelete", "policyId"] as const;

/**
 * The data retention policy of a workspace (self-managed offering only): create and update
 * set it, delete removes it so that the organization's default applies again. A change of
 * `workspaceId` replaces it. Against the hosted offering, which has no such policies, every
 * step fails with one message that says so.
 */
export class DataRetentionPolicy extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.DataRetentionPolicy;

  /** Adopts a workspace's policy, read only; `id` is the workspace id or `ws-.../data-retention-policy`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): DataRetentionPolicy {
    return new DataRetentionPolicy(name, undefined as unknown as DataRetentionPolicyArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is DataRetentionPolicy {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.DataRetentionPolicy
    );
  }

  /** Workspace (`ws-...`) the policy belongs to. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** Days after which backing data is deleted; absent for a don't-delete policy. */
  declare readonly deleteOlderThanNDays: pulumi.Output<Integer | null>;
  /** Whether the policy keeps backing data forever. */
  declare readonly dontDelete: pulumi.Output<boolean>;
  /** The policy's id on the service; absent when the service sends none. */
  declare readonly policyId: pulumi.Output<string | null>;

  /** Declares the data retention policy of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: DataRetentionPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.DataRetentionPolicy,
        name,
        dynamicProps(
          "DataRetentionPolicy",
          name,
          withOutputs(args as unknown as Record<string, unknown>, DATA_RETENTION_POLICY_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
