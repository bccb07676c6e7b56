/**
 * The team lookup (./lookups.ts), for both doors: a team by organization and name, as the
 * token in use sees it (a secret team only for its members, the owners and the teams
 * that may see secret teams).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { WorkspacesClient } from "../client";
import { fail } from "./lookup-client";
import { shapedAccess, teamByName } from "./providers/team";
import type { OrganizationAccessOutput } from "./team";

/** Arguments of {@link getTeam}. */
export interface GetTeamArgs {
  /** Name of the team. */
  name: string;
  /** Organization of the team. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: string;
}

/** Arguments of {@link getTeamOutput}: those of {@link GetTeamArgs}, each a `pulumi.Input`. */
export interface GetTeamOutputArgs {
  /** Name of the team. */
  name: pulumi.Input<string>;
  /** Organization of the team. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: pulumi.Input<string>;
}

/** Result of {@link getTeam}. */
export interface GetTeamResult {
  /** Team id (`team-...`). */
  id: string;
  /** Name of the team. */
  name: string;
  /** Organization of the team. */
  organization: string;
  /** Who sees the team: `secret` or `organization`; absent when the service does not say. */
  visibility?: string;
  /** Every organization-wide flag the service reports for the team, on or off. */
  organizationAccess: OrganizationAccessOutput;
  /** The team's id in the SAML identity provider; absent when none is set. */
  ssoTeamId?: string;
  /** The team's members (user ids), as far as the token may see them. */
  userIds: string[];
}

/** The arguments of {@link getTeam} as validated. */
export const teamArgsSchema = z
  .object({ name: z.string().min(1), organization: z.string().min(1).optional() })
  .strict();

/** The team `name` of `organization`, as the lookup `fn` reports it; fails when the token sees none. */
export async function readTeam(
  fn: string,
  client: WorkspacesClient,
  organization: string,
  name: string,
): Promise<GetTeamResult> {
  const team = await teamByName(client, organization, name);
  if (!team)
    throw fail(
      fn,
      `no team "${name}" in organization "${organization}" that the token in use may see: it does not exist, or it is a ` +
        `secret team, which only its members, the owners and teams that may see secret teams see`,
    );
  return {
    id: team.id,
    name: team.name,
    organization: team.organization ?? organization,
    ...(team.visibility ? { visibility: team.visibility } : {}),
    organizationAccess: shapedAccess(team.organizationAccess),
    ...(team.ssoTeamId ? { ssoTeamId: team.ssoTeamId } : {}),
    userIds: team.userIds,
  };
}
