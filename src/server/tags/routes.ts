import type { FastifyInstance } from "fastify";
import { remoteStateConsumersRequestSchema, tagIdsRequestSchema, tagsRelationshipRequestSchema } from "../../api/tags";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";
import { noContent, paginationEnvelope, parseBody, parsePage, send, targetIds } from "../http/jsonapi";
import { parseTagBindingsPatch, renderEffectiveTagBinding, renderTag, renderTagBinding } from "./render";
import {
  changeWorkspaceTags,
  deleteOrganizationTags,
  directTagBindings,
  effectiveTagBindings,
  listOrganizationTags,
  listWorkspaceTags,
  mergeWorkspaceTagBindings,
  tagWorkspaces,
} from "./service";

type ById = { workspace_id: string };

type Query = Record<string, unknown>;

export function tagRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  /** The workspace service's answer to whether the caller may manage a workspace's tags. */
  const tagManaged = (caller: Caller) => (id: string) => loadWorkspaceWith(ctx, caller, { id }, "can-manage-tags").ws;

  app.get<{ Params: ById; Querystring: Query }>(
    "/workspaces/:workspace_id/relationships/tags",
    async (request, reply) => {
      const page = parsePage(request.query);
      const { ws } = loadWorkspace(ctx, requireCaller(request), { id: request.params.workspace_id });
      const { rows, total } = listWorkspaceTags(db, ws.id, page);
      return send(reply, 200, { data: rows.map(renderTag), ...paginationEnvelope(request, page, total) });
    },
  );

  // Flat tags (spec 4.10): names are stored lower-cased and created in the organization on
  // first use; an id must name an existing tag of the organization.
  for (const [method, change] of [
    ["POST", "add"],
    ["DELETE", "remove"],
  ] as const) {
    app.route<{ Params: ById }>({
      method,
      url: "/workspaces/:workspace_id/relationships/tags",
      handler: async (request, reply) => {
        changeWorkspaceTags(
          db,
          change,
          request.params.workspace_id,
          tagManaged(requireCaller(request)),
          () => parseBody(tagsRelationshipRequestSchema, request.body).data,
        );
        return noContent(reply);
      },
    });
  }

  app.get<{ Params: ById }>("/workspaces/:workspace_id/tag-bindings", async (request, reply) => {
    const { ws } = loadWorkspace(ctx, requireCaller(request), { id: request.params.workspace_id });
    return send(reply, 200, { data: directTagBindings(db, ws.id).map(renderTagBinding) });
  });

  app.patch<{ Params: ById }>("/workspaces/:workspace_id/tag-bindings", async (request, reply) => {
    const rows = mergeWorkspaceTagBindings(db, request.params.workspace_id, tagManaged(requireCaller(request)), () =>
      parseTagBindingsPatch(request.body),
    );
    return send(reply, 200, { data: rows.map(renderTagBinding) });
  });

  app.get<{ Params: ById }>("/workspaces/:workspace_id/effective-tag-bindings", async (request, reply) => {
    const { ws } = loadWorkspace(ctx, requireCaller(request), { id: request.params.workspace_id });
    return send(reply, 200, {
      data: effectiveTagBindings(db, ws).map((b) => renderEffectiveTagBinding(b, ws.project_id)),
    });
  });

  app.delete<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/tags",
    async (request, reply) => {
      deleteOrganizationTags(db, requireCaller(request), request.params.organization_name, () =>
        parseBody(tagIdsRequestSchema, request.body).data.map((t) => t.id),
      );
      return noContent(reply);
    },
  );

  app.post<{ Params: { tag_id: string } }>("/tags/:tag_id/relationships/workspaces", async (request, reply) => {
    const caller = requireCaller(request);
    tagWorkspaces(db, caller, request.params.tag_id, tagManaged(caller), targetIds(request.body), () =>
      parseBody(remoteStateConsumersRequestSchema, request.body).data.map((w) => w.id),
    );
    return noContent(reply);
  });

  app.get<{ Params: { organization_name: string }; Querystring: Query }>(
    "/organizations/:organization_name/tags",
    async (request, reply) => {
      const page = parsePage(request.query);
      const q = request.query.q;
      const exclude = request.query["filter[exclude][taggable][id]"];
      const filter = {
        q: typeof q === "string" ? q : undefined,
        excludeWorkspaceId: typeof exclude === "string" ? exclude : undefined,
      };
      const { rows, total } = listOrganizationTags(
        db,
        requireCaller(request),
        request.params.organization_name,
        filter,
        page,
      );
      return send(reply, 200, { data: rows.map(renderTag), ...paginationEnvelope(request, page, total) });
    },
  );
}
