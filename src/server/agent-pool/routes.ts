import type { FastifyInstance } from "fastify";
import { agentPoolCreateRequestSchema, agentPoolUpdateRequestSchema } from "../../api/agent-pools";
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
  createAgentPool,
  deleteAgentPool,
  listAgentPools,
  loadAgentPool,
  updateAgentPool,
  type AgentPoolRecord,
} from "./service";

function render(p: AgentPoolRecord): Resource {
  return {
    id: p.id,
    type: "agent-pools",
    attributes: {
      name: p.name,
      "organization-scoped": p.organization_scoped === 1,
      "created-at": p.created_at,
      "agent-count": 0,
    },
    relationships: { organization: ref("organizations", p.organization) },
    links: { self: `${API_PREFIX}/agent-pools/${p.id}` },
  };
}

export function agentPoolRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/agent-pools",
    async (request, reply) => {
      const pool = createAgentPool(db, requireCaller(request), request.params.organization_name, () => {
        const a = parseBody(agentPoolCreateRequestSchema, request.body).data.attributes;
        return { name: a.name, organizationScoped: a["organization-scoped"] };
      });
      return send(reply, 201, { data: render(pool) });
    },
  );

  app.get<{ Params: { organization_name: string }; Querystring: Record<string, unknown> }>(
    "/organizations/:organization_name/agent-pools",
    async (request, reply) => {
      const { rows, total, page } = listAgentPools(db, requireCaller(request), request.params.organization_name, () =>
        parsePage(request.query),
      );
      return send(reply, 200, { data: rows.map(render), ...paginationEnvelope(request, page, total) });
    },
  );

  app.get<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
    return send(reply, 200, { data: render(loadAgentPool(db, requireCaller(request), request.params.id, false)) });
  });

  app.patch<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
    const pool = updateAgentPool(db, requireCaller(request), request.params.id, () => {
      const a = parseBody(agentPoolUpdateRequestSchema, request.body).data.attributes ?? {};
      return { name: a.name, organizationScoped: a["organization-scoped"] };
    });
    return send(reply, 200, { data: render(pool) });
  });

  app.delete<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
    deleteAgentPool(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });
}
