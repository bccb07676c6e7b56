import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { parseBody, send, targetId } from "../http/jsonapi";
import { renderRun } from "./render";
import { endRun, loadRun, queueRun } from "./service";

/** Minimal run creation in the hosted shape; runs here never execute, they only hold a status. */
const runCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("runs"),
        attributes: z
          .object({
            message: z.string().optional(),
            "is-destroy": z.boolean().optional(),
            "auto-apply": z.boolean().optional(),
            "plan-only": z.boolean().optional(),
          })
          .loose()
          .optional(),
        relationships: z
          .object({ workspace: z.object({ data: z.object({ id: z.string().min(1) }).loose() }).loose() })
          .loose(),
      })
      .loose(),
  })
  .loose();

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
