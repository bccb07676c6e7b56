/**
 * Every route the server registers, read from Fastify's own registration, so a route
 * added later is fuzzed without anyone editing a list.
 */
import { randomBytes } from "node:crypto";
import { buildApp } from "../../src/server/app";
import type { ServerContext } from "../../src/server/context";
import { DOMAINS } from "../../src/server/domains";
import { secretBox } from "../../src/server/secrets";
import { migrate, openDatabase } from "../../src/server/store/db";

export interface Route {
  method: string;
  /** Path pattern relative to /api/v2, with `:param` placeholders. */
  url: string;
  params: string[];
}

export async function registeredRoutes(): Promise<Route[]> {
  const db = openDatabase(":memory:");
  migrate(db, DOMAINS);
  const ctx: ServerContext = {
    db,
    secrets: secretBox(randomBytes(32)),
    options: {
      host: "127.0.0.1",
      port: 0,
      db: ":memory:",
      organization: "o",
      rateLimit: 0,
      runSpeed: 1,
      selfManaged: true,
      storeRemoteNotifications: false,
    },
    hooks: { workspaceRender: [], workspaceUnlock: [], registryModule: [] },
    publicUrl: "",
  };
  const { app } = buildApp(ctx, DOMAINS);
  const routes: Route[] = [];
  app.addHook("onRoute", (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const url = r.url.replace(/^\/api\/v2/, "");
    for (const method of methods) {
      if (method === "HEAD" || method === "OPTIONS") continue;
      routes.push({ method, url, params: [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]) });
    }
  });
  await app.ready();
  await app.close();
  db.close();
  const seen = new Set<string>();
  return routes.filter((r) => {
    const k = `${r.method} ${r.url}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The spec's endpoint index (section 4.1): fuzzed even while a route is not registered yet. */
export const SPEC_ROUTES: Route[] = [
  "POST /organizations/:organization_name/workspaces",
  "GET /organizations/:organization_name/workspaces",
  "GET /organizations/:organization_name/workspaces/:name",
  "GET /workspaces/:workspace_id",
  "PATCH /workspaces/:workspace_id",
  "PATCH /organizations/:organization_name/workspaces/:name",
  "POST /workspaces/:workspace_id/actions/safe-delete",
  "POST /organizations/:organization_name/workspaces/:name/actions/safe-delete",
  "DELETE /workspaces/:workspace_id",
  "DELETE /organizations/:organization_name/workspaces/:name",
  "POST /workspaces/:workspace_id/actions/lock",
  "POST /workspaces/:workspace_id/actions/unlock",
  "POST /workspaces/:workspace_id/actions/force-unlock",
  "PATCH /workspaces/:workspace_id/relationships/ssh-key",
  "GET /workspaces/:workspace_id/relationships/remote-state-consumers",
  "PATCH /workspaces/:workspace_id/relationships/remote-state-consumers",
  "POST /workspaces/:workspace_id/relationships/remote-state-consumers",
  "DELETE /workspaces/:workspace_id/relationships/remote-state-consumers",
  "GET /workspaces/:workspace_id/relationships/tags",
  "POST /workspaces/:workspace_id/relationships/tags",
  "DELETE /workspaces/:workspace_id/relationships/tags",
  "GET /workspaces/:workspace_id/tag-bindings",
  "GET /workspaces/:workspace_id/effective-tag-bindings",
  "GET /workspaces/:workspace_id/relationships/data-retention-policy",
  "POST /workspaces/:workspace_id/relationships/data-retention-policy",
  "DELETE /workspaces/:workspace_id/relationships/data-retention-policy",
  "POST /organizations/:organization_name/no-code-modules",
  "PATCH /no-code-modules/:id",
  "GET /no-code-modules/:id",
  "POST /no-code-modules/:id/workspaces",
  "POST /no-code-modules/:no_code_module_id/workspaces/:id/upgrade",
  "GET /no-code-modules/:no_code_module_id/workspaces/:workspace_id/upgrade/:id",
  "POST /no-code-modules/:no_code_module_id/workspaces/:workspace_id/upgrade/:id",
].map((line) => {
  const [method, url] = line.split(" ");
  return { method, url, params: [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]) };
});
