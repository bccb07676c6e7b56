import type { FastifyInstance } from "fastify";
import { projectExecutionRequestSchema, projectRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { Invalid } from "../domain-errors";
import {
  noContent,
  paginationEnvelope,
  parseBody,
  parseInclude,
  parsePage,
  send,
  type Resource,
} from "../http/jsonapi";
import type { Db } from "../store/db";
import { projectTagBindings } from "../tags/service";
import { parseTagBindingsPatch, renderEffectiveTagBinding, renderTagBinding } from "../tags/render";
import { taggedFilters } from "../workspace/list-filter";
import { renderProject } from "./render";
import {
  createProject,
  deleteProject,
  listProjects,
  loadProject,
  mergeProjectTagBindings,
  updateProject,
  type ProjectExecutionInput,
  type ProjectRecord,
} from "./service";

type OrgParams = { organization_name: string };
type IdParams = { project_id: string };

const PROJECT_INCLUDES = ["effective_tag_bindings"] as const;

function executionOf(body: unknown): ProjectExecutionInput | undefined {
  const a = parseBody(projectExecutionRequestSchema, body).data.attributes;
  if (!a) return undefined;
  const o = a["setting-overwrites"];
  const input: ProjectExecutionInput = {
    mode: a["default-execution-mode"],
    agentPoolId: a["default-agent-pool-id"],
    overwritesMode: o?.["default-execution-mode"],
    overwritesPool: o?.["default-agent-pool"],
  };
  return Object.values(input).every((v) => v === undefined) ? undefined : input;
}

/** A project's effective tag bindings are its own (projects inherit none). */
function projectEffectiveBindings(db: Db, projectId: string): Resource[] {
  return projectTagBindings(db, projectId).map((b) =>
    renderEffectiveTagBinding({ sourceId: b.id, key: b.key, value: b.value, inherited: false }, projectId),
  );
}

/** `include=effective_tag_bindings`: the entries, and the relationship data that points to them. */
function withIncluded(
  db: Db,
  projects: ProjectRecord[],
  documents: Resource[],
  include: Set<string>,
): { included?: Resource[] } {
  if (!include.has("effective_tag_bindings")) return {};
  const included: Resource[] = [];
  projects.forEach((p, i) => {
    const entries = projectEffectiveBindings(db, p.id);
    included.push(...entries);
    const rel = documents[i].relationships?.["effective-tag-bindings"];
    if (rel) rel.data = entries.map((e) => ({ id: e.id!, type: e.type }));
  });
  return { included };
}

function bindingsOf(body: {
  data: { relationships?: { "tag-bindings"?: { data: { attributes: { key: string; value: string } }[] } } };
}) {
  return body.data.relationships?.["tag-bindings"]?.data.map((b) => ({
    key: b.attributes.key,
    value: b.attributes.value,
  }));
}

export function projectRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post<{ Params: OrgParams }>("/organizations/:organization_name/projects", async (request, reply) => {
    const p = createProject(db, requireCaller(request), request.params.organization_name, () => {
      const body = parseBody(projectRequestSchema, request.body);
      const name = body.data.attributes?.name;
      if (!name) throw new Invalid("name: is required", { attribute: "name" });
      return {
        name,
        description: body.data.attributes?.description,
        tagBindings: bindingsOf(body),
        execution: executionOf(request.body),
      };
    });
    return send(reply, 201, { data: renderProject(db, p) });
  });

  app.get<{ Params: OrgParams; Querystring: Record<string, unknown> }>(
    "/organizations/:organization_name/projects",
    async (request, reply) => {
      const caller = requireCaller(request);
      const page = parsePage(request.query);
      const include = parseInclude(request.query, PROJECT_INCLUDES);
      const q = request.query;
      const { rows, total } = listProjects(db, caller, request.params.organization_name, page, {
        name: typeof q["filter[names]"] === "string" ? q["filter[names]"] : undefined,
        query: typeof q.q === "string" && q.q !== "" ? q.q : undefined,
        tagged: taggedFilters(q),
      });
      const data = rows.map((p) => renderProject(db, p));
      return send(reply, 200, {
        data,
        ...withIncluded(db, rows, data, include),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  app.get<{ Params: IdParams; Querystring: Record<string, unknown> }>(
    "/projects/:project_id",
    async (request, reply) => {
      const include = parseInclude(request.query, PROJECT_INCLUDES);
      const p = loadProject(db, requireCaller(request), request.params.project_id);
      const data = renderProject(db, p);
      return send(reply, 200, { data, ...withIncluded(db, [p], [data], include) });
    },
  );

  app.patch<{ Params: IdParams }>("/projects/:project_id", async (request, reply) => {
    const p = updateProject(db, requireCaller(request), request.params.project_id, () => {
      const body = parseBody(projectRequestSchema, request.body);
      return {
        name: body.data.attributes?.name,
        description: body.data.attributes?.description,
        tagBindings: bindingsOf(body),
        execution: executionOf(request.body),
      };
    });
    return send(reply, 200, { data: renderProject(db, p) });
  });

  app.delete<{ Params: IdParams }>("/projects/:project_id", async (request, reply) => {
    deleteProject(db, requireCaller(request), request.params.project_id);
    return noContent(reply);
  });

  app.get<{ Params: IdParams }>("/projects/:project_id/tag-bindings", async (request, reply) => {
    const p = loadProject(db, requireCaller(request), request.params.project_id);
    return send(reply, 200, { data: projectTagBindings(db, p.id).map(renderTagBinding) });
  });

  app.patch<{ Params: IdParams }>("/projects/:project_id/tag-bindings", async (request, reply) => {
    const bindings = mergeProjectTagBindings(db, requireCaller(request), request.params.project_id, () =>
      parseTagBindingsPatch(request.body),
    );
    return send(reply, 200, { data: bindings.map(renderTagBinding) });
  });

  app.get<{ Params: IdParams }>("/projects/:project_id/effective-tag-bindings", async (request, reply) => {
    const p = loadProject(db, requireCaller(request), request.params.project_id);
    return send(reply, 200, { data: projectEffectiveBindings(db, p.id) });
  });
}
