import type { FastifyInstance } from "fastify";
import { agentTokenCreateRequestSchema } from "../../api/agent-tokens";
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
import { deleteTeamToken, findTeamToken } from "../auth/service/auth-tokens";
import { renderAuthToken } from "../auth/render";
import { createAgentToken, deleteAgentToken, listAgentTokens, readAgentToken, type AgentTokenRecord } from "./service";

/** A token's document; `token` (the secret) is given only for the create's answer. */
function render(t: AgentTokenRecord, token?: string): Resource {
  return {
    id: t.id,
    type: "authentication-tokens",
    attributes: {
      "created-at": t.created_at,
      "last-used-at": t.last_used_at,
      description: t.description,
      ...(token === undefined ? {} : { token }),
    },
    relationships: { "created-by": ref("users", t.created_by) },
    links: { self: `${API_PREFIX}/authentication-tokens/${t.id}` },
  };
}

export function agentTokenRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { id: string } }>("/agent-pools/:id/authentication-tokens", async (request, reply) => {
    const { record, token } = createAgentToken(db, requireCaller(request), request.params.id, () => ({
      description: parseBody(agentTokenCreateRequestSchema, request.body).data.attributes.description,
    }));
    return send(reply, 201, { data: render(record, token) });
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    "/agent-pools/:id/authentication-tokens",
    async (request, reply) => {
      const { rows, total, page } = listAgentTokens(db, requireCaller(request), request.params.id, () =>
        parsePage(request.query),
      );
      return send(reply, 200, { data: rows.map((t) => render(t)), ...paginationEnvelope(request, page, total) });
    },
  );

  // One path serves agent tokens and team tokens, as on the service: a team token the
  // caller may not see falls through to the agent tokens and answers as an unknown id.
  app.get<{ Params: { id: string } }>("/authentication-tokens/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const team = findTeamToken(db, caller, request.params.id);
    if (team) return send(reply, 200, { data: renderAuthToken(team) });
    return send(reply, 200, { data: render(readAgentToken(db, caller, request.params.id)) });
  });

  app.delete<{ Params: { id: string } }>("/authentication-tokens/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const team = findTeamToken(db, caller, request.params.id);
    if (team) deleteTeamToken(db, team);
    else deleteAgentToken(db, caller, request.params.id);
    return noContent(reply);
  });
}
