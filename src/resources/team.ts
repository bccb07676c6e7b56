/** `Team`: a team of an organization (`/organizations/:org/teams`) and its organization-wide permissions. */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/**
 * Who sees a team:
 * `secret` (its members, the owners and the teams that may see secret teams) or
 * `organization` (every member of the organization).
 */
export type TeamVisibility = "secret" | "organization";

/**
 * The organization-wide permissions of a team (the service's `organization-access`), in
 * camel case. Given, the object is the whole set: a flag left out is off, and a flag
 * turned on outside the program is turned off again. A flag this release does not know
 * (one a newer service offers) goes in `otherFlags`.
 */
export interface OrganizationAccessArgs {
  /** Manage policies and policy sets. */
  managePolicies?: pulumi.Input<boolean>;
  /** Override failed soft-mandatory policy checks. */
  managePolicyOverrides?: pulumi.Input<boolean>;
  /** Let project and workspace admins override policy checks. */
  delegatePolicyOverrides?: pulumi.Input<boolean>;
  /** Create, change and delete every workspace of the organization. */
  manageWorkspaces?: pulumi.Input<boolean>;
  /** Manage the organization's VCS settings. */
  manageVcsSettings?: pulumi.Input<boolean>;
  /** Publish and delete providers of the private registry. */
  manageProviders?: pulumi.Input<boolean>;
  /** Publish and delete modules of the private registry. */
  manageModules?: pulumi.Input<boolean>;
  /** Manage run tasks. */
  manageRunTasks?: pulumi.Input<boolean>;
  /** Create, change and delete every project, and manage their team access. */
  manageProjects?: pulumi.Input<boolean>;
  /** Read every workspace of the organization. */
  readWorkspaces?: pulumi.Input<boolean>;
  /** Read every project of the organization. */
  readProjects?: pulumi.Input<boolean>;
  /** Invite and remove members, and add them to teams. */
  manageMembership?: pulumi.Input<boolean>;
  /** Create, change and delete teams. */
  manageTeams?: pulumi.Input<boolean>;
  /** Change the organization access of teams. */
  manageOrganizationAccess?: pulumi.Input<boolean>;
  /** See and manage secret teams. */
  accessSecretTeams?: pulumi.Input<boolean>;
  /** Manage agent pools. */
  manageAgentPools?: pulumi.Input<boolean>;
  /**
   * Flags this release does not know (ones a newer service offers), by their camel-case
   * name: `{ manageNewThing: true }`. Each is sent in the service's spelling
   * (`manage-new-thing`); one the service does not keep is never read back and never shows
   * as a change. A flag this release knows is set by its own property, not here.
   */
  otherFlags?: pulumi.Input<Record<string, pulumi.Input<boolean>>>;
}

/** The organization-wide permissions of a team as read back: each flag the service reports, on or off. */
export type OrganizationAccessOutput = {
  [K in keyof OrganizationAccessArgs as Exclude<K, "otherFlags">]: boolean;
} & {
  /** The flags the service reports that this release does not know, by their camel-case name. */
  otherFlags?: Record<string, boolean>;
};

/** Inputs of a {@link Team}. */
export interface TeamArgs {
  /** Name, unique in the organization. A change renames the team in place. */
  name: pulumi.Input<string>;
  /**
   * Organization; defaults to the stack config `workspaces:organization`, then the
   * environment. A change replaces the team.
   */
  organization?: pulumi.Input<string>;
  /** Who sees the team: `secret` (its members, the owners and the teams that may see secret teams) or `organization` (every member of the organization). Omitted: not managed (a new team is secret). */
  visibility?: pulumi.Input<TeamVisibility>;
  /**
   * The team's organization-wide permissions: the whole set (a flag left out is off).
   * Omitted: not managed (a new team has none).
   */
  organizationAccess?: pulumi.Input<OrganizationAccessArgs>;
  /** The team's id in the SAML identity provider (matched against its `MemberOf` attribute); `""` clears it. Omitted: not managed. */
  ssoTeamId?: pulumi.Input<string>;
  /** Whether members may manage the team's API token. Omitted: not managed (a new team allows it). */
  allowMemberTokenManagement?: pulumi.Input<boolean>;
  /**
   * Take over the team of this name if the organization already has one: `create` reads
   * it and changes only what the program declares differently (nothing when all matches).
   * Without it, a taken name fails the create with an error that names the team and its
   * id. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const TEAM_OUTPUTS = [
  "name",
  "organization",
  "visibility",
  "organizationAccess",
  "ssoTeamId",
  "allowMemberTokenManagement",
] as const;

/**
 * A team (since 0.6.0). A change of `organization` replaces it; a rename or a change of
 * its visibility, permissions or SSO id is made in place. Delete removes the team, its
 * token and its access to workspaces and projects (the owners team cannot be deleted).
 * Its members are not managed here.
 *
 * Drift: a refresh reads every declared setting back; a change made outside the program
 * (a flag turned on in the UI included) shows in the next preview and `pulumi up`
 * restores it. A team deleted outside the program is dropped from the state only when the
 * token could have seen it (an owners token: a secret team is hidden from everyone else
 * but its members); otherwise the refresh fails and says why.
 *
 * After an interrupted `pulumi up`: a team has no field that could carry the stack's
 * origin, so a team the killed update created is never taken over without proof; the
 * next `up` fails on the taken name with the error that names the team's id and
 * `adopt: true`. Set `adopt: true` for one `pulumi up` (no write when it matches), then
 * remove it.
 */
export class Team extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.Team;

  /** Reads a team without managing it; `id` is its id (`team-...`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Team {
    return new Team(name, undefined as unknown as TeamArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is Team {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.Team;
  }

  /** Name of the team. */
  declare readonly name: pulumi.Output<string>;
  /** Organization the team belongs to. */
  declare readonly organization: pulumi.Output<string>;
  /** Who sees the team: `secret` (its members, the owners and the teams that may see secret teams) or `organization` (every member of the organization); absent when the service does not say. */
  declare readonly visibility: pulumi.Output<string | null>;
  /** Every organization-wide flag the service reports for the team, on or off. */
  declare readonly organizationAccess: pulumi.Output<OrganizationAccessOutput>;
  /** The team's id in the SAML identity provider; absent when none is set. */
  declare readonly ssoTeamId: pulumi.Output<string | null>;
  /** Whether members may manage the team's API token; absent when the service does not say. */
  declare readonly allowMemberTokenManagement: pulumi.Output<boolean | null>;

  /** Declares a team; `name` is the Pulumi resource name (the team's own name is `args.name`). */
  constructor(name: string, args: TeamArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.Team,
        name,
        dynamicProps("Team", name, withOutputs(args as unknown as Record<string, unknown> | undefined, TEAM_OUTPUTS)),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
