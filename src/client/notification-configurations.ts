/**
 * Notification configurations of workspaces and projects (`client.notificationConfigurations`).
 * The token is write-only: it is sent, never read back, and no error or value of this
 * client carries it.
 */
import {
  notificationDocumentSchema,
  notificationListDocumentSchema,
  type NotificationDestinationType,
  type NotificationResource,
  type NotificationTrigger,
} from "../api/notifications";
import { orUnavailable } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { ApiError, FeatureUnavailableError, NetworkError } from "./typed-errors";
import { relIds, toWire } from "./wire";

/** A notification configuration: where a workspace's or project's events are delivered. */
export interface NotificationConfiguration {
  /** Configuration id (`nc-...`). */
  id: string;
  /** Configuration name. */
  name: string;
  /** `generic`, `slack`, `microsoft-teams` or `email` (`destination-type`; as the service sends it, "" when it does not). */
  destinationType: string;
  /** Whether it delivers (false when the service does not say). */
  enabled: boolean;
  /** The URL deliveries are posted to (generic, Slack and Microsoft Teams destinations), or null. */
  url: string | null;
  /** As the service sends them: a trigger a newer service knows is kept. */
  triggers: string[];
  /** Addresses an email configuration writes to (`email-addresses`); empty when none. */
  emailAddresses: string[];
  /** Users an email configuration writes to (the `users` relationship's ids). */
  emailUserIds: string[];
  /** The workspace or project it belongs to. */
  subscribable: { type: string; id: string } | null;
  /** The latest deliveries (verifications and events), newest first. */
  deliveryResponses: Array<Record<string, unknown>>;
  /** Every attribute exactly as received (never a token: the service does not send it). */
  attributes: Record<string, unknown>;
}

/** A notification configuration to create. */
export interface NotificationConfigurationOptions {
  /** Configuration name. */
  name: string;
  /** Where it delivers: `generic`, `slack`, `microsoft-teams` or `email` (`destination-type`); fixed once created. */
  destinationType: NotificationDestinationType;
  /** Whether it delivers. */
  enabled: boolean;
  /** Write-only; signs generic deliveries. */
  token?: string | null;
  /** The URL deliveries are posted to; required by the generic, Slack and Microsoft Teams destinations. */
  url?: string | null;
  /** Triggers of the shared list; a string outside it is passed through for a newer service to judge. */
  triggers?: Array<NotificationTrigger | (string & {})>;
  /** Addresses an email configuration writes to (`email-addresses`). */
  emailAddresses?: string[];
  /** Users an email configuration writes to. */
  emailUserIds?: string[];
}

/** What to change; on the service, an update that names no users clears them. */
export type NotificationConfigurationUpdateOptions = Partial<Omit<NotificationConfigurationOptions, "destinationType">>;

function toConfiguration(r: NotificationResource): NotificationConfiguration {
  // A server that echoes the write-only token (OTF sends `token: ""`) never gets it into a value of the client.
  const { token: _echoed, ...a } = r.attributes;
  const subscribable = r.relationships?.subscribable?.data;
  return {
    id: r.id,
    name: a.name,
    destinationType: a["destination-type"],
    enabled: a.enabled,
    // OTF sends "" for a destination without one (email); the hosted service null.
    url: a.url ? a.url : null,
    triggers: a.triggers,
    emailAddresses: a["email-addresses"],
    emailUserIds: relIds(r, "users"),
    subscribable:
      subscribable && !Array.isArray(subscribable) ? { type: subscribable.type, id: subscribable.id } : null,
    deliveryResponses: a["delivery-responses"],
    attributes: a,
  };
}

function body(o: NotificationConfigurationUpdateOptions & { destinationType?: NotificationDestinationType }) {
  const attributes = toWire(o, ["name", "destinationType", "enabled", "token", "url", "triggers", "emailAddresses"]);
  return {
    data: {
      type: "notification-configurations",
      attributes,
      ...(o.emailUserIds
        ? { relationships: { users: { data: o.emailUserIds.map((id) => ({ type: "users", id })) } } }
        : {}),
    },
  };
}

type Owner = "workspaces" | "projects";

/** A server's refusal of a destination type it does not implement (OTF: 500 `unsupported notification destination`). */
const UNSUPPORTED_DESTINATION = /unsupported (notification )?destination|destination( type)? (is )?not supported/i;

/** A create refused because the server lacks Microsoft Teams: the typed error naming that feature; any other error as it came. */
function unsupportedDestination(err: unknown, destinationType: string, address: string): unknown {
  if (
    destinationType !== "microsoft-teams" ||
    !(err instanceof ApiError) ||
    err instanceof NetworkError ||
    err.status < 400 ||
    !UNSUPPORTED_DESTINATION.test(err.detail)
  )
    return err;
  const { method, path, status, errors, attempts, elapsedMs } = err;
  return new FeatureUnavailableError(
    { method, path, status, errors, attempts, elapsedMs },
    "Microsoft Teams notifications",
    address,
    `answered ${status}: ${err.detail}`,
  );
}

/** Notification configuration calls of a {@link WorkspacesClient} (`client.notificationConfigurations`). */
export class NotificationConfigurations {
  constructor(private readonly transport: Transport) {}

  /** `GET /workspaces/:id/notification-configurations` (or a project's), 100 per page. */
  list(subscribableId: string, owner: Owner = "workspaces"): PagedList<NotificationConfiguration> {
    return pagedGet(
      this.transport,
      urlPath(owner, subscribableId, "notification-configurations"),
      {},
      notificationListDocumentSchema,
      toConfiguration,
    );
  }

  /** `POST`; never repeated after it reached the service, which would make a second configuration. */
  async create(
    subscribableId: string,
    options: NotificationConfigurationOptions,
    owner: Owner = "workspaces",
  ): Promise<NotificationConfiguration> {
    const doc = await this.transport
      .requestParsed(
        {
          method: "POST",
          path: urlPath(owner, subscribableId, "notification-configurations"),
          body: body(options),
          repeat: "once",
          conflict: "create",
        },
        notificationDocumentSchema,
      )
      .catch((err: unknown) => {
        throw unsupportedDestination(err, options.destinationType, this.transport.baseUrl);
      });
    return toConfiguration(doc.data);
  }

  /** `GET /notification-configurations/:id`. */
  async read(id: string): Promise<NotificationConfiguration> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("notification-configurations", id), repeat: "idempotent" },
      notificationDocumentSchema,
    );
    return toConfiguration(doc.data);
  }

  /** `PATCH /notification-configurations/:id`: only the given settings change, except that users not given are cleared. */
  async update(id: string, options: NotificationConfigurationUpdateOptions): Promise<NotificationConfiguration> {
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path: urlPath("notification-configurations", id), body: body(options), repeat: "idempotent" },
      notificationDocumentSchema,
    );
    return toConfiguration(doc.data);
  }

  /** `DELETE /notification-configurations/:id`; a retry that finds it gone means the first attempt deleted it. */
  async delete(id: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("notification-configurations", id),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /**
   * `POST .../actions/verify`: sends a verification delivery; the answer is the first of
   * `deliveryResponses`. A server without the action (OTF) fails with a
   * {@link FeatureUnavailableError} for `notification verification` while the configuration reads.
   */
  async verify(id: string): Promise<NotificationConfiguration> {
    const doc = await orUnavailable(
      this.transport,
      "notification verification",
      urlPath("notification-configurations", id),
      () =>
        this.transport.requestParsed(
          { method: "POST", path: urlPath("notification-configurations", id, "actions", "verify"), repeat: "once" },
          notificationDocumentSchema,
        ),
    );
    return toConfiguration(doc.data);
  }
}
