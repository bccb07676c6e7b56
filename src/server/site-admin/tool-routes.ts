import type { FastifyInstance } from "fastify";
import { toolVersionCreateSchema, toolVersionUpdateSchema } from "../../api/admin";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import {
  API_PREFIX,
  noContent,
  paginationEnvelope,
  parseBody,
  parsePage,
  queryText,
  send,
  type Resource,
} from "../http/jsonapi";
import type { ToolVersionRow } from "./store";
import {
  createVersion,
  listVersions,
  loadVersion,
  removeVersion,
  updateVersion,
  type Tool,
} from "./service/tool-versions";

const TOOLS: ReadonlyArray<{ tool: Tool; type: "sentinel-versions" | "opa-versions" }> = [
  { tool: "sentinel", type: "sentinel-versions" },
  { tool: "opa", type: "opa-versions" },
];

function render(row: ToolVersionRow, type: string): Resource {
  return {
    id: row.id,
    type,
    attributes: {
      version: row.version,
      url: row.url,
      sha: row.sha,
      official: row.official === 1,
      deprecated: row.deprecated === 1,
      "deprecated-reason": row.deprecated_reason,
      enabled: row.enabled === 1,
      beta: row.beta === 1,
      usage: 0,
      archs: JSON.parse(row.archs) as unknown[],
      "created-at": row.created_at,
    },
    links: { self: `${API_PREFIX}/admin/${type}/${row.id}` },
  };
}

type ById = { id: string };
type Query = Record<string, unknown>;

/** `/admin/sentinel-versions` and `/admin/opa-versions`: list (`filter[version]`, `search[version]`), read, create, update, delete. */
export function toolVersionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  for (const { tool, type } of TOOLS) {
    const base = `/admin/${type}`;

    app.get<{ Querystring: Query }>(base, async (request, reply) => {
      const q = request.query;
      const exact = q["filter[version]"] === undefined ? undefined : queryText(q["filter[version]"]);
      const like = q["search[version]"] === undefined ? undefined : queryText(q["search[version]"]);
      const page = parsePage(q);
      const { rows, total } = listVersions(db, requireCaller(request), tool, { exact, like }, page);
      return send(reply, 200, { data: rows.map((r) => render(r, type)), ...paginationEnvelope(request, page, total) });
    });

    app.get<{ Params: ById }>(`${base}/:id`, async (request, reply) =>
      send(reply, 200, { data: render(loadVersion(db, requireCaller(request), tool, request.params.id), type) }),
    );

    app.post(base, async (request, reply) => {
      const row = createVersion(
        db,
        requireCaller(request),
        tool,
        () => parseBody(toolVersionCreateSchema, request.body).data.attributes,
      );
      return send(reply, 201, { data: render(row, type) });
    });

    app.patch<{ Params: ById }>(`${base}/:id`, async (request, reply) => {
      const row = updateVersion(
        db,
        requireCaller(request),
        tool,
        request.params.id,
        () => parseBody(toolVersionUpdateSchema, request.body).data.attributes,
      );
      return send(reply, 200, { data: render(row, type) });
    });

    app.delete<{ Params: ById }>(`${base}/:id`, async (request, reply) => {
      removeVersion(db, requireCaller(request), tool, request.params.id);
      return noContent(reply);
    });
  }
}
