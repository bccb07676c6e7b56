import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  NO_CODE_MODULE_INCLUDES,
  NO_CODE_MODULE_INCLUDE_ALIASES,
  noCodeModuleEnableRequestSchema,
  noCodeModuleUpdateRequestSchema,
  noCodeWorkspaceCreateRequestSchema,
  workspaceUpgradeRequestSchema,
} from "../../api/no-code";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { noContent, parseBody, parseInclude, queryText, send } from "../http/jsonapi";
import { workspaceDocument } from "../workspace/render";
import { renderNoCodeModule, renderUpgrade, renderVariableOptions } from "./render";
import { deleteNoCodeModule, enableNoCodeModule, loadNoCodeModule, updateNoCodeModule } from "./service";
import { variableOptionsOf, type NoCodeModuleRecord } from "./store";
import { confirmUpgrade, initiateUpgrade, loadUpgrade } from "./upgrade";
import { createWorkspaceFromModule } from "./workspaces";

type Query = Record<string, unknown>;

/**
 * What a request carries beyond its address (`include`, the body), read at most once:
 * first by the service, once it has decided the caller may go on, then for the answer.
 */
function once<T>(read: () => T): () => T {
  let done: { value: T } | undefined;
  return () => (done ??= { value: read() }).value;
}

/** `include` of spec 4.14 (`variable_options`, or go-tfe's `variable-options`); any other value is a 400. */
function includeOptions(query: Query): boolean {
  const raw = query["include"];
  const normalized =
    raw === undefined
      ? {}
      : {
          include: queryText(raw)
            .split(",")
            .map((v) => NO_CODE_MODULE_INCLUDE_ALIASES[v.trim()] ?? v.trim())
            .join(","),
        };
  return parseInclude(normalized, NO_CODE_MODULE_INCLUDES).has("variable_options");
}

function moduleDocument(ctx: ServerContext, m: NoCodeModuleRecord, withOptions: boolean) {
  const doc: Record<string, unknown> = { data: renderNoCodeModule(ctx.db, m) };
  if (withOptions) doc.included = variableOptionsOf(ctx.db, m.id).map(renderVariableOptions);
  return doc;
}

type ModuleParams = { id: string };
type UpgradeParams = { no_code_module_id: string; workspace_id: string; id: string };

/**
 * No-code provisioning (spec 4.12 to 4.16). Every handler checks who may call it (404
 * otherwise) before it reads the body (422), and the `include` parameter before either
 * has an effect. Enable and create answer 200, as the spec's status table says.
 */
export function noCodeRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { organization_name: string }; Querystring: Query }>(
    "/organizations/:organization_name/no-code-modules",
    async (request, reply) => {
      const read = once(() => ({
        withOptions: includeOptions(request.query),
        body: parseBody(noCodeModuleEnableRequestSchema, request.body),
      }));
      const m = enableNoCodeModule(ctx, requireCaller(request), request.params.organization_name, () => read().body);
      return send(reply, 200, moduleDocument(ctx, m, read().withOptions));
    },
  );

  app.get<{ Params: ModuleParams; Querystring: Query }>("/no-code-modules/:id", async (request, reply) => {
    const m = loadNoCodeModule(ctx, requireCaller(request), request.params.id);
    return send(reply, 200, moduleDocument(ctx, m, includeOptions(request.query)));
  });

  app.patch<{ Params: ModuleParams; Querystring: Query }>("/no-code-modules/:id", async (request, reply) => {
    const read = once(() => ({
      withOptions: includeOptions(request.query),
      body: parseBody(noCodeModuleUpdateRequestSchema, request.body),
    }));
    const m = updateNoCodeModule(ctx, requireCaller(request), request.params.id, () => read().body);
    return send(reply, 200, moduleDocument(ctx, m, read().withOptions));
  });

  app.delete<{ Params: ModuleParams }>("/no-code-modules/:id", async (request, reply) => {
    deleteNoCodeModule(ctx, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.post<{ Params: ModuleParams }>("/no-code-modules/:id/workspaces", async (request, reply) => {
    const created = createWorkspaceFromModule(ctx, requireCaller(request), request.params.id, () =>
      parseBody(noCodeWorkspaceCreateRequestSchema, request.body),
    );
    return send(reply, 200, { data: workspaceDocument(ctx, created) });
  });

  app.post<{ Params: { no_code_module_id: string; workspace_id: string } }>(
    "/no-code-modules/:no_code_module_id/workspaces/:workspace_id/upgrade",
    async (request, reply) => {
      const p = request.params;
      const loaded = initiateUpgrade(ctx, requireCaller(request), p.no_code_module_id, p.workspace_id, () =>
        parseBody(workspaceUpgradeRequestSchema, request.body),
      );
      return send(reply, 200, { data: renderUpgrade(ctx, p.no_code_module_id, loaded) });
    },
  );

  const readUpgrade = async (request: FastifyRequest<{ Params: UpgradeParams }>, reply: Parameters<typeof send>[0]) => {
    const p = request.params;
    const loaded = loadUpgrade(ctx, requireCaller(request), p.no_code_module_id, p.workspace_id, p.id, "can-read-run");
    return send(reply, 200, { data: renderUpgrade(ctx, p.no_code_module_id, loaded) });
  };
  app.get("/no-code-modules/:no_code_module_id/workspaces/:workspace_id/upgrade/:id", readUpgrade);

  app.post<{ Params: UpgradeParams }>(
    "/no-code-modules/:no_code_module_id/workspaces/:workspace_id/upgrade/:id",
    async (request, reply) => {
      const p = request.params;
      const loaded = confirmUpgrade(ctx, requireCaller(request), p.no_code_module_id, p.workspace_id, p.id);
      return send(reply, 200, {
        message: `Upgrade ${loaded.run.id} of workspace ${loaded.ws.name} confirmed; applying version ${loaded.upgrade.target_version}.`,
        status: loaded.run.status,
      });
    },
  );
}
