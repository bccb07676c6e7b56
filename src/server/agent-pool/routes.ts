import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  AGENT_POOL_INCLUDES,
  AGENT_POOL_LISTS,
  AGENT_POOL_LIST_TYPES,
  agentPoolCreateRequestSchema,
  agentPoolUpdateRequestSchema,
  type AgentPoolList,
} from "../../api/agent-pools";
import { requireCaller } from "../app";
import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import {
  API_PREFIX,
  noContent,
  paginationEnvelope,
  parseBody,
  parseInclude,
  parsePage,
  queryText,
  ref,
  send,
  type Resource,
} from "../http/jsonapi";
import { workspaceDocuments } from "../workspace/render";
import { findWorkspace, permissionsFor } from "../workspace/service";
import {
  createAgentPool,
  deleteAgentPool,
  listAgentPools,
  readAgentPool,
  updateAgentPool,
  type AgentPoolInput,
  type AgentPoolView,
} from "./service";

type Query = { Querystring: Record<string, unknown> };

/**
 * An agent pool document. The lists are always shown; the workspaces running on the
 * pool only when `include=workspaces` asks for them, so that the document of a pool
 * reads the same before and after a workspace moves onto it.
 */
function render({ pool: p, lists, workspaces }: AgentPoolView, include: Set<string>): Resource {
  const many = (type: string, ids: readonly string[]) => ({ data: ids.map((id) => ({ id, type })) });
  const relationships: NonNullable<Resource["relationships"]> = {
    organization: ref("organizations", p.organization),
  };
  for (const list of AGENT_POOL_LISTS) relationships[list] = many(AGENT_POOL_LIST_TYPES[list], lists[list]);
  if (include.has("workspaces")) relationships.workspaces = many("workspaces", workspaces);
  return {
    id: p.id,
    type: "agent-pools",
    attributes: {
      name: p.name,
      "organization-scoped": p.organization_scoped === 1,
      "created-at": p.created_at,
      "agent-count": 0,
    },
    relationships,
    links: { self: `${API_PREFIX}/agent-pools/${p.id}` },
  };
}

/** The workspaces of `views` the caller may see, as `included` documents, when asked for. */
function included(ctx: ServerContext, caller: Caller, views: readonly AgentPoolView[], include: Set<string>) {
  if (!include.has("workspaces")) return {};
  const rows = [...new Set(views.flatMap((v) => v.workspaces))].flatMap((id) => {
    const ws = findWorkspace(ctx, id);
    const permissions = ws && permissionsFor(ctx, caller, ws);
    return ws && permissions ? [{ ws, permissions }] : [];
  });
  return { included: workspaceDocuments(ctx, rows) };
}

/** The attributes and the lists a create or update body gives. */
function inputOf(data: {
  attributes?: { name?: string; "organization-scoped"?: boolean };
  relationships?: Partial<Record<AgentPoolList, { data: { id: string }[] }>>;
}): AgentPoolInput {
  const lists: AgentPoolInput["lists"] = {};
  for (const list of AGENT_POOL_LISTS) {
    const given = data.relationships?.[list];
    if (given) lists[list] = given.data.map((d) => d.id);
  }
  return { name: data.attributes?.name, organizationScoped: data.attributes?.["organization-scoped"], lists };
}

export function agentPoolRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  const includes = (request: FastifyRequest<Query>) => parseInclude(request.query, AGENT_POOL_INCLUDES);
  /** A pool's document; `include` is parsed before a write (a rejected request changes nothing). */
  const document = (request: FastifyRequest<Query>, include: Set<string>, view: AgentPoolView) => ({
    data: render(view, include),
    ...included(ctx, requireCaller(request), [view], include),
  });

  app.post<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/agent-pools",
    async (request, reply) => {
      let include = new Set<string>();
      const view = createAgentPool(db, requireCaller(request), request.params.organization_name, () => {
        include = includes(request);
        const data = parseBody(agentPoolCreateRequestSchema, request.body).data;
        return { ...inputOf(data), name: data.attributes.name };
      });
      return send(reply, 201, document(request, include, view));
    },
  );

  app.get<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/agent-pools",
    async (request, reply) => {
      const caller = requireCaller(request);
      let include = new Set<string>();
      const text = (key: string) => (request.query[key] === undefined ? undefined : queryText(request.query[key]));
      const { rows, total, page } = listAgentPools(db, caller, request.params.organization_name, () => {
        include = includes(request);
        return {
          page: parsePage(request.query),
          filter: {
            q: text("q"),
            allowedWorkspaceName: text("filter[allowed_workspaces][name]"),
            allowedProjectName: text("filter[allowed_projects][name]"),
          },
          sort: text("sort") || undefined,
        };
      });
      return send(reply, 200, {
        data: rows.map((v) => render(v, include)),
        ...included(ctx, caller, rows, include),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  app.get<Query & { Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
    const view = readAgentPool(db, requireCaller(request), request.params.id);
    return send(reply, 200, document(request, includes(request), view));
  });

  app.patch<Query & { Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
    let include = new Set<string>();
    const view = updateAgentPool(db, requireCaller(request), request.params.id, () => {
      include = includes(request);
      return inputOf(parseBody(agentPoolUpdateRequestSchema, request.body).data);
    });
    return send(reply, 200, document(request, include, view));
  });

  app.delete<{ Params: { id: string } }>("/agent-pools/:id", async (request, reply) => {
    deleteAgentPool(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });
}
