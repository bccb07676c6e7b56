import Database from "better-sqlite3";
import { MIGRATIONS } from "./schema";

export type Db = Database.Database;

/** One page of a list: its number (from 1) and size. */
export interface Page {
  number: number;
  size: number;
}

/**
 * Opens the database with the settings durability depends on.
 *
 * WAL lets readers run while a writer commits. `synchronous = FULL` makes every commit
 * wait for the WAL to reach the disk: NORMAL would already survive a killed process
 * (the WAL pages are in the OS cache once `COMMIT` returns), but not a power cut or a
 * kernel crash, and an acknowledged write must survive those too. The cost, one fsync
 * per mutation, is small next to an HTTP round trip.
 */
export function openDatabase(file: string): Db {
  const db = new Database(file);
  if (file !== ":memory:") db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Tables by which a file is recognised as written before schema versions were recorded. */
const PRE_MIGRATION_TABLES = ["organizations", "workspaces", "tokens"];

/**
 * Brings the file to the newest schema this build knows, applying each migration newer
 * than the file's `user_version` in one transaction. A file at version 0 is either new
 * (no tables) or written by a release before migrations existed (its tables present);
 * both take migration 1, which creates what is missing and keeps every row. A file with
 * other tables, or a newer version than this build knows, is refused untouched.
 * `domains` bring the DDL of their own tables (`Domain.schema`).
 */
export function migrate(db: Db, domains: ReadonlyArray<{ schema?: string }> = [], migrations = MIGRATIONS): void {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > latest) {
    throw new Error(
      `database ${db.name} has schema version ${current}, newer than this build knows (${latest}); run the release that wrote it, or a newer one`,
    );
  }
  if (current === 0) {
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    if (tables.length > 0 && !PRE_MIGRATION_TABLES.every((t) => tables.includes(t))) {
      throw new Error(
        `database ${db.name} holds tables this server did not write (${tables.slice(0, 5).join(", ")}); give --db a new file or one the server wrote`,
      );
    }
  }
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  const domainSchemas = domains.flatMap((d) => (d.schema ? [d.schema] : []));
  inTransaction(db, () => {
    for (const m of pending) {
      m.up(db, domainSchemas);
      db.pragma(`user_version = ${m.version}`);
    }
  });
}

/**
 * Runs `fn` in one `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so
 * two writers (even in two processes on one file) never both read a state and then both
 * act on it. Every mutation of the service goes through here.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/** A SQLite uniqueness failure, used to turn a lost race on a unique name into a 422. */
export function isUniqueViolation(err: unknown): boolean {
  return (
    typeof err === "object" &&
    err !== null &&
    "code" in err &&
    ((err as { code: string }).code === "SQLITE_CONSTRAINT_UNIQUE" ||
      (err as { code: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY")
  );
}

/** ISO 8601 with milliseconds, the form every timestamp of the service takes. */
export function now(): string {
  return new Date().toISOString();
}

const statementCaches = new WeakMap<Db, Map<string, Database.Statement>>();
const STATEMENT_CACHE_LIMIT = 1000;

/**
 * A prepared statement for `sql`, compiled once per database. Rendering a list page runs
 * a handful of small queries per workspace; compiling them every time was most of the
 * cost of a page.
 */
export function prepare(db: Db, sql: string): Database.Statement {
  let cache = statementCaches.get(db);
  if (!cache) {
    cache = new Map();
    statementCaches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    // Queries built from filters vary (IN lists of any length): bound the cache rather than let it grow.
    if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

/** Runs `fn`; a uniqueness failure (a lost race on a unique name) is thrown as `duplicate()` instead. */
export function onDuplicate<T>(fn: () => T, duplicate: () => Error): T {
  try {
    return fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

/**
 * Runs `fn` (a write) with freed space overwritten with zeros (`secure_delete`), then
 * checkpoints the WAL into the file and truncates it: what `fn` overwrote is then in
 * neither the file nor the WAL.
 */
export function overwritingFreedSpace(db: Db, fn: () => void): void {
  const before = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    fn();
  } finally {
    db.pragma(`secure_delete = ${before}`);
  }
  if (db.name !== ":memory:") db.pragma("wal_checkpoint(TRUNCATE)");
}
