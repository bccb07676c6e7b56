import type { FastifyInstance } from "fastify";
import { registryModuleCreateRequestSchema, registryModuleVersionCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import { assertMember } from "../auth/service";
import type { ServerContext } from "../context";
import { prepare } from "../store/db";
import { badRequest, notFound } from "../http/errors";
import { noContent, paginationEnvelope, parseBody, parseInclude, parsePage, send } from "../http/jsonapi";
import { renderNoCodeModule } from "../nocode/render";
import { noCodeModuleOfRegistryModule } from "../nocode/store";
import {
  assertModuleManager,
  createModuleVersion,
  deleteRegistryModules,
  createRegistryModule,
  loadRegistryModule,
  loadRegistryModuleByAddress,
  renderModuleVersion,
  renderRegistryModule,
} from "./service";
import { findModuleVersion, type ModuleAddress, type RegistryModuleRecord } from "./store";

type OrgParams = { organization_name: string };
type AddressParams = OrgParams & { registry_name: string; namespace: string; name: string; provider: string };

function addressOf(p: AddressParams): ModuleAddress {
  if (p.registry_name !== "private" && p.registry_name !== "public") throw notFound("registry module not found");
  return { organization: p.organization_name, registryName: p.registry_name, namespace: p.namespace, name: p.name, provider: p.provider };
}

/**
 * Private registry modules in the hosted service's paths, including the ones go-tfe
 * uses: reads by address or by id, version creation under the short
 * `/registry-modules/:org/:name/:provider/versions` path as well as under the full
 * address, a version read through `.../version?module_version=`, and the deletes of a
 * module name, a provider or a version.
 */
export function registryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post<{ Params: OrgParams }>("/organizations/:organization_name/registry-modules", async (request, reply) => {
    const caller = requireCaller(request);
    const org = request.params.organization_name;
    const role = assertMember(db, caller, org);
    assertModuleManager(db, caller, org);
    const body = parseBody(registryModuleCreateRequestSchema, request.body);
    const a = body.data.attributes;
    const m = createRegistryModule(ctx, caller, org, { name: a.name, provider: a.provider, registryName: a["registry-name"], namespace: a.namespace });
    return send(reply, 201, { data: renderRegistryModule(ctx, m, role) });
  });

  app.get<{ Params: OrgParams; Querystring: Record<string, unknown> }>("/organizations/:organization_name/registry-modules", async (request, reply) => {
    const caller = requireCaller(request);
    const org = request.params.organization_name;
    const role = assertMember(db, caller, org);
    const include = parseInclude(request.query, ["no-code-modules"]);
    const page = parsePage(request.query);
    const where = ["organization = ?"];
    const params: unknown[] = [org];
    const q = request.query["q"];
    if (typeof q === "string" && q !== "") {
      where.push(`(instr(lower(name), lower(?)) > 0 OR instr(lower(namespace), lower(?)) > 0 OR instr(lower(provider), lower(?)) > 0)`);
      params.push(q, q, q);
    }
    for (const [param, column] of [
      ["filter[registry_name]", "registry_name"],
      ["filter[provider]", "provider"],
    ] as const) {
      const v = request.query[param];
      if (typeof v === "string" && v !== "") {
        where.push(`${column} = ?`);
        params.push(v);
      }
    }
    const sql = where.join(" AND ");
    const total = (prepare(db, `SELECT COUNT(*) AS n FROM registry_modules WHERE ${sql}`).get(...params) as { n: number }).n;
    const rows = db
      .prepare(`SELECT * FROM registry_modules WHERE ${sql} ORDER BY name, provider, id LIMIT ? OFFSET ?`)
      .all(...params, page.size, (page.number - 1) * page.size) as RegistryModuleRecord[];
    const doc: Record<string, unknown> = { data: rows.map((m) => renderRegistryModule(ctx, m, role)) };
    // go-tfe lists with `include=no-code-modules` to find a module's no-code settings.
    if (include.size) {
      doc.included = rows.flatMap((m) => {
        const nc = noCodeModuleOfRegistryModule(db, m.id);
        return nc ? [renderNoCodeModule(db, nc)] : [];
      });
    }
    return send(reply, 200, { ...doc, ...paginationEnvelope(request, page, total) });
  });

  app.get<{ Params: AddressParams }>(
    "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name/:provider",
    async (request, reply) => {
      const caller = requireCaller(request);
      const m = loadRegistryModuleByAddress(ctx, caller, addressOf(request.params));
      return send(reply, 200, { data: renderRegistryModule(ctx, m, assertMember(db, caller, m.organization)) });
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
  const legacyDelete = async (request: { params: LegacyDelete } & Parameters<typeof requireCaller>[0], reply: Parameters<typeof noContent>[0]) => {
    const p = request.params;
    const address = { organization: p.organization_name, registryName: "private", namespace: p.organization_name, name: p.name, provider: p.provider };
    deleteRegistryModules(ctx, requireCaller(request), address, p.version);
    return noContent(reply);
  };
  app.post<{ Params: LegacyDelete }>("/registry-modules/actions/delete/:organization_name/:name", legacyDelete);
  app.post<{ Params: LegacyDelete }>("/registry-modules/actions/delete/:organization_name/:name/:provider", legacyDelete);
  app.post<{ Params: LegacyDelete }>("/registry-modules/actions/delete/:organization_name/:name/:provider/:version", legacyDelete);

  app.get<{ Params: { id: string } }>("/registry-modules/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const m = loadRegistryModule(ctx, caller, request.params.id);
    return send(reply, 200, { data: renderRegistryModule(ctx, m, assertMember(db, caller, m.organization)) });
  });

  const createVersion = async (caller: ReturnType<typeof requireCaller>, address: ModuleAddress, rawBody: unknown) => {
    const m = loadRegistryModuleByAddress(ctx, caller, address);
    assertModuleManager(db, caller, address.organization);
    const body = parseBody(registryModuleVersionCreateRequestSchema, rawBody);
    const v = createModuleVersion(ctx, caller, address, body.data.attributes.version);
    return renderModuleVersion(m, v);
  };

  app.post<{ Params: OrgParams & { name: string; provider: string } }>("/registry-modules/:organization_name/:name/:provider/versions", async (request, reply) => {
    const p = request.params;
    const address = { organization: p.organization_name, registryName: "private", namespace: p.organization_name, name: p.name, provider: p.provider };
    return send(reply, 201, { data: await createVersion(requireCaller(request), address, request.body) });
  });

  app.post<{ Params: AddressParams }>(
    "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name/:provider/versions",
    async (request, reply) => send(reply, 201, { data: await createVersion(requireCaller(request), addressOf(request.params), request.body) }),
  );

  app.get<{ Params: AddressParams; Querystring: Record<string, unknown> }>(
    "/organizations/:organization_name/registry-modules/:registry_name/:namespace/:name/:provider/version",
    async (request, reply) => {
      const caller = requireCaller(request);
      const m = loadRegistryModuleByAddress(ctx, caller, addressOf(request.params));
      const wanted = request.query["module_version"];
      if (typeof wanted !== "string" || wanted === "") throw badRequest("module_version is required", "module_version");
      const v = findModuleVersion(db, m.id, wanted);
      if (!v) throw notFound(`version ${wanted} of this module not found`);
      return send(reply, 200, { data: renderModuleVersion(m, v) });
    },
  );
}
