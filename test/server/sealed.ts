/**
 * What a server on a database file holds for the variables of one workspace or set, each
 * sensitive value opened with the key beside the file: the read-back that proves a value
 * written as a secret reached the server intact (the API never answers it).
 */
import Database from "better-sqlite3";
import { loadKey, secretBox } from "../../src/server/secrets";
import { VARSET_VARS_VALUE_PURPOSE, VARS_VALUE_PURPOSE } from "../../src/server/variable/store";

export interface StoredVariable {
  id: string;
  key: string;
  sensitive: boolean;
  /** The value as the program sent it: opened when sealed. */
  value: string;
  /** The column's bytes as stored (sealed for a sensitive value). */
  stored: string;
}

/** The stored variables of workspace `ownerId` (`vars`) or set `ownerId` (`varset_vars`), by key. */
export function storedVariables(
  dbFile: string,
  ownerId: string,
  table: "vars" | "varset_vars" = "vars",
): StoredVariable[] {
  const owner = table === "vars" ? "workspace_id" : "varset_id";
  const purpose = table === "vars" ? VARS_VALUE_PURPOSE : VARSET_VARS_VALUE_PURPOSE;
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`SELECT id, key, value, sensitive FROM ${table} WHERE ${owner} = ? ORDER BY key, category`)
      .all(ownerId) as { id: string; key: string; value: string; sensitive: number }[];
    const box = secretBox(loadKey({ db: dbFile }));
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      sensitive: r.sensitive === 1,
      value: r.sensitive ? box.open(r.value, purpose) : r.value,
      stored: r.value,
    }));
  } finally {
    db.close();
  }
}
