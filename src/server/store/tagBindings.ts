import { z } from "zod";
import type { Db } from "./db";
import { now, prepare } from "./db";
import { newId } from "../ids";
import { unprocessableMany } from "../http/errors";
import { problemsToErrors } from "../../api/common";
import { parseBody, type Resource } from "../http/jsonapi";

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

/** Body of `PATCH /workspaces/:id/tag-bindings` and `PATCH /projects/:id/tag-bindings`: bindings to add or change. */
const tagBindingsPatchSchema = z
  .object({
    data: z.array(
      z
        .object({
          type: z.literal("tag-bindings"),
          attributes: z.object({ key: z.string().min(1, "key must not be empty"), value: z.string().optional() }).loose(),
        })
        .loose(),
    ),
  })
  .loose();

export function parseTagBindingsPatch(body: unknown): KeyValue[] {
  const bindings = parseBody(tagBindingsPatchSchema, body).data.map((b) => ({ key: b.attributes.key, value: b.attributes.value ?? "" }));
  checkTagBindings(bindings, "/data");
  return bindings;
}

/**
 * Adds bindings and changes the value of keys already bound, keeping the others;
 * returns every direct binding in the order they were first bound.
 */
export function mergeTagBindings(db: Db, owner: keyof typeof OWNERS, ownerId: string, bindings: ReadonlyArray<KeyValue>): Resource[] {
  const { table, column } = OWNERS[owner];
  const update = prepare(db, `UPDATE ${table} SET value = ? WHERE ${column} = ? AND key = ?`);
  const insert = prepare(db, `INSERT INTO ${table} (id, ${column}, key, value, created_at) VALUES (?, ?, ?, ?, ?)`);
  const t = now();
  for (const b of bindings) if (update.run(b.value, ownerId, b.key).changes === 0) insert.run(newId("tagBinding"), ownerId, b.key, b.value, t);
  const rows = prepare(db, `SELECT id, key, value, created_at FROM ${table} WHERE ${column} = ? ORDER BY rowid`).all(ownerId) as {
    id: string;
    key: string;
    value: string;
    created_at: string;
  }[];
  return rows.map((b) => ({ id: b.id, type: "tag-bindings", attributes: { key: b.key, value: b.value, "created-at": b.created_at } }));
}
