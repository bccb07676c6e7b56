/**
 * `PolicySetParameter`: one parameter of a policy set (`/policy-sets/:id/parameters`), a
 * value the set's Sentinel policies read as a `param`.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretOutputs, withSecretFields, dynamicProps, quietStacks } from "./base";
import { secretsOf } from "./secret-values";

/** Inputs of a {@link PolicySetParameter}. */
export interface PolicySetParameterArgs {
  /**
   * The policy set (`polset-...`). Only a Sentinel set whose policies come from a version
   * (`policiesFolder`, or VCS) passes parameters to its policies, and an empty Sentinel set
   * takes them too; a parameter of an OPA set or of a set whose policies are attached one
   * by one is refused at preview when the set exists, and before anything is written when
   * it is created in the same `pulumi up`. A change replaces the parameter.
   */
  policySetId: pulumi.Input<string>;
  /** The parameter's name, unique in the set. A change renames it in place. */
  key: pulumi.Input<string>;
  /**
   * The value, as the policies read it. With `sensitive: true` it is a secret from end to
   * end: stored in the state only encrypted, even when given as a plain literal, never shown
   * and never answered by the service.
   */
  value: pulumi.Input<string>;
  /**
   * Write-only value: the service keeps it sealed and never shows it again. Default false:
   * the value is shown in previews, the state and the service's answers. Making a parameter
   * sensitive is an update in place; making a sensitive one non-sensitive replaces it (the
   * service never unseals a value; preview says why).
   */
  sensitive?: pulumi.Input<boolean>;
  /**
   * Take over the parameter of this key if the set already has one: `create` reads it and
   * changes only what the program declares differently (nothing when all matches). A
   * sensitive value cannot be read back, so adopting one writes nothing and takes it to be
   * the declared value; the next change of the declared value writes it. Without it, a
   * taken key fails the create with an error that names the parameter, unless this stack
   * made it (see the class). Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const POLICY_SET_PARAMETER_OUTPUTS = [
  "policySetId",
  "parameterId",
  "key",
  "value",
  "sensitive",
  "sensitiveValue",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("PolicySetParameter").outputs;

/**
 * One parameter of a policy set (since 0.7.0). A change of `policySetId` replaces it, as
 * does making a sensitive parameter non-sensitive; a new key, value or a parameter made
 * sensitive is an update in place.
 *
 * A sensitive value is write-only: it is compared with the value the program last declared
 * (kept encrypted in the state), never with the service, which does not answer it. An
 * unchanged value never shows a change; a changed one does, and `pulumi up` writes it. A
 * change of it made outside the program is not detected (its key, its sensitivity and its
 * deletion are). A value that is not sensitive is read back and restored like any other.
 *
 * After an interrupted `pulumi up`, or a create whose answer was lost: a parameter has no
 * field that could say whose it is, and its key is unique in its set. A create that finds
 * its key taken in the set by a parameter that this resource's declaration would make (the
 * same key and sensitivity, and when not sensitive the same value) takes it over and writes
 * the declared value to a sensitive one, so the parameter a killed create made is kept,
 * with no duplicate, and says so in one info line. Any other parameter of that key keeps
 * the `adopt: true` error.
 */
export class PolicySetParameter extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.PolicySetParameter;

  /** Reads a parameter without managing it; `id` is `<polset-id>/<var-id>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): PolicySetParameter {
    return new PolicySetParameter(name, undefined as unknown as PolicySetParameterArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is PolicySetParameter {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.PolicySetParameter
    );
  }

  /** The policy set (`polset-...`) the parameter belongs to. */
  declare readonly policySetId: pulumi.Output<string>;
  /** The parameter's id on the service (`var-...`). */
  declare readonly parameterId: pulumi.Output<string>;
  /** The parameter's name. */
  declare readonly key: pulumi.Output<string>;
  /** The value; absent for a sensitive parameter (see `sensitiveValue`). */
  declare readonly value: pulumi.Output<string | null>;
  /** Whether the value is write-only. */
  declare readonly sensitive: pulumi.Output<boolean>;
  /** A sensitive parameter's value as the program last declared it (secret); absent otherwise. */
  declare readonly sensitiveValue: pulumi.Output<string | null>;

  /** Declares one parameter of a policy set; `name` is the Pulumi resource name. */
  constructor(name: string, args: PolicySetParameterArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = args ? withSecretFields("PolicySetParameter", args) : undefined;
    const limit = quietStacks();
    try {
      super(
        TOKENS.PolicySetParameter,
        name,
        dynamicProps(
          "PolicySetParameter",
          name,
          withOutputs(inputs as unknown as Record<string, unknown> | undefined, POLICY_SET_PARAMETER_OUTPUTS),
        ),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
