import type { Db } from "../../store/db";
import { prepare } from "../../store/db";

/** A policy of an organization, without its code (see `policyCode`): `has_code` is 1 once code was uploaded. */
export interface PolicyRecord {
  id: string;
  organization: string;
  name: string;
  kind: string;
  query: string | null;
  description: string | null;
  enforcement_level: string;
  enforce_path: string;
  has_code: number;
  created_at: string;
  updated_at: string;
}

/** The columns a list or a read needs: everything but the code. */
const COLUMNS = `p.id, p.organization, p.name, p.kind, p.query, p.description, p.enforcement_level, p.enforce_path,
  p.code IS NOT NULL AS has_code, p.created_at, p.updated_at`;

export function insertPolicy(db: Db, p: Omit<PolicyRecord, "has_code">): void {
  prepare(
    db,
    `INSERT INTO policies (id, organization, name, kind, query, description, enforcement_level, enforce_path, created_at, updated_at)
     VALUES (@id, @organization, @name, @kind, @query, @description, @enforcement_level, @enforce_path, @created_at, @updated_at)`,
  ).run(p);
}

/** A policy without its code. */
export function findPolicy(db: Db, id: string): PolicyRecord | undefined {
  return prepare(db, `SELECT ${COLUMNS} FROM policies p WHERE p.id = ?`).get(id) as PolicyRecord | undefined;
}

/** The uploaded code of a policy: undefined when there is no such policy, null when nothing was uploaded. */
export function policyCode(db: Db, id: string): Buffer | null | undefined {
  const row = prepare(db, `SELECT code FROM policies WHERE id = ?`).get(id) as { code: Buffer | null } | undefined;
  return row?.code;
}

export function setPolicyCode(db: Db, id: string, code: Buffer, updatedAt: string): void {
  prepare(db, `UPDATE policies SET code = ?, updated_at = ? WHERE id = ?`).run(code, updatedAt, id);
}

export function updatePolicyRow(
  db: Db,
  p: Pick<PolicyRecord, "id" | "query" | "description" | "enforcement_level" | "enforce_path" | "updated_at">,
): void {
  prepare(
    db,
    `UPDATE policies SET query = @query, description = @description, enforcement_level = @enforcement_level,
       enforce_path = @enforce_path, updated_at = @updated_at WHERE id = @id`,
  ).run(p);
}

export function deletePolicyRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM policies WHERE id = ?`).run(id);
}

/** What a list of policies or policy sets may be narrowed by: a name fragment (`search[name]`) and a kind (`filter[kind]`). */
export interface NameKindFilter {
  search?: string;
  kind?: string;
}

/** The organization's rows of `table` (`policies` or `policy_sets`) a filter keeps, a page of them (oldest first, as go-tfe's list tests expect) and their count. */
export function filteredRows<R>(
  db: Db,
  table: "policies" | "policy_sets",
  columns: string,
  organization: string,
  f: NameKindFilter,
): { count(): number; page(limit: number, offset: number): R[] } {
  const parts = ["p.organization = ?"];
  const params: unknown[] = [organization];
  if (f.search) {
    parts.push(`instr(lower(p.name), lower(?)) > 0`);
    params.push(f.search);
  }
  if (f.kind) {
    parts.push(`p.kind = ?`);
    params.push(f.kind);
  }
  const where = parts.join(" AND ");
  return {
    count: () => (prepare(db, `SELECT COUNT(*) AS n FROM ${table} p WHERE ${where}`).get(...params) as { n: number }).n,
    page: (limit, offset) =>
      prepare(
        db,
        `SELECT ${columns} FROM ${table} p WHERE ${where} ORDER BY p.created_at, p.rowid LIMIT ? OFFSET ?`,
      ).all(...params, limit, offset) as R[],
  };
}

/** The organization's policies a filter keeps. */
export const filteredPolicies = (db: Db, organization: string, f: NameKindFilter) =>
  filteredRows<PolicyRecord>(db, "policies", COLUMNS, organization, f);

/** How many policy sets hold each of `ids`. */
export function policySetCounts(db: Db, ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>(ids.map((id) => [id, 0]));
  if (!ids.length) return out;
  const rows = prepare(
    db,
    `SELECT policy_id, COUNT(*) AS n FROM policy_set_policies WHERE policy_id IN (${ids.map(() => "?").join(",")}) GROUP BY policy_id`,
  ).all(...ids) as { policy_id: string; n: number }[];
  for (const r of rows) out.set(r.policy_id, r.n);
  return out;
}
