import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import type { Permissions } from "../../api/workspaces";
import { permissionsFor } from "./service";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { flatTagNames, flatTagNamesByWorkspace } from "../tags/service";
import { oauthInfo, settingsOf, variableIds, variableIdsOf, type WorkspaceRecord } from "./store";

/** Per-workspace lists fetched for a whole page in two queries instead of two per workspace. */
export interface RenderPrefetch {
  tagNames: Map<string, string[]>;
  variableIds: Map<string, string[]>;
}

function groupBy(rows: { workspace_id: string; v: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.workspace_id);
    if (list) list.push(r.v);
    else out.set(r.workspace_id, [r.v]);
  }
  return out;
}

function prefetchForRender(ctx: ServerContext, workspaces: WorkspaceRecord[]): RenderPrefetch {
  if (!workspaces.length) return { tagNames: new Map(), variableIds: new Map() };
  const ids = workspaces.map((w) => w.id);
  return { tagNames: flatTagNamesByWorkspace(ctx.db, ids), variableIds: groupBy(variableIdsOf(ctx.db, ids)) };
}

function workspacePath(ws: { organization: string; name: string }): string {
  return `${API_PREFIX}/organizations/${encodeURIComponent(ws.organization)}/workspaces/${encodeURIComponent(ws.name)}`;
}

/**
 * The workspace document of spec 2.2 for one caller. Everything in it derives from the
 * stored record and the caller's permissions, so the create response, a later read and
 * a list entry are identical; domains add their own fields through
 * `ctx.hooks.workspaceRender`.
 */
export function renderWorkspace(
  ctx: ServerContext,
  ws: WorkspaceRecord,
  permissions: Permissions,
  prefetched?: RenderPrefetch,
): Resource {
  const s = settingsOf(ws);
  const repo = s["vcs-repo"];
  const oauth = repo?.["oauth-token-id"] ? oauthInfo(ctx.db, repo["oauth-token-id"]) : undefined;
  const related = (path: string) => ({ related: `${API_PREFIX}/workspaces/${ws.id}/${path}` });
  const resource: Resource = {
    id: ws.id,
    type: "workspaces",
    attributes: {
      name: ws.name,
      actions: { "is-destroyable": permissions["can-destroy"] },
      "allow-destroy-plan": s["allow-destroy-plan"],
      "apply-duration-average": null,
      "assessments-enabled": s["assessments-enabled"],
      "auto-apply": s["auto-apply"],
      "auto-apply-run-trigger": s["auto-apply-run-trigger"],
      "auto-destroy-at": s["auto-destroy-at"],
      "auto-destroy-status": null,
      "auto-destroy-activity-duration": s["auto-destroy-activity-duration"],
      "inherits-project-auto-destroy": false,
      "created-at": ws.created_at,
      "updated-at": ws.updated_at,
      "latest-change-at": ws.latest_change_at,
      "last-assessment-result-at": null,
      description: s.description,
      environment: s.environment,
      "execution-mode": s["execution-mode"],
      operations: s["execution-mode"] !== "local",
      "file-triggers-enabled": s["file-triggers-enabled"],
      "global-remote-state": s["global-remote-state"],
      locked: ws.locked === 1,
      "locked-reason": ws.locked === 1 ? (ws.locked_reason ?? "") : null,
      "oauth-client-name": oauth?.name ?? null,
      permissions,
      "plan-duration-average": null,
      "policy-check-failures": null,
      "queue-all-runs": s["queue-all-runs"],
      "resource-count": ws.resource_count,
      "run-failures": null,
      source: ws.source,
      "source-name": s["source-name"],
      "source-url": s["source-url"],
      "speculative-enabled": s["speculative-enabled"],
      "structured-run-output-enabled": s["structured-run-output-enabled"],
      "tag-names": prefetched ? (prefetched.tagNames.get(ws.id) ?? []) : flatTagNames(ctx.db, ws.id),
      "engine-version": s["engine-version"],
      // The vendor spelling, for clients such as go-tfe that read only that name.
      "terraform-version": s["engine-version"],
      "trigger-prefixes": s["trigger-prefixes"],
      "trigger-patterns": s["trigger-patterns"],
      "vcs-repo": repo
        ? {
            branch: repo.branch,
            "display-identifier": repo.identifier,
            identifier: repo.identifier,
            "ingress-submodules": repo["ingress-submodules"],
            "oauth-token-id": repo["oauth-token-id"],
            ...(repo["vcs-app-installation-id"] ? { "vcs-app-installation-id": repo["vcs-app-installation-id"] } : {}),
            "repository-http-url": `${(oauth?.http_url ?? "https://github.com").replace(/\/+$/, "")}/${repo.identifier}`,
            "service-provider": oauth?.service_provider ?? "github",
            "tags-regex": repo["tags-regex"],
            "webhook-url": `${ctx.publicUrl}/webhooks/vcs/${repo["webhook-id"]}`,
          }
        : null,
      "vcs-repo-identifier": repo ? repo.identifier : null,
      "working-directory": s["working-directory"],
      "workspace-kpis-runs-count": null,
      "setting-overwrites": s["setting-overwrites"],
    },
    relationships: {
      organization: ref("organizations", ws.organization),
      project: { ...ref("projects", ws.project_id), links: { related: `${API_PREFIX}/projects/${ws.project_id}` } },
      "agent-pool": ref("agent-pools", ws.agent_pool_id),
      "current-configuration-version": { data: null },
      "current-run": ws.current_run_id
        ? { ...ref("runs", ws.current_run_id), links: { related: `${API_PREFIX}/runs/${ws.current_run_id}` } }
        : { data: null },
      "latest-run": ws.current_run_id
        ? { ...ref("runs", ws.current_run_id), links: { related: `${API_PREFIX}/runs/${ws.current_run_id}` } }
        : { data: null },
      "current-state-version": ws.current_state_version_id
        ? { ...ref("state-versions", ws.current_state_version_id), links: related("current-state-version") }
        : { data: null },
      "current-assessment-result": { data: null },
      "effective-tag-bindings": { links: related("effective-tag-bindings") },
      "tag-bindings": { links: related("tag-bindings") },
      // Filled from the current state version by the state-version domain.
      outputs: { data: [] },
      readme: { data: null },
      "remote-state-consumers": { links: related("relationships/remote-state-consumers") },
      "ssh-key": ref("ssh-keys", ws.ssh_key_id),
      "locked-by":
        ws.locked === 1 && ws.locked_by
          ? { ...ref("users", ws.locked_by), links: { related: `${API_PREFIX}/users/${ws.locked_by}` } }
          : { data: null },
      vars: {
        data: (prefetched ? (prefetched.variableIds.get(ws.id) ?? []) : variableIds(ctx.db, ws.id)).map((id) => ({
          id,
          type: "vars",
        })),
      },
    },
    links: {
      self: workspacePath(ws),
      "self-html": `/app/${encodeURIComponent(ws.organization)}/workspaces/${encodeURIComponent(ws.name)}`,
    },
  };
  for (const hook of ctx.hooks.workspaceRender) hook(ctx, ws, resource);
  return resource;
}

/** Renders one workspace for the caller (permissions are recomputed after a change). */
export function workspaceDocumentFor(
  ctx: ServerContext,
  caller: Caller,
  ws: WorkspaceRecord,
  prefetched?: RenderPrefetch,
): Resource {
  const permissions = permissionsFor(ctx, caller, ws);
  if (!permissions) throw new Error("workspace document requested for a caller that cannot read it");
  return renderWorkspace(ctx, ws, permissions, prefetched);
}

/** Renders a page of workspaces, fetching their tag names and variables in bulk. */
export function workspaceDocumentsFor(ctx: ServerContext, caller: Caller, rows: WorkspaceRecord[]): Resource[] {
  const prefetched = prefetchForRender(ctx, rows);
  return rows.map((ws) => workspaceDocumentFor(ctx, caller, ws, prefetched));
}
