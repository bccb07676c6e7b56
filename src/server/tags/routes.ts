import type { FastifyInstance } from "fastify";
import { tagsRelationshipRequestSchema } from "../../api/tags";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { loadWorkspaceWith } from "../workspace/service";
import { noContent, paginationEnvelope, parseBody, parsePage, send } from "../http/jsonapi";
import {
  addWorkspaceTags,
  listOrganizationTags,
  listWorkspaceTags,
  removeWorkspaceTags,
  renderEffectiveTagBindings,
  renderTag,
  renderTagBindings,
} from "./service";

type ById = { workspace_id: string };
type Query = Record<string, unknown>;

export function tagRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: ById; Querystring: Query }>("/workspaces/:workspace_id/relationships/tags", async (request, reply) => {
    const page = parsePage(request.query);
    const { rows, total } = listWorkspaceTags(ctx, requireCaller(request), request.params.workspace_id, page);
    return send(reply, 200, { data: rows.map(renderTag), ...paginationEnvelope(request, page, total) });
  });

  app.post<{ Params: ById }>("/workspaces/:workspace_id/relationships/tags", async (request, reply) => {
    const caller = requireCaller(request);
    loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-manage-tags");
    const body = parseBody(tagsRelationshipRequestSchema, request.body);
    addWorkspaceTags(ctx, caller, request.params.workspace_id, body);
    return noContent(reply);
  });

  app.delete<{ Params: ById }>("/workspaces/:workspace_id/relationships/tags", async (request, reply) => {
    const caller = requireCaller(request);
    loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-manage-tags");
    const body = parseBody(tagsRelationshipRequestSchema, request.body);
    removeWorkspaceTags(ctx, caller, request.params.workspace_id, body);
    return noContent(reply);
  });

  app.get<{ Params: ById }>("/workspaces/:workspace_id/tag-bindings", async (request, reply) => {
    return send(reply, 200, { data: renderTagBindings(ctx, requireCaller(request), request.params.workspace_id) });
  });

  app.get<{ Params: ById }>("/workspaces/:workspace_id/effective-tag-bindings", async (request, reply) => {
    return send(reply, 200, { data: renderEffectiveTagBindings(ctx, requireCaller(request), request.params.workspace_id) });
  });

  app.get<{ Params: { organization_name: string }; Querystring: Query }>("/organizations/:organization_name/tags", async (request, reply) => {
    const page = parsePage(request.query);
    const { rows, total } = listOrganizationTags(ctx, requireCaller(request), request.params.organization_name, request.query, page);
    return send(reply, 200, { data: rows.map(renderTag), ...paginationEnvelope(request, page, total) });
  });
}
