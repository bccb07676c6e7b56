import type { FastifyInstance } from "fastify";
import { registryModuleCreateRequestSchema, registryModuleVersionCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { Invalid, NotFound } from "../domain-errors";
import { noContent, paginationEnvelope, parseBody, parseInclude, parsePage, send } from "../http/jsonapi";
import { renderModuleVersion, renderRegistryModule } from "./render";
import {
  createModuleVersion,
  deleteRegistryModules,
  createRegistryModule,
  listRegistryModules,
  loadModuleVersion,
  loadRegistryModule,
  loadRegistryModuleByAddress,
  type ModuleAddress,
} from "./service";

type OrgParams = { organization_name: string };
type AddressParams = OrgParams & { registry_name: string; namespace: string; name: string; provider: string };

function addressOf(p: AddressParams): ModuleAddress {
  if (p.registry_name !== "private" && p.registry_name !== "public") throw new NotFound("registry module not found");
  return {
    organization: p.organization_name,
    registryName: p.registry_name,
    namespace: p.namespace,
    name: p.name,
    provider: p.provider,
  };
}

/** The private registry's address of a module named in a path of the organization's own namespace. */
function privateAddress<P extends OrgParams & { name: string; provider?: string }>(p: P) {
  return {
    organization: p.organization_name,
    registryName: "private",
    namespace: p.organization_name,
    name: p.name,
    provider: p.provider as P["provider"],
  };
}

/**
 * Private registry modules in the hosted service's paths, including the ones go-tfe
 * uses: reads by address or by id, version creation under the short
 * `/registry-modules/:org/:name/:provider/versions` path as well as under the full
 * address, a version read through `.../version?module_version=`, and the deletes of a
 * module name, a provider or a version.
 */
export function registryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: OrgParams }>("/organizations/:organization_name/registry-modules", async (request, reply) => {
    const { module, role } = createRegistryModule(ctx, requireCaller(request), request.params.organization_name, () => {
      const a = parseBody(registryModuleCreateRequestSchema, request.body).data.attributes;
      return { name: a.name, provider: a.provider, registryName: a["registry-name"], namespace: a.namespace };
    });
    return send(reply, 201, { data: renderRegistryModule(ctx, module, role) });
  });

  app.get<{ Params: OrgParams; Querystring: Record<string, unknown> }>(
    "/organizations/:organization_name/registry-modules",
    async (request, reply) => {
      const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
      const { rows, total, query, role } = listRegistryModules(
        ctx,
        requireCaller(request),
        request.params.organization_name,
        () => {
          const include = parseInclude(request.query, ["no-code-modules"]);
          const page = parsePage(request.query);
          const filter = {
            q: text(request.query["q"]),
            registryName: text(request.query["filter[registry_name]"]),
            provider: text(request.query["filter[provider]"]),
          };
          return { include, filter, page };
        },
      );
      const doc: Record<string, unknown> = { data: rows.map((m) => renderRegistryModule(ctx, m, role)) };
      // go-tfe lists with `include=no-code-modules` to find a module's no-code settings,
      // which the no-code domain adds (ctx.hooks.registryModule).
      if (query.include.size)
        doc.included = rows.flatMap((m) =>
          ctx.hooks.registryModule.flatMap((hook) => hook.included?.(ctx, m.id) ?? []),
        );
      return send(reply, 200, { ...doc, ...paginationEnvelope(request, query.page, total) });
    },
  );

  app.get<{ Params: AddressParams }>(
    "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name/:provider",
    async (request, reply) => {
      const { module, role } = loadRegistryModuleByAddress(ctx, requireCaller(request), addressOf(request.params));
      return send(reply, 200, { data: renderRegistryModule(ctx, module, role) });
    },
  );

  const base = "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name";
  app.delete<{ Params: Omit<AddressParams, "provider"> }>(base, async (request, reply) => {
    const { provider: _none, ...address } = addressOf({ ...request.params, provider: "" });
    deleteRegistryModules(ctx, requireCaller(request), address);
    return noContent(reply);
  });
  app.delete<{ Params: AddressParams }>(`${base}/:provider`, async (request, reply) => {
    deleteRegistryModules(ctx, requireCaller(request), addressOf(request.params));
    return noContent(reply);
  });
  app.delete<{ Params: AddressParams & { version: string } }>(`${base}/:provider/:version`, async (request, reply) => {
    deleteRegistryModules(ctx, requireCaller(request), addressOf(request.params), request.params.version);
    return noContent(reply);
  });

  // The older delete form, still used by go-tfe: private registry, namespace = organization.
  type LegacyDelete = OrgParams & { name: string; provider?: string; version?: string };
  const legacyDelete = async (
    request: { params: LegacyDelete } & Parameters<typeof requireCaller>[0],
    reply: Parameters<typeof noContent>[0],
  ) => {
    const p = request.params;
    deleteRegistryModules(ctx, requireCaller(request), privateAddress(p), p.version);
    return noContent(reply);
  };
  app.post<{ Params: LegacyDelete }>("/registry-modules/actions/delete/:organization_name/:name", legacyDelete);
  app.post<{ Params: LegacyDelete }>(
    "/registry-modules/actions/delete/:organization_name/:name/:provider",
    legacyDelete,
  );
  app.post<{ Params: LegacyDelete }>(
    "/registry-modules/actions/delete/:organization_name/:name/:provider/:version",
    legacyDelete,
  );

  app.get<{ Params: { id: string } }>("/registry-modules/:id", async (request, reply) => {
    const { module, role } = loadRegistryModule(ctx, requireCaller(request), request.params.id);
    return send(reply, 200, { data: renderRegistryModule(ctx, module, role) });
  });

  const createVersion = async (caller: ReturnType<typeof requireCaller>, address: ModuleAddress, rawBody: unknown) => {
    const { module, version } = createModuleVersion(
      ctx,
      caller,
      address,
      () => parseBody(registryModuleVersionCreateRequestSchema, rawBody).data.attributes.version,
    );
    return renderModuleVersion(module, version);
  };

  app.post<{ Params: OrgParams & { name: string; provider: string } }>(
    "/registry-modules/:organization_name/:name/:provider/versions",
    async (request, reply) => {
      return send(reply, 201, {
        data: await createVersion(requireCaller(request), privateAddress(request.params), request.body),
      });
    },
  );

  app.post<{ Params: AddressParams }>(
    "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name/:provider/versions",
    async (request, reply) =>
      send(reply, 201, { data: await createVersion(requireCaller(request), addressOf(request.params), request.body) }),
  );

  app.get<{ Params: AddressParams; Querystring: Record<string, unknown> }>(
    "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name/:provider/version",
    async (request, reply) => {
      const { module: m } = loadRegistryModuleByAddress(ctx, requireCaller(request), addressOf(request.params));
      const wanted = request.query["module_version"];
      if (typeof wanted !== "string" || wanted === "")
        throw new Invalid("module_version is required", { parameter: "module_version" });
      return send(reply, 200, { data: renderModuleVersion(m, loadModuleVersion(ctx, m, wanted)) });
    },
  );
}
