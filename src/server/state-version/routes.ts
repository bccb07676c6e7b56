import type { FastifyInstance, FastifyRequest } from "fastify";
import { stateVersionCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { parseBody, parseInclude, send } from "../http/jsonapi";
import { renderStateVersion, renderStateVersionOutput } from "./render";
import {
  createStateVersion,
  currentStateVersionOutputs,
  loadCurrentStateVersion,
  loadStateVersionOutput,
  loadStateVersion,
  stateFile,
  stateVersionOutputs,
  type StateVersionRecord,
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

  /** The document of a state version, with its outputs when `include=outputs` asks (sensitive values hidden). */
  const includes = (request: FastifyRequest) => parseInclude(request.query as Record<string, unknown>, ["outputs"]);
  const document = (include: Set<string>, sv: StateVersionRecord) => {
    return {
      data: renderStateVersion(ctx, sv),
      ...(include.has("outputs")
        ? { included: stateVersionOutputs(ctx.db, sv.id).map((o) => renderStateVersionOutput(o, false)) }
        : {}),
    };
  };

  app.get<{ Params: { id: string } }>("/state-versions/:id", async (request, reply) => {
    const sv = loadStateVersion(ctx, requireCaller(request), request.params.id);
    return send(reply, 200, document(includes(request), sv));
  });

  app.get<{ Params: { workspace_id: string } }>(
    "/workspaces/:workspace_id/current-state-version",
    async (request, reply) => {
      const { sv, query } = loadCurrentStateVersion(ctx, requireCaller(request), request.params.workspace_id, () =>
        includes(request),
      );
      return send(reply, 200, document(query, sv));
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
      const outputs = currentStateVersionOutputs(ctx, requireCaller(request), request.params.workspace_id);
      return send(reply, 200, { data: outputs.map((o) => renderStateVersionOutput(o, false)) });
    },
  );

  app.get<{ Params: { id: string } }>("/state-version-outputs/:id", async (request, reply) => {
    const { output, showSensitive } = loadStateVersionOutput(ctx, requireCaller(request), request.params.id);
    return send(reply, 200, { data: renderStateVersionOutput(output, showSensitive) });
  });
}
