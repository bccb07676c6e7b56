import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { notificationCreateSchema, notificationUpdateSchema } from "../../api/notifications";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import {
  API_PREFIX,
  noContent,
  paginationEnvelope,
  parseBody,
  parsePage,
  ref,
  send,
  type Resource,
} from "../http/jsonapi";
import {
  createNotification,
  deleteNotification,
  listNotifications,
  loadNotification,
  subscribableRef,
  updateNotification,
  verifyNotification,
  type NotificationInput,
  type NotificationRecord,
  type Subscribable,
} from "./service";

/** The token is write-only: no rendering carries it, sealed or not. */
function renderNotification(r: NotificationRecord): Resource {
  const subscribable = subscribableRef(r);
  return {
    id: r.id,
    type: "notification-configurations",
    attributes: {
      name: r.name,
      "destination-type": r.destination_type,
      enabled: r.enabled === 1,
      url: r.url,
      triggers: JSON.parse(r.triggers) as string[],
      "email-addresses": JSON.parse(r.email_addresses) as string[],
      "delivery-responses": JSON.parse(r.delivery_responses) as unknown[],
      "created-at": r.created_at,
      "updated-at": r.updated_at,
    },
    relationships: {
      subscribable: ref(subscribable.type, subscribable.id),
      users: { data: (JSON.parse(r.email_user_ids) as string[]).map((id) => ({ id, type: "users" })) },
    },
    links: { self: `${API_PREFIX}/notification-configurations/${r.id}` },
  };
}

type Attributes = Partial<z.infer<typeof notificationCreateSchema>["data"]["attributes"]>;

function input(a: Attributes | undefined, users: { data: { id: string }[] } | undefined): NotificationInput {
  return {
    name: a?.name,
    destinationType: a?.["destination-type"],
    enabled: a?.enabled,
    token: a?.token,
    url: a?.url,
    triggers: a?.triggers,
    emailAddresses: a?.["email-addresses"],
    userIds: users?.data.map((u) => u.id),
  };
}

/** The page a list asks for; none when it names no page (the service then answers with every configuration). */
function pageOf(request: FastifyRequest) {
  const q = request.query as Record<string, unknown>;
  return q["page[number]"] === undefined && q["page[size]"] === undefined ? null : parsePage(q);
}

export function notificationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const collections: Array<[string, Subscribable["kind"]]> = [
    ["/workspaces/:id/notification-configurations", "workspace"],
    ["/projects/:id/notification-configurations", "project"],
  ];
  for (const [path, kind] of collections) {
    app.post<{ Params: { id: string } }>(path, async (request, reply) => {
      const r = await createNotification(ctx, requireCaller(request), kind, request.params.id, () => {
        const d = parseBody(notificationCreateSchema, request.body).data;
        return {
          ...input(d.attributes, d.relationships?.users),
          name: d.attributes.name,
          destinationType: d.attributes["destination-type"],
        };
      });
      return send(reply, 201, { data: renderNotification(r) });
    });

    app.get<{ Params: { id: string } }>(path, async (request, reply) => {
      const { rows, total, page } = listNotifications(ctx, requireCaller(request), kind, request.params.id, () =>
        pageOf(request),
      );
      return send(reply, 200, {
        data: rows.map(renderNotification),
        ...(page ? paginationEnvelope(request, page, total) : {}),
      });
    });
  }

  app.get<{ Params: { id: string } }>("/notification-configurations/:id", async (request, reply) => {
    return send(reply, 200, {
      data: renderNotification(loadNotification(ctx, requireCaller(request), request.params.id)),
    });
  });

  app.patch<{ Params: { id: string } }>("/notification-configurations/:id", async (request, reply) => {
    const r = await updateNotification(ctx, requireCaller(request), request.params.id, () => {
      const d = parseBody(notificationUpdateSchema, request.body).data;
      return input(d.attributes, d.relationships?.users);
    });
    return send(reply, 200, { data: renderNotification(r) });
  });

  app.delete<{ Params: { id: string } }>("/notification-configurations/:id", async (request, reply) => {
    deleteNotification(ctx, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.post<{ Params: { id: string } }>("/notification-configurations/:id/actions/verify", async (request, reply) => {
    const r = await verifyNotification(ctx, requireCaller(request), request.params.id);
    return send(reply, 200, { data: renderNotification(r) });
  });
}
