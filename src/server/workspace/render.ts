import type { ServerContext } from "../context";
import type { Permissions } from "../../api/workspaces";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";
import { flatTagNames, flatTagNamesByWorkspace } from "../tags/service";
import { variableIds, variableIdsOf, type WorkspaceRecord } from "./store";
import { workspaceAttributes } from "./attributes";

/** Per-workspace lists fetched for a whole page in two queries instead of two per workspace. */
interface RenderPrefetch {
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
function renderWorkspace(
  ctx: ServerContext,
  ws: WorkspaceRecord,
  permissions: Permissions,
  prefetched?: RenderPrefetch,
): Resource {
  const related = (path: string) => ({ related: `${API_PREFIX}/workspaces/${ws.id}/${path}` });
  const resource: Resource = {
    id: ws.id,
    type: "workspaces",
    attributes: workspaceAttributes(
      ctx,
      ws,
      permissions,
      prefetched ? (prefetched.tagNames.get(ws.id) ?? []) : flatTagNames(ctx.db, ws.id),
    ),
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

/** A workspace with the permissions its document shows: the ones the service decided the request with. */
interface Decided {
  ws: WorkspaceRecord;
  permissions: Permissions;
}

/** Renders one workspace with the permissions the service computed for the caller. */
export function workspaceDocument(ctx: ServerContext, { ws, permissions }: Decided): Resource {
  return renderWorkspace(ctx, ws, permissions);
}

/** Renders a page of workspaces, fetching their tag names and variables in bulk. */
export function workspaceDocuments(ctx: ServerContext, rows: ReadonlyArray<Decided>): Resource[] {
  const prefetched = prefetchForRender(
    ctx,
    rows.map((r) => r.ws),
  );
  return rows.map(({ ws, permissions }) => renderWorkspace(ctx, ws, permissions, prefetched));
}
