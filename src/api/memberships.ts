/**
 * Organization memberships and the users a team's `include` answers, in the hosted
 * service's shapes (`/organizations/:org/organization-memberships`,
 * `/organization-memberships/:id`, `/teams/:id?include=users,organization-memberships`).
 */
import { z } from "zod";
import { documentSchema, identifiersBodySchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";

/** Where a person is in joining an organization: `invited` until they accept, then `active`. */
export const ORGANIZATION_MEMBERSHIP_STATUSES = ["invited", "active"] as const;
/** One of {@link ORGANIZATION_MEMBERSHIP_STATUSES}. */
export type OrganizationMembershipStatus = (typeof ORGANIZATION_MEMBERSHIP_STATUSES)[number];

/** Body of `POST /organizations/:org/organization-memberships`: invites a person by email, optionally into teams. */
export const organizationMembershipCreateSchema = z
  .object({
    /** The invitation: the person's email and, optionally, the teams they join once they accept. */
    data: z
      .object({
        type: z.literal("organization-memberships"),
        attributes: z.object({ email: z.email() }).loose(),
        relationships: z
          .object({
            /** The teams the person joins once invited (go-tfe sends whole team objects: only `id` is read). */
            teams: z
              .object({ data: z.array(z.object({ type: z.literal("teams"), id: z.string().min(1) }).loose()) })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that invites a person into an organization. */
export type OrganizationMembershipCreateRequest = z.infer<typeof organizationMembershipCreateSchema>;

/**
 * An organization membership as read back (`organization-memberships`, id `ou-`).
 * Relationships: `user`, `organization`, `teams`.
 */
export const organizationMembershipResourceSchema = resourceSchema(
  "organization-memberships",
  z
    .object({
      status: orAbsent(z.string(), "active"),
      email: orAbsent(z.string(), ""),
    })
    .loose(),
);
/** An organization membership as the service renders it. */
export type OrganizationMembershipResource = z.infer<typeof organizationMembershipResourceSchema>;
/** Body of a response holding one organization membership. */
export const organizationMembershipDocumentSchema = documentSchema(organizationMembershipResourceSchema);
/** Body of one page of an organization's memberships. */
export const organizationMembershipListDocumentSchema = listDocumentSchema(organizationMembershipResourceSchema);

/**
 * A user as the service renders it (`users`, id `user-`): `email` only when the caller
 * may see it; `is-service-account` for the users behind team and organization tokens
 * (and the service's own hidden users).
 */
export const userResourceSchema = resourceSchema(
  "users",
  z
    .object({
      username: orAbsent(z.string(), ""),
      email: maybe(z.string()),
      "is-service-account": orAbsent(z.boolean(), false),
    })
    .loose(),
);
/** A user as the service renders it. */
export type UserResource = z.infer<typeof userResourceSchema>;
/** Body of a response holding one user. */
export const userDocumentSchema = documentSchema(userResourceSchema);

/** Body of `POST`/`DELETE /teams/:id/relationships/organization-memberships` (users by username: `membersSchema` of ./admin.ts): memberships by id (`ou-…`). */
export const teamOrganizationMembershipsBodySchema = identifiersBodySchema("organization-memberships");

/** The values of `include` on `GET /teams/:id` that list a team's members. */
export const TEAM_MEMBER_INCLUDES = ["users", "organization-memberships"] as const;
