import type { Domain } from "../context";
import { API_PREFIX } from "../http/jsonapi";
import { retentionRoutes } from "./routes";
import { policyOf } from "./service";

/** Data retention policies of workspaces (spec 4.11), in self-managed mode only. */
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
  routes: retentionRoutes,
};
export * from "./service";
