import type { FastifyInstance } from "fastify";
import { projectRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { unprocessable } from "../http/errors";
import { noContent, paginationEnvelope, parseBody, parsePage, send } from "../http/jsonapi";
import { inTransaction } from "../store/db";
import { mergeTagBindings, parseTagBindingsPatch } from "../store/tagBindings";
import {
  assertProjectCreator,
  createProject,
  deleteProject,
  listProjects,
  loadProject,
  loadProjectAsAdmin,
  renderProject,
  renderProjectTagBindings,
  updateProject,
} from "./service";

type OrgParams = { organization_name: string };
type IdParams = { project_id: string };

function bindingsOf(body: { data: { relationships?: { "tag-bindings"?: { data: { attributes: { key: string; value: string } }[] } } } }) {
  return body.data.relationships?.["tag-bindings"]?.data.map((b) => ({ key: b.attributes.key, value: b.attributes.value }));
}

export function projectRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post<{ Params: OrgParams }>("/organizations/:organization_name/projects", async (request, reply) => {
    const caller = requireCaller(request);
    assertProjectCreator(db, caller, request.params.organization_name);
    const body = parseBody(projectRequestSchema, request.body);
    const name = body.data.attributes?.name;
    if (!name) throw unprocessable("name: is required", "/data/attributes/name");
    const p = createProject(db, caller, request.params.organization_name, { name, description: body.data.attributes?.description, tagBindings: bindingsOf(body) });
    return send(reply, 201, { data: renderProject(db, p) });
  });

  app.get<{ Params: OrgParams; Querystring: Record<string, unknown> }>("/organizations/:organization_name/projects", async (request, reply) => {
    const caller = requireCaller(request);
    const page = parsePage(request.query);
    const nameFilter = typeof request.query["filter[names]"] === "string" ? (request.query["filter[names]"] as string) : undefined;
    const { rows, total } = listProjects(db, caller, request.params.organization_name, page, nameFilter);
    return send(reply, 200, { data: rows.map((p) => renderProject(db, p)), ...paginationEnvelope(request, page, total) });
  });

  app.get<{ Params: IdParams }>("/projects/:project_id", async (request, reply) => {
    const p = loadProject(db, requireCaller(request), request.params.project_id);
    return send(reply, 200, { data: renderProject(db, p) });
  });

  app.patch<{ Params: IdParams }>("/projects/:project_id", async (request, reply) => {
    const caller = requireCaller(request);
    loadProjectAsAdmin(db, caller, request.params.project_id);
    const body = parseBody(projectRequestSchema, request.body);
    const p = updateProject(db, caller, request.params.project_id, {
      name: body.data.attributes?.name,
      description: body.data.attributes?.description,
      tagBindings: bindingsOf(body),
    });
    return send(reply, 200, { data: renderProject(db, p) });
  });

  app.delete<{ Params: IdParams }>("/projects/:project_id", async (request, reply) => {
    deleteProject(db, requireCaller(request), request.params.project_id);
    return noContent(reply);
  });

  app.get<{ Params: IdParams }>("/projects/:project_id/tag-bindings", async (request, reply) => {
    const p = loadProject(db, requireCaller(request), request.params.project_id);
    return send(reply, 200, { data: renderProjectTagBindings(db, p.id) });
  });

  app.patch<{ Params: IdParams }>("/projects/:project_id/tag-bindings", async (request, reply) => {
    const caller = requireCaller(request);
    loadProjectAsAdmin(db, caller, request.params.project_id);
    const bindings = parseTagBindingsPatch(request.body);
    const data = inTransaction(db, () => mergeTagBindings(db, "project", loadProjectAsAdmin(db, caller, request.params.project_id).id, bindings));
    return send(reply, 200, { data });
  });

  app.get<{ Params: IdParams }>("/projects/:project_id/effective-tag-bindings", async (request, reply) => {
    const p = loadProject(db, requireCaller(request), request.params.project_id);
    const data = renderProjectTagBindings(db, p.id).map((b) => ({ type: "effective-tag-bindings", attributes: { key: b.attributes.key, value: b.attributes.value } }));
    return send(reply, 200, { data });
  });
}
