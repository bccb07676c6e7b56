import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { remoteStateConsumersRequestSchema, tagsRelationshipRequestSchema } from "../../api/tags";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { loadWorkspaceWith } from "../workspace/service";
import { noContent, paginationEnvelope, parseBody, parsePage, send, targetIds } from "../http/jsonapi";
import { inTransaction } from "../store/db";
import { mergeTagBindings, parseTagBindingsPatch } from "../store/tagBindings";
import {
  addTagToWorkspaces,
  addWorkspaceTags,
  assertTagManager,
  deleteOrganizationTags,
  loadTag,
  listOrganizationTags,
  listWorkspaceTags,
  removeWorkspaceTags,
  renderEffectiveTagBindings,
  renderTag,
  renderTagBindings,
} from "./service";

type ById = { workspace_id: string };

const tagIdsSchema = z.object({ data: z.array(z.object({ type: z.literal("tags"), id: z.string().min(1) }).loose()) }).loose();
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

  app.patch<{ Params: ById }>("/workspaces/:workspace_id/tag-bindings", async (request, reply) => {
    const caller = requireCaller(request);
    loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-manage-tags");
    const bindings = parseTagBindingsPatch(request.body);
    const data = inTransaction(ctx.db, () => {
      const { ws } = loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-manage-tags");
      return mergeTagBindings(ctx.db, "workspace", ws.id, bindings);
    });
    return send(reply, 200, { data });
  });

  app.get<{ Params: ById }>("/workspaces/:workspace_id/effective-tag-bindings", async (request, reply) => {
    return send(reply, 200, { data: renderEffectiveTagBindings(ctx, requireCaller(request), request.params.workspace_id) });
  });

  app.delete<{ Params: { organization_name: string } }>("/organizations/:organization_name/tags", async (request, reply) => {
    const caller = requireCaller(request);
    assertTagManager(ctx, caller, request.params.organization_name);
    const body = parseBody(tagIdsSchema, request.body);
    deleteOrganizationTags(ctx, caller, request.params.organization_name, body.data.map((t) => t.id));
    return noContent(reply);
  });

  app.post<{ Params: { tag_id: string } }>("/tags/:tag_id/relationships/workspaces", async (request, reply) => {
    const caller = requireCaller(request);
    loadTag(ctx, caller, request.params.tag_id);
    for (const id of targetIds(request.body)) loadWorkspaceWith(ctx, caller, { id }, "can-manage-tags");
    const body = parseBody(remoteStateConsumersRequestSchema, request.body);
    addTagToWorkspaces(ctx, caller, request.params.tag_id, body.data.map((w) => w.id));
    return noContent(reply);
  });

  app.get<{ Params: { organization_name: string }; Querystring: Query }>("/organizations/:organization_name/tags", async (request, reply) => {
    const page = parsePage(request.query);
    const { rows, total } = listOrganizationTags(ctx, requireCaller(request), request.params.organization_name, request.query, page);
    return send(reply, 200, { data: rows.map(renderTag), ...paginationEnvelope(request, page, total) });
  });
}
