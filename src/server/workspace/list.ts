import type { ServerContext } from "../context";
import type { Caller } from "../auth/service";
import { readableWorkspacesFilter } from "../auth/service";
import { badRequest } from "../http/errors";
import { MAX_LIST_VALUES, commaList, type Page } from "../http/jsonapi";
import type { WorkspaceRecord } from "./store";
import { prepare } from "../store/db";

/** Escapes LIKE wildcards so user text matches literally (escape character `\`). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface Clause {
  sql: string;
  params: unknown[];
}

/**
 * `search[wildcard-name]`: `*` matches any run of characters, everything else literally.
 * SQLite's LIKE reads its pattern only up to a NUL, so a pattern holding one would match
 * as if cut there; each such literal piece is also required by `instr`, which compares
 * every byte, so a control character stays a literal character.
 */
function wildcardClause(wildcard: string): Clause {
  const pieces = wildcard.split("*");
  const clause: Clause = { sql: `w.name LIKE ? ESCAPE '\\'`, params: [pieces.map((p) => likeLiteral(p).replace(/\0/g, "_")).join("%")] };
  for (const piece of pieces.filter((p) => p.includes("\0"))) {
    clause.sql += ` AND instr(lower(w.name), lower(?)) > 0`;
    clause.params.push(piece);
  }
  return clause;
}

/**
 * Key-value filter on effective bindings: the workspace's own, else the project's for
 * keys it does not set. Correlated EXISTS probes use the (workspace_id, key) and
 * (project_id, key) unique indexes; measured faster than IN lists, which materialize
 * every matching id before the first row is returned.
 */
function taggedClause(key: string, value: string | undefined): Clause {
  const direct = value === undefined ? `b.key = ?` : `b.key = ? AND b.value = ?`;
  const inherited = value === undefined ? `p.key = ?` : `p.key = ? AND p.value = ?`;
  const kv = value === undefined ? [key] : [key, value];
  return {
    sql: `(EXISTS (SELECT 1 FROM workspace_tag_bindings b WHERE b.workspace_id = w.id AND ${direct})
           OR (EXISTS (SELECT 1 FROM project_tag_bindings p WHERE p.project_id = w.project_id AND ${inherited})
               AND NOT EXISTS (SELECT 1 FROM workspace_tag_bindings b WHERE b.workspace_id = w.id AND b.key = ?)))`,
    params: [...kv, ...kv, key],
  };
}

/**
 * `filter[tagged][i][key]` and `[value]` (spec 4.4), in index order; every filter needs
 * a key. An empty value is no value filter: clients such as go-tfe always send the
 * parameter. Project lists take the same filter.
 */
export function taggedFilters(query: Record<string, unknown>): { key: string; value?: string }[] {
  const tagged = new Map<number, { key?: string; value?: string }>();
  for (const [k, v] of Object.entries(query)) {
    const m = /^filter\[tagged\]\[(\d+)\]\[(key|value)\]$/.exec(k);
    if (!m || typeof v !== "string") continue;
    const entry = tagged.get(Number(m[1])) ?? {};
    entry[m[2] as "key" | "value"] = v;
    tagged.set(Number(m[1]), entry);
  }
  if (tagged.size > MAX_LIST_VALUES) throw badRequest(`filter[tagged] accepts at most ${MAX_LIST_VALUES} entries; ${tagged.size} were given`, "filter[tagged]");
  return [...tagged.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([i, f]) => {
      if (f.key === undefined || f.key === "") throw badRequest(`filter[tagged][${i}][key] is required with filter[tagged][${i}][value]`, `filter[tagged][${i}][key]`);
      return { key: f.key, value: f.value === "" ? undefined : f.value };
    });
}

interface CachedMatches {
  writes: number;
  dataVersion: number;
  ids: string[];
}
const matchCaches = new WeakMap<object, Map<string, CachedMatches>>();
const MATCH_CACHE_ENTRIES = 32;

/**
 * The ordered ids of every match of a filter. Paging through a list repeats the same
 * search on every page (and a deep page would re-test every row before it), so the
 * ordered ids are remembered until anything is written, by this connection
 * (`total_changes()`) or by another process on the same file (`data_version`): totals
 * and pages stay exact, and each further page is a slice. Ids only, sorted over the
 * covering index; the page's rows are loaded afterwards.
 */
function matchingIds(ctx: ServerContext, sql: string, params: unknown[]): string[] {
  const state = prepare(ctx.db, `SELECT total_changes() AS writes`).get() as { writes: number };
  const dataVersion = ctx.db.pragma("data_version", { simple: true }) as number;
  let cache = matchCaches.get(ctx.db);
  if (!cache) matchCaches.set(ctx.db, (cache = new Map()));
  const key = JSON.stringify([sql, params]);
  const hit = cache.get(key);
  if (hit && hit.writes === state.writes && hit.dataVersion === dataVersion) {
    // Most recently used last, so the oldest entry is the one evicted.
    cache.delete(key);
    cache.set(key, hit);
    return hit.ids;
  }
  const ids = (prepare(ctx.db, sql).pluck().all(...params) as string[]);
  if (cache.size >= MATCH_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { writes: state.writes, dataVersion, ids });
  return ids;
}

const SORTS: Record<string, string> = {
  name: "w.name COLLATE NOCASE",
  "latest-change-at": "w.latest_change_at",
  "current-run.created-at": "r.created_at",
};

/** Builds and runs the list query of spec 4.4 for one page; totals count every match. */
export function listWorkspaces(ctx: ServerContext, caller: Caller, organization: string, query: Record<string, unknown>, page: Page): { rows: WorkspaceRecord[]; total: number } {
  const where: Clause[] = [{ sql: "w.organization = ?", params: [organization] }];
  const visible = readableWorkspacesFilter(ctx.db, caller, organization);
  where.push(visible);

  const name = query["search[name]"];
  // A substring, compared byte for byte (case-insensitive for ASCII, as LIKE was); `instr`
  // takes control characters literally where LIKE would stop at a NUL.
  if (typeof name === "string" && name !== "") where.push({ sql: `instr(lower(w.name), lower(?)) > 0`, params: [name] });

  const wildcard = query["search[wildcard-name]"];
  if (typeof wildcard === "string" && wildcard !== "") where.push(wildcardClause(wildcard));

  for (const tag of commaList(query["search[tags]"], "search[tags]")) {
    where.push({
      sql: `EXISTS (SELECT 1 FROM workspace_tags wt WHERE wt.workspace_id = w.id AND wt.tag_id = (SELECT id FROM tags WHERE organization = ? AND name = ?))`,
      params: [organization, tag.toLowerCase()],
    });
  }
  const excluded = commaList(query["search[exclude-tags]"], "search[exclude-tags]").map((t) => t.toLowerCase());
  if (excluded.length) {
    where.push({
      sql: `NOT EXISTS (SELECT 1 FROM workspace_tags wt WHERE wt.workspace_id = w.id AND wt.tag_id IN (SELECT id FROM tags WHERE organization = ? AND name IN (${excluded.map(() => "?").join(",")})))`,
      params: [organization, ...excluded],
    });
  }

  const project = query["filter[project][id]"];
  if (typeof project === "string" && project !== "") where.push({ sql: "w.project_id = ?", params: [project] });

  const statuses = commaList(query["filter[current-run][status]"], "filter[current-run][status]");
  if (statuses.length) {
    where.push({ sql: `w.current_run_id IN (SELECT id FROM runs WHERE status IN (${statuses.map(() => "?").join(",")}))`, params: statuses });
  }

  for (const f of taggedFilters(query)) where.push(taggedClause(f.key, f.value));

  let order = "w.name COLLATE NOCASE ASC, w.id ASC";
  let join = "";
  const sort = query["sort"];
  if (typeof sort === "string" && sort !== "") {
    const desc = sort.startsWith("-");
    const key = desc ? sort.slice(1) : sort;
    const column = SORTS[key];
    if (!column) throw badRequest(`Invalid sort parameter: ${sort}`, "sort");
    if (key === "current-run.created-at") join = "LEFT JOIN runs r ON r.id = w.current_run_id";
    const dir = desc ? "DESC" : "ASC";
    order = `${column} ${dir}, w.name COLLATE NOCASE ${dir}, w.id ${dir}`;
  }

  const whereSql = where.map((c) => c.sql).join(" AND ");
  const params = where.flatMap((c) => c.params);
  const all = matchingIds(ctx, `SELECT w.id FROM workspaces w ${join} WHERE ${whereSql} ORDER BY ${order}`, params);
  const start = (page.number - 1) * page.size;
  const one = prepare(ctx.db, `SELECT * FROM workspaces WHERE id = ?`);
  const rows = all.slice(start, start + page.size).map((id) => one.get(id) as WorkspaceRecord);
  const total = all.length;
  return { rows, total };
}
