/**
 * `PolicySet`: a policy set of an organization (`/organizations/:org/policy-sets`), the
 * Sentinel or OPA policies the service checks the runs of the workspaces it applies to
 * against.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { withOriginInput } from "./origin";

/** Inputs of a {@link PolicySet}. */
export interface PolicySetArgs {
  /**
   * Name, unique in the organization: letters, digits, `-`, `_` and `.`, at most 128
   * characters. A change renames the set in place.
   */
  name: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the set.
   */
  organization?: pulumi.Input<string>;
  /** Description, at most 500 characters; `""` clears it. Omitted: not managed. */
  description?: pulumi.Input<string>;
  /**
   * `sentinel` (the default) or `opa`: the language of the set's policies. A change
   * replaces the set (the service never changes a set's kind). A kind this release does not
   * know is sent as given, with a warning, and the service decides.
   */
  kind?: pulumi.Input<string>;
  /**
   * OPA sets only: whether a member of the organization may override a failed `mandatory`
   * policy of the set and let the run go on (`false`: a failed mandatory policy stops the
   * run, and no one may override it). `advisory` policies never stop a run, whatever this
   * says. A Sentinel set has no such switch (its `soft-mandatory` level is the one that
   * may be overridden), so setting it on one is refused before anything is sent. Omitted:
   * not managed (the service's default is `false`). A change is made in place.
   */
  overridable?: pulumi.Input<boolean>;
  /**
   * Whether the set applies to every workspace of the organization (less its exclusions).
   * A global set takes no `PolicySetWorkspaces` or `PolicySetProjects`. Omitted: not
   * managed (a new set is not global). A change is made in place.
   */
  global?: pulumi.Input<boolean>;
  /**
   * The policies (`pol-...`) attached to the set one by one: its whole list, in any order;
   * `[]` detaches every one. A policy attached outside the program is detached by the next
   * `pulumi up`. Exclusive with `policiesFolder`. Omitted: not managed. A set whose policies
   * are attached this way takes no parameters (the service ignores them); use
   * `policiesFolder` for a set with `PolicySetParameter`s.
   */
  policyIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * A folder of the program (relative to the program's directory) holding the set's
   * policies and its configuration (`sentinel.hcl` for Sentinel, `policies.hcl` and the
   * `.rego` files for OPA), uploaded as a policy set version. Every regular file under it
   * counts, but for folders named `.git`. What is compared is the digest of the files
   * (`policiesSha256`): an edit of a file uploads a new version on the next `pulumi up`,
   * an unchanged folder uploads nothing, and a version uploaded outside the program is
   * replaced by the folder's. Exclusive with `policyIds`. Switching a set between
   * `policyIds` and `policiesFolder` replaces it.
   */
  policiesFolder?: pulumi.Input<string>;
  /** Whether the set's policies are evaluated on the agents of the runs. Omitted: not managed. */
  agentEnabled?: pulumi.Input<boolean>;
  /** The version of the policy tool (Sentinel or OPA) the set is evaluated with. Omitted: not managed. */
  policyToolVersion?: pulumi.Input<string>;
  /**
   * Take over the set of this name if the organization already has one: `create` reads it
   * and changes only what the program declares differently (nothing when all matches).
   * The service never gives a version's files back, so a set that has a current version is
   * taken to hold the files of `policiesFolder`: adopting uploads nothing, and the next
   * edit of the folder uploads it. Without it, a taken name fails the create with an error
   * that names the set and its id. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const POLICY_SET_OUTPUTS = [
  "name",
  "organization",
  "description",
  "kind",
  "overridable",
  "global",
  "policyIds",
  "policiesFolder",
  "policiesSha256",
  "currentVersionId",
  "agentEnabled",
  "policyToolVersion",
  "workspaceCount",
  "projectCount",
] as const;

/**
 * A policy set (since 0.7.0): Sentinel or OPA policies the service checks the runs of
 * workspaces against, attached one by one (`policyIds`, each a `Policy`) or uploaded from
 * a folder of the program as a version (`policiesFolder`). Where it applies is declared
 * by `PolicySetWorkspaces`, `PolicySetProjects` and their exclusions, or by `global`; its
 * parameters by `PolicySetParameter`. A change of `organization` or `kind` replaces it, as
 * does a switch between `policyIds` and `policiesFolder`; every other change is made in place.
 *
 * Drift: a refresh reads the set back (one request, shared with the resources of the same
 * set): a name, description, flag or policy list changed outside the program shows in the
 * next preview and `pulumi up` restores it; so does a version uploaded outside the program.
 * A set deleted outside the program is dropped from the state only when the token could
 * have seen it; otherwise the refresh fails and says why.
 *
 * After an interrupted `pulumi up`: a set's name is unique, so no second set is ever made.
 * A create whose answer was lost is found by its name and creation time and kept; a set an
 * interrupted update made fails the next `up` with the error that names `adopt: true`.
 */
export class PolicySet extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.PolicySet;

  /** Reads a set without managing it; `id` is its `polset-...` id, or `<organization>/<name>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): PolicySet {
    return new PolicySet(name, undefined as unknown as PolicySetArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is PolicySet {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.PolicySet;
  }

  /** Name of the set. */
  declare readonly name: pulumi.Output<string>;
  /** Organization the set belongs to. */
  declare readonly organization: pulumi.Output<string>;
  /** Description; absent when it has none. */
  declare readonly description: pulumi.Output<string | null>;
  /** `sentinel`, `opa`, or a kind the service named that this release does not know. */
  declare readonly kind: pulumi.Output<string>;
  /** OPA sets: whether a failed mandatory policy may be overridden; absent for a Sentinel set. */
  declare readonly overridable: pulumi.Output<boolean | null>;
  /** Whether the set applies to every workspace of the organization. */
  declare readonly global: pulumi.Output<boolean>;
  /** The policies attached to the set one by one (`pol-...`), sorted. */
  declare readonly policyIds: pulumi.Output<string[]>;
  /** The folder uploaded as the set's version, as the program gave it; absent when none is. */
  declare readonly policiesFolder: pulumi.Output<string | null>;
  /** SHA-256 of the files of the version this stack uploaded; absent when none is, or when another version is current. */
  declare readonly policiesSha256: pulumi.Output<string | null>;
  /** The set's current version (`polsetver-...`); absent when it has none. */
  declare readonly currentVersionId: pulumi.Output<string | null>;
  /** Whether the set's policies are evaluated on the agents of the runs. */
  declare readonly agentEnabled: pulumi.Output<boolean>;
  /** The version of the policy tool the set is evaluated with; absent when the service's default. */
  declare readonly policyToolVersion: pulumi.Output<string | null>;
  /** How many workspaces the set lists. */
  declare readonly workspaceCount: pulumi.Output<number>;
  /** How many projects the set lists. */
  declare readonly projectCount: pulumi.Output<number>;

  /** Declares a policy set; `name` is the Pulumi resource name (the set's own name is `args.name`). */
  constructor(name: string, args: PolicySetArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.PolicySet,
        name,
        dynamicProps("PolicySet", name, withOutputs(withOriginInput("PolicySet", name, args), POLICY_SET_OUTPUTS)),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
