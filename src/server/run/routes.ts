import type { FastifyInstance } from "fastify";
import { runCreateRequestSchema } from "../../api/runs";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { parseBody, send, targetId } from "../http/jsonapi";
import { renderRun } from "./render";
import { endRun, loadRun, queueRun } from "./service";

type IdParams = { run_id: string };

export function runRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post("/runs", async (request, reply) => {
    const run = queueRun(ctx, requireCaller(request), targetId(request.body, "workspace"), () => {
      const body = parseBody(runCreateRequestSchema, request.body);
      const a = body.data.attributes ?? {};
      return {
        workspaceId: body.data.relationships.workspace.data.id,
        message: a.message,
        isDestroy: a["is-destroy"],
        autoApply: a["auto-apply"],
        planOnly: a["plan-only"],
      };
    });
    return send(reply, 201, { data: renderRun(run) });
  });

  app.get<{ Params: IdParams }>("/runs/:run_id", async (request, reply) => {
    return send(reply, 200, { data: renderRun(loadRun(ctx, requireCaller(request), request.params.run_id)) });
  });

  for (const [action, status] of [
    ["discard", "discarded"],
    ["cancel", "canceled"],
  ] as const) {
    app.post<{ Params: IdParams }>(`/runs/:run_id/actions/${action}`, async (request, reply) => {
      endRun(ctx, requireCaller(request), request.params.run_id, status);
      return reply.code(202).send();
    });
  }
}
