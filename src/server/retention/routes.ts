import type { FastifyInstance } from "fastify";
import { DELETE_OLDER, dataRetentionPolicyRequestSchema } from "../../api/data-retention";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { API_PREFIX, noContent, parseBody, send, type Resource } from "../http/jsonapi";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";
import { assertSelfManaged, policyOf, removeWorkspacePolicy, setWorkspacePolicy, type PolicyRecord } from "./service";

function renderPolicy(p: PolicyRecord): Resource {
  return {
    id: p.id,
    type: p.kind,
    attributes: p.kind === DELETE_OLDER ? { "delete-older-than-n-days": p.delete_older_than_n_days } : {},
    links: { self: `${API_PREFIX}/data-retention-policies/${p.id}` },
  };
}

const PATH = "/workspaces/:workspace_id/relationships/data-retention-policy";
type ById = { workspace_id: string };

export function retentionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.get<{ Params: ById }>(PATH, async (request, reply) => {
    assertSelfManaged(ctx);
    const { ws } = loadWorkspace(ctx, requireCaller(request), { id: request.params.workspace_id });
    const p = policyOf(db, ws);
    return send(reply, 200, { data: p ? renderPolicy(p) : null });
  });

  app.post<{ Params: ById }>(PATH, async (request, reply) => {
    assertSelfManaged(ctx);
    const { ws } = loadWorkspaceWith(ctx, requireCaller(request), { id: request.params.workspace_id }, "can-update");
    const data = parseBody(dataRetentionPolicyRequestSchema, request.body).data;
    const days = data.type === DELETE_OLDER ? data.attributes["delete-older-than-n-days"] : null;
    return send(reply, 201, { data: renderPolicy(setWorkspacePolicy(db, ws.id, data.type, days)) });
  });

  app.delete<{ Params: ById }>(PATH, async (request, reply) => {
    assertSelfManaged(ctx);
    const { ws } = loadWorkspaceWith(ctx, requireCaller(request), { id: request.params.workspace_id }, "can-update");
    removeWorkspacePolicy(db, ws.id);
    return noContent(reply);
  });
}
