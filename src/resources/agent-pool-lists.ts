/**
 * What may use an agent pool: `AgentPoolAllowedWorkspaces`, `AgentPoolAllowedProjects` and
 * `AgentPoolExcludedWorkspaces`, the pool's `allowed-workspaces`, `allowed-projects` and
 * `excluded-workspaces` lists (`PATCH /agent-pools/:id`), each in `authoritative` or
 * `additive` mode.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, quietStacks } from "./base";
import { isKind, listProps } from "./list-props";
import type { OwnershipMode } from "./workspace-tags";

/** The inputs every list of a pool takes. */
interface AgentPoolListArgs {
  /** The agent pool (`apool-...`) whose list this resource manages. A change replaces this resource. */
  agentPoolId: pulumi.Input<string>;
  /**
   * Who owns the list. `authoritative` (default): the pool's whole list is what this resource
   * declares: ids added outside the program are removed, an empty list clears it, and delete
   * clears it. `additive`: adds the declared ids and leaves the others; delete, or an id
   * dropped from the declaration, removes only the ids this resource added, never one that
   * another resource or a person added. One list has one authoritative owner: two
   * authoritative resources of one stack for the same pool and list, an authoritative and an
   * additive one, or two additive ones declaring the same id are refused at preview (for a
   * pool the same update creates, as soon as its id is known, before the list is written).
   */
  mode?: pulumi.Input<OwnershipMode>;
}

/** Inputs of an {@link AgentPoolAllowedWorkspaces}. */
export interface AgentPoolAllowedWorkspacesArgs extends AgentPoolListArgs {
  /** Workspaces (`ws-...`) allowed to run on the pool; order does not matter. In `authoritative` mode an empty list clears the pool's list. */
  workspaceIds: pulumi.Input<pulumi.Input<string>[]>;
}

/** Inputs of an {@link AgentPoolAllowedProjects}. */
export interface AgentPoolAllowedProjectsArgs extends AgentPoolListArgs {
  /** Projects (`prj-...`) whose workspaces may run on the pool; order does not matter. In `authoritative` mode an empty list clears the pool's list. */
  projectIds: pulumi.Input<pulumi.Input<string>[]>;
}

/** Inputs of an {@link AgentPoolExcludedWorkspaces}. */
export interface AgentPoolExcludedWorkspacesArgs extends AgentPoolListArgs {
  /** Workspaces (`ws-...`) that may not run on the pool even though their project is allowed; order does not matter. In `authoritative` mode an empty list clears the pool's list. */
  workspaceIds: pulumi.Input<pulumi.Input<string>[]>;
}

export const AGENT_POOL_WORKSPACE_LIST_OUTPUTS = ["agentPoolId", "workspaceIds", "mode", "addedWorkspaceIds"] as const;
export const AGENT_POOL_PROJECT_LIST_OUTPUTS = ["agentPoolId", "projectIds", "mode", "addedProjectIds"] as const;

/**
 * The workspaces allowed to run on an agent pool that is not organization-scoped (the
 * pool's `allowed-workspaces` list), in `authoritative` (default) or `additive` mode. A
 * workspace may use such a pool when this list or `AgentPoolAllowedProjects` allows it and
 * `AgentPoolExcludedWorkspaces` does not exclude it.
 *
 * A workspace declared on the pool (`WorkspaceSettings`) in the same `pulumi up` waits for
 * this list's write, so a program declares both with no `dependsOn`.
 *
 * Delete: in `authoritative` mode it clears the pool's list; in `additive` mode it removes
 * only the ids it added. What another resource of the stack declares of the list in the same
 * update stays (a renamed resource is a new one and a deleted one). A pool deleted first
 * leaves nothing to do.
 *
 * Drift: a refresh reads the list. In `authoritative` mode an id added or removed outside
 * the program shows in the next diff and `pulumi up` restores the declared list; in
 * `additive` mode one of its own ids removed outside the program is added again, and other
 * ids are ignored.
 *
 * Adoption: a create that finds the list already as declared writes nothing; `pulumi
 * import` takes the pool's id (`apool-...`) and reads the whole list (`authoritative`).
 */
export class AgentPoolAllowedWorkspaces extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.AgentPoolAllowedWorkspaces;

  /** Reads the allowed workspaces of a pool without managing them; `id` is the pool's id (`apool-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new AgentPoolAllowedWorkspaces(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is AgentPoolAllowedWorkspaces {
    return isKind(obj, "AgentPoolAllowedWorkspaces");
  }

  /** The agent pool (`apool-...`). */
  declare readonly agentPoolId: pulumi.Output<string>;
  /** The managed workspaces the pool allows (its whole list in authoritative mode), sorted. */
  declare readonly workspaceIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the workspaces this resource added (removed again on delete), sorted. */
  declare readonly addedWorkspaceIds: pulumi.Output<string[]>;

  /** Declares the workspaces allowed on a pool; `name` is the Pulumi resource name. */
  constructor(name: string, args: AgentPoolAllowedWorkspacesArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "AgentPoolAllowedWorkspaces";
      super(TOKENS[kind], name, listProps(kind, name, args, AGENT_POOL_WORKSPACE_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * The projects whose workspaces may run on an agent pool that is not organization-scoped
 * (the pool's `allowed-projects` list), in `authoritative` (default) or `additive` mode.
 * `AgentPoolExcludedWorkspaces` takes single workspaces of those projects out again.
 *
 * A workspace of an allowed project declared on the pool (`WorkspaceSettings`) in the same
 * `pulumi up` waits for this list's write, so a program declares both with no `dependsOn`.
 *
 * Delete: in `authoritative` mode it clears the pool's list; in `additive` mode it removes
 * only the ids it added. What another resource of the stack declares of the list in the same
 * update stays (a renamed resource is a new one and a deleted one). A pool deleted first
 * leaves nothing to do.
 *
 * Drift: a refresh reads the list. In `authoritative` mode an id added or removed outside
 * the program shows in the next diff and `pulumi up` restores the declared list; in
 * `additive` mode one of its own ids removed outside the program is added again, and other
 * ids are ignored.
 *
 * Adoption: a create that finds the list already as declared writes nothing; `pulumi
 * import` takes the pool's id (`apool-...`) and reads the whole list (`authoritative`).
 */
export class AgentPoolAllowedProjects extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.AgentPoolAllowedProjects;

  /** Reads the allowed projects of a pool without managing them; `id` is the pool's id (`apool-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new AgentPoolAllowedProjects(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is AgentPoolAllowedProjects {
    return isKind(obj, "AgentPoolAllowedProjects");
  }

  /** The agent pool (`apool-...`). */
  declare readonly agentPoolId: pulumi.Output<string>;
  /** The managed projects the pool allows (its whole list in authoritative mode), sorted. */
  declare readonly projectIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the projects this resource added (removed again on delete), sorted. */
  declare readonly addedProjectIds: pulumi.Output<string[]>;

  /** Declares the projects allowed on a pool; `name` is the Pulumi resource name. */
  constructor(name: string, args: AgentPoolAllowedProjectsArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "AgentPoolAllowedProjects";
      super(TOKENS[kind], name, listProps(kind, name, args, AGENT_POOL_PROJECT_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * The workspaces that may not run on an agent pool even though `AgentPoolAllowedProjects`
 * allows their project (the pool's `excluded-workspaces` list), in `authoritative` (default)
 * or `additive` mode.
 *
 * Delete: in `authoritative` mode it clears the pool's list; in `additive` mode it removes
 * only the ids it added. What another resource of the stack declares of the list in the same
 * update stays (a renamed resource is a new one and a deleted one). A pool deleted first
 * leaves nothing to do.
 *
 * Drift: a refresh reads the list. In `authoritative` mode an id added or removed outside
 * the program shows in the next diff and `pulumi up` restores the declared list; in
 * `additive` mode one of its own ids removed outside the program is added again, and other
 * ids are ignored.
 *
 * Adoption: a create that finds the list already as declared writes nothing; `pulumi
 * import` takes the pool's id (`apool-...`) and reads the whole list (`authoritative`).
 */
export class AgentPoolExcludedWorkspaces extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.AgentPoolExcludedWorkspaces;

  /** Reads the excluded workspaces of a pool without managing them; `id` is the pool's id (`apool-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new AgentPoolExcludedWorkspaces(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is AgentPoolExcludedWorkspaces {
    return isKind(obj, "AgentPoolExcludedWorkspaces");
  }

  /** The agent pool (`apool-...`). */
  declare readonly agentPoolId: pulumi.Output<string>;
  /** The managed workspaces the pool excludes (its whole list in authoritative mode), sorted. */
  declare readonly workspaceIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the workspaces this resource added (removed again on delete), sorted. */
  declare readonly addedWorkspaceIds: pulumi.Output<string[]>;

  /** Declares the workspaces excluded from a pool; `name` is the Pulumi resource name. */
  constructor(name: string, args: AgentPoolExcludedWorkspacesArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "AgentPoolExcludedWorkspaces";
      super(TOKENS[kind], name, listProps(kind, name, args, AGENT_POOL_WORKSPACE_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
