import type { FastifyInstance } from "fastify";
import { remoteStateConsumersRequestSchema } from "../../api/tags";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { noContent, paginationEnvelope, parseBody, parsePage, send } from "../http/jsonapi";
import { workspaceDocuments } from "../workspace/render";
import { changeConsumers, listConsumers } from "./service";

type ById = { workspace_id: string };
const PATH = "/workspaces/:workspace_id/relationships/remote-state-consumers";

export function consumerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: ById; Querystring: Record<string, unknown> }>(PATH, async (request, reply) => {
    const caller = requireCaller(request);
    const page = parsePage(request.query);
    const { rows, total } = listConsumers(ctx, caller, request.params.workspace_id, page);
    return send(reply, 200, {
      data: workspaceDocuments(ctx, rows),
      ...paginationEnvelope(request, page, total),
    });
  });
  for (const [method, mode] of [
    ["PATCH", "replace"],
    ["POST", "add"],
    ["DELETE", "remove"],
  ] as const) {
    app.route<{ Params: ById }>({
      method,
      url: PATH,
      handler: async (request, reply) => {
        changeConsumers(
          ctx,
          requireCaller(request),
          request.params.workspace_id,
          () => parseBody(remoteStateConsumersRequestSchema, request.body).data.map((item) => item.id),
          mode,
        );
        return noContent(reply);
      },
    });
  }
}
