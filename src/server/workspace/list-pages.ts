/**
 * Pages of the workspace list (spec 4.4): the ordered ids of every match, remembered
 * until anything is written, and the page's rows.
 */
import type { ServerContext } from "../context";
import type { Caller, OrgRole } from "../auth/service/caller";
import { assertMember, readableWorkspacesFilter, workspacePermissions } from "../auth/service/authz";
import type { Permissions } from "../../api/workspaces";
import type { Page } from "../store/db";
import { flatTagClauses, taggedWorkspacesClause } from "../tags/service";
import * as store from "./store";
import type { WorkspaceRecord } from "./store";
import type { WorkspaceListFilter } from "./list-filter";

interface CachedMatches {
  writes: number;
  dataVersion: number;
  ids: string[];
}
const matchCaches = new WeakMap<object, Map<string, CachedMatches>>();
const MATCH_CACHE_ENTRIES = 32;

/**
 * The ordered ids of every match of a list query. Paging through a list repeats the same
 * search on every page (and a deep page would re-test every row before it), so the
 * ordered ids are remembered until anything is written, by this connection or by another
 * process on the same file: totals and pages stay exact, and each further page is a
 * slice. Ids only, sorted over the covering index; the page's rows are loaded afterwards.
 */
function matchingIds(ctx: ServerContext, query: { sql: string; params: unknown[] }): string[] {
  const marks = store.writeMarks(ctx.db);
  let cache = matchCaches.get(ctx.db);
  if (!cache) matchCaches.set(ctx.db, (cache = new Map<string, CachedMatches>()));
  const key = JSON.stringify([query.sql, query.params]);
  const hit = cache.get(key);
  if (hit && hit.writes === marks.writes && hit.dataVersion === marks.dataVersion) {
    // Most recently used last, so the oldest entry is the one evicted.
    cache.delete(key);
    cache.set(key, hit);
    return hit.ids;
  }
  const ids = store.runWorkspaceListQuery(ctx.db, query);
  if (cache.size >= MATCH_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { ...marks, ids });
  return ids;
}

/** A listed workspace with the caller's permissions on it, which its document shows. */
interface ListedWorkspace {
  ws: WorkspaceRecord;
  permissions: Permissions;
}

/** The rows with the caller's permissions; each row passed the readable-workspaces filter, so it has some. */
function withPermissions(ctx: ServerContext, caller: Caller, rows: WorkspaceRecord[]): ListedWorkspace[] {
  return rows.map((ws) => {
    const permissions = workspacePermissions(ctx.db, caller, ws);
    if (!permissions) throw new Error("a listed workspace the caller cannot read");
    return { ws, permissions };
  });
}

/**
 * One page of the workspaces of an organization the caller may read, filtered and
 * ordered; the total counts every match. Members only (404 otherwise); `read` parses the
 * query (page, filter, and whatever else the route wants parsed in that order) once the
 * caller may list.
 */
export function listWorkspaces<Q extends { filter: WorkspaceListFilter; page: Page }>(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  read: () => Q,
): { rows: ListedWorkspace[]; total: number; query: Q; role: OrgRole } {
  const role = assertMember(ctx.db, caller, organization);
  const query = read();
  const { filter, page } = query;
  const visible = readableWorkspacesFilter(ctx.db, caller, organization);
  const listQuery = store.workspaceListQuery(
    organization,
    visible,
    filter,
    flatTagClauses(organization, filter.tags, filter.excludeTags),
    filter.tagged.map((t) => taggedWorkspacesClause(t.key, t.value)),
  );
  const all = matchingIds(ctx, listQuery);
  const start = (page.number - 1) * page.size;
  const rows = store.workspacesByIds(ctx.db, all.slice(start, start + page.size));
  return { rows: withPermissions(ctx, caller, rows), total: all.length, query, role };
}

/** A page of the workspaces (alias `w`) of the organization matching `scope` that the caller may read, in name order. */
export function listWorkspacesWhere(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  scope: store.Clause,
  page: Page,
): { rows: ListedWorkspace[]; total: number } {
  const { rows, total } = store.workspacesPage(
    ctx.db,
    [scope, readableWorkspacesFilter(ctx.db, caller, organization)],
    page,
  );
  return { rows: withPermissions(ctx, caller, rows), total };
}
