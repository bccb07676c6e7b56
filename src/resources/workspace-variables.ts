/**
 * `WorkspaceVariables`: many variables of one workspace in one resource, additive like
 * `WorkspaceTags`, so that an organization of thousands of workspaces declares each
 * workspace's variables with one resource rather than one per variable.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretItems, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { secretsOf } from "./secret-values";
import { withOriginInput } from "./origin";
import type { VariableArgs, VariableCategory } from "./workspace-variable";

/** A variable of a list as the service reports it (a sensitive value is in `sensitiveValues`, as a secret). */
export interface VariableOutput {
  /** Variable id (`var-...`). */
  id: string;
  /** Variable name. */
  key: string;
  /** The value; absent for a sensitive variable. */
  value?: string;
  /** `engine` or `env`. */
  category: VariableCategory;
  /** Description; absent when it has none. */
  description?: string;
  /** Whether the value is parsed as HCL. */
  hcl: boolean;
  /** Whether the value is write-only. */
  sensitive: boolean;
}

/** Inputs of a {@link WorkspaceVariables}. */
export interface WorkspaceVariablesArgs {
  /** Workspace id (`ws-...`). A change replaces the resource. */
  workspaceId: pulumi.Input<string>;
  /**
   * The variables this resource manages; a key is unique per category. An item removed from
   * the list is deleted from the workspace; a variable the workspace has and this list does
   * not name is never changed or removed.
   */
  variables: pulumi.Input<pulumi.Input<VariableArgs>[]>;
  /**
   * Take over the variables of the listed keys that the workspace already has: `create`
   * changes only what the program declares differently (nothing when all matches; a
   * sensitive value, which the service never shows, is taken to be the declared one), and
   * from then on this resource owns them (delete removes them). Without it, a listed key the
   * workspace already has fails the create with an error that names it. Default false; no
   * effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const WORKSPACE_VARIABLES_OUTPUTS = ["workspaceId", "variables", "sensitiveValues"] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("WorkspaceVariables").outputs;

/**
 * Variables of one workspace, additive: it creates, changes and deletes only the
 * variables it created (or took over with `adopt`), never another variable of the
 * workspace, whatever its key. A variable it owns is its own by id: a value changed
 * outside the program shows in the next preview and `pulumi up` restores it, and a
 * variable deleted outside the program is created again. Delete removes exactly the
 * variables it owns. A change of `workspaceId` replaces it.
 *
 * Drift: as for `WorkspaceVariable`, a sensitive value cannot be read back; its deletion,
 * key, category, `hcl` flag and description are detected, a change of its value outside the
 * program is not. A sensitive value changed in the program is written; an unchanged one
 * never shows a change.
 *
 * `pulumi import` by the workspace id takes over every variable the workspace has at
 * that moment (the generated program lists them all, sensitive ones without their value).
 *
 * After an interrupted `pulumi up`: each variable created without a `description` carries
 * the stack's origin there, so the next `up` takes over the variables that update created;
 * a variable of the same key and another origin or description keeps the error.
 */
export class WorkspaceVariables extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.WorkspaceVariables;

  /** Reads every variable of a workspace without managing them; `id` is the workspace id (`ws-...`) or `ws-.../variables`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): WorkspaceVariables {
    return new WorkspaceVariables(name, undefined as unknown as WorkspaceVariablesArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is WorkspaceVariables {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.WorkspaceVariables
    );
  }

  /** Workspace (`ws-...`) whose variables these are. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The variables this resource owns, as the service reports them (sensitive values left out). */
  declare readonly variables: pulumi.Output<VariableOutput[]>;
  /** Values of the sensitive variables as last declared, by `<category>/<key>` (secret). */
  declare readonly sensitiveValues: pulumi.Output<Record<string, string>>;

  /** Declares variables of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: WorkspaceVariablesArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = args ? withSecretItems("WorkspaceVariables", args) : undefined;
    const limit = quietStacks();
    try {
      super(
        TOKENS.WorkspaceVariables,
        name,
        dynamicProps(
          "WorkspaceVariables",
          name,
          withOutputs(withOriginInput("WorkspaceVariables", name, inputs), WORKSPACE_VARIABLES_OUTPUTS),
        ),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
