import type { FastifyInstance } from "fastify";
import {
  RUN_TRIGGER_DIRECTIONS,
  RUN_TRIGGER_INCLUDES,
  runTriggerCreateSchema,
  type RunTriggerDirection,
} from "../../api/run-triggers";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { Invalid } from "../domain-errors";
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
import { createRunTrigger, deleteRunTrigger, listRunTriggers, loadRunTrigger, type RunTriggerView } from "./service";

function renderRunTrigger({ trigger, workspace, sourceable }: RunTriggerView): Resource {
  return {
    id: trigger.id,
    type: "run-triggers",
    attributes: {
      "created-at": trigger.created_at,
      "sourceable-name": sourceable.name,
      "workspace-name": workspace.name,
    },
    relationships: {
      workspace: ref("workspaces", workspace.id),
      sourceable: ref("workspaces", sourceable.id),
    },
    links: { self: `${API_PREFIX}/run-triggers/${trigger.id}` },
  };
}

/** An included workspace: enough to name it (the full document is at its own address). */
function renderIncludedWorkspace(ws: RunTriggerView["workspace"]): Resource {
  return {
    id: ws.id,
    type: "workspaces",
    attributes: { name: ws.name },
    relationships: { organization: ref("organizations", ws.organization) },
    links: { self: `${API_PREFIX}/workspaces/${ws.id}` },
  };
}

function included(views: ReadonlyArray<RunTriggerView>, include: Set<string>): Resource[] {
  const out = new Map<string, Resource>();
  for (const v of views) {
    if (include.has("workspace")) out.set(v.workspace.id, renderIncludedWorkspace(v.workspace));
    if (include.has("sourceable")) out.set(v.sourceable.id, renderIncludedWorkspace(v.sourceable));
  }
  return [...out.values()];
}

function direction(query: Record<string, unknown>): RunTriggerDirection {
  const name = "filter[run-trigger][type]";
  const value = queryText(query[name] ?? "");
  if (!(RUN_TRIGGER_DIRECTIONS as ReadonlyArray<string>).includes(value))
    throw new Invalid(`${name} is required and must be one of: ${RUN_TRIGGER_DIRECTIONS.join(", ")}`, {
      parameter: name,
    });
  return value as RunTriggerDirection;
}

export function runTriggerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/run-triggers", async (request, reply) => {
    const v = createRunTrigger(ctx, requireCaller(request), request.params.workspace_id, () => ({
      sourceableId: parseBody(runTriggerCreateSchema, request.body).data.relationships.sourceable.data.id,
    }));
    return send(reply, 201, { data: renderRunTrigger(v) });
  });

  app.get<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/run-triggers", async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const {
      rows,
      total,
      query: { include, page },
    } = listRunTriggers(ctx, requireCaller(request), request.params.workspace_id, () => ({
      direction: direction(q),
      include: parseInclude(q, RUN_TRIGGER_INCLUDES),
      page: parsePage(q),
    }));
    const extra = included(rows, include);
    return send(reply, 200, {
      data: rows.map(renderRunTrigger),
      ...(include.size ? { included: extra } : {}),
      ...paginationEnvelope(request, page, total),
    });
  });

  app.get<{ Params: { id: string } }>("/run-triggers/:id", async (request, reply) => {
    const v = loadRunTrigger(ctx, requireCaller(request), request.params.id);
    const include = parseInclude(request.query as Record<string, unknown>, RUN_TRIGGER_INCLUDES);
    return send(reply, 200, {
      data: renderRunTrigger(v),
      ...(include.size ? { included: included([v], include) } : {}),
    });
  });

  app.delete<{ Params: { id: string } }>("/run-triggers/:id", async (request, reply) => {
    deleteRunTrigger(ctx, requireCaller(request), request.params.id);
    return noContent(reply);
  });
}
