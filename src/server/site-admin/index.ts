import type { Domain } from "../context";
import { subscriptionRoutes } from "./routes";
import { toolVersionRoutes } from "./tool-routes";

/**
 * A local server's site administration in the hosted service's admin shapes: plans and
 * organization subscriptions, and policy tool versions; recorded, enforced nowhere
 * (tables in migration 6).
 */
export const siteAdminDomain: Domain = {
  name: "site-admin",
  routes(app, ctx) {
    subscriptionRoutes(app, ctx);
    toolVersionRoutes(app, ctx);
  },
};
