import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  WORKSPACE_INCLUDES,
  lockRequestSchema,
  sshKeyAssignRequestSchema,
  workspaceCreateRequestSchema,
  workspaceUpdateRequestSchema,
} from "../../api/workspaces";
import { tagsRelationshipRequestSchema } from "../../api/tags";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { assertMember, mayCreateWorkspaces } from "../auth/service/authz";
import { notFound } from "../http/errors";
import { noContent, paginationEnvelope, parseBody, parseInclude, parsePage, send } from "../http/jsonapi";
import { renderWorkspace, workspaceDocumentFor, workspaceDocumentsFor } from "./render";
import { includedFor } from "./include";
import { parseWorkspaceListQuery } from "./list";
import {
  assignSshKey,
  createWorkspace,
  forceDeleteWorkspace,
  forceUnlockWorkspace,
  listWorkspaces,
  loadWorkspace,
  loadWorkspaceWith,
  lockWorkspace,
  safeDeleteWorkspace,
  unlockWorkspace,
  updateWorkspace,
  type CreateWorkspaceInput,
  type WorkspaceLocator,
} from "./service";

/** Flat tags given with a create, in the shape of the tags relationship body. */
const flatTagsOnCreateSchema = tagsRelationshipRequestSchema;

type ByName = { organization_name: string; name: string };
type ById = { workspace_id: string };
type Query = Record<string, unknown>;

function locatorOf(params: Partial<ByName & ById>): WorkspaceLocator {
  return params.workspace_id !== undefined
    ? { id: params.workspace_id }
    : { organization: params.organization_name!, name: params.name! };
}

function tagBindingsOf(
  rel: { "tag-bindings"?: { data: { attributes: { key: string; value: string } }[] } } | undefined,
) {
  return rel?.["tag-bindings"]?.data.map((b) => ({ key: b.attributes.key, value: b.attributes.value }));
}

export function workspaceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/workspaces",
    async (request, reply) => {
      const caller = requireCaller(request);
      assertMember(ctx.db, caller, request.params.organization_name);
      if (!mayCreateWorkspaces(ctx.db, caller, request.params.organization_name))
        throw notFound(`organization "${request.params.organization_name}" not found`);
      const body = parseBody(workspaceCreateRequestSchema, request.body);
      const rel = body.data.relationships;
      const ws = createWorkspace(ctx, caller, request.params.organization_name, {
        attributes: body.data.attributes as CreateWorkspaceInput["attributes"],
        projectId: rel?.project?.data?.id,
        tagBindings: tagBindingsOf(rel),
        tags: rel?.tags ? parseBody(flatTagsOnCreateSchema, rel.tags, "/data/relationships/tags").data : undefined,
      });
      return send(reply, 201, { data: workspaceDocumentFor(ctx, caller, ws) });
    },
  );

  app.get<{ Params: { organization_name: string }; Querystring: Query }>(
    "/organizations/:organization_name/workspaces",
    async (request, reply) => {
      const caller = requireCaller(request);
      assertMember(ctx.db, caller, request.params.organization_name);
      const include = parseInclude(request.query, WORKSPACE_INCLUDES);
      const page = parsePage(request.query);
      const { rows, total } = listWorkspaces(
        ctx,
        caller,
        request.params.organization_name,
        parseWorkspaceListQuery(request.query),
        page,
      );
      const data = workspaceDocumentsFor(ctx, caller, rows);
      const doc: Record<string, unknown> = { data };
      if (include.size) doc.included = includedFor(ctx, caller, rows, include, data);
      return send(reply, 200, { ...doc, ...paginationEnvelope(request, page, total) });
    },
  );

  const show = async (
    request: FastifyRequest<{ Params: Partial<ByName & ById>; Querystring: Query }>,
    reply: Parameters<typeof send>[0],
  ) => {
    const caller = requireCaller(request);
    const include = parseInclude(request.query, WORKSPACE_INCLUDES);
    const { ws, permissions } = loadWorkspace(ctx, caller, locatorOf(request.params));
    const data = renderWorkspace(ctx, ws, permissions);
    const doc: Record<string, unknown> = { data };
    if (include.size) doc.included = includedFor(ctx, caller, [ws], include, [data]);
    return send(reply, 200, doc);
  };
  app.get("/workspaces/:workspace_id", show);
  app.get("/organizations/:organization_name/workspaces/:name", show);

  const update = async (
    request: FastifyRequest<{ Params: Partial<ByName & ById> }>,
    reply: Parameters<typeof send>[0],
  ) => {
    const caller = requireCaller(request);
    const locator = locatorOf(request.params);
    loadWorkspaceWith(ctx, caller, locator, "can-update");
    const body = parseBody(workspaceUpdateRequestSchema, request.body);
    const rel = body.data.relationships;
    const ws = updateWorkspace(ctx, caller, locator, {
      attributes: body.data.attributes ?? {},
      projectId: rel?.project?.data?.id,
      tagBindings: tagBindingsOf(rel),
    });
    return send(reply, 200, { data: workspaceDocumentFor(ctx, caller, ws) });
  };
  app.patch("/workspaces/:workspace_id", update);
  app.patch("/organizations/:organization_name/workspaces/:name", update);

  const safeDelete = async (
    request: FastifyRequest<{ Params: Partial<ByName & ById> }>,
    reply: Parameters<typeof send>[0],
  ) => {
    safeDeleteWorkspace(ctx, requireCaller(request), locatorOf(request.params));
    return noContent(reply);
  };
  app.post("/workspaces/:workspace_id/actions/safe-delete", safeDelete);
  app.post("/organizations/:organization_name/workspaces/:name/actions/safe-delete", safeDelete);

  const forceDelete = async (
    request: FastifyRequest<{ Params: Partial<ByName & ById> }>,
    reply: Parameters<typeof send>[0],
  ) => {
    forceDeleteWorkspace(ctx, requireCaller(request), locatorOf(request.params));
    return noContent(reply);
  };
  app.delete("/workspaces/:workspace_id", forceDelete);
  app.delete("/organizations/:organization_name/workspaces/:name", forceDelete);

  app.post<{ Params: ById }>("/workspaces/:workspace_id/actions/lock", async (request, reply) => {
    const caller = requireCaller(request);
    loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-lock");
    const body = request.body === undefined ? {} : parseBody(lockRequestSchema, request.body);
    const ws = lockWorkspace(ctx, caller, request.params.workspace_id, body.reason ?? "");
    return send(reply, 200, { data: workspaceDocumentFor(ctx, caller, ws) });
  });

  app.post<{ Params: ById }>("/workspaces/:workspace_id/actions/unlock", async (request, reply) => {
    const caller = requireCaller(request);
    const ws = unlockWorkspace(ctx, caller, request.params.workspace_id);
    return send(reply, 200, { data: workspaceDocumentFor(ctx, caller, ws) });
  });

  app.post<{ Params: ById }>("/workspaces/:workspace_id/actions/force-unlock", async (request, reply) => {
    const caller = requireCaller(request);
    const ws = forceUnlockWorkspace(ctx, caller, request.params.workspace_id);
    return send(reply, 200, { data: workspaceDocumentFor(ctx, caller, ws) });
  });

  app.patch<{ Params: ById }>("/workspaces/:workspace_id/relationships/ssh-key", async (request, reply) => {
    const caller = requireCaller(request);
    loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-update");
    const body = parseBody(sshKeyAssignRequestSchema, request.body);
    const ws = assignSshKey(ctx, caller, request.params.workspace_id, body.data.attributes.id);
    return send(reply, 200, { data: workspaceDocumentFor(ctx, caller, ws) });
  });
}
