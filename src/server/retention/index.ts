import { z } from "zod";
import type { Domain } from "../context";
import { requireCaller } from "../app";
import { inTransaction, now, prepare, type Db } from "../store/db";
import { newId } from "../ids";
import { notFound } from "../http/errors";
import { API_PREFIX, noContent, parseBody, send, type Resource } from "../http/jsonapi";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";

/**
 * Data retention policies (spec 4.11), served only in self-managed mode; the hosted
 * offering has no such endpoints, so otherwise they answer 404 like any unknown path.
 * Bodies follow the self-managed product: a policy is either "delete older than N days"
 * or "don't delete".
 */
const DELETE_OLDER = "data-retention-policy-delete-olders";
const DONT_DELETE = "data-retention-policy-dont-deletes";

const policyRequestSchema = z
  .object({
    data: z.discriminatedUnion("type", [
      z.object({ type: z.literal(DELETE_OLDER), attributes: z.object({ "delete-older-than-n-days": z.number().int().min(1) }).loose() }).loose(),
      z.object({ type: z.literal(DONT_DELETE), attributes: z.object({}).loose().optional() }).loose(),
    ]),
  })
  .loose();

interface PolicyRecord {
  id: string;
  kind: string;
  delete_older_than_n_days: number | null;
}

function render(p: PolicyRecord): Resource {
  return {
    id: p.id,
    type: p.kind,
    attributes: p.kind === DELETE_OLDER ? { "delete-older-than-n-days": p.delete_older_than_n_days } : {},
    links: { self: `${API_PREFIX}/data-retention-policies/${p.id}` },
  };
}

/** The policy that applies to a workspace: its own, else the organization's default, else none. */
function policyOf(db: Db, ws: { id: string; organization: string }): PolicyRecord | null {
  const own = prepare(db, `SELECT id, kind, delete_older_than_n_days FROM data_retention_policies WHERE workspace_id = ?`).get(ws.id) as PolicyRecord | undefined;
  if (own) return own;
  const org = prepare(db, `SELECT data_retention_days FROM organizations WHERE name = ?`).get(ws.organization) as { data_retention_days: number | null } | undefined;
  return org?.data_retention_days == null ? null : { id: `drp-org-${ws.organization}`, kind: DELETE_OLDER, delete_older_than_n_days: org.data_retention_days };
}

const PATH = "/workspaces/:workspace_id/relationships/data-retention-policy";
type ById = { workspace_id: string };

export const retentionDomain: Domain = {
  name: "data-retention",
  init(ctx) {
    if (!ctx.options.selfManaged) return;
    // The workspace names its policy (spec 2.2 lists the data retention policy among its related records).
    ctx.hooks.workspaceRender.push((ctx, ws, resource) => {
      const p = policyOf(ctx.db, ws);
      resource.relationships ??= {};
      resource.relationships["data-retention-policy"] = {
        data: p ? { id: p.id, type: p.kind } : null,
        links: { related: `${API_PREFIX}/workspaces/${ws.id}/relationships/data-retention-policy` },
      };
    });
  },
  routes(app, ctx) {
    const { db } = ctx;
    const guard = () => {
      if (!ctx.options.selfManaged) throw notFound("Data retention policies are only available in the self-managed offering.");
    };

    app.get<{ Params: ById }>(PATH, async (request, reply) => {
      guard();
      const { ws } = loadWorkspace(ctx, requireCaller(request), { id: request.params.workspace_id });
      const p = policyOf(db, ws);
      return send(reply, 200, { data: p ? render(p) : null });
    });

    app.post<{ Params: ById }>(PATH, async (request, reply) => {
      guard();
      const caller = requireCaller(request);
      const { ws } = loadWorkspaceWith(ctx, caller, { id: request.params.workspace_id }, "can-update");
      const data = parseBody(policyRequestSchema, request.body).data;
      const days = data.type === DELETE_OLDER ? data.attributes["delete-older-than-n-days"] : null;
      const policy = inTransaction(db, () => {
        const existing = prepare(db, `SELECT id FROM data_retention_policies WHERE workspace_id = ?`).get(ws.id) as { id: string } | undefined;
        const id = existing?.id ?? newId("dataRetentionPolicy");
        prepare(db, 
          `INSERT INTO data_retention_policies (workspace_id, id, kind, delete_older_than_n_days, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id) DO UPDATE SET kind = excluded.kind, delete_older_than_n_days = excluded.delete_older_than_n_days`,
        ).run(ws.id, id, data.type, days, now());
        return { id, kind: data.type, delete_older_than_n_days: days };
      });
      return send(reply, 201, { data: render(policy) });
    });

    app.delete<{ Params: ById }>(PATH, async (request, reply) => {
      guard();
      const { ws } = loadWorkspaceWith(ctx, requireCaller(request), { id: request.params.workspace_id }, "can-update");
      inTransaction(db, () => prepare(db, `DELETE FROM data_retention_policies WHERE workspace_id = ?`).run(ws.id));
      return noContent(reply);
    });
  },
};
