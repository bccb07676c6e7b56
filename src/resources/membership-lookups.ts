/**
 * The membership lookups (./lookups.ts), for both doors: who is invited to and who has
 * joined an organization, and who is in a team.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isId } from "../api/common";
import { ORGANIZATION_MEMBERSHIP_STATUSES } from "../api/memberships";
import { NotFoundError, type WorkspacesClient } from "../client";
import { answered404, fail, invalid, lookupClient, organizationOf } from "./lookup-client";

/** Arguments of {@link getOrganizationMembers}. */
export interface GetOrganizationMembersArgs {
  /** Organization. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: string;
  /** Only the memberships of these emails (any case). Omitted: every membership. */
  emails?: string[];
  /** `invited` (only the invitations not yet accepted) or `active` (only the people who joined). Omitted: both. */
  status?: "invited" | "active";
}

/** Arguments of {@link getOrganizationMembersOutput}: those of {@link GetOrganizationMembersArgs}, each a `pulumi.Input`. */
export interface GetOrganizationMembersOutputArgs {
  /** Organization. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: pulumi.Input<string>;
  /** Only the memberships of these emails (any case). Omitted: every membership. */
  emails?: pulumi.Input<pulumi.Input<string>[]>;
  /** `invited` (only the invitations not yet accepted) or `active` (only the people who joined). Omitted: both. */
  status?: pulumi.Input<"invited" | "active">;
}

/** One membership of an organization, as {@link getOrganizationMembers} reports it. */
export interface OrganizationMember {
  /** Membership id (`ou-...`), for `TeamMembers.organizationMembershipIds`. */
  id: string;
  /** The email the person was invited with. */
  email: string;
  /** `invited` until the person accepts the invitation, then `active`. */
  status: string;
  /** The person's user id (`user-...`); empty when the service does not say. */
  userId: string;
  /** The person's username; absent while an invited person has none. */
  username?: string;
  /** The teams the person is in (`team-...`). */
  teamIds: string[];
}

/** Result of {@link getOrganizationMembers}. */
export interface GetOrganizationMembersResult {
  /** Organization read. */
  organization: string;
  /** Its memberships that meet the filters, in the service's order. */
  members: OrganizationMember[];
}

/** Arguments of {@link getTeamMembers}. */
export interface GetTeamMembersArgs {
  /** The team (`team-...`). */
  teamId: string;
}

/** Arguments of {@link getTeamMembersOutput}: those of {@link GetTeamMembersArgs}, each a `pulumi.Input`. */
export interface GetTeamMembersOutputArgs {
  /** The team (`team-...`). */
  teamId: pulumi.Input<string>;
}

/** One member of a team, as {@link getTeamMembers} reports it. */
export interface TeamMemberEntry {
  /** The person's user id (`user-...`). */
  userId: string;
  /** The person's username; empty for an invited person who has none yet. */
  username: string;
  /** True for the users behind team and organization tokens and the service's own users: no person. */
  serviceAccount: boolean;
  /** The person's organization membership (`ou-...`); absent for a service user, and where the server does not say. */
  organizationMembershipId?: string;
}

/** Result of {@link getTeamMembers}. */
export interface GetTeamMembersResult {
  /** The team read. */
  teamId: string;
  /** Its name. */
  teamName: string;
  /** The usernames of the people in the team (service users left out), as `TeamMembers.usernames` takes them. */
  usernames: string[];
  /** The memberships of the people in the team (invited ones too), as `TeamMembers.organizationMembershipIds` takes them. */
  organizationMembershipIds: string[];
  /** Every member, service users included. */
  members: TeamMemberEntry[];
}

const organizationMembersArgsSchema = z
  .object({
    organization: z.string().min(1).optional(),
    emails: z.array(z.email()).optional(),
    status: z.enum(ORGANIZATION_MEMBERSHIP_STATUSES).optional(),
  })
  .strict();

const teamMembersArgsSchema = z
  .object({ teamId: z.string().refine((v) => isId("team", v), { error: "must be a team id (team-...)" }) })
  .strict();

/** The arguments each membership lookup takes, for `LOOKUP_ARGUMENTS`. */
export const MEMBERSHIP_LOOKUP_ARGUMENTS = {
  getOrganizationMembers: Object.keys(organizationMembersArgsSchema.shape),
  getTeamMembers: Object.keys(teamMembersArgsSchema.shape),
};

/** `read`'s result; every failure of it one line naming the lookup, a 404 naming `what`. */
async function reading<R>(fn: string, what: () => [string, string], read: () => Promise<R>): Promise<R> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof pulumi.RunError) throw err;
    if (err instanceof NotFoundError) throw answered404(fn, ...what());
    throw fail(fn, (err as Error).message);
  }
}

/**
 * Who is invited to and who has joined an organization, like `tfe_organization_members`
 * (since 0.7.0): each membership with its status (`invited` until the person accepts,
 * then `active`), the person's user id and username, and their teams. Puts nothing in
 * state.
 *
 * ```ts
 * const pending = await getOrganizationMembers({ status: "invited" });
 * export const invitedEmails = pending.members.map((m) => m.email);
 * ```
 */
export async function getOrganizationMembers(
  args: GetOrganizationMembersArgs = {},
): Promise<GetOrganizationMembersResult> {
  const fn = "getOrganizationMembers";
  const parsed = organizationMembersArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const a = parsed.data;
  const client = lookupClient(fn);
  const organization = organizationOf(fn, client, a.organization);
  const list = client.organizationMemberships.list(organization, { emails: a.emails, status: a.status });
  const found = await reading(
    fn,
    () => [`the memberships of organization "${organization}"`, "organization"],
    () => list.all(),
  );
  return {
    organization,
    members: found.map((m) => ({
      id: m.id,
      email: m.email,
      status: m.status,
      userId: m.userId ?? "",
      ...(m.username ? { username: m.username } : {}),
      teamIds: m.teamIds,
    })),
  };
}

/** {@link getOrganizationMembers} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getOrganizationMembersOutput(
  args: GetOrganizationMembersOutputArgs = {},
): pulumi.Output<GetOrganizationMembersResult> {
  return pulumi.output(args).apply((a) => getOrganizationMembers(a as GetOrganizationMembersArgs));
}

/** The team `teamId` and its members, as {@link getTeamMembers} reports them. */
async function readTeamMembers(client: WorkspacesClient, teamId: string): Promise<GetTeamMembersResult> {
  const [team, members] = await Promise.all([client.teams.read(teamId), client.teamMembers.list(teamId)]);
  const people = members.filter((m) => !m.serviceAccount);
  return {
    teamId,
    teamName: team.name,
    usernames: people.map((m) => m.username).filter((u) => u !== ""),
    organizationMembershipIds: people.flatMap((m) => (m.organizationMembershipId ? [m.organizationMembershipId] : [])),
    members: members.map((m) => ({
      userId: m.userId,
      username: m.username,
      serviceAccount: m.serviceAccount,
      ...(m.organizationMembershipId ? { organizationMembershipId: m.organizationMembershipId } : {}),
    })),
  };
}

/**
 * Who is in a team, like `tfe_team_members` read as data (since 0.7.0): its people by
 * username and by organization membership (invited people too), and every member with
 * whether it is a service user (the users behind team and organization tokens, which the
 * service lists among a team's users). A secret team is read only by a token that may see
 * it. Puts nothing in state.
 *
 * ```ts
 * const platform = await getTeamMembers({ teamId: "team-6tRm2KpQx9WzYbVc" });
 * export const platformPeople = platform.usernames;
 * ```
 */
export async function getTeamMembers(args: GetTeamMembersArgs): Promise<GetTeamMembersResult> {
  const fn = "getTeamMembers";
  const parsed = teamMembersArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const { teamId } = parsed.data;
  const client = lookupClient(fn);
  return reading(
    fn,
    () => [`team ${teamId}`, "team"],
    () => readTeamMembers(client, teamId),
  );
}

/** {@link getTeamMembers} taking `pulumi.Input`s: an `Output` of the result, unknown during a preview while an argument is. */
export function getTeamMembersOutput(args: GetTeamMembersOutputArgs): pulumi.Output<GetTeamMembersResult> {
  return pulumi.output(args).apply((a) => getTeamMembers(a as GetTeamMembersArgs));
}
