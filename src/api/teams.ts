/** Teams of an organization, in the hosted service's shapes (`/organizations/:org/teams`, `/teams/:id`). */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";

/**
 * The organization-wide permissions a team may hold (`organization-access`), in the
 * service's spelling. A flag not given on create is false; an update changes only the
 * flags it names. The owners team holds every one of them.
 */
export const ORGANIZATION_ACCESS_FLAGS = [
  "manage-policies",
  "manage-policy-overrides",
  "delegate-policy-overrides",
  "manage-workspaces",
  "manage-vcs-settings",
  "manage-providers",
  "manage-modules",
  "manage-run-tasks",
  "manage-projects",
  "read-workspaces",
  "read-projects",
  "manage-membership",
  "manage-teams",
  "manage-organization-access",
  "access-secret-teams",
  "manage-agent-pools",
] as const;

/** One of {@link ORGANIZATION_ACCESS_FLAGS}. */
export type OrganizationAccessFlag = (typeof ORGANIZATION_ACCESS_FLAGS)[number];

/** Who sees a team: its members and owners only (`secret`, the default), or every member of the organization. */
export const TEAM_VISIBILITIES = ["secret", "organization"] as const;

const organizationAccessSchema = z
  .object(
    Object.fromEntries(ORGANIZATION_ACCESS_FLAGS.map((f) => [f, z.boolean().optional()])) as {
      [K in OrganizationAccessFlag]: z.ZodOptional<z.ZodBoolean>;
    },
  )
  .loose();

/** Attributes of a team in a create or update body. */
const teamAttributesSchema = z
  .object({
    name: z.string().trim().min(1, "name must not be empty"),
    "organization-access": organizationAccessSchema.optional(),
    visibility: z.enum(TEAM_VISIBILITIES).optional(),
    "sso-team-id": z.string().nullable().optional(),
    "allow-member-token-management": z.boolean().optional(),
  })
  .loose();

/** Body of `POST /organizations/:org/teams`. */
export const teamCreateSchema = z
  .object({ data: z.object({ type: z.literal("teams"), attributes: teamAttributesSchema }).loose() })
  .loose();

/** Body of `PATCH /teams/:id`. */
export const teamUpdateSchema = z
  .object({
    data: z.object({ type: z.literal("teams"), attributes: teamAttributesSchema.partial().optional() }).loose(),
  })
  .loose();

/** A team as read back: every attribute may be missing or null. */
export const teamResourceSchema = resourceSchema(
  "teams",
  z
    .object({
      name: orAbsent(z.string(), ""),
      visibility: maybe(z.string()),
      "sso-team-id": maybe(z.string()),
      "allow-member-token-management": maybe(z.boolean()),
      "users-count": maybe(z.number()),
      "organization-access": maybe(z.record(z.string(), z.unknown())),
    })
    .loose(),
);
/** A team of an organization (`teams`, id `team-`). */
export type TeamResource = z.infer<typeof teamResourceSchema>;
/** Body of a response holding one team. */
export const teamDocumentSchema = documentSchema(teamResourceSchema);
/** Body of one page of an organization's teams. */
export const teamListDocumentSchema = listDocumentSchema(teamResourceSchema);
