import { z } from "zod";
import type { Domain } from "../context";
import { requireCaller } from "../app";
import { assertMember, type Caller } from "../auth/service";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId } from "../ids";
import { nameTaken, notFound, unprocessable } from "../http/errors";
import { API_PREFIX, noContent, paginationEnvelope, parseBody, parsePage, ref, send, type Resource } from "../http/jsonapi";

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

const agentPoolUpdateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("agent-pools"),
        attributes: z.object({ name: z.string().min(1).optional(), "organization-scoped": z.boolean().optional() }).loose().optional(),
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

    const load = (caller: Caller, id: string, owner: boolean): AgentPoolRecord => {
      const p = prepare(db, `SELECT * FROM agent_pools WHERE id = ?`).get(id) as AgentPoolRecord | undefined;
      if (!p) throw notFound("agent pool not found");
      const role = assertMember(db, caller, p.organization);
      if (owner && !role.owner && caller.kind !== "organization") throw notFound("agent pool not found");
      return p;
    };

    app.get<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
      return send(reply, 200, { data: render(load(requireCaller(request), request.params.id, false)) });
    });

    app.patch<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
      const p = load(requireCaller(request), request.params.id, true);
      const a = parseBody(agentPoolUpdateRequestSchema, request.body).data.attributes ?? {};
      try {
        inTransaction(db, () =>
          prepare(db, `UPDATE agent_pools SET name = ?, organization_scoped = ? WHERE id = ?`).run(
            a.name ?? p.name,
            a["organization-scoped"] === undefined ? p.organization_scoped : a["organization-scoped"] ? 1 : 0,
            p.id,
          ),
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken();
        throw err;
      }
      return send(reply, 200, { data: render(prepare(db, `SELECT * FROM agent_pools WHERE id = ?`).get(p.id) as AgentPoolRecord) });
    });

    // A pool that workspaces or the organization default still use is kept, as on the hosted service.
    app.delete<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
      const p = load(requireCaller(request), request.params.id, true);
      inTransaction(db, () => {
        const users = (prepare(db, `SELECT COUNT(*) AS n FROM workspaces WHERE agent_pool_id = ?`).get(p.id) as { n: number }).n;
        const isDefault = prepare(db, `SELECT 1 FROM organizations WHERE default_agent_pool_id = ?`).get(p.id);
        if (users > 0 || isDefault) {
          throw unprocessable(
            `agent pool ${p.name} is still in use (${users} workspaces${isDefault ? ", the organization default" : ""}); move them to another execution mode or pool first`,
          );
        }
        prepare(db, `DELETE FROM agent_pools WHERE id = ?`).run(p.id);
      });
      return noContent(reply);
    });
  },
};
