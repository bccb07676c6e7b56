import type { FastifyInstance } from "fastify";
import { sshKeyCreateRequestSchema } from "../../api/organizations";
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
import { createSshKey, deleteSshKey, listSshKeys, loadSshKey, type SshKeyRecord } from "./service";

/** The key material is write-only: it is stored for runs and never rendered. */
function renderSshKey(k: SshKeyRecord): Resource {
  return {
    id: k.id,
    type: "ssh-keys",
    attributes: { name: k.name, "created-at": k.created_at },
    relationships: { organization: ref("organizations", k.organization) },
    links: { self: `${API_PREFIX}/ssh-keys/${k.id}` },
  };
}

export function sshKeyRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/ssh-keys",
    async (request, reply) => {
      const key = createSshKey(db, requireCaller(request), request.params.organization_name, () => {
        const a = parseBody(sshKeyCreateRequestSchema, request.body).data.attributes;
        return { name: a.name, value: a.value };
      });
      return send(reply, 201, { data: renderSshKey(key) });
    },
  );

  app.get<{ Params: { organization_name: string }; Querystring: Record<string, unknown> }>(
    "/organizations/:organization_name/ssh-keys",
    async (request, reply) => {
      const { rows, total, page } = listSshKeys(db, requireCaller(request), request.params.organization_name, () =>
        parsePage(request.query),
      );
      return send(reply, 200, { data: rows.map(renderSshKey), ...paginationEnvelope(request, page, total) });
    },
  );

  app.get<{ Params: { id: string } }>("/ssh-keys/:id", async (request, reply) => {
    return send(reply, 200, { data: renderSshKey(loadSshKey(db, requireCaller(request), request.params.id, false)) });
  });

  app.delete<{ Params: { id: string } }>("/ssh-keys/:id", async (request, reply) => {
    deleteSshKey(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });
}
