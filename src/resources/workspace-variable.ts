/**
 * `WorkspaceVariable`: one variable of a workspace (`/workspaces/:id/vars`), the values a
 * workspace's runs are given: the engine's input variables and environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretOutputs, withSecretFields, dynamicProps, quietStacks } from "./base";
import { secretsOf } from "./secret-values";
import { withOriginInput } from "./origin";

/** Where a variable goes: `engine` (an input variable of the engine's configuration) or `env` (an environment variable of its runs). */
export type VariableCategory = "engine" | "env";

/** One variable as a program declares it (a `WorkspaceVariable`, an item of `WorkspaceVariables` or of a `VariableSet`). */
export interface VariableArgs {
  /**
   * Variable name: letters, digits, `_`, `-` and `.`, at most 128 characters; unique per
   * category. A change renames the variable in place, except for a sensitive variable,
   * which the service does not rename: it is replaced (preview says why).
   */
  key: pulumi.Input<string>;
  /**
   * The value. Default empty. With `sensitive: true` it is a secret from end to end: stored
   * in the state only encrypted, even when given as a plain literal, and never shown. A
   * value that is not sensitive stays readable in previews and diffs.
   */
  value?: pulumi.Input<string>;
  /** `engine` (an input variable of the engine's configuration), `env` (an environment variable of its runs) or `terraform` (an alias of `engine`, the wire's own word). A change is made in place. */
  category: pulumi.Input<VariableCategory | "terraform">;
  /** Description, at most 512 characters. Omitted: not managed. */
  description?: pulumi.Input<string>;
  /** Parse the value as HCL (engine variables only). Default false. */
  hcl?: pulumi.Input<boolean>;
  /**
   * Write-only value: the service never shows it again. Default false. Making a variable
   * sensitive is an update in place; making a sensitive variable non-sensitive again
   * replaces it (the service refuses it in place; preview says why).
   */
  sensitive?: pulumi.Input<boolean>;
}

/** Inputs of a {@link WorkspaceVariable}. */
export interface WorkspaceVariableArgs extends VariableArgs {
  /** Workspace id (`ws-...`). A change replaces the variable. */
  workspaceId: pulumi.Input<string>;
  /**
   * Take over the variable of this key and category if the workspace already has one: `create`
   * reads it and changes only what the program declares differently (nothing when all
   * matches; a sensitive value, which the service never shows, is taken to be the declared
   * one). Without it, a taken key fails the create with an error that names the variable.
   * Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const WORKSPACE_VARIABLE_OUTPUTS = [
  "workspaceId",
  "variableId",
  "key",
  "value",
  "category",
  "description",
  "hcl",
  "sensitive",
  "sensitiveValue",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("WorkspaceVariable").outputs;

/**
 * One variable of a workspace. A change of `workspaceId` replaces it, as do the two changes
 * the service refuses in place (a sensitive variable made non-sensitive, a sensitive
 * variable's key); every other change is an update in place. Delete removes this variable
 * alone.
 *
 * Drift: a refresh reads the variable back, so a value, key, category, `hcl` flag or
 * description changed outside the program shows in the next preview and `pulumi up`
 * restores it; a deleted variable is dropped by refresh and created again by `up`. A
 * sensitive value cannot be read back: a change of it outside the program is not detected
 * (its key, category, `hcl`, description and deletion are); a change of it in the program
 * is, against the value the stack recorded (encrypted), and an unchanged one never shows
 * a change.
 *
 * After an interrupted `pulumi up`: a variable declared without `description` is created
 * with the stack's origin as its description (the page about interrupted updates, the
 * stack and the resource's name), so the next `up` takes over the variable that update
 * created and left out of the state, with one info line; a variable of another origin, or
 * of any description, keeps the `adopt: true` error.
 */
export class WorkspaceVariable extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.WorkspaceVariable;

  /** Reads a variable without managing it; `id` is `<ws-id>/<var-id>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): WorkspaceVariable {
    return new WorkspaceVariable(name, undefined as unknown as WorkspaceVariableArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is WorkspaceVariable {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.WorkspaceVariable
    );
  }

  /** Workspace (`ws-...`) the variable belongs to. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The variable's id on the service (`var-...`). */
  declare readonly variableId: pulumi.Output<string>;
  /** Variable name. */
  declare readonly key: pulumi.Output<string>;
  /** The value; absent for a sensitive variable (see `sensitiveValue`). */
  declare readonly value: pulumi.Output<string | null>;
  /** `engine` or `env`. */
  declare readonly category: pulumi.Output<VariableCategory>;
  /** Description; absent when it has none. */
  declare readonly description: pulumi.Output<string | null>;
  /** Whether the value is parsed as HCL. */
  declare readonly hcl: pulumi.Output<boolean>;
  /** Whether the value is write-only. */
  declare readonly sensitive: pulumi.Output<boolean>;
  /** A sensitive variable's value as the program last declared it (secret); absent otherwise. */
  declare readonly sensitiveValue: pulumi.Output<string | null>;

  /** Declares one variable of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: WorkspaceVariableArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = args ? withSecretFields("WorkspaceVariable", args) : undefined;
    const limit = quietStacks();
    try {
      super(
        TOKENS.WorkspaceVariable,
        name,
        dynamicProps(
          "WorkspaceVariable",
          name,
          withOutputs(withOriginInput("WorkspaceVariable", name, inputs), WORKSPACE_VARIABLE_OUTPUTS),
        ),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
