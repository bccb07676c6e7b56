/**
 * Notification configurations of a workspace or a project, in the hosted service's shapes
 * (`/workspaces/:id/notification-configurations`, `/notification-configurations/:id`). The
 * destinations and the triggers are listed once here, for the server, the client and the
 * resources.
 */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, optionalTimestampSchema, orAbsent, resourceSchema } from "./common";

/** Where a configuration delivers: a generic webhook, Slack, Microsoft Teams, or email to users of the organization. */
export const NOTIFICATION_DESTINATION_TYPES = ["generic", "slack", "microsoft-teams", "email"] as const;
/**
 * One of {@link NOTIFICATION_DESTINATION_TYPES}:
 * `generic` (a webhook of your own, sent JSON),
 * `slack` (a Slack incoming webhook),
 * `microsoft-teams` (a Microsoft Teams incoming webhook),
 * `email` (users of the organization, and addresses where the service allows).
 */
export type NotificationDestinationType = (typeof NOTIFICATION_DESTINATION_TYPES)[number];

/** The destinations that deliver to a URL, which they therefore require. */
export const URL_DESTINATION_TYPES: ReadonlyArray<NotificationDestinationType> = [
  "generic",
  "slack",
  "microsoft-teams",
];

/** The events a configuration may be triggered by. */
export const NOTIFICATION_TRIGGERS = [
  "run:created",
  "run:planning",
  "run:needs_attention",
  "run:applying",
  "run:completed",
  "run:errored",
  "assessment:drifted",
  "assessment:failed",
  "assessment:check_failure",
  "workspace:auto_destroy_reminder",
  "workspace:auto_destroy_run_results",
  "change_request:created",
] as const;
/** One of {@link NOTIFICATION_TRIGGERS}. */
export type NotificationTrigger = (typeof NOTIFICATION_TRIGGERS)[number];

/** Most configurations a workspace may have, as the hosted service limits them. */
export const MAX_NOTIFICATION_CONFIGURATIONS = 20;

const usersRelationship = z
  .object({
    users: z
      .object({ data: z.array(z.object({ id: z.string().min(1), type: z.literal("users").optional() }).loose()) })
      .loose()
      .optional(),
  })
  .loose();

const attributes = z
  .object({
    name: z.string().trim().min(1, "name must not be empty"),
    "destination-type": z.enum(NOTIFICATION_DESTINATION_TYPES),
    enabled: z.boolean(),
    /** Write-only: signs each delivery of a generic destination; never returned. */
    token: z.string().nullish(),
    url: z.string().nullish(),
    triggers: z.array(z.enum(NOTIFICATION_TRIGGERS)).nullish(),
    "email-addresses": z.array(z.email()).nullish(),
  })
  .loose();

/** Body of `POST .../notification-configurations`. */
export const notificationCreateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("notification-configurations"),
        attributes: attributes.extend({ enabled: z.boolean().optional() }),
        relationships: usersRelationship.optional(),
      })
      .loose(),
  })
  .loose();

/** Body of `PATCH /notification-configurations/:id`: the destination type stays. */
export const notificationUpdateSchema = z
  .object({
    data: z
      .object({
        type: z.literal("notification-configurations"),
        attributes: attributes.omit({ "destination-type": true }).partial().optional(),
        relationships: usersRelationship.optional(),
      })
      .loose(),
  })
  .loose();

/** One delivery a configuration made (a verification, or an event). */
export const deliveryResponseSchema = z
  .object({
    url: maybe(z.string()),
    body: maybe(z.string()),
    code: maybe(z.string()),
    headers: maybe(z.record(z.string(), z.array(z.string()))),
    "sent-at": maybe(z.string()),
    successful: maybe(z.string()),
  })
  .loose();

/** A notification configuration as read back (its token never appears). */
export const notificationResourceSchema = resourceSchema(
  "notification-configurations",
  z
    .object({
      name: orAbsent(z.string(), ""),
      "destination-type": orAbsent(z.string(), ""),
      enabled: orAbsent(z.boolean(), false),
      url: maybe(z.string()),
      triggers: orAbsent(z.array(z.string()), []),
      "email-addresses": orAbsent(z.array(z.string()), []),
      "delivery-responses": orAbsent(z.array(deliveryResponseSchema), []),
      "created-at": optionalTimestampSchema,
      "updated-at": optionalTimestampSchema,
    })
    .loose(),
);
/** A notification configuration (`notification-configurations`, id `nc-`). */
export type NotificationResource = z.infer<typeof notificationResourceSchema>;
/** Body of a response holding one notification configuration. */
export const notificationDocumentSchema = documentSchema(notificationResourceSchema);
/** Body of one page of a workspace's or project's notification configurations. */
export const notificationListDocumentSchema = listDocumentSchema(notificationResourceSchema);
