/**
 * `VariableSet`: a named set of variables of an organization (`/organizations/:org/varsets`),
 * with its variables inline; where it applies is a `VariableSetApplication` each (or
 * `global`).
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretItems, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { secretsOf } from "./secret-values";
import { withOriginInput } from "./origin";
import type { VariableArgs } from "./workspace-variable";
import type { VariableOutput } from "./workspace-variables";

/** Inputs of a {@link VariableSet}. */
export interface VariableSetArgs {
  /** Name, unique in the organization, at most 128 characters. A change renames the set in place. */
  name: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the set.
   */
  organization?: pulumi.Input<string>;
  /** Description, at most 512 characters. Omitted: not managed. */
  description?: pulumi.Input<string>;
  /** Apply the set to every workspace of the organization. Default false. */
  global?: pulumi.Input<boolean>;
  /** Its variables override the workspaces' own (and any other set's that is not a priority set). Default false. */
  priority?: pulumi.Input<boolean>;
  /**
   * The set's variables; a key is unique per category. The set is this resource's, so the
   * list is all of them: a variable added to the set outside the program is removed by the
   * next `pulumi up`. Omitted: its variables are not managed.
   */
  variables?: pulumi.Input<pulumi.Input<VariableArgs>[]>;
  /**
   * Take over the set of this name if the organization already has one: `create` reads it
   * and changes only what the program declares differently (nothing when all matches; a
   * sensitive value, which the service never shows, is taken to be the declared one).
   * Without it, a taken name fails the create with an error that names the set. Default
   * false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const VARIABLE_SET_OUTPUTS = [
  "name",
  "organization",
  "description",
  "global",
  "priority",
  "variables",
  "sensitiveValues",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("VariableSet").outputs;

/**
 * A variable set and its variables. A change of `organization` replaces it; every other
 * change is made in place, each variable in its own request (a sensitive variable made
 * non-sensitive, or renamed, is deleted and created again, as the service refuses both in
 * place). Delete removes the set, its variables and wherever it is applied.
 *
 * Drift: a refresh reads the set and its variables back; a name, flag, description or
 * variable changed, added or deleted outside the program shows in the next preview and
 * `pulumi up` restores it. A sensitive value cannot be read back: its deletion, key,
 * category, `hcl` flag and description are detected, a change of its value outside the
 * program is not; a change of it in the program is, and an unchanged one never shows a change.
 *
 * After an interrupted `pulumi up`: a set declared without `description` is created with
 * the stack's origin as its description, so the next `up` takes over the set that update
 * created (and creates its missing variables); a set declared with a description, or of
 * another origin, keeps the `adopt: true` error.
 */
export class VariableSet extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.VariableSet;

  /** Reads a variable set without managing it; `id` is its id (`varset-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): VariableSet {
    return new VariableSet(name, undefined as unknown as VariableSetArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is VariableSet {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.VariableSet;
  }

  /** Name of the set. */
  declare readonly name: pulumi.Output<string>;
  /** Organization the set belongs to. */
  declare readonly organization: pulumi.Output<string>;
  /** Description; absent when it has none. */
  declare readonly description: pulumi.Output<string | null>;
  /** Whether the set applies to every workspace of the organization. */
  declare readonly global: pulumi.Output<boolean>;
  /** Whether its variables override the workspaces' own. */
  declare readonly priority: pulumi.Output<boolean>;
  /** The set's variables, as the service reports them (sensitive values left out); absent when not managed. */
  declare readonly variables: pulumi.Output<VariableOutput[] | null>;
  /** Values of the sensitive variables as last declared, by `<category>/<key>` (secret). */
  declare readonly sensitiveValues: pulumi.Output<Record<string, string>>;

  /** Declares a variable set; `name` is the Pulumi resource name (the set's own name is `args.name`). */
  constructor(name: string, args: VariableSetArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = args ? withSecretItems("VariableSet", args) : undefined;
    const limit = quietStacks();
    try {
      super(
        TOKENS.VariableSet,
        name,
        dynamicProps(
          "VariableSet",
          name,
          withOutputs(withOriginInput("VariableSet", name, inputs), VARIABLE_SET_OUTPUTS),
        ),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
