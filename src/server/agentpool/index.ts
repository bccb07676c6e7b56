import { z } from "zod";
import type { Domain } from "../context";
import { requireCaller } from "../app";
import { assertMember } from "../auth/service";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId } from "../ids";
import { nameTaken, notFound } from "../http/errors";
import { API_PREFIX, paginationEnvelope, parseBody, parsePage, ref, send, type Resource } from "../http/jsonapi";

/** Agent pools are records only, so that `agent-pool-id` can be validated; no agent ever runs here. */
const agentPoolCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("agent-pools"),
        attributes: z.object({ name: z.string().min(1), "organization-scoped": z.boolean().optional() }).loose(),
      })
      .loose(),
  })
  .loose();

interface AgentPoolRecord {
  id: string;
  organization: string;
  name: string;
  organization_scoped: number;
  created_at: string;
}

function render(p: AgentPoolRecord): Resource {
  return {
    id: p.id,
    type: "agent-pools",
    attributes: { name: p.name, "organization-scoped": p.organization_scoped === 1, "created-at": p.created_at, "agent-count": 0 },
    relationships: { organization: ref("organizations", p.organization) },
    links: { self: `${API_PREFIX}/agent-pools/${p.id}` },
  };
}

export const agentPoolDomain: Domain = {
  name: "agent-pools",
  routes(app, { db }) {
    app.post<{ Params: { organization_name: string } }>("/organizations/:organization_name/agent-pools", async (request, reply) => {
      const caller = requireCaller(request);
      const org = request.params.organization_name;
      if (!assertMember(db, caller, org).owner && caller.kind !== "organization") throw notFound(`organization "${org}" not found`);
      const body = parseBody(agentPoolCreateRequestSchema, request.body);
      const id = newId("agentPool");
      try {
        inTransaction(db, () => {
          prepare(db, `INSERT INTO agent_pools (id, organization, name, organization_scoped, created_at) VALUES (?, ?, ?, ?, ?)`).run(
            id,
            org,
            body.data.attributes.name,
            body.data.attributes["organization-scoped"] === false ? 0 : 1,
            now(),
          );
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken();
        throw err;
      }
      return send(reply, 201, { data: render(prepare(db, `SELECT * FROM agent_pools WHERE id = ?`).get(id) as AgentPoolRecord) });
    });

    app.get<{ Params: { organization_name: string }; Querystring: Record<string, unknown> }>("/organizations/:organization_name/agent-pools", async (request, reply) => {
      const org = request.params.organization_name;
      assertMember(db, requireCaller(request), org);
      const page = parsePage(request.query);
      const total = (prepare(db, `SELECT COUNT(*) AS n FROM agent_pools WHERE organization = ?`).get(org) as { n: number }).n;
      const rows = prepare(db, `SELECT * FROM agent_pools WHERE organization = ? ORDER BY name LIMIT ? OFFSET ?`).all(org, page.size, (page.number - 1) * page.size) as AgentPoolRecord[];
      return send(reply, 200, { data: rows.map(render), ...paginationEnvelope(request, page, total) });
    });

    app.get<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
      const p = prepare(db, `SELECT * FROM agent_pools WHERE id = ?`).get(request.params.id) as AgentPoolRecord | undefined;
      if (!p) throw notFound("agent pool not found");
      assertMember(db, requireCaller(request), p.organization);
      return send(reply, 200, { data: render(p) });
    });
  },
};
