/**
 * Where a policy set applies: `PolicySetWorkspaces`, `PolicySetProjects`,
 * `PolicySetWorkspaceExclusions` and `PolicySetProjectExclusions`, the set's `workspaces`,
 * `projects`, `workspace-exclusions` and `project-exclusions` lists
 * (`POST`/`DELETE /policy-sets/:id/relationships/...`), each in `authoritative` or
 * `additive` mode, one owner for each list.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, quietStacks } from "./base";
import { isKind, listProps } from "./list-props";
import type { OwnershipMode } from "./workspace-tags";

/** The inputs every list of a set takes. */
interface PolicySetListArgs {
  /** The policy set (`polset-...`) whose list this resource manages. A change replaces this resource. */
  policySetId: pulumi.Input<string>;
  /**
   * Who owns the list. `authoritative` (default): the set's whole list is what this resource
   * declares: ids added outside the program are removed, an empty list clears it, and delete
   * clears it. `additive`: adds the declared ids and leaves the others; delete, or an id
   * dropped from the declaration, removes only the ids this resource added, never one that
   * another resource or a person added. One list has one owner: two authoritative resources
   * of one stack for the same set and list, an authoritative and an additive one, or two
   * additive ones declaring the same id are refused at preview, naming both resources (for a
   * set the same update creates, as soon as its id is known, before the list is written).
   */
  mode?: pulumi.Input<OwnershipMode>;
}

/** Inputs of a {@link PolicySetWorkspaces}. */
export interface PolicySetWorkspacesArgs extends PolicySetListArgs {
  /**
   * Workspaces (`ws-...`) the set applies to; order does not matter. In `authoritative` mode
   * an empty list `[]` takes the set off every workspace it lists (workspaces of the projects
   * it applies to keep it). Refused on a global set.
   */
  workspaceIds: pulumi.Input<pulumi.Input<string>[]>;
}

/** Inputs of a {@link PolicySetProjects}. */
export interface PolicySetProjectsArgs extends PolicySetListArgs {
  /**
   * Projects (`prj-...`) to whose workspaces the set applies; order does not matter. In
   * `authoritative` mode an empty list `[]` takes the set off every project it lists.
   * Refused on a global set.
   */
  projectIds: pulumi.Input<pulumi.Input<string>[]>;
}

/** Inputs of a {@link PolicySetWorkspaceExclusions}. */
export interface PolicySetWorkspaceExclusionsArgs extends PolicySetListArgs {
  /**
   * Workspaces (`ws-...`) the set never applies to, even when it is global or applies to
   * their project; order does not matter. In `authoritative` mode an empty list `[]` excludes
   * no workspace.
   */
  workspaceIds: pulumi.Input<pulumi.Input<string>[]>;
}

/** Inputs of a {@link PolicySetProjectExclusions}. */
export interface PolicySetProjectExclusionsArgs extends PolicySetListArgs {
  /**
   * Projects (`prj-...`) to whose workspaces the set never applies, even when it is global;
   * order does not matter. In `authoritative` mode an empty list `[]` excludes no project.
   */
  projectIds: pulumi.Input<pulumi.Input<string>[]>;
}

export const POLICY_SET_WORKSPACE_LIST_OUTPUTS = ["policySetId", "workspaceIds", "mode", "addedWorkspaceIds"] as const;
export const POLICY_SET_PROJECT_LIST_OUTPUTS = ["policySetId", "projectIds", "mode", "addedProjectIds"] as const;

/**
 * The workspaces a policy set applies to one by one (the set's `workspaces` list), in
 * `authoritative` (default) or `additive` mode. The set also applies to the workspaces of
 * the projects `PolicySetProjects` lists, and never to those the exclusions list. A global
 * set applies everywhere and takes no workspaces: refused at preview when the set exists
 * (global as the program's `PolicySet` declares it, so a set made not global in the same
 * `pulumi up` takes them), and before any write when the same `pulumi up` creates it.
 *
 * Delete: in `authoritative` mode it clears the set's list; in `additive` mode it removes
 * only the ids it added. What another resource of the stack declares of the list in the same
 * update stays (a renamed resource is a new one and a deleted one). A set deleted first
 * leaves nothing to do.
 *
 * Drift: a refresh reads the list. In `authoritative` mode an id added or removed outside
 * the program shows in the next diff and `pulumi up` restores the declared list; in
 * `additive` mode one of its own ids removed outside the program is added again, and other
 * ids are ignored.
 *
 * Adoption: a create that finds the list already as declared writes nothing; `pulumi
 * import` takes the set's id (`polset-...`) and reads the whole list (`authoritative`).
 */
export class PolicySetWorkspaces extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.PolicySetWorkspaces;

  /** Reads the workspaces of a set without managing them; `id` is the set's id (`polset-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new PolicySetWorkspaces(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is PolicySetWorkspaces {
    return isKind(obj, "PolicySetWorkspaces");
  }

  /** The policy set (`polset-...`). */
  declare readonly policySetId: pulumi.Output<string>;
  /** The managed workspaces the set applies to (its whole list in authoritative mode), sorted. */
  declare readonly workspaceIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the workspaces this resource added (removed again on delete), sorted. */
  declare readonly addedWorkspaceIds: pulumi.Output<string[]>;

  /** Declares the workspaces a set applies to; `name` is the Pulumi resource name. */
  constructor(name: string, args: PolicySetWorkspacesArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "PolicySetWorkspaces";
      super(TOKENS[kind], name, listProps(kind, name, args, POLICY_SET_WORKSPACE_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * The projects to whose workspaces a policy set applies (the set's `projects` list), in
 * `authoritative` (default) or `additive` mode. `PolicySetWorkspaceExclusions` takes single
 * workspaces of those projects out again. A global set applies everywhere and takes no
 * projects: refused at preview when the set exists, and before any write when the same
 * `pulumi up` creates it.
 *
 * Delete, drift and adoption as `PolicySetWorkspaces`: delete clears the list
 * (`authoritative`) or removes the ids it added (`additive`); a refresh shows ids added or
 * removed outside the program and `pulumi up` restores them; a list already as declared
 * costs no write; `pulumi import` takes the set's id (`polset-...`).
 */
export class PolicySetProjects extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.PolicySetProjects;

  /** Reads the projects of a set without managing them; `id` is the set's id (`polset-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new PolicySetProjects(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is PolicySetProjects {
    return isKind(obj, "PolicySetProjects");
  }

  /** The policy set (`polset-...`). */
  declare readonly policySetId: pulumi.Output<string>;
  /** The managed projects the set applies to (its whole list in authoritative mode), sorted. */
  declare readonly projectIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the projects this resource added (removed again on delete), sorted. */
  declare readonly addedProjectIds: pulumi.Output<string[]>;

  /** Declares the projects a set applies to; `name` is the Pulumi resource name. */
  constructor(name: string, args: PolicySetProjectsArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "PolicySetProjects";
      super(TOKENS[kind], name, listProps(kind, name, args, POLICY_SET_PROJECT_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * The workspaces a policy set never applies to (the set's `workspace-exclusions` list), even
 * when the set is global or applies to their project, in `authoritative` (default) or
 * `additive` mode.
 *
 * Delete, drift and adoption as `PolicySetWorkspaces`: delete clears the list
 * (`authoritative`) or removes the ids it added (`additive`); a refresh shows ids added or
 * removed outside the program and `pulumi up` restores them; a list already as declared
 * costs no write; `pulumi import` takes the set's id (`polset-...`).
 */
export class PolicySetWorkspaceExclusions extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.PolicySetWorkspaceExclusions;

  /** Reads the excluded workspaces of a set without managing them; `id` is the set's id (`polset-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new PolicySetWorkspaceExclusions(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is PolicySetWorkspaceExclusions {
    return isKind(obj, "PolicySetWorkspaceExclusions");
  }

  /** The policy set (`polset-...`). */
  declare readonly policySetId: pulumi.Output<string>;
  /** The managed workspaces the set excludes (its whole list in authoritative mode), sorted. */
  declare readonly workspaceIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the workspaces this resource excluded (included again on delete), sorted. */
  declare readonly addedWorkspaceIds: pulumi.Output<string[]>;

  /** Declares the workspaces a set excludes; `name` is the Pulumi resource name. */
  constructor(name: string, args: PolicySetWorkspaceExclusionsArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "PolicySetWorkspaceExclusions";
      super(TOKENS[kind], name, listProps(kind, name, args, POLICY_SET_WORKSPACE_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * The projects to whose workspaces a policy set never applies (the set's
 * `project-exclusions` list), even when the set is global, in `authoritative` (default) or
 * `additive` mode.
 *
 * Delete, drift and adoption as `PolicySetWorkspaces`: delete clears the list
 * (`authoritative`) or removes the ids it added (`additive`); a refresh shows ids added or
 * removed outside the program and `pulumi up` restores them; a list already as declared
 * costs no write; `pulumi import` takes the set's id (`polset-...`).
 */
export class PolicySetProjectExclusions extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.PolicySetProjectExclusions;

  /** Reads the excluded projects of a set without managing them; `id` is the set's id (`polset-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new PolicySetProjectExclusions(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is PolicySetProjectExclusions {
    return isKind(obj, "PolicySetProjectExclusions");
  }

  /** The policy set (`polset-...`). */
  declare readonly policySetId: pulumi.Output<string>;
  /** The managed projects the set excludes (its whole list in authoritative mode), sorted. */
  declare readonly projectIds: pulumi.Output<string[]>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Additive mode: the projects this resource excluded (included again on delete), sorted. */
  declare readonly addedProjectIds: pulumi.Output<string[]>;

  /** Declares the projects a set excludes; `name` is the Pulumi resource name. */
  constructor(name: string, args: PolicySetProjectExclusionsArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      const kind = "PolicySetProjectExclusions";
      super(TOKENS[kind], name, listProps(kind, name, args, POLICY_SET_PROJECT_LIST_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
