import type { FastifyInstance } from "fastify";
import { agentTokenCreateRequestSchema } from "../../api/agent-tokens";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { noContent, paginationEnvelope, parseBody, parsePage, send } from "../http/jsonapi";
import { deleteTeamToken, findTeamToken } from "../auth/service/auth-tokens";
import { renderAuthToken } from "../auth/render";
import { createAgentToken, deleteAgentToken, listAgentTokens, readAgentToken } from "./service";

export function agentTokenRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { id: string } }>("/agent-pools/:id/authentication-tokens", async (request, reply) => {
    const { record, token } = createAgentToken(db, requireCaller(request), request.params.id, () => ({
      description: parseBody(agentTokenCreateRequestSchema, request.body).data.attributes.description,
    }));
    return send(reply, 201, { data: renderAuthToken(record, token) });
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    "/agent-pools/:id/authentication-tokens",
    async (request, reply) => {
      const { rows, total, page } = listAgentTokens(db, requireCaller(request), request.params.id, () =>
        parsePage(request.query),
      );
      return send(reply, 200, {
        data: rows.map((t) => renderAuthToken(t)),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  // One path serves agent tokens and team tokens, as on the service: a team token the
  // caller may not see falls through to the agent tokens and answers as an unknown id.
  app.get<{ Params: { id: string } }>("/authentication-tokens/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const team = findTeamToken(db, caller, request.params.id);
    if (team) return send(reply, 200, { data: renderAuthToken(team) });
    return send(reply, 200, { data: renderAuthToken(readAgentToken(db, caller, request.params.id)) });
  });

  app.delete<{ Params: { id: string } }>("/authentication-tokens/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const team = findTeamToken(db, caller, request.params.id);
    if (team) deleteTeamToken(db, team);
    else deleteAgentToken(db, caller, request.params.id);
    return noContent(reply);
  });
}
