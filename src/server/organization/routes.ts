import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { organizationCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { assertMember, assertOwner, orgRole } from "../auth/service/authz";
import { noContent, paginationEnvelope, parseBody, parsePage, send } from "../http/jsonapi";
import { renderOrganization } from "./render";
import {
  assertOrganizationFounder,
  createOrganization,
  deleteOrganization,
  getOrganization,
  organizationNamesOf,
  updateOrganization,
  type OrganizationDefaults,
} from "./service";

const organizationUpdateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("organizations"),
        attributes: z
          .object({ email: z.string().nullable().optional(), "allow-force-delete-workspaces": z.boolean().optional() })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();

type OrgParams = { organization_name: string };

const defaultsSchema = z
  .object({
    data: z
      .object({
        attributes: z
          .object({ "default-execution-mode": z.enum(["remote", "local", "agent"]).optional() })
          .loose()
          .optional(),
        relationships: z
          .object({
            "default-agent-pool": z
              .object({ data: z.object({ id: z.string() }).loose().nullable() })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();

/** `default-execution-mode` and the `default-agent-pool` relationship of a create or update body. */
function defaultsOf(body: unknown): OrganizationDefaults | undefined {
  const d = parseBody(defaultsSchema, body).data;
  const mode = d.attributes?.["default-execution-mode"];
  const pool = d.relationships?.["default-agent-pool"];
  if (mode === undefined && pool === undefined) return undefined;
  return { executionMode: mode, agentPoolId: pool === undefined ? undefined : (pool.data?.id ?? null) };
}

export function organizationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post("/organizations", async (request, reply) => {
    const caller = requireCaller(request);
    // Organization and team tokens belong to one organization and cannot found another;
    // users can, and so can the local server's bootstrap token.
    assertOrganizationFounder(caller);
    const body = parseBody(organizationCreateRequestSchema, request.body);
    const a = body.data.attributes;
    const { organization } = createOrganization(
      db,
      {
        name: a.name,
        email: a.email,
        allowForceDeleteWorkspaces: a["allow-force-delete-workspaces"],
        defaults: defaultsOf(request.body),
      },
      caller.userId,
    );
    caller.roles.delete(organization.name);
    return send(reply, 201, { data: renderOrganization(organization, orgRole(db, caller, organization.name)) });
  });

  // The organizations the caller belongs to (all of them for the local server's administrator).
  app.get<{ Querystring: Record<string, unknown> }>("/organizations", async (request, reply) => {
    const caller = requireCaller(request);
    const page = parsePage(request.query);
    const names = organizationNamesOf(db, caller);
    const slice = names.slice((page.number - 1) * page.size, page.number * page.size);
    return send(reply, 200, {
      data: slice.map((name) => renderOrganization(getOrganization(db, name), orgRole(db, caller, name))),
      ...paginationEnvelope(request, page, names.length),
    });
  });

  app.get<{ Params: OrgParams }>("/organizations/:organization_name", async (request, reply) => {
    const caller = requireCaller(request);
    const role = assertMember(db, caller, request.params.organization_name);
    return send(reply, 200, { data: renderOrganization(getOrganization(db, request.params.organization_name), role) });
  });

  app.patch<{ Params: OrgParams }>("/organizations/:organization_name", async (request, reply) => {
    const caller = requireCaller(request);
    const role = assertOwner(db, caller, request.params.organization_name);
    const body = parseBody(organizationUpdateRequestSchema, request.body);
    const a = body.data.attributes ?? {};
    const org = updateOrganization(db, request.params.organization_name, {
      email: a.email,
      allowForceDeleteWorkspaces: a["allow-force-delete-workspaces"],
      defaults: defaultsOf(request.body),
    });
    return send(reply, 200, { data: renderOrganization(org, role) });
  });

  app.delete<{ Params: OrgParams }>("/organizations/:organization_name", async (request, reply) => {
    const caller = requireCaller(request);
    assertOwner(db, caller, request.params.organization_name);
    deleteOrganization(db, request.params.organization_name);
    return noContent(reply);
  });
}
