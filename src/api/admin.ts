/** Request bodies of administration (teams, team access, users) in the hosted service's shapes. */
import { z } from "zod";

/** Access levels of a team on a workspace. */
const TEAM_ACCESS_LEVELS = ["read", "plan", "write", "admin", "custom"] as const;

/** Attributes of a team in a create or update body. */
const teamAttributesSchema = z
  .object({
    name: z.string().min(1),
    "organization-access": z
      .object({ "manage-workspaces": z.boolean().optional(), "manage-projects": z.boolean().optional() })
      .loose()
      .optional(),
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

/** A relationship naming one record by id. */
const idRef = z.object({ data: z.object({ id: z.string().min(1) }).loose() }).loose();

/** Attributes of a team's access to a workspace. */
export const teamWorkspaceAttributes = z
  .object({
    access: z.enum(TEAM_ACCESS_LEVELS),
    runs: z.enum(["read", "plan", "apply"]).optional(),
    variables: z.enum(["none", "read", "write"]).optional(),
    "state-versions": z.enum(["none", "read-outputs", "read", "write"]).optional(),
    "workspace-locking": z.boolean().optional(),
    "run-tasks": z.boolean().optional(),
  })
  .loose();

/** Body of `POST /team-workspaces`. */
export const teamWorkspaceCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("team-workspaces"),
        attributes: teamWorkspaceAttributes,
        relationships: z.object({ workspace: idRef, team: idRef }).loose(),
      })
      .loose(),
  })
  .loose();

/** Body of `PATCH /team-workspaces/:id`. */
export const teamWorkspaceUpdateSchema = z
  .object({ data: z.object({ type: z.literal("team-workspaces"), attributes: teamWorkspaceAttributes }).loose() })
  .loose();

/** Access levels of a team on a project. */
const PROJECT_ACCESS_LEVELS = z.enum(["read", "write", "maintain", "admin"]);

/** Body of `PATCH /team-projects/:id`. */
export const teamProjectUpdateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("team-projects"),
        attributes: z.object({ access: PROJECT_ACCESS_LEVELS.optional() }).loose().optional(),
      })
      .loose(),
  })
  .loose();

/** Body of `POST /team-projects`. */
export const teamProjectCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("team-projects"),
        attributes: z.object({ access: PROJECT_ACCESS_LEVELS }).loose(),
        relationships: z.object({ project: idRef, team: idRef }).loose(),
      })
      .loose(),
  })
  .loose();

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
