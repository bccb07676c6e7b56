/**
 * `Policy`: one Sentinel or OPA policy of an organization (`/organizations/:org/policies`),
 * its code uploaded from a string or a file of the program.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { withOriginInput } from "./origin";

/** Inputs of a {@link Policy}. */
export interface PolicyArgs {
  /**
   * Name, unique in the organization: letters, digits, `-`, `_` and `.`, at most 128
   * characters. A change replaces the policy (the service never renames one).
   */
  name: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the policy.
   */
  organization?: pulumi.Input<string>;
  /**
   * `sentinel` (the default) or `opa`: the language of the code. A change replaces the
   * policy (the service never changes a policy's kind). A kind this release does not know
   * is sent as given, with a warning, and the service decides.
   */
  kind?: pulumi.Input<string>;
  /** Description, at most 500 characters; `""` clears it. Omitted: not managed. A change is made in place. */
  description?: pulumi.Input<string>;
  /**
   * The policy's code, as text. Give exactly one of `code` and `codeFile`. The stack keeps
   * its SHA-256 (`codeSha256`), and a preview compares digests, not texts: an edit of the
   * code is an update that uploads it again, in place.
   */
  code?: pulumi.Input<string>;
  /**
   * A file of the program holding the policy's code (relative to the program's directory),
   * read whenever the program runs. Give exactly one of `code` and `codeFile`; a file that
   * cannot be read fails the preview, naming the path it was read from. An edit of the file
   * is an update that uploads it again, in place.
   */
  codeFile?: pulumi.Input<string>;
  /**
   * OPA only, and required there: the query that evaluates the policy,
   * `data.<package>.<rule>` (for example `data.terraform.policies.deny`). A change is made
   * in place.
   */
  query?: pulumi.Input<string>;
  /**
   * How strictly the service enforces the policy: `advisory`, `soft-mandatory` or
   * `hard-mandatory` for Sentinel; `advisory` or `mandatory` for OPA. Another value is
   * refused before anything is sent. A change is made in place, and a level changed outside
   * the program shows in the next preview after a refresh and is restored by `pulumi up`.
   * Omitted: not managed (a new policy is `advisory`).
   */
  enforcementLevel?: pulumi.Input<string>;
  /**
   * Take over the policy of this name if the organization already has one: `create` reads
   * it and its code and changes only what the program declares differently (nothing, and
   * no upload, when the code's digest and every declared setting match). Without it, a
   * taken name fails the create with an error that names the policy and its id. Default
   * false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const POLICY_OUTPUTS = [
  "name",
  "organization",
  "kind",
  "description",
  "query",
  "enforcementLevel",
  "codeSha256",
  "codeFile",
  "policySetCount",
  "updatedAt",
] as const;

/**
 * A Sentinel or OPA policy (since 0.7.0), run by the service on the runs of the workspaces
 * a `PolicySet` holding it applies to. Attach it to a set with the set's `policyIds`. A
 * change of `name`, `kind` or `organization` replaces it; a change of its code (`code` or
 * the file `codeFile` names), `description`, `query` or `enforcementLevel` is made in place.
 *
 * Its code is compared by digest: the stack keeps the SHA-256 of what was uploaded
 * (`codeSha256`), and a refresh downloads the service's code and digests it, so code
 * changed outside the program shows in the next preview as a change of `codeSha256` and
 * `pulumi up` uploads the program's code again.
 *
 * Deleting a policy that sets still hold is allowed: the service takes it out of each of
 * those sets, and the sets stay. A `PolicySet` in the same stack that lists it shows the
 * difference on its next refresh.
 *
 * A policy deleted outside the program is dropped from the state only when the token
 * could have seen it (an owners token); otherwise the refresh fails and says why.
 *
 * After an interrupted `pulumi up`: a policy's name is unique, so no second one is ever
 * made. A policy created without a description carries the stack's origin there and is
 * taken over by the next `pulumi up` of the same stack; a create whose answer was lost is
 * found by its name and kept. A create the service acknowledged is kept in the stack even
 * when uploading its code fails: the next `pulumi up` uploads it.
 */
export class Policy extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.Policy;

  /** Reads a policy without managing it; `id` is its `pol-...` id, or `<organization>/<name>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Policy {
    return new Policy(name, undefined as unknown as PolicyArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is Policy {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.Policy;
  }

  /** Name of the policy. */
  declare readonly name: pulumi.Output<string>;
  /** Organization the policy belongs to. */
  declare readonly organization: pulumi.Output<string>;
  /** `sentinel`, `opa`, or a kind the service named that this release does not know. */
  declare readonly kind: pulumi.Output<string>;
  /** Description; absent when it has none. */
  declare readonly description: pulumi.Output<string | null>;
  /** The OPA query; absent for a Sentinel policy. */
  declare readonly query: pulumi.Output<string | null>;
  /** How strictly the service enforces the policy; absent when the service does not say. */
  declare readonly enforcementLevel: pulumi.Output<string | null>;
  /** SHA-256 (hex) of the policy's code on the service; absent when it has none. */
  declare readonly codeSha256: pulumi.Output<string | null>;
  /** The file the code is read from, as the program gave it; absent when the code is given inline. */
  declare readonly codeFile: pulumi.Output<string | null>;
  /** How many policy sets hold the policy; absent when the service does not say. */
  declare readonly policySetCount: pulumi.Output<number | null>;
  /** When the policy last changed (ISO 8601); absent when the service does not say. */
  declare readonly updatedAt: pulumi.Output<string | null>;

  /** Declares a policy; `name` is the Pulumi resource name (the policy's own name is `args.name`). */
  constructor(name: string, args: PolicyArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.Policy,
        name,
        dynamicProps("Policy", name, withOutputs(withOriginInput("Policy", name, args), POLICY_OUTPUTS)),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
