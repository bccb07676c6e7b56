import type { Domain } from "../context";
import { stateVersionCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import { parseBody, send } from "../http/jsonapi";
import { loadWorkspaceWith } from "../workspace/service";
import { createStateVersion, loadCurrentStateVersion, loadStateVersion, renderStateVersion } from "./service";

export const stateVersionDomain: Domain = {
  name: "state-versions",
  routes(app, ctx) {
    app.post<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/state-versions", async (request, reply) => {
      const caller = requireCaller(request);
      loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-create-state-versions");
      const a = parseBody(stateVersionCreateRequestSchema, request.body).data.attributes;
      const sv = createStateVersion(ctx, caller, request.params.workspace_id, a);
      return send(reply, 201, { data: renderStateVersion(sv) });
    });

    app.get<{ Params: { id: string } }>("/state-versions/:id", async (request, reply) => {
      return send(reply, 200, { data: renderStateVersion(loadStateVersion(ctx, requireCaller(request), request.params.id)) });
    });

    app.get<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/current-state-version", async (request, reply) => {
      return send(reply, 200, { data: renderStateVersion(loadCurrentStateVersion(ctx, requireCaller(request), request.params.workspace_id)) });
    });
  },
};
export * from "./service";
