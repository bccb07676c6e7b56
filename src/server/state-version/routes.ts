import type { FastifyInstance } from "fastify";
import { stateVersionCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { parseBody, send } from "../http/jsonapi";
import { renderStateVersion, renderStateVersionOutput } from "./render";
import {
  createStateVersion,
  loadCurrentStateVersion,
  loadStateVersion,
  stateFile,
  stateVersionOutputs,
} from "./service";

export function stateVersionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/state-versions", async (request, reply) => {
    const sv = createStateVersion(
      ctx,
      requireCaller(request),
      request.params.workspace_id,
      () => parseBody(stateVersionCreateRequestSchema, request.body).data.attributes,
    );
    return send(reply, 201, { data: renderStateVersion(ctx, sv) });
  });

  app.get<{ Params: { id: string } }>("/state-versions/:id", async (request, reply) => {
    return send(reply, 200, {
      data: renderStateVersion(ctx, loadStateVersion(ctx, requireCaller(request), request.params.id)),
    });
  });

  app.get<{ Params: { workspace_id: string } }>(
    "/workspaces/:workspace_id/current-state-version",
    async (request, reply) => {
      return send(reply, 200, {
        data: renderStateVersion(
          ctx,
          loadCurrentStateVersion(ctx, requireCaller(request), request.params.workspace_id),
        ),
      });
    },
  );

  // The state file itself, where `hosted-state-download-url` points.
  app.get<{ Params: { id: string } }>("/state-versions/:id/download", async (request, reply) => {
    const sv = loadStateVersion(ctx, requireCaller(request), request.params.id);
    return reply.code(200).type("application/json").send(stateFile(ctx, sv));
  });

  app.get<{ Params: { id: string } }>("/state-versions/:id/outputs", async (request, reply) => {
    const sv = loadStateVersion(ctx, requireCaller(request), request.params.id);
    return send(reply, 200, {
      data: stateVersionOutputs(ctx.db, sv.id).map((o) => renderStateVersionOutput(o, false)),
    });
  });

  app.get<{ Params: { workspace_id: string } }>(
    "/workspaces/:workspace_id/current-state-version-outputs",
    async (request, reply) => {
      const sv = loadCurrentStateVersion(ctx, requireCaller(request), request.params.workspace_id);
      return send(reply, 200, {
        data: stateVersionOutputs(ctx.db, sv.id).map((o) => renderStateVersionOutput(o, false)),
      });
    },
  );
}
