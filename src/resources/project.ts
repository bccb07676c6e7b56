/**
 * `Project`: a project of an organization (`/organizations/:org/projects`), the group its
 * workspaces belong to.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { withOriginInput } from "./origin";

/** Inputs of a {@link Project}. */
export interface ProjectArgs {
  /**
   * Name, unique in the organization: letters, digits, spaces, `-` and `_`, at most 40
   * characters. A change renames the project in place; its workspaces stay in it.
   */
  name: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the project.
   */
  organization?: pulumi.Input<string>;
  /** Description; `""` clears it. Omitted: not managed (the project is created with the stack's origin there). */
  description?: pulumi.Input<string>;
  /**
   * Take over the project of this name if the organization already has one: `create`
   * reads it and changes only what the program declares differently (nothing when all
   * matches). Without it, a taken name fails the create with an error that names the
   * project and its id. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const PROJECT_OUTPUTS = ["name", "organization", "description"] as const;

/**
 * A project (since 0.6.0). A change of `organization` replaces it; a rename or a new
 * description is made in place. Delete refuses, before any write, a project that still
 * holds workspaces: the error names how many and the ways out (move or delete them, or
 * `pulumi state delete` to keep the project).
 *
 * Drift: a refresh reads the name and description back; a change made outside the
 * program shows in the next preview and `pulumi up` restores it. A project deleted
 * outside the program is dropped from the state only when the token could have seen it
 * (one that may create projects); otherwise the refresh fails and says why.
 *
 * After an interrupted `pulumi up`: a project declared without `description` is created
 * with the stack's origin as its description, so the next `up` takes over the project
 * that update created, with one info line and no duplicate; a project declared with a
 * description, or of another origin, keeps the `adopt: true` error.
 */
export class Project extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.Project;

  /** Reads a project without managing it; `id` is its id (`prj-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Project {
    return new Project(name, undefined as unknown as ProjectArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is Project {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.Project;
  }

  /** Name of the project. */
  declare readonly name: pulumi.Output<string>;
  /** Organization the project belongs to. */
  declare readonly organization: pulumi.Output<string>;
  /** Description; absent when it has none. */
  declare readonly description: pulumi.Output<string | null>;

  /** Declares a project; `name` is the Pulumi resource name (the project's own name is `args.name`). */
  constructor(name: string, args: ProjectArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.Project,
        name,
        dynamicProps("Project", name, withOutputs(withOriginInput("Project", name, args), PROJECT_OUTPUTS)),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
