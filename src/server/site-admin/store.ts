import type { Db, Page } from "../store/db";
import { prepare } from "../store/db";

export interface SubscriptionRow {
  organization: string;
  id: string;
  feature_set_id: string;
  /** JSON object of the limit attributes given. */
  limits: string;
  created_at: string;
  updated_at: string;
}

export function findSubscription(db: Db, organization: string): SubscriptionRow | undefined {
  return prepare(db, `SELECT * FROM subscriptions WHERE organization = ?`).get(organization) as
    SubscriptionRow | undefined;
}

/** Records the organization's subscription, or replaces the plan and limits of the one it has (keeping its id). */
export function upsertSubscription(db: Db, row: SubscriptionRow): void {
  prepare(
    db,
    `INSERT INTO subscriptions (organization, id, feature_set_id, limits, created_at, updated_at)
     VALUES (@organization, @id, @feature_set_id, @limits, @created_at, @updated_at)
     ON CONFLICT (organization) DO UPDATE SET feature_set_id = excluded.feature_set_id, limits = excluded.limits,
       updated_at = excluded.updated_at`,
  ).run(row);
}

export interface ToolVersionRow {
  id: string;
  tool: "sentinel" | "opa";
  version: string;
  url: string | null;
  sha: string | null;
  official: number;
  deprecated: number;
  deprecated_reason: string | null;
  enabled: number;
  beta: number;
  /** JSON array of `{ url, sha, os, arch }`. */
  archs: string;
  created_at: string;
}

export function findToolVersion(db: Db, tool: ToolVersionRow["tool"], id: string): ToolVersionRow | undefined {
  return prepare(db, `SELECT * FROM tool_versions WHERE tool = ? AND id = ?`).get(tool, id) as
    ToolVersionRow | undefined;
}

/** A tool's versions, oldest first: `exact` is `filter[version]`, `like` is `search[version]` (a substring). */
export function listToolVersions(
  db: Db,
  tool: ToolVersionRow["tool"],
  where: { exact?: string; like?: string },
  page: Page,
): { rows: ToolVersionRow[]; total: number } {
  const cond = `tool = @tool AND (@exact IS NULL OR version = @exact) AND (@like IS NULL OR instr(version, @like) > 0)`;
  const params = { tool, exact: where.exact ?? null, like: where.like ?? null };
  const total = (prepare(db, `SELECT count(*) AS n FROM tool_versions WHERE ${cond}`).get(params) as { n: number }).n;
  const rows = prepare(
    db,
    `SELECT * FROM tool_versions WHERE ${cond} ORDER BY created_at, id LIMIT @limit OFFSET @offset`,
  ).all({ ...params, limit: page.size, offset: (page.number - 1) * page.size }) as ToolVersionRow[];
  return { rows, total };
}

export function saveToolVersion(db: Db, row: ToolVersionRow): void {
  prepare(
    db,
    `INSERT INTO tool_versions (id, tool, version, url, sha, official, deprecated, deprecated_reason, enabled, beta, archs, created_at)
     VALUES (@id, @tool, @version, @url, @sha, @official, @deprecated, @deprecated_reason, @enabled, @beta, @archs, @created_at)
     ON CONFLICT (id) DO UPDATE SET version = excluded.version, url = excluded.url, sha = excluded.sha,
       official = excluded.official, deprecated = excluded.deprecated, deprecated_reason = excluded.deprecated_reason,
       enabled = excluded.enabled, beta = excluded.beta, archs = excluded.archs`,
  ).run(row);
}

export function deleteToolVersion(db: Db, id: string): void {
  prepare(db, `DELETE FROM tool_versions WHERE id = ?`).run(id);
}
