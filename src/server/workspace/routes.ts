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
import { noContent, paginationEnvelope, parseBody, parseInclude, parsePage, send } from "../http/jsonapi";
import { workspaceDocument, workspaceDocuments } from "./render";
import { includedFor } from "./include";
import { parseWorkspaceListQuery } from "./list-filter";
import {
  assignSshKey,
  createWorkspaceFor,
  forceDeleteWorkspace,
  listWorkspaces,
  showWorkspace,
  safeDeleteWorkspace,
  updateWorkspace,
  type CreateWorkspaceInput,
  type WorkspaceLocator,
} from "./service";
import { forceUnlockWorkspace, lockWorkspace, unlockWorkspace } from "./locks";

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
      const created = createWorkspaceFor(ctx, requireCaller(request), request.params.organization_name, () => {
        const body = parseBody(workspaceCreateRequestSchema, request.body);
        const rel = body.data.relationships;
        return {
          attributes: body.data.attributes as CreateWorkspaceInput["attributes"],
          projectId: rel?.project?.data?.id,
          tagBindings: tagBindingsOf(rel),
          tags: rel?.tags ? parseBody(flatTagsOnCreateSchema, rel.tags, "/data/relationships/tags").data : undefined,
        };
      });
      return send(reply, 201, { data: workspaceDocument(ctx, created) });
    },
  );

  app.get<{ Params: { organization_name: string }; Querystring: Query }>(
    "/organizations/:organization_name/workspaces",
    async (request, reply) => {
      const caller = requireCaller(request);
      const { rows, total, query, role } = listWorkspaces(ctx, caller, request.params.organization_name, () => {
        const include = parseInclude(request.query, WORKSPACE_INCLUDES);
        const page = parsePage(request.query);
        return { include, page, filter: parseWorkspaceListQuery(request.query) };
      });
      const data = workspaceDocuments(ctx, rows);
      const doc: Record<string, unknown> = { data };
      if (query.include.size)
        doc.included = includedFor(
          ctx,
          role,
          rows.map((r) => r.ws),
          query.include,
          data,
        );
      return send(reply, 200, { ...doc, ...paginationEnvelope(request, query.page, total) });
    },
  );

  const show = async (
    request: FastifyRequest<{ Params: Partial<ByName & ById>; Querystring: Query }>,
    reply: Parameters<typeof send>[0],
  ) => {
    const caller = requireCaller(request);
    const include = parseInclude(request.query, WORKSPACE_INCLUDES);
    const found = showWorkspace(ctx, caller, locatorOf(request.params));
    const data = workspaceDocument(ctx, found);
    const doc: Record<string, unknown> = { data };
    if (include.size) doc.included = includedFor(ctx, found.role, [found.ws], include, [data]);
    return send(reply, 200, doc);
  };
  app.get("/workspaces/:workspace_id", show);
  app.get("/organizations/:organization_name/workspaces/:name", show);

  const update = async (
    request: FastifyRequest<{ Params: Partial<ByName & ById> }>,
    reply: Parameters<typeof send>[0],
  ) => {
    const updated = updateWorkspace(ctx, requireCaller(request), locatorOf(request.params), () => {
      const body = parseBody(workspaceUpdateRequestSchema, request.body);
      const rel = body.data.relationships;
      return {
        attributes: body.data.attributes ?? {},
        projectId: rel?.project?.data?.id,
        tagBindings: tagBindingsOf(rel),
      };
    });
    return send(reply, 200, { data: workspaceDocument(ctx, updated) });
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
    const locked = lockWorkspace(ctx, requireCaller(request), request.params.workspace_id, () => {
      const body = request.body === undefined ? {} : parseBody(lockRequestSchema, request.body);
      return body.reason ?? "";
    });
    return send(reply, 200, { data: workspaceDocument(ctx, locked) });
  });

  app.post<{ Params: ById }>("/workspaces/:workspace_id/actions/unlock", async (request, reply) => {
    const unlocked = unlockWorkspace(ctx, requireCaller(request), request.params.workspace_id);
    return send(reply, 200, { data: workspaceDocument(ctx, unlocked) });
  });

  app.post<{ Params: ById }>("/workspaces/:workspace_id/actions/force-unlock", async (request, reply) => {
    const unlocked = forceUnlockWorkspace(ctx, requireCaller(request), request.params.workspace_id);
    return send(reply, 200, { data: workspaceDocument(ctx, unlocked) });
  });

  app.patch<{ Params: ById }>("/workspaces/:workspace_id/relationships/ssh-key", async (request, reply) => {
    const assigned = assignSshKey(
      ctx,
      requireCaller(request),
      request.params.workspace_id,
      () => parseBody(sshKeyAssignRequestSchema, request.body).data.attributes.id,
    );
    return send(reply, 200, { data: workspaceDocument(ctx, assigned) });
  });
}
