/**
 * `VariableSetApplication`: a variable set applied to one workspace or one project
 * (`/varsets/:id/relationships/workspaces`, `.../projects`).
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { CLAIMANT_KEY } from "./process/claims";
import { withOriginInput } from "./origin";

/** Inputs of a {@link VariableSetApplication}: the set and exactly one of `workspaceId` and `projectId`. */
export interface VariableSetApplicationArgs {
  /** Variable set id (`varset-...`). A change replaces the application. */
  variableSetId: pulumi.Input<string>;
  /** Workspace (`ws-...`) the set applies to. Give this or `projectId`, not both. A change replaces the application. */
  workspaceId?: pulumi.Input<string>;
  /** Project (`prj-...`) whose workspaces the set applies to. Give this or `workspaceId`, not both. A change replaces the application. */
  projectId?: pulumi.Input<string>;
  /**
   * Take over the application if the set is already applied there: `create` then writes
   * nothing, and from then on this resource owns it (delete removes it). Without it, a set
   * already applied there fails the create with an error that says so. Default false; no
   * effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const VARIABLE_SET_APPLICATION_OUTPUTS = ["variableSetId", "workspaceId", "projectId"] as const;

/**
 * The application of one variable set to one workspace or one project: one owner per
 * application. Two resources of one stack that apply the same set to the same target are
 * refused at preview, and a set already applied there is never taken over without `adopt`
 * (the application may be another stack's). Any change replaces it (the new application
 * first, then the old one removed). Delete removes this application alone: the set, and
 * its other applications, stay.
 *
 * Drift: a refresh reads where the set applies; an application removed outside the
 * program is dropped from the state and `pulumi up` applies the set again.
 *
 * After an interrupted `pulumi up`: an application has no field that could say whose it
 * is, but its set may. A set this stack created without a description carries the stack's
 * origin there, so the next `up` takes over an application of that set that the state
 * lacks, with one info line and no write (deleting the set would remove its applications
 * anyway). An application of any other set (one with a description, or another stack's)
 * cannot be told from another stack's: the next `up` fails on it with the `adopt: true`
 * error; set `adopt: true` for one `pulumi up`, then remove it.
 */
export class VariableSetApplication extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.VariableSetApplication;

  /** Reads an application without managing it; `id` is `<varset-id>/<ws-id>` or `<varset-id>/<prj-id>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): VariableSetApplication {
    return new VariableSetApplication(name, undefined as unknown as VariableSetApplicationArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is VariableSetApplication {
    return (
      pulumi.Resource.isInstance(obj) &&
      (obj as { __pulumiType?: string }).__pulumiType === TOKENS.VariableSetApplication
    );
  }

  /** The variable set (`varset-...`). */
  declare readonly variableSetId: pulumi.Output<string>;
  /** The workspace it applies to; absent for a project's. */
  declare readonly workspaceId: pulumi.Output<string | null>;
  /** The project it applies to; absent for a workspace's. */
  declare readonly projectId: pulumi.Output<string | null>;

  /** Applies a variable set to a workspace or a project; `name` is the Pulumi resource name. */
  constructor(name: string, args: VariableSetApplicationArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.VariableSetApplication,
        name,
        dynamicProps(
          "VariableSetApplication",
          name,
          withOutputs(
            withOriginInput(
              "VariableSetApplication",
              name,
              args ? { ...(args as unknown as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined,
            ),
            VARIABLE_SET_APPLICATION_OUTPUTS,
          ),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
