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

/**
 * The plans a local server's site administrator may give an organization (`GET /admin/feature-sets`),
 * named after the hosted service's plans; go-tfe's tests ask for Free, Standard (entitlement) and Business.
 * The local server records the plan and enforces nothing by it.
 */
export const FEATURE_SETS = [
  { id: "fs-free", name: "Free", "is-free-tier": true },
  { id: "fs-essentials", name: "Essentials", "is-free-tier": false },
  { id: "fs-standard", name: "Standard", "is-free-tier": false },
  { id: "fs-standard-entitlement", name: "Standard (entitlement)", "is-free-tier": false },
  { id: "fs-plus", name: "Plus", "is-free-tier": false },
  { id: "fs-premium", name: "Premium", "is-free-tier": false },
  { id: "fs-business", name: "Business", "is-free-tier": false },
] as const;

const count = z.int().nonnegative();
const time = z.iso.datetime({ offset: true, error: "must be an ISO 8601 time, such as 2031-01-02T03:04:05Z" });

/** Body of `POST /admin/organizations/:org/subscription`: the organization's plan (a feature set) and its limits. */
export const subscriptionUpdateSchema = z
  .object({
    data: z
      .object({
        type: z.enum(["subscription", "subscriptions"]),
        attributes: z
          .object({
            "runs-ceiling": count.nullish(),
            "agents-ceiling": count.nullish(),
            "contract-start-at": time.nullish(),
            "end-at": time.nullish(),
            "contract-user-limit": count.nullish(),
            "contract-apply-limit": count.nullish(),
            "contract-managed-resources-limit": count.nullish(),
          })
          .loose()
          .optional(),
        relationships: z
          .object({
            "feature-set": z
              .object({
                data: z
                  .object({
                    type: z.literal("feature-sets"),
                    id: z.enum(
                      FEATURE_SETS.map((f) => f.id),
                      { error: `must name a feature set: ${FEATURE_SETS.map((f) => f.id).join(", ")}` },
                    ),
                  })
                  .loose(),
              })
              .loose(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** The limits a subscription records, by their attribute names. */
export const SUBSCRIPTION_LIMITS = [
  "runs-ceiling",
  "agents-ceiling",
  "contract-start-at",
  "end-at",
  "contract-user-limit",
  "contract-apply-limit",
  "contract-managed-resources-limit",
] as const;

/** One architecture's build of a policy tool version, as go-tfe's `ToolVersionArchitecture`. */
const toolArch = z
  .object({ url: z.string().min(1), sha: z.string().min(1), os: z.string().min(1), arch: z.string().min(1) })
  .loose();

const toolVersionAttributes = {
  version: z.string().min(1),
  url: z.string().min(1),
  sha: z.string().min(1),
  official: z.boolean(),
  deprecated: z.boolean(),
  "deprecated-reason": z.string().nullable(),
  enabled: z.boolean(),
  beta: z.boolean(),
  archs: z.array(toolArch),
};

/** Body of `PATCH /admin/sentinel-versions/:id` (and `opa-versions`): every attribute optional. */
export const toolVersionUpdateSchema = z
  .object({
    data: z
      .object({
        type: z.enum(["sentinel-versions", "opa-versions"]),
        attributes: z.object(toolVersionAttributes).partial().loose(),
      })
      .loose(),
  })
  .loose();

/** Body of `POST /admin/sentinel-versions` (and `opa-versions`): a version, with a URL and a SHA or a build per architecture. */
export const toolVersionCreateSchema = z
  .object({
    data: z
      .object({
        type: z.enum(["sentinel-versions", "opa-versions"]),
        attributes: z
          .object(toolVersionAttributes)
          .partial()
          .required({ version: true })
          .loose()
          .refine((a) => (a.url && a.sha) || (a.archs && a.archs.length > 0), {
            error: "url and sha, or archs, are required",
            path: ["url"],
          }),
      })
      .loose(),
  })
  .loose();
