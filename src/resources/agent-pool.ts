/**
 * `AgentPool`: an agent pool of an organization (`/organizations/:org/agent-pools`), where
 * the runs of workspaces on agent execution go.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/** Inputs of an {@link AgentPool}. */
export interface AgentPoolArgs {
  /** Name, unique in the organization. A change renames the pool in place; its workspaces and tokens stay. */
  name: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the pool.
   */
  organization?: pulumi.Input<string>;
  /**
   * Whether every workspace of the organization may use the pool. `false`: only the
   * workspaces an `AgentPoolAllowedWorkspaces` or `AgentPoolAllowedProjects` allows, never
   * those an `AgentPoolExcludedWorkspaces` excludes. A change is made in place. Omitted:
   * not managed (a new pool is organization-scoped, the service's default).
   */
  organizationScoped?: pulumi.Input<boolean>;
  /**
   * Take over the pool of this name if the organization already has one: `create` reads it
   * and changes only what the program declares differently (nothing when all matches).
   * Without it, a taken name fails the create with an error that names the pool and its
   * id. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const AGENT_POOL_OUTPUTS = ["name", "organization", "organizationScoped", "createdAt"] as const;

/**
 * An agent pool (since 0.7.0): the agents of one private network, which the runs of the
 * workspaces on agent execution are sent to. Put a workspace on it with
 * `WorkspaceSettings` (`executionMode: "agent"`, `agentPoolId`); give its agents an
 * `AgentToken`. A change of `organization` replaces it; a rename or a change of
 * `organizationScoped` is made in place.
 *
 * Delete refuses, before any write, a pool that workspaces still run on: the error names
 * how many and the ways out (move them to another execution mode or pool, or
 * `pulumi state delete` to keep the pool). Its tokens go with it.
 *
 * Drift: a refresh reads the name and scope back; a change made outside the program shows
 * in the next preview and `pulumi up` restores it. A pool deleted outside the program is
 * dropped from the state only when the token could have seen it (one that may create
 * workspaces); otherwise the refresh fails and says why.
 *
 * After an interrupted `pulumi up`: a pool has no field that could say whose it is, and
 * its name is unique, so no second pool is ever made. A create whose answer was lost is
 * found by its name and creation time and kept; a pool an interrupted update made fails
 * the next `up` with the error that names `adopt: true`: set it for one `pulumi up`, then
 * remove it.
 */
export class AgentPool extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.AgentPool;

  /** Reads a pool without managing it; `id` is its `apool-...` id, or `<organization>/<name>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): AgentPool {
    return new AgentPool(name, undefined as unknown as AgentPoolArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is AgentPool {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.AgentPool;
  }

  /** Name of the pool. */
  declare readonly name: pulumi.Output<string>;
  /** Organization the pool belongs to. */
  declare readonly organization: pulumi.Output<string>;
  /** Whether every workspace of the organization may use the pool; absent when the service does not say. */
  declare readonly organizationScoped: pulumi.Output<boolean | null>;
  /** When the pool was created (ISO 8601); absent when the service does not say. */
  declare readonly createdAt: pulumi.Output<string | null>;

  /** Declares an agent pool; `name` is the Pulumi resource name (the pool's own name is `args.name`). */
  constructor(name: string, args: AgentPoolArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.AgentPool,
        name,
        dynamicProps(
          "AgentPool",
          name,
          withOutputs(args as unknown as Record<string, unknown> | undefined, AGENT_POOL_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
