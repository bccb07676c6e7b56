/** Request bodies of administration (users, team members) in the hosted service's shapes; teams are in ./teams.ts, their access in ./team-access.ts. */
import { z } from "zod";

/** Body of `POST /admin/users` (a local server only). */
export const userCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("users"),
        attributes: z.object({ username: z.string().min(1), email: z.string().optional() }).loose(),
      })
      .loose(),
  })
  .loose();

/** Body of `POST /teams/:id/relationships/users`. */
export const membersSchema = z
  .object({ data: z.array(z.object({ type: z.literal("users"), id: z.string().min(1) }).loose()) })
  .loose();

/** Body of `POST /organizations/:org/organization-memberships`: invites a person by email. */
export const membershipCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("organization-memberships"),
        attributes: z.object({ email: z.email() }).loose(),
      })
      .loose(),
  })
  .loose();
