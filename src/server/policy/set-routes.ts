import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  POLICY_SET_INCLUDES,
  POLICY_SET_LISTS,
  policySetCreateRequestSchema,
  policySetPoliciesBodySchema,
  policySetProjectsBodySchema,
  policySetTagSelectorsBodySchema,
  policySetUpdateRequestSchema,
  policySetWorkspacesBodySchema,
  type PolicySetList,
} from "../../api/policy-sets";
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
  send,
} from "../http/jsonapi";
import { rawBody, withRawBodies } from "../http/raw-body";
import { policySetIncluded } from "./set-included";
import { renderPolicySet, renderPolicySetVersion } from "./set-render";
import {
  changePolicySetList,
  changeTagSelectors,
  createPolicySet,
  deletePolicySet,
  listPolicySets,
  readPolicySet,
  updatePolicySet,
  type PolicySetView,
} from "./service/sets";
import {
  createPolicySetVersion,
  readPolicySetVersion,
  uploadPolicySetVersion,
  type PolicySetVersionView,
} from "./service/versions";

type Query = { Querystring: Record<string, unknown> };
type Change = "add" | "remove";

const BODIES = {
  policies: policySetPoliciesBodySchema,
  workspaces: policySetWorkspacesBodySchema,
  "workspace-exclusions": policySetWorkspacesBodySchema,
  projects: policySetProjectsBodySchema,
  "project-exclusions": policySetProjectsBodySchema,
} as const satisfies Record<PolicySetList, unknown>;

export function policySetRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  const includes = (request: FastifyRequest<Query>) => parseInclude(request.query, POLICY_SET_INCLUDES);
  const document = (caller: Caller, view: PolicySetView, include: Set<string>) => ({
    data: renderPolicySet(view),
    ...policySetIncluded(ctx, caller, [view], include),
  });

  app.post<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/policy-sets",
    async (request, reply) => {
      const caller = requireCaller(request);
      let include = new Set<string>();
      const view = createPolicySet(db, caller, request.params.organization_name, () => {
        include = includes(request);
        return parseBody(policySetCreateRequestSchema, request.body).data;
      });
      return send(reply, 201, document(caller, view, include));
    },
  );

  app.get<Query & { Params: { organization_name: string } }>(
    "/organizations/:organization_name/policy-sets",
    async (request, reply) => {
      const caller = requireCaller(request);
      let include = new Set<string>();
      const text = (key: string) => (request.query[key] === undefined ? undefined : queryText(request.query[key]));
      const { rows, total, page } = listPolicySets(db, caller, request.params.organization_name, () => {
        include = includes(request);
        return { page: parsePage(request.query), filter: { search: text("search[name]"), kind: text("filter[kind]") } };
      });
      return send(reply, 200, {
        data: rows.map(renderPolicySet),
        ...policySetIncluded(ctx, caller, rows, include),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  app.get<Query & { Params: { id: string } }>("/policy-sets/:id", async (request, reply) => {
    const caller = requireCaller(request);
    const view = readPolicySet(db, caller, request.params.id);
    return send(reply, 200, document(caller, view, includes(request)));
  });

  app.patch<Query & { Params: { id: string } }>("/policy-sets/:id", async (request, reply) => {
    const caller = requireCaller(request);
    let include = new Set<string>();
    const view = updatePolicySet(db, caller, request.params.id, () => {
      include = includes(request);
      return parseBody(policySetUpdateRequestSchema, request.body).data.attributes ?? {};
    });
    return send(reply, 200, document(caller, view, include));
  });

  app.delete<{ Params: { id: string } }>("/policy-sets/:id", async (request, reply) => {
    deletePolicySet(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  /** `POST` adds to a list of the set, `DELETE` takes off it: `change` applies the body to the set. */
  const addAndRemove = (
    url: string,
    change: (request: FastifyRequest<{ Params: { id: string } }>, how: Change) => void,
  ) => {
    for (const [method, how] of [
      ["POST", "add"],
      ["DELETE", "remove"],
    ] as const)
      app.route<{ Params: { id: string } }>({
        method,
        url,
        handler: async (request, reply) => {
          change(request, how);
          return noContent(reply);
        },
      });
  };
  for (const list of POLICY_SET_LISTS)
    addAndRemove(`/policy-sets/:id/relationships/${list}`, (request, how) =>
      changePolicySetList(db, requireCaller(request), request.params.id, list, how, () =>
        parseBody(BODIES[list], request.body).data.map((d) => d.id),
      ),
    );
  addAndRemove("/policy-sets/:id/tag-selectors", (request, how) =>
    changeTagSelectors(
      db,
      requireCaller(request),
      request.params.id,
      how,
      () => parseBody(policySetTagSelectorsBodySchema, request.body).data,
    ),
  );

  const versionDocument = (request: FastifyRequest, { version: v, uploadSecret }: PolicySetVersionView) => {
    const link = uploadSecret
      ? `${request.publicUrl}${API_PREFIX}/policy-set-versions/${v.id}/upload?key=${encodeURIComponent(uploadSecret)}`
      : undefined;
    return { data: renderPolicySetVersion(v, link) };
  };

  app.post<{ Params: { id: string } }>("/policy-sets/:id/versions", async (request, reply) => {
    const v = createPolicySetVersion(ctx, requireCaller(request), request.params.id);
    return send(reply, 201, versionDocument(request, v));
  });

  app.get<{ Params: { id: string } }>("/policy-set-versions/:id", async (request, reply) => {
    return send(
      reply,
      200,
      versionDocument(request, readPolicySetVersion(ctx, requireCaller(request), request.params.id)),
    );
  });

  withRawBodies(app, (scoped) => {
    // The upload link is the credential (the upload sends no token, as to the service's archive store).
    scoped.put<Query & { Params: { id: string } }>(
      "/policy-set-versions/:id/upload",
      { config: { anonymous: true } },
      async (request, reply) => {
        const key = request.query.key === undefined ? "" : queryText(request.query.key);
        uploadPolicySetVersion(ctx, request.params.id, key, rawBody(request));
        return noContent(reply);
      },
    );
  });
}
