import type { FastifyInstance } from "fastify";
import { oauthClientCreateRequestSchema } from "../../api/oauth";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { API_PREFIX, parseBody, ref, send, type Resource } from "../http/jsonapi";
import type { Db } from "../store/db";
import {
  createOAuthClient,
  loadOAuthClient,
  loadOAuthToken,
  oauthTokenIds,
  type OAuthClientRecord,
  type OAuthTokenRecord,
} from "./service";

function renderClient(db: Db, c: OAuthClientRecord): Resource {
  return {
    id: c.id,
    type: "oauth-clients",
    attributes: {
      name: c.name,
      "service-provider": c.service_provider,
      "http-url": c.http_url,
      "api-url": c.api_url,
      "created-at": c.created_at,
    },
    relationships: {
      organization: ref("organizations", c.organization),
      "oauth-tokens": { data: oauthTokenIds(db, c.id).map((id) => ({ id, type: "oauth-tokens" })) },
    },
    links: { self: `${API_PREFIX}/oauth-clients/${c.id}` },
  };
}

function renderToken(t: OAuthTokenRecord): Resource {
  return {
    id: t.id,
    type: "oauth-tokens",
    attributes: { "created-at": t.created_at, "has-ssh-key": false, "service-provider-user": "local" },
    relationships: { "oauth-client": ref("oauth-clients", t.oauth_client_id) },
    links: { self: `${API_PREFIX}/oauth-tokens/${t.id}` },
  };
}

export function oauthRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/oauth-clients",
    async (request, reply) => {
      const c = createOAuthClient(db, requireCaller(request), request.params.organization_name, () => {
        const a = parseBody(oauthClientCreateRequestSchema, request.body).data.attributes;
        return {
          name: a.name ?? null,
          serviceProvider: a["service-provider"],
          httpUrl: a["http-url"],
          apiUrl: a["api-url"],
        };
      });
      return send(reply, 201, { data: renderClient(db, c) });
    },
  );

  app.get<{ Params: { id: string } }>("/oauth-clients/:id", async (request, reply) => {
    return send(reply, 200, { data: renderClient(db, loadOAuthClient(db, requireCaller(request), request.params.id)) });
  });

  app.get<{ Params: { id: string } }>("/oauth-tokens/:id", async (request, reply) => {
    return send(reply, 200, { data: renderToken(loadOAuthToken(db, requireCaller(request), request.params.id)) });
  });
}
