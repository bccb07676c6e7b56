import type { PolicySetList } from "../../../api/policy-sets";
import type { Db } from "../../store/db";
import { prepare } from "../../store/db";
import { filteredRows, type NameKindFilter } from "./policies";

/** A policy set of an organization; JSON columns hold the update patterns and the tag selectors. */
export interface PolicySetRecord {
  id: string;
  organization: string;
  name: string;
  description: string | null;
  kind: string;
  overridable: number | null;
  global: number;
  policies_path: string | null;
  agent_enabled: number;
  policy_tool_version: string | null;
  policy_update_patterns: string | null;
  tag_selectors: string;
  tag_selector_matching_logic: string | null;
  created_at: string;
  updated_at: string;
}

/** The five lists of a set, ids in the order they were added. */
export type PolicySetLists = Record<PolicySetList, string[]>;

/** Where each list lives: its table, its member column, and the list's name in the table when it shares one. */
const LIST_TABLES: Readonly<Record<PolicySetList, { table: string; column: string; list?: string }>> = {
  policies: { table: "policy_set_policies", column: "policy_id" },
  workspaces: { table: "policy_set_workspaces", column: "workspace_id", list: "workspaces" },
  "workspace-exclusions": { table: "policy_set_workspaces", column: "workspace_id", list: "workspace-exclusions" },
  projects: { table: "policy_set_projects", column: "project_id", list: "projects" },
  "project-exclusions": { table: "policy_set_projects", column: "project_id", list: "project-exclusions" },
};

export function insertPolicySet(db: Db, s: PolicySetRecord): void {
  prepare(
    db,
    `INSERT INTO policy_sets (id, organization, name, description, kind, overridable, global, policies_path, agent_enabled,
       policy_tool_version, policy_update_patterns, tag_selectors, tag_selector_matching_logic, created_at, updated_at)
     VALUES (@id, @organization, @name, @description, @kind, @overridable, @global, @policies_path, @agent_enabled,
       @policy_tool_version, @policy_update_patterns, @tag_selectors, @tag_selector_matching_logic, @created_at, @updated_at)`,
  ).run(s);
}

export function findPolicySet(db: Db, id: string): PolicySetRecord | undefined {
  return prepare(db, `SELECT * FROM policy_sets WHERE id = ?`).get(id) as PolicySetRecord | undefined;
}

/** Writes every attribute of the set `s.id` but its organization, kind and creation time. */
export function updatePolicySetRow(db: Db, s: PolicySetRecord): void {
  prepare(
    db,
    `UPDATE policy_sets SET name = @name, description = @description, overridable = @overridable, global = @global,
       policies_path = @policies_path, agent_enabled = @agent_enabled, policy_tool_version = @policy_tool_version,
       policy_update_patterns = @policy_update_patterns, tag_selectors = @tag_selectors,
       tag_selector_matching_logic = @tag_selector_matching_logic, updated_at = @updated_at
     WHERE id = @id`,
  ).run(s);
}

export function deletePolicySetRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM policy_sets WHERE id = ?`).run(id);
}

/** The organization's policy sets a filter keeps. */
export const filteredPolicySets = (db: Db, organization: string, f: NameKindFilter) =>
  filteredRows<PolicySetRecord>(db, "policy_sets", "p.*", organization, f);

const emptyLists = (): PolicySetLists => ({
  policies: [],
  workspaces: [],
  "workspace-exclusions": [],
  projects: [],
  "project-exclusions": [],
});

/** The lists of each of `ids`, read in three queries for a whole page. */
export function policySetLists(db: Db, ids: readonly string[]): Map<string, PolicySetLists> {
  const out = new Map<string, PolicySetLists>(ids.map((id) => [id, emptyLists()]));
  if (!ids.length) return out;
  const marks = ids.map(() => "?").join(",");
  const rows = [
    ...(prepare(
      db,
      `SELECT policy_set_id, 'policies' AS list, policy_id AS target FROM policy_set_policies WHERE policy_set_id IN (${marks}) ORDER BY position`,
    ).all(...ids) as { policy_set_id: string; list: PolicySetList; target: string }[]),
    ...(prepare(
      db,
      `SELECT policy_set_id, list, workspace_id AS target FROM policy_set_workspaces WHERE policy_set_id IN (${marks}) ORDER BY position`,
    ).all(...ids) as { policy_set_id: string; list: PolicySetList; target: string }[]),
    ...(prepare(
      db,
      `SELECT policy_set_id, list, project_id AS target FROM policy_set_projects WHERE policy_set_id IN (${marks}) ORDER BY position`,
    ).all(...ids) as { policy_set_id: string; list: PolicySetList; target: string }[]),
  ];
  for (const r of rows) out.get(r.policy_set_id)![r.list].push(r.target);
  return out;
}

/** Adds `ids` to a list of the set, after what it holds; an id already there stays where it is. */
export function addToList(db: Db, id: string, list: PolicySetList, ids: readonly string[]): void {
  const { table, column, list: name } = LIST_TABLES[list];
  const where = name ? `policy_set_id = ? AND list = ?` : `policy_set_id = ?`;
  const key = name ? [id, name] : [id];
  const last = prepare(db, `SELECT COALESCE(MAX(position), -1) AS p FROM ${table} WHERE ${where}`).get(...key) as {
    p: number;
  };
  const insert = prepare(
    db,
    name
      ? `INSERT OR IGNORE INTO ${table} (policy_set_id, list, ${column}, position) VALUES (?, ?, ?, ?)`
      : `INSERT OR IGNORE INTO ${table} (policy_set_id, ${column}, position) VALUES (?, ?, ?)`,
  );
  ids.forEach((target, i) => insert.run(...key, target, last.p + 1 + i));
}

/** Takes `ids` off a list of the set; an id it does not hold is no error. */
export function removeFromList(db: Db, id: string, list: PolicySetList, ids: readonly string[]): void {
  const { table, column, list: name } = LIST_TABLES[list];
  const remove = prepare(
    db,
    `DELETE FROM ${table} WHERE policy_set_id = ?${name ? " AND list = ?" : ""} AND ${column} = ?`,
  );
  for (const target of ids) remove.run(...(name ? [id, name] : [id]), target);
}

/** A version of a set: its tarball is read once, on upload, for the status and the count of policies. */
export interface PolicySetVersionRecord {
  id: string;
  policy_set_id: string;
  source: string;
  status: string;
  error_message: string | null;
  /** Sealed (../secrets.ts). */
  upload_secret: string;
  policy_count: number;
  pending_at: string | null;
  ready_at: string | null;
  errored_at: string | null;
  created_at: string;
  updated_at: string;
}

export function insertVersion(db: Db, v: PolicySetVersionRecord): void {
  prepare(
    db,
    `INSERT INTO policy_set_versions (id, policy_set_id, source, status, error_message, upload_secret, policy_count,
       pending_at, ready_at, errored_at, created_at, updated_at)
     VALUES (@id, @policy_set_id, @source, @status, @error_message, @upload_secret, @policy_count,
       @pending_at, @ready_at, @errored_at, @created_at, @updated_at)`,
  ).run(v);
}

export function findVersion(db: Db, id: string): PolicySetVersionRecord | undefined {
  return prepare(db, `SELECT * FROM policy_set_versions WHERE id = ?`).get(id) as PolicySetVersionRecord | undefined;
}

/** Settles a pending version: `ready` with its count of policies, or `errored` with the reason. */
export function settleVersion(
  db: Db,
  id: string,
  outcome: { status: "ready"; policyCount: number } | { status: "errored"; message: string },
  at: string,
): void {
  if (outcome.status === "ready")
    prepare(
      db,
      `UPDATE policy_set_versions SET status = 'ready', policy_count = ?, ready_at = ?, updated_at = ? WHERE id = ?`,
    ).run(outcome.policyCount, at, at, id);
  else
    prepare(
      db,
      `UPDATE policy_set_versions SET status = 'errored', error_message = ?, errored_at = ?, updated_at = ? WHERE id = ?`,
    ).run(outcome.message, at, at, id);
}

/** The newest version of each of `ids`, and its newest ready one (the current version). */
export function versionsOf(
  db: Db,
  ids: readonly string[],
): Map<string, { newest?: PolicySetVersionRecord; current?: PolicySetVersionRecord }> {
  const out = new Map<string, { newest?: PolicySetVersionRecord; current?: PolicySetVersionRecord }>(
    ids.map((id) => [id, {}]),
  );
  if (!ids.length) return out;
  const rows = prepare(
    db,
    `SELECT * FROM policy_set_versions WHERE policy_set_id IN (${ids.map(() => "?").join(",")}) ORDER BY created_at DESC, rowid DESC`,
  ).all(...ids) as PolicySetVersionRecord[];
  for (const v of rows) {
    const entry = out.get(v.policy_set_id)!;
    entry.newest ??= v;
    if (v.status === "ready") entry.current ??= v;
  }
  return out;
}
