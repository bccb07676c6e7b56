/**
 * Who is in a team (`client.teamMembers`): people by username (active members of the
 * organization) or by organization membership (invited people too), and the service
 * users behind the team's and the organization's tokens, which the service lists among
 * the team's users (`is-service-account`).
 */
import type { z } from "zod";
import type { AnyResource } from "../api/common";
import { membersSchema } from "../api/admin";
import { teamOrganizationMembershipsBodySchema } from "../api/memberships";
import { teamDocumentSchema, type TeamResource } from "../api/teams";
import { orUnavailable } from "./features";
import { type Transport, urlPath } from "./transport";
import { BadRequestError } from "./typed-errors";
import { checkedBody, relId, relIds } from "./wire";

/** One member of a team. */
export interface TeamMember {
  /** The person's user id (`user-...`). */
  userId: string;
  /** The person's username; empty for an invited person who has none yet. */
  username: string;
  /** The person's email, when the service shows it to the caller. */
  email?: string;
  /** True for the users behind team and organization tokens and the service's own users: no person. */
  serviceAccount: boolean;
  /** The person's organization membership (`ou-...`), when the service said it. */
  organizationMembershipId?: string;
}

/** A team read with the records its `include` asked for. */
interface TeamWithIncluded {
  team: TeamResource;
  included: AnyResource[];
}

const attribute = (r: AnyResource | undefined, key: string): unknown => r?.attributes?.[key];

/** The team's members: its users, then the people of its memberships that are not among them (invited ones). */
function membersOf(team: TeamResource, included: AnyResource[]): TeamMember[] {
  const byKey = new Map(included.map((r) => [`${r.type}/${r.id ?? ""}`, r]));
  const memberships = relIds(team, "organization-memberships").map((id) => ({
    id,
    resource: byKey.get(`organization-memberships/${id}`),
  }));
  const membershipOf = (userId: string) => memberships.find((m) => m.resource && relId(m.resource, "user") === userId);
  const member = (userId: string, membership: (typeof memberships)[number] | undefined): TeamMember => {
    const user = byKey.get(`users/${userId}`);
    const username = attribute(user, "username");
    const email = attribute(user, "email") ?? attribute(membership?.resource, "email");
    const out: TeamMember = {
      userId,
      username: typeof username === "string" ? username : "",
      serviceAccount: attribute(user, "is-service-account") === true,
    };
    if (typeof email === "string" && email !== "") out.email = email;
    if (membership) out.organizationMembershipId = membership.id;
    return out;
  };
  const out = relIds(team, "users").map((userId) => member(userId, membershipOf(userId)));
  const listed = new Set(out.map((m) => m.userId));
  for (const m of memberships) {
    const userId = m.resource ? relId(m.resource, "user") : null;
    if (userId && !listed.has(userId)) {
      listed.add(userId);
      out.push(member(userId, m));
    }
  }
  return out;
}

/** Team member calls of a {@link WorkspacesClient} (`client.teamMembers`). */
export class TeamMembers {
  constructor(private readonly transport: Transport) {}

  /**
   * The team's members: `GET /teams/:id?include=users,organization-memberships`, one read
   * when the server answers both; a server that refuses the pair (400) or leaves the
   * memberships out is asked for each in turn, and a server without memberships (OTF)
   * gives members without `organizationMembershipId`.
   */
  async list(teamId: string): Promise<TeamMember[]> {
    let read: TeamWithIncluded;
    try {
      read = await this.read(teamId, "users,organization-memberships");
    } catch (err) {
      if (!(err instanceof BadRequestError)) throw err;
      read = await this.read(teamId, "users");
    }
    if (read.team.relationships?.["organization-memberships"] === undefined) {
      const memberships = await this.read(teamId, "organization-memberships").catch((err: unknown) => {
        if (err instanceof BadRequestError) return null;
        throw err;
      });
      if (memberships)
        read = {
          team: {
            ...read.team,
            relationships: {
              ...read.team.relationships,
              "organization-memberships": memberships.team.relationships?.["organization-memberships"] ?? {},
            },
          },
          included: [...read.included, ...memberships.included],
        };
    }
    return membersOf(read.team, read.included);
  }

  /** `POST /teams/:id/relationships/users`: active members of the organization, by username. */
  addUsers(teamId: string, usernames: readonly string[]): Promise<void> {
    return this.relate("POST", teamId, "users", usernames);
  }

  /** `DELETE /teams/:id/relationships/users`, by username. */
  removeUsers(teamId: string, usernames: readonly string[]): Promise<void> {
    return this.relate("DELETE", teamId, "users", usernames);
  }

  /** `POST /teams/:id/relationships/organization-memberships`: people by membership (`ou-...`), invited ones too. */
  addOrganizationMemberships(teamId: string, organizationMembershipIds: readonly string[]): Promise<void> {
    return this.relate("POST", teamId, "organization-memberships", organizationMembershipIds);
  }

  /** `DELETE /teams/:id/relationships/organization-memberships`, by membership (`ou-...`). */
  removeOrganizationMemberships(teamId: string, organizationMembershipIds: readonly string[]): Promise<void> {
    return this.relate("DELETE", teamId, "organization-memberships", organizationMembershipIds);
  }

  private async read(teamId: string, include: string): Promise<TeamWithIncluded> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("teams", teamId), query: { include }, repeat: "idempotent" },
      teamDocumentSchema,
    );
    return { team: doc.data, included: doc.included ?? [] };
  }

  /**
   * Adds to or removes from the team. Adding who is there or removing who is not changes
   * nothing, so it is retried like a read; an empty list sends nothing. A server without
   * the membership route (OTF) raises {@link FeatureUnavailableError} when the team reads.
   */
  private async relate(
    method: "POST" | "DELETE",
    teamId: string,
    kind: "users" | "organization-memberships",
    ids: readonly string[],
  ): Promise<void> {
    if (ids.length === 0) return;
    const path = urlPath("teams", teamId, "relationships", kind);
    const schema: z.ZodType = kind === "users" ? membersSchema : teamOrganizationMembershipsBodySchema;
    const body = checkedBody(schema, method, path, { data: ids.map((id) => ({ type: kind, id })) });
    const call = () => this.transport.request({ method, path, body, repeat: "idempotent" });
    if (kind === "users") await call();
    else await orUnavailable(this.transport, "team members by organization membership", urlPath("teams", teamId), call);
  }
}
