import { z } from "zod";
import type { Domain } from "../context";
import type { Db } from "../store/db";
import { requireCaller } from "../app";
import { assertMember } from "../auth/service";
import { inTransaction, now, prepare } from "../store/db";
import { newId, newInternalId } from "../ids";
import { notFound } from "../http/errors";
import { API_PREFIX, parseBody, ref, send, type Resource } from "../http/jsonapi";

/**
 * VCS connections as records only: creating an OAuth client also issues its OAuth token
 * (`ot-`), which is what a workspace's `vcs-repo.oauth-token-id` refers to. No VCS is
 * ever contacted and the provider token given is not kept.
 */
const oauthClientCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("oauth-clients"),
        attributes: z
          .object({
            name: z.string().nullable().optional(),
            "service-provider": z.string().min(1),
            "http-url": z.string().url(),
            "api-url": z.string().url(),
            "oauth-token-string": z.string().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

interface ClientRecord {
  id: string;
  organization: string;
  name: string | null;
  service_provider: string;
  http_url: string;
  api_url: string;
  created_at: string;
}

function tokenIdsOf(db: Db, clientId: string): string[] {
  return (prepare(db, `SELECT id FROM oauth_tokens WHERE oauth_client_id = ? ORDER BY created_at`).all(clientId) as { id: string }[]).map((r) => r.id);
}

function renderClient(db: Db, c: ClientRecord): Resource {
  return {
    id: c.id,
    type: "oauth-clients",
    attributes: { name: c.name, "service-provider": c.service_provider, "http-url": c.http_url, "api-url": c.api_url, "created-at": c.created_at },
    relationships: {
      organization: ref("organizations", c.organization),
      "oauth-tokens": { data: tokenIdsOf(db, c.id).map((id) => ({ id, type: "oauth-tokens" })) },
    },
    links: { self: `${API_PREFIX}/oauth-clients/${c.id}` },
  };
}

export const oauthDomain: Domain = {
  name: "oauth",
  routes(app, { db }) {
    app.post<{ Params: { organization_name: string } }>("/organizations/:organization_name/oauth-clients", async (request, reply) => {
      const caller = requireCaller(request);
      const org = request.params.organization_name;
      if (!assertMember(db, caller, org).manageWorkspaces) throw notFound(`organization "${org}" not found`);
      const a = parseBody(oauthClientCreateRequestSchema, request.body).data.attributes;
      const id = newInternalId("oc-");
      inTransaction(db, () => {
        const t = now();
        prepare(db, `INSERT INTO oauth_clients (id, organization, name, service_provider, http_url, api_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
          id,
          org,
          a.name ?? null,
          a["service-provider"],
          a["http-url"],
          a["api-url"],
          t,
        );
        prepare(db, `INSERT INTO oauth_tokens (id, oauth_client_id, organization, created_at) VALUES (?, ?, ?, ?)`).run(newId("oauthToken"), id, org, t);
      });
      return send(reply, 201, { data: renderClient(db, prepare(db, `SELECT * FROM oauth_clients WHERE id = ?`).get(id) as ClientRecord) });
    });

    app.get<{ Params: { id: string } }>("/oauth-clients/:id", async (request, reply) => {
      const c = prepare(db, `SELECT * FROM oauth_clients WHERE id = ?`).get(request.params.id) as ClientRecord | undefined;
      if (!c) throw notFound("OAuth client not found");
      assertMember(db, requireCaller(request), c.organization);
      return send(reply, 200, { data: renderClient(db, c) });
    });

    app.get<{ Params: { id: string } }>("/oauth-tokens/:id", async (request, reply) => {
      const t = prepare(db, `SELECT id, oauth_client_id, organization, created_at FROM oauth_tokens WHERE id = ?`).get(request.params.id) as
        | { id: string; oauth_client_id: string; organization: string; created_at: string }
        | undefined;
      if (!t) throw notFound("OAuth token not found");
      assertMember(db, requireCaller(request), t.organization);
      return send(reply, 200, {
        data: {
          id: t.id,
          type: "oauth-tokens",
          attributes: { "created-at": t.created_at, "has-ssh-key": false, "service-provider-user": "local" },
          relationships: { "oauth-client": ref("oauth-clients", t.oauth_client_id) },
          links: { self: `${API_PREFIX}/oauth-tokens/${t.id}` },
        },
      });
    });
  },
};
