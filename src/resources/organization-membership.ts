/** `OrganizationMembership`: a person invited to an organization by email (`/organizations/:org/organization-memberships`). */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/** Inputs of an {@link OrganizationMembership}. */
export interface OrganizationMembershipArgs {
  /** The email the invitation goes to. A change replaces the membership (the old one is removed, the new email invited). */
  email: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the membership.
   */
  organization?: pulumi.Input<string>;
  /**
   * Take over the membership this email already has in the organization, invited or
   * active: `create` then writes nothing, and from then on this resource owns it (delete
   * removes the person from the organization). Without it, an email that already has an
   * active membership fails the create with an error that names it. Default false; no
   * effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const ORGANIZATION_MEMBERSHIP_OUTPUTS = ["email", "organization", "status", "userId", "username"] as const;

/**
 * A person's membership of an organization (since 0.7.0): `create` invites the email, and
 * the service sends the invitation. The membership is `invited` until the person accepts,
 * then `active`; both are normal states: a refresh shows the status, and it is never a
 * change. Which teams the person is in belongs to `TeamMembers` (its
 * `organizationMembershipIds` reach invited people too), so it is not declared here.
 * Delete removes the person from the organization and its teams, or withdraws an
 * invitation not yet accepted.
 *
 * Drift: a membership deleted outside the program is dropped from the stack on refresh
 * (when the token could have seen it: an owners token), and `pulumi up` invites the email
 * again.
 *
 * After an interrupted `pulumi up` (a runner killed after the invitation was sent, or an
 * answer lost on the way): the next `up` finds the invitation of that email still pending
 * and takes it over, with one info line, instead of sending a second one. An email whose
 * membership is already active is never taken over without `adopt: true`.
 *
 * Import (provider plugin): `ou-<id>`, or `<organization>/<email>`.
 */
export class OrganizationMembership extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.OrganizationMembership;

  /** Reads a membership without managing it; `id` is its `ou-...` id (or `<organization>/<email>`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): OrganizationMembership {
    return new OrganizationMembership(name, undefined as unknown as OrganizationMembershipArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is OrganizationMembership {
    return (
      pulumi.Resource.isInstance(obj) &&
      (obj as { __pulumiType?: string }).__pulumiType === TOKENS.OrganizationMembership
    );
  }

  /** The invited email. */
  declare readonly email: pulumi.Output<string>;
  /** Organization of the membership. */
  declare readonly organization: pulumi.Output<string>;
  /** `invited` until the person accepts the invitation, then `active`, as of the last create or refresh. */
  declare readonly status: pulumi.Output<string>;
  /** The person's user id (`user-...`); absent when the service does not say. */
  declare readonly userId: pulumi.Output<string | null>;
  /** The person's username; absent while an invited person has none. */
  declare readonly username: pulumi.Output<string | null>;

  /** Declares a membership; `name` is the Pulumi resource name. */
  constructor(name: string, args: OrganizationMembershipArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.OrganizationMembership,
        name,
        dynamicProps(
          "OrganizationMembership",
          name,
          withOutputs(args as unknown as Record<string, unknown> | undefined, ORGANIZATION_MEMBERSHIP_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
