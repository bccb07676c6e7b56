import type { FastifyInstance } from "fastify";
import {
  organizationCreateRequestSchema,
  organizationDefaultsRequestSchema,
  organizationUpdateRequestSchema,
} from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { noContent, paginationEnvelope, parseBody, parsePage, send } from "../http/jsonapi";
import { renderOrganization } from "./render";
import {
  deleteOrganization,
  foundOrganization,
  listOrganizations,
  showOrganization,
  updateOrganization,
  type OrganizationDefaults,
} from "./service";

type OrgParams = { organization_name: string };

/** `default-execution-mode` and the `default-agent-pool` relationship of a create or update body. */
function defaultsOf(body: unknown): OrganizationDefaults | undefined {
  const d = parseBody(organizationDefaultsRequestSchema, body).data;
  const mode = d.attributes?.["default-execution-mode"];
  const pool = d.relationships?.["default-agent-pool"];
  if (mode === undefined && pool === undefined) return undefined;
  return { executionMode: mode, agentPoolId: pool === undefined ? undefined : (pool.data?.id ?? null) };
}

export function organizationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post("/organizations", async (request, reply) => {
    // Organization and team tokens belong to one organization and cannot found another;
    // users can, and so can the local server's bootstrap token.
    const { organization, role } = foundOrganization(db, requireCaller(request), () => {
      const a = parseBody(organizationCreateRequestSchema, request.body).data.attributes;
      return {
        name: a.name,
        email: a.email,
        allowForceDeleteWorkspaces: a["allow-force-delete-workspaces"],
        defaults: defaultsOf(request.body),
      };
    });
    return send(reply, 201, { data: renderOrganization(organization, role) });
  });

  // The organizations the caller belongs to (all of them for the local server's administrator).
  app.get<{ Querystring: Record<string, unknown> }>("/organizations", async (request, reply) => {
    const caller = requireCaller(request);
    const page = parsePage(request.query);
    const { rows, total } = listOrganizations(db, caller, page);
    return send(reply, 200, {
      data: rows.map((o) => renderOrganization(o.organization, o.role)),
      ...paginationEnvelope(request, page, total),
    });
  });

  app.get<{ Params: OrgParams }>("/organizations/:organization_name", async (request, reply) => {
    const { organization, role } = showOrganization(db, requireCaller(request), request.params.organization_name);
    return send(reply, 200, { data: renderOrganization(organization, role) });
  });

  app.patch<{ Params: OrgParams }>("/organizations/:organization_name", async (request, reply) => {
    const { organization, role } = updateOrganization(
      db,
      requireCaller(request),
      request.params.organization_name,
      () => {
        const a = parseBody(organizationUpdateRequestSchema, request.body).data.attributes ?? {};
        return {
          email: a.email,
          allowForceDeleteWorkspaces: a["allow-force-delete-workspaces"],
          defaults: defaultsOf(request.body),
        };
      },
    );
    return send(reply, 200, { data: renderOrganization(organization, role) });
  });

  app.delete<{ Params: OrgParams }>("/organizations/:organization_name", async (request, reply) => {
    deleteOrganization(db, requireCaller(request), request.params.organization_name);
    return noContent(reply);
  });
}
