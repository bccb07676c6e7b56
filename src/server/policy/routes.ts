import type { FastifyInstance } from "fastify";
import { policyCreateRequestSchema, policyUpdateRequestSchema } from "../../api/policies";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { API_PREFIX, noContent, paginationEnvelope, parseBody, parsePage, queryText, ref, send } from "../http/jsonapi";
import type { Resource } from "../http/jsonapi";
import { rawBody, withRawBodies } from "../http/raw-body";
import {
  createPolicy,
  deletePolicy,
  downloadPolicyCode,
  listPolicies,
  readPolicy,
  updatePolicy,
  uploadPolicyCode,
  type PolicyView,
} from "./service/policies";

type Query = { Querystring: Record<string, unknown> };

/**
 * A policy as the service renders it: the level both ways, `enforcement-level` always and
 * the legacy `enforce` list once the policy has code (empty before, as on the service).
 */
export function renderPolicy({ policy: p, policySetCount }: PolicyView): Resource {
  return {
    id: p.id,
    type: "policies",
    attributes: {
      name: p.name,
      description: p.description,
      kind: p.kind,
      query: p.query,
      enforce: p.has_code ? [{ path: p.enforce_path, mode: p.enforcement_level }] : [],
      "enforcement-level": p.enforcement_level,
      "policy-set-count": policySetCount,
      "updated-at": p.updated_at,
    },
    relationships: { organization: ref("organizations", p.organization) },
    links: {
      self: `${API_PREFIX}/policies/${p.id}`,
      upload: `${API_PREFIX}/policies/${p.id}/upload`,
      download: `${API_PREFIX}/policies/${p.id}/download`,
    },
  };
}

export function policyRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/policies",
    async (request, reply) => {
      const view = createPolicy(
        db,
        requireCaller(request),
        request.params.organization_name,
        () => parseBody(policyCreateRequestSchema, request.body).data.attributes,
      );
      return send(reply, 201, { data: renderPolicy(view) });
    },
  );

  app.get<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/policies",
    async (request, reply) => {
      const text = (key: string) => (request.query[key] === undefined ? undefined : queryText(request.query[key]));
      const { rows, total, page } = listPolicies(db, requireCaller(request), request.params.organization_name, () => ({
        page: parsePage(request.query),
        filter: { search: text("search[name]"), kind: text("filter[kind]") },
      }));
      return send(reply, 200, { data: rows.map(renderPolicy), ...paginationEnvelope(request, page, total) });
    },
  );

  app.get<{ Params: { id: string } }>("/policies/:id", async (request, reply) => {
    return send(reply, 200, { data: renderPolicy(readPolicy(db, requireCaller(request), request.params.id)) });
  });

  app.patch<{ Params: { id: string } }>("/policies/:id", async (request, reply) => {
    const view = updatePolicy(
      db,
      requireCaller(request),
      request.params.id,
      () => parseBody(policyUpdateRequestSchema, request.body).data.attributes ?? {},
    );
    return send(reply, 200, { data: renderPolicy(view) });
  });

  app.delete<{ Params: { id: string } }>("/policies/:id", async (request, reply) => {
    deletePolicy(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  withRawBodies(app, (scoped) => {
    scoped.put<{ Params: { id: string } }>("/policies/:id/upload", async (request, reply) => {
      uploadPolicyCode(db, requireCaller(request), request.params.id, rawBody(request));
      return noContent(reply);
    });
  });

  app.get<{ Params: { id: string } }>("/policies/:id/download", async (request, reply) => {
    const code = downloadPolicyCode(db, requireCaller(request), request.params.id);
    return reply.code(200).header("content-type", "text/plain; charset=utf-8").send(code);
  });
}
