import type { Db } from "./db";
import { now, prepare } from "./db";
import { newId } from "../ids";
import { unprocessableMany } from "../http/errors";
import { problemsToErrors } from "../../api/common";

export interface KeyValue {
  key: string;
  value: string;
}

/** A key given twice in one set of bindings is a 422 on the second occurrence. */
export function checkTagBindings(bindings: ReadonlyArray<KeyValue> | undefined, pointer = "/data/relationships/tag-bindings/data"): void {
  if (!bindings) return;
  const seen = new Set<string>();
  const errors: { pointer: string; detail: string }[] = [];
  bindings.forEach((b, i) => {
    if (seen.has(b.key)) errors.push({ pointer: `${pointer}/${i}/attributes/key`, detail: `tag binding key "${b.key}" is given more than once` });
    seen.add(b.key);
  });
  if (errors.length) throw unprocessableMany(problemsToErrors(errors));
}

const OWNERS = {
  workspace: { table: "workspace_tag_bindings", column: "workspace_id" },
  project: { table: "project_tag_bindings", column: "project_id" },
} as const;

/** Replaces the whole set of key-value tags bound directly to a workspace or a project. */
export function replaceTagBindings(db: Db, owner: keyof typeof OWNERS, ownerId: string, bindings: ReadonlyArray<KeyValue>): void {
  const { table, column } = OWNERS[owner];
  prepare(db, `DELETE FROM ${table} WHERE ${column} = ?`).run(ownerId);
  const insert = prepare(db, `INSERT INTO ${table} (id, ${column}, key, value, created_at) VALUES (?, ?, ?, ?, ?)`);
  const t = now();
  for (const b of bindings) insert.run(newId("tagBinding"), ownerId, b.key, b.value, t);
}
