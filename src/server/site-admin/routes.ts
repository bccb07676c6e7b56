import type { FastifyInstance } from "fastify";
import { SUBSCRIPTION_LIMITS, subscriptionUpdateSchema } from "../../api/admin";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { API_PREFIX, paginationEnvelope, parseBody, parsePage, queryText, send, type Resource } from "../http/jsonapi";
import {
  listFeatureSets,
  setSubscription,
  showSubscription,
  type FeatureSet,
  type Subscription,
} from "./service/subscriptions";

function renderFeatureSet(f: FeatureSet): Resource {
  return {
    id: f.id,
    type: "feature-sets",
    attributes: { name: f.name, identifier: f.id.slice("fs-".length), "is-free-tier": f["is-free-tier"] },
  };
}

function renderSubscription(s: Subscription): Resource {
  const limits = Object.fromEntries(SUBSCRIPTION_LIMITS.map((k) => [k, s.limits[k] ?? null]));
  return {
    id: s.id,
    type: "subscriptions",
    attributes: { ...limits, "is-active": true, "created-at": s.createdAt, "updated-at": s.updatedAt },
    relationships: {
      organization: { data: { id: s.organization, type: "organizations" } },
      "feature-set": { data: { id: s.featureSet.id, type: "feature-sets" } },
    },
    links: { self: `${API_PREFIX}/admin/organizations/${encodeURIComponent(s.organization)}/subscription` },
  };
}

type ByOrg = { organization_name: string };
const SUBSCRIPTION = "/admin/organizations/:organization_name/subscription";

/**
 * A local server's administration of plans, in the shapes go-tfe's tests use to move an
 * organization to a plan: `GET /admin/feature-sets?q=<name>` and
 * `POST /admin/organizations/:org/subscription` (plus a `GET` of what was recorded).
 */
export function subscriptionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.get<{ Querystring: Record<string, unknown> }>("/admin/feature-sets", async (request, reply) => {
    const all = listFeatureSets(requireCaller(request), queryText(request.query.q ?? ""));
    const page = parsePage(request.query);
    const rows = all.slice((page.number - 1) * page.size, page.number * page.size);
    return send(reply, 200, { data: rows.map(renderFeatureSet), ...paginationEnvelope(request, page, all.length) });
  });

  app.get<{ Params: ByOrg }>(SUBSCRIPTION, async (request, reply) => {
    const s = showSubscription(db, requireCaller(request), request.params.organization_name);
    return send(reply, 200, { data: s ? renderSubscription(s) : null });
  });

  app.post<{ Params: ByOrg }>(SUBSCRIPTION, async (request, reply) => {
    const s = setSubscription(db, requireCaller(request), request.params.organization_name, () => {
      const data = parseBody(subscriptionUpdateSchema, request.body).data;
      const given = data.attributes ?? {};
      const limits = Object.fromEntries(SUBSCRIPTION_LIMITS.flatMap((k) => (given[k] == null ? [] : [[k, given[k]]])));
      return { featureSetId: data.relationships["feature-set"].data.id, limits };
    });
    return send(reply, 201, { data: renderSubscription(s) });
  });
}
