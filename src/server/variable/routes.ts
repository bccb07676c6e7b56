import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import {
  VARIABLE_SET_INCLUDES,
  variableSetProjectsBodySchema,
  variableSetWorkspacesBodySchema,
} from "../../api/variable-sets";
import { variableSetCreateRequestSchema, variableSetUpdateRequestSchema } from "../../api/variable-sets";
import { ID_PREFIXES } from "../../api/common";
import { variableCreateRequestSchema, variableUpdateRequestSchema } from "../../api/variables";
import { policySetParameterCreateRequestSchema, policySetParameterUpdateRequestSchema } from "../../api/policy-sets";
import { assertTakesParameters, loadPolicySet } from "../policy/service/sets";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import {
  noContent,
  paginationEnvelope,
  parseBody,
  parseInclude,
  parsePage,
  queryText,
  send,
  type Page,
} from "../http/jsonapi";
import { renderVariable, renderVariableSet } from "./render";
import {
  createVariableIn,
  deleteVariableIn,
  loadVariableIn,
  updateVariableIn,
  variablesPageIn,
  variablesWorkspace,
  type VariableTable,
} from "./service";
import {
  createVariableSet,
  deleteVariableSet,
  effectiveWorkspaceVariables,
  listProjectVariableSets,
  listVariableSets,
  listWorkspaceVariableSets,
  loadVariableSet,
  relateVariableSet,
  updateVariableSet,
  variableSetRelations,
  type SetPage,
  type SetQuery,
  type Target,
  type VariableSetRecord,
} from "./sets";

type Query = { Querystring: Record<string, unknown> };
type VarParams = { variable_id: string };

/** A page when one was asked for; the hosted service answers a variable list whole. */
function askedPage(query: Record<string, unknown>): Page | null {
  return query["page[number]"] === undefined && query["page[size]"] === undefined ? null : parsePage(query);
}

/** How one kind of owner's variables are written: the bodies it accepts, and what it checks before a create. */
interface VariableRules {
  createSchema: z.ZodType<{ data: { attributes: Parameters<typeof createVariableIn>[3] } }>;
  updateSchema: z.ZodType<{ data: { attributes?: Parameters<typeof updateVariableIn>[3] } }>;
  /** Throws when the owner cannot take a variable now (a policy set that cannot use parameters). */
  beforeCreate?(ownerId: string): void;
}

const VARIABLE_RULES: VariableRules = {
  createSchema: variableCreateRequestSchema,
  updateSchema: variableUpdateRequestSchema,
};

/** The routes of one kind of variable owner: `collection` is the list's path, `owner` finds the owner the caller may read or change. */
function variableRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  t: VariableTable,
  collection: string,
  owner: (request: FastifyRequest, write: boolean) => string,
  rules: VariableRules = VARIABLE_RULES,
): void {
  app.get<Query>(collection, async (request, reply) => {
    const ownerId = owner(request, false);
    const { rows, total, page } = variablesPageIn(ctx, t, ownerId, askedPage(request.query));
    return send(reply, 200, {
      data: rows.map((r) => renderVariable(r, t)),
      ...paginationEnvelope(request, page, total),
    });
  });

  app.post(collection, async (request, reply) => {
    const ownerId = owner(request, true);
    const a = parseBody(rules.createSchema, request.body).data.attributes;
    rules.beforeCreate?.(ownerId);
    return send(reply, 201, { data: renderVariable(createVariableIn(ctx, t, ownerId, a), t) });
  });

  const item = `${collection}/:variable_id`;
  app.get<{ Params: VarParams }>(item, async (request, reply) => {
    const v = loadVariableIn(ctx, t, owner(request, false), request.params.variable_id);
    return send(reply, 200, { data: renderVariable(v, t) });
  });

  app.patch<{ Params: VarParams }>(item, async (request, reply) => {
    const v = loadVariableIn(ctx, t, owner(request, true), request.params.variable_id);
    const a = parseBody(rules.updateSchema, request.body).data.attributes ?? {};
    return send(reply, 200, { data: renderVariable(updateVariableIn(ctx, t, v, a), t) });
  });

  app.delete<{ Params: VarParams }>(item, async (request, reply) => {
    deleteVariableIn(ctx, t, loadVariableIn(ctx, t, owner(request, true), request.params.variable_id));
    return noContent(reply);
  });
}

export function variableDomainRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const workspaceOf = (request: FastifyRequest, write: boolean) =>
    variablesWorkspace(ctx, requireCaller(request), (request.params as { workspace_id: string }).workspace_id, write)
      .id;
  const setOf = (request: FastifyRequest, write: boolean) =>
    loadVariableSet(ctx, requireCaller(request), (request.params as { varset_id: string }).varset_id, write).id;
  variableRoutes(app, ctx, "vars", "/workspaces/:workspace_id/vars", workspaceOf);
  variableRoutes(app, ctx, "varset_vars", "/varsets/:varset_id/relationships/vars", setOf);
  // A policy set's parameters: variables of the set, readable by its readers, written by its managers.
  const policySetOf = (request: FastifyRequest, write: boolean) =>
    loadPolicySet(ctx.db, requireCaller(request), (request.params as { policy_set_id: string }).policy_set_id, write)
      .id;
  variableRoutes(app, ctx, "policy_set_params", "/policy-sets/:policy_set_id/parameters", policySetOf, {
    createSchema: policySetParameterCreateRequestSchema,
    updateSchema: policySetParameterUpdateRequestSchema,
    beforeCreate: (setId) => assertTakesParameters(ctx.db, setId),
  });

  app.get<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/all-vars", async (request, reply) => {
    const rows = effectiveWorkspaceVariables(ctx, requireCaller(request), request.params.workspace_id);
    return send(reply, 200, {
      data: rows.map((r) => renderVariable(r, r.owner_id.startsWith(ID_PREFIXES.variableSet) ? "varset_vars" : "vars")),
    });
  });

  variableSetRoutes(app, ctx);
}

function variableSetRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const render = (s: VariableSetRecord) => renderVariableSet(s, variableSetRelations(ctx, s));
  const includes = (request: FastifyRequest<Query>) => parseInclude(request.query, VARIABLE_SET_INCLUDES);
  /** A set's document; `include` is parsed before a write (a rejected request changes nothing), after the set is found. */
  const document = (include: Set<string>, s: VariableSetRecord) => {
    const rel = variableSetRelations(ctx, s);
    return {
      data: renderVariableSet(s, rel),
      ...(include.has("vars") ? { included: rel.variables.map((v) => renderVariable(v, "varset_vars")) } : {}),
    };
  };
  const list = (request: FastifyRequest<Query>, p: SetPage) => ({
    data: p.rows.map(render),
    ...paginationEnvelope(request, p.page, p.total),
  });
  /** The search and page of a list, for the service to read once the caller may see what is listed. */
  const setQuery =
    (request: FastifyRequest<Query>): SetQuery =>
    () => ({
      query: request.query.q === undefined ? undefined : queryText(request.query.q),
      page: parsePage(request.query),
    });

  app.get<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/varsets",
    async (request, reply) => {
      const p = listVariableSets(ctx, requireCaller(request), request.params.organization_name, setQuery(request));
      return send(reply, 200, list(request, p));
    },
  );

  app.post<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/varsets",
    async (request, reply) => {
      let include = new Set<string>();
      const s = createVariableSet(ctx, requireCaller(request), request.params.organization_name, () => {
        include = includes(request);
        return parseBody(variableSetCreateRequestSchema, request.body);
      });
      return send(reply, 201, document(include, s));
    },
  );

  app.get<Query & { Params: { workspace_id: string } }>("/workspaces/:workspace_id/varsets", async (request, reply) => {
    const p = listWorkspaceVariableSets(ctx, requireCaller(request), request.params.workspace_id, setQuery(request));
    return send(reply, 200, list(request, p));
  });

  app.get<Query & { Params: { project_id: string } }>("/projects/:project_id/varsets", async (request, reply) => {
    const p = listProjectVariableSets(ctx, requireCaller(request), request.params.project_id, setQuery(request));
    return send(reply, 200, list(request, p));
  });

  app.get<Query & { Params: { varset_id: string } }>("/varsets/:varset_id", async (request, reply) => {
    const s = loadVariableSet(ctx, requireCaller(request), request.params.varset_id, false);
    return send(reply, 200, document(includes(request), s));
  });

  app.patch<Query & { Params: { varset_id: string } }>("/varsets/:varset_id", async (request, reply) => {
    let include = new Set<string>();
    const s = updateVariableSet(ctx, requireCaller(request), request.params.varset_id, () => {
      include = includes(request);
      return parseBody(variableSetUpdateRequestSchema, request.body);
    });
    return send(reply, 200, document(include, s));
  });

  app.delete<{ Params: { varset_id: string } }>("/varsets/:varset_id", async (request, reply) => {
    deleteVariableSet(ctx, requireCaller(request), request.params.varset_id);
    return noContent(reply);
  });

  const schemas = { workspaces: variableSetWorkspacesBodySchema, projects: variableSetProjectsBodySchema };
  for (const kind of ["workspaces", "projects"] as Target[]) {
    for (const add of [true, false]) {
      app.route<{ Params: { varset_id: string } }>({
        method: add ? "POST" : "DELETE",
        url: `/varsets/:varset_id/relationships/${kind}`,
        handler: async (request, reply) => {
          relateVariableSet(ctx, requireCaller(request), request.params.varset_id, kind, add, () =>
            parseBody(schemas[kind], request.body).data.map((d) => d.id),
          );
          return noContent(reply);
        },
      });
    }
  }
}
