import type { FastifyInstance, FastifyRequest } from "fastify";
import { authTokenCreateSchema, ORGANIZATION_TOKEN_TYPE_PARAM } from "../../api/auth-tokens";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { noContent, paginationEnvelope, parseBody, parsePage, queryText, send } from "../http/jsonapi";
import { renderAuthToken } from "./render";
import {
  createOrganizationToken,
  createTeamToken,
  deleteLegacyTeamToken,
  deleteOrganizationToken,
  isAuditTrails,
  listTeamTokens,
  readLegacyTeamToken,
  readOrganizationToken,
} from "./service/auth-tokens";

/**
 * Team and organization tokens in the hosted service's shapes: a team's legacy token
 * (`/teams/:id/authentication-token`), its described tokens
 * (`POST /teams/:id/authentication-tokens`), the organization's team tokens
 * (`GET /organizations/:org/team-tokens`), and the organization's token of each type
 * (`/organizations/:org/authentication-token?token=audit-trails`). A token by id
 * (`/authentication-tokens/:id`) is served beside agent tokens (../agent-token/routes.ts).
 */

/** The create body's attributes: the body is optional (a legacy token needs nothing). */
function createAttributes(body: unknown) {
  if (body === undefined || body === null || body === "") return {};
  const a = parseBody(authTokenCreateSchema, body).data?.attributes;
  return { description: a?.description, expiredAt: a?.["expired-at"] };
}

/** Whether the request names the audit-trail token (`?token=audit-trails`, go-tfe's spelling, or `?token_type=`). */
function auditTrails(request: FastifyRequest): () => boolean {
  const q = request.query as Record<string, unknown>;
  return () => isAuditTrails(queryText(q[ORGANIZATION_TOKEN_TYPE_PARAM] ?? q["token_type"] ?? "") || undefined);
}

export function tokenRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    const { record, token } = createTeamToken(db, requireCaller(request), request.params.id, () => ({
      expiredAt: createAttributes(request.body).expiredAt,
      described: false,
    }));
    return send(reply, 201, { data: renderAuthToken(record, token) });
  });

  app.post<{ Params: { id: string } }>("/teams/:id/authentication-tokens", async (request, reply) => {
    const { record, token } = createTeamToken(db, requireCaller(request), request.params.id, () => ({
      ...createAttributes(request.body),
      described: true,
    }));
    return send(reply, 201, { data: renderAuthToken(record, token) });
  });

  app.get<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    return send(reply, 200, {
      data: renderAuthToken(readLegacyTeamToken(db, requireCaller(request), request.params.id)),
    });
  });

  app.delete<{ Params: { id: string } }>("/teams/:id/authentication-token", async (request, reply) => {
    deleteLegacyTeamToken(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.get<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/team-tokens",
    async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const { rows, total, page } = listTeamTokens(
        db,
        requireCaller(request),
        request.params.organization_name,
        () => ({
          query: { query: queryText(q["q"] ?? "") || undefined, sort: queryText(q["sort"] ?? "") || undefined },
          page: parsePage(q),
        }),
      );
      return send(reply, 200, {
        data: rows.map((t) => renderAuthToken(t)),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/authentication-token",
    async (request, reply) => {
      const { record, token } = createOrganizationToken(
        db,
        requireCaller(request),
        request.params.organization_name,
        () => ({
          auditTrails: auditTrails(request)(),
          expiredAt: createAttributes(request.body).expiredAt,
        }),
      );
      return send(reply, 201, { data: renderAuthToken(record, token) });
    },
  );

  app.get<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/authentication-token",
    async (request, reply) => {
      const t = readOrganizationToken(
        db,
        requireCaller(request),
        request.params.organization_name,
        auditTrails(request),
      );
      return send(reply, 200, { data: renderAuthToken(t) });
    },
  );

  app.delete<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/authentication-token",
    async (request, reply) => {
      deleteOrganizationToken(db, requireCaller(request), request.params.organization_name, auditTrails(request));
      return noContent(reply);
    },
  );
}
