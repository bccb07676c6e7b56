import type { Domain } from "../context";
import { stateVersionCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import { notFound } from "../http/errors";
import { parseBody, send } from "../http/jsonapi";
import { prepare } from "../store/db";
import { loadWorkspaceWith } from "../workspace/service";
import { renderStateVersionOutput, stateVersionOutputs } from "./outputs";
import { createStateVersion, loadCurrentStateVersion, loadStateVersion, renderStateVersion } from "./service";

export const stateVersionDomain: Domain = {
  name: "state-versions",
  init(ctx) {
    // The workspace's outputs are those of its current state version (spec 2.2).
    ctx.hooks.workspaceRender.push((ctx, ws, resource) => {
      if (!ws.current_state_version_id || !resource.relationships) return;
      const outputs = stateVersionOutputs(ctx.db, ws.current_state_version_id);
      resource.relationships.outputs = { data: outputs.map((o) => ({ id: o.id, type: "workspace-outputs" })) };
    });
  },
  routes(app, ctx) {
    app.post<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/state-versions", async (request, reply) => {
      const caller = requireCaller(request);
      loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-create-state-versions");
      const a = parseBody(stateVersionCreateRequestSchema, request.body).data.attributes;
      const sv = createStateVersion(ctx, caller, request.params.workspace_id, a);
      return send(reply, 201, { data: renderStateVersion(ctx, sv) });
    });

    app.get<{ Params: { id: string } }>("/state-versions/:id", async (request, reply) => {
      return send(reply, 200, { data: renderStateVersion(ctx, loadStateVersion(ctx, requireCaller(request), request.params.id)) });
    });

    app.get<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/current-state-version", async (request, reply) => {
      return send(reply, 200, { data: renderStateVersion(ctx, loadCurrentStateVersion(ctx, requireCaller(request), request.params.workspace_id)) });
    });

    // The state file itself, where `hosted-state-download-url` points.
    app.get<{ Params: { id: string } }>("/state-versions/:id/download", async (request, reply) => {
      const sv = loadStateVersion(ctx, requireCaller(request), request.params.id);
      const row = prepare(ctx.db, `SELECT state FROM state_versions WHERE id = ?`).get(sv.id) as { state: string | null };
      if (row.state === null) throw notFound("the state version holds no state yet");
      return reply.code(200).type("application/json").send(row.state);
    });

    app.get<{ Params: { id: string } }>("/state-versions/:id/outputs", async (request, reply) => {
      const sv = loadStateVersion(ctx, requireCaller(request), request.params.id);
      return send(reply, 200, { data: stateVersionOutputs(ctx.db, sv.id).map((o) => renderStateVersionOutput(o, false)) });
    });

    app.get<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/current-state-version-outputs", async (request, reply) => {
      const sv = loadCurrentStateVersion(ctx, requireCaller(request), request.params.workspace_id);
      return send(reply, 200, { data: stateVersionOutputs(ctx.db, sv.id).map((o) => renderStateVersionOutput(o, false)) });
    });
  },
};
export * from "./service";
