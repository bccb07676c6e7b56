import { prepare, type Db, type Page } from "../store/db";

/** Tables of the private registry: modules addressed by registry/namespace/name/provider, and their versions. */
export const REGISTRY_SCHEMA = `
CREATE TABLE IF NOT EXISTS registry_modules (
  id TEXT PRIMARY KEY,
  organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
  registry_name TEXT NOT NULL CHECK (registry_name IN ('private', 'public')),
  namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  provider TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization, registry_name, namespace, name, provider)
);

CREATE TABLE IF NOT EXISTS registry_module_versions (
  id TEXT PRIMARY KEY,
  module_id TEXT NOT NULL REFERENCES registry_modules(id) ON DELETE CASCADE,
  version TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (module_id, version)
);
`;

export interface RegistryModuleRecord {
  id: string;
  organization: string;
  registry_name: "private" | "public";
  namespace: string;
  name: string;
  provider: string;
  created_at: string;
  updated_at: string;
}

export interface RegistryModuleVersionRecord {
  id: string;
  module_id: string;
  version: string;
  created_at: string;
}

/** Where a module lives, as in the hosted service's paths. */
export interface ModuleAddress {
  organization: string;
  registryName: string;
  namespace: string;
  name: string;
  provider: string;
}

export function findRegistryModule(db: Db, id: string): RegistryModuleRecord | undefined {
  return prepare(db, `SELECT * FROM registry_modules WHERE id = ?`).get(id) as RegistryModuleRecord | undefined;
}

export function findRegistryModuleByAddress(db: Db, a: ModuleAddress): RegistryModuleRecord | undefined {
  return db
    .prepare(
      `SELECT * FROM registry_modules WHERE organization = ? AND registry_name = ? AND namespace = ? AND name = ? AND provider = ?`,
    )
    .get(a.organization, a.registryName, a.namespace, a.name, a.provider) as RegistryModuleRecord | undefined;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Semantic version order: numeric core first, then a release above any of its
 * pre-releases, pre-release identifiers compared numerically where both are numbers.
 * Strings that are not versions sort below every version, by text.
 */
function compareVersions(a: string, b: string): number {
  const ma = SEMVER.exec(a);
  const mb = SEMVER.exec(b);
  if (!ma || !mb) return ma ? 1 : mb ? -1 : a < b ? -1 : a > b ? 1 : 0;
  for (let i = 1; i <= 3; i++) {
    const d = Number(ma[i]) - Number(mb[i]);
    if (d !== 0) return Math.sign(d);
  }
  const pa = ma[4];
  const pb = mb[4];
  if (pa === undefined || pb === undefined) return pa === pb ? 0 : pa === undefined ? 1 : -1;
  const xa = pa.split(".");
  const xb = pb.split(".");
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    if (xa[i] === undefined) return -1;
    if (xb[i] === undefined) return 1;
    const na = /^\d+$/.test(xa[i]);
    const nb = /^\d+$/.test(xb[i]);
    if (na && nb) {
      const d = Number(xa[i]) - Number(xb[i]);
      if (d !== 0) return Math.sign(d);
    } else if (na !== nb) {
      return na ? -1 : 1;
    } else if (xa[i] !== xb[i]) {
      return xa[i] < xb[i] ? -1 : 1;
    }
  }
  return 0;
}

/** Versions of a module, newest first. */
export function moduleVersions(db: Db, moduleId: string): RegistryModuleVersionRecord[] {
  const rows = prepare(db, `SELECT * FROM registry_module_versions WHERE module_id = ?`).all(
    moduleId,
  ) as RegistryModuleVersionRecord[];
  return rows.sort((a, b) => compareVersions(b.version, a.version));
}

export function findModuleVersion(db: Db, moduleId: string, version: string): RegistryModuleVersionRecord | undefined {
  return prepare(db, `SELECT * FROM registry_module_versions WHERE module_id = ? AND version = ?`).get(
    moduleId,
    version,
  ) as RegistryModuleVersionRecord | undefined;
}

/** The highest version of a module (pre-releases count only when nothing else exists), or undefined when it has none. */
export function latestModuleVersion(db: Db, moduleId: string): string | undefined {
  const all = moduleVersions(db, moduleId);
  return (all.find((v) => !v.version.includes("-")) ?? all[0])?.version;
}

export function insertRegistryModule(db: Db, record: RegistryModuleRecord): void {
  prepare(
    db,
    `INSERT INTO registry_modules (id, organization, registry_name, namespace, name, provider, created_at, updated_at)
     VALUES (@id, @organization, @registry_name, @namespace, @name, @provider, @created_at, @updated_at)`,
  ).run(record);
}

export function insertModuleVersion(db: Db, record: RegistryModuleVersionRecord): void {
  prepare(
    db,
    `INSERT INTO registry_module_versions (id, module_id, version, created_at) VALUES (@id, @module_id, @version, @created_at)`,
  ).run(record);
}

export function touchRegistryModule(db: Db, id: string, at: string): void {
  prepare(db, `UPDATE registry_modules SET updated_at = ? WHERE id = ?`).run(at, id);
}

/** Modules of one name in a namespace: every provider, or the one given. */
export function modulesNamed(
  db: Db,
  address: Omit<ModuleAddress, "provider"> & { provider?: string },
): RegistryModuleRecord[] {
  return prepare(
    db,
    `SELECT * FROM registry_modules WHERE organization = ? AND registry_name = ? AND namespace = ? AND name = ? AND (? IS NULL OR provider = ?)`,
  ).all(
    address.organization,
    address.registryName,
    address.namespace,
    address.name,
    address.provider ?? null,
    address.provider ?? null,
  ) as RegistryModuleRecord[];
}

export function deleteRegistryModule(db: Db, id: string): void {
  prepare(db, `DELETE FROM registry_modules WHERE id = ?`).run(id);
}

export function deleteModuleVersion(db: Db, id: string): void {
  prepare(db, `DELETE FROM registry_module_versions WHERE id = ?`).run(id);
}

/** Filters of a module list: `q` a substring of name, namespace or provider; exact registry name and provider. */
export interface ModuleListFilter {
  q?: string;
  registryName?: string;
  provider?: string;
}

export function registryModulesPage(
  db: Db,
  organization: string,
  filter: ModuleListFilter,
  page: Page,
): { rows: RegistryModuleRecord[]; total: number } {
  const where = ["organization = ?"];
  const params: unknown[] = [organization];
  if (filter.q) {
    where.push(
      `(instr(lower(name), lower(?)) > 0 OR instr(lower(namespace), lower(?)) > 0 OR instr(lower(provider), lower(?)) > 0)`,
    );
    params.push(filter.q, filter.q, filter.q);
  }
  for (const [value, column] of [
    [filter.registryName, "registry_name"],
    [filter.provider, "provider"],
  ] as const) {
    if (value) {
      where.push(`${column} = ?`);
      params.push(value);
    }
  }
  const sql = where.join(" AND ");
  const total = (prepare(db, `SELECT COUNT(*) AS n FROM registry_modules WHERE ${sql}`).get(...params) as { n: number })
    .n;
  const rows = prepare(
    db,
    `SELECT * FROM registry_modules WHERE ${sql} ORDER BY name, provider, id LIMIT ? OFFSET ?`,
  ).all(...params, page.size, (page.number - 1) * page.size) as RegistryModuleRecord[];
  return { rows, total };
}
