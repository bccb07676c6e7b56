/**
 * Who is in a team: `TeamMembers`, the team's people by username (`POST`/`DELETE
 * /teams/:id/relationships/users`) or by organization membership (`.../relationships/
 * organization-memberships`), additive by default, authoritative where asked.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, quietStacks } from "./base";
import { isKind, listProps } from "./list-props";
import type { OwnershipMode } from "./workspace-tags";

/** Inputs of a {@link TeamMembers}. */
export interface TeamMembersArgs {
  /** The team (`team-...`) whose members this resource manages. A change replaces this resource. */
  teamId: pulumi.Input<string>;
  /**
   * People by their organization membership (`ou-...`, an `OrganizationMembership`'s id):
   * invited people too, who have no username until they accept. Order does not matter; a
   * person named here and in `usernames` is one person. Absent and `[]` declare no one by
   * membership: in `additive` mode that adds no one (and removes those this resource added
   * by membership), in `authoritative` mode it leaves the team only the people `usernames`
   * declares (with the service users and `ignoreUsernames`).
   */
  organizationMembershipIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * People by username: active members of the organization only. Order does not matter.
   * Absent and `[]` declare no one by username: in `additive` mode that adds no one (and
   * removes those this resource added by username), in `authoritative` mode it leaves the
   * team only the people `organizationMembershipIds` declares (with the service users and
   * `ignoreUsernames`); both empty in `authoritative` mode empty the team of people.
   */
  usernames?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Who owns the team's list. `additive` (default): adds the declared people and leaves the
   * others; a person dropped from the declaration, or the resource deleted, removes only the
   * people this resource added, never one that another resource or a person added.
   * `authoritative`: the team's whole list is what this resource declares: members added
   * outside the program are removed, except service users and `ignoreUsernames`. One team
   * list has one owner: two authoritative resources of one stack for one team, an
   * authoritative and an additive one, or two additive ones naming the same person are
   * refused at preview, naming both resources (a person named by username in one and by
   * membership in the other is recognised as one once they are in the team).
   */
  mode?: pulumi.Input<OwnershipMode>;
  /**
   * `authoritative` mode only (refused with `additive`): usernames never removed from the
   * team, whoever added them, and not shown among its members (the owners who must stay,
   * people managed by hand). `[]` or absent: none beyond the service users, which no mode
   * ever removes.
   */
  ignoreUsernames?: pulumi.Input<pulumi.Input<string>[]>;
}

export const TEAM_MEMBERS_OUTPUTS = [
  "teamId",
  "teamName",
  "mode",
  "usernames",
  "organizationMembershipIds",
  "ignoreUsernames",
  "addedUserIds",
  "organization",
] as const;

/**
 * The people of a team (since 0.7.0), by username or by organization membership, in
 * `additive` (default) or `authoritative` mode. Which teams a person is in is declared here
 * only (an `OrganizationMembership` takes no teams). People are compared as people: a person
 * named by username in one place and by membership in another is one person.
 *
 * Never removed, in either mode: the service users (the users behind team and organization
 * tokens, which the service lists among the team's users, and its own hidden users), and in
 * `authoritative` mode the usernames of `ignoreUsernames`.
 *
 * Delete: in `additive` mode it removes the people this resource added; in `authoritative`
 * mode the people it declares (never a service user or an ignored username). Whom another
 * resource of the stack declares in the same update stays. A team deleted first leaves
 * nothing to do.
 *
 * Drift: a refresh reads the team. In `additive` mode a declared person removed outside the
 * program shows in the next diff and `pulumi up` adds them again; other members are ignored.
 * In `authoritative` mode a member added outside the program shows too (by username, or by
 * membership while invited) and `pulumi up` removes them.
 *
 * Adoption: a create that finds the team already as declared writes nothing; in `additive`
 * mode the people it finds there are not its own (it added none of them), so it never
 * removes them. `pulumi import`
 * takes the team's id (`team-...`) and declares every member it finds but the service users,
 * by membership (`ou-...`) where the service shows one, in `additive` mode: an imported
 * resource adds and removes no one until the program says so (set `mode: "authoritative"` to
 * own the whole list).
 */
export class TeamMembers extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.TeamMembers;

  /** Reads the members of a team without managing them; `id` is the team's id (`team-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
    return new TeamMembers(name, undefined as never, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is TeamMembers {
    return isKind(obj, "TeamMembers");
  }

  /** The team (`team-...`). */
  declare readonly teamId: pulumi.Output<string>;
  /** The team's name as the service shows it (`owners` for the organization's owners team). */
  declare readonly teamName: pulumi.Output<string>;
  /** Ownership mode: `additive` or `authoritative`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** The managed members named by username (in `authoritative` mode also every undeclared member with one), sorted. */
  declare readonly usernames: pulumi.Output<string[]>;
  /** The managed members named by membership (in `authoritative` mode also every undeclared invited member), sorted. */
  declare readonly organizationMembershipIds: pulumi.Output<string[]>;
  /** `authoritative` mode: the usernames never removed, sorted. */
  declare readonly ignoreUsernames: pulumi.Output<string[]>;
  /** `additive` mode: the people (user ids, `user-...`) this resource added, removed again on delete, sorted. */
  declare readonly addedUserIds: pulumi.Output<string[]>;
  /** The team's organization. */
  declare readonly organization: pulumi.Output<string>;

  /** Declares the members of a team; `name` is the Pulumi resource name. */
  constructor(name: string, args: TeamMembersArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(TOKENS.TeamMembers, name, listProps("TeamMembers", name, args, TEAM_MEMBERS_OUTPUTS), opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
