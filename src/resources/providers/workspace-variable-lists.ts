/**
 * Lists of variables in one resource (`WorkspaceVariables`, a `VariableSet`'s
 * `variables`): how a declared list compares with the recorded one, and how the variables
 * a resource owns are brought to the declared list with the fewest writes.
 *
 * Variables are matched by slot (key and category, unique on the service). A variable the
 * service cannot change as declared (a sensitive one made non-sensitive, or renamed) is
 * deleted and created again within the update, with an info line that says why.
 */
import { text } from "../../api/common";
import type { Variable, VariableCreateOptions, VariableUpdateOptions } from "../../client";
import { reportInfo } from "../process/engine-status";
import {
  categoryOf,
  changedFields,
  checkVariable,
  duplicateSlots,
  createOf,
  declaredOf,
  recordedOf,
  refusedInPlace,
  sameSlot,
  sensitiveKey,
  updateOf,
  variableLabel,
  withDefaults,
  type DeclaredVariable,
  type RecordedVariable,
} from "./workspace-variable-rules";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

/** The variables a list resource records: each as found, and the sensitive values as declared (a secret output). */
export interface RecordedList {
  variables: RecordedVariable[];
  sensitiveValues: Record<string, string>;
}

/** The declared items of a checked list input. */
export function declaredList(list: unknown): DeclaredVariable[] {
  return Array.isArray(list) ? list.map((v) => declaredOf((v ?? {}) as Props)) : [];
}

/** The recorded items of an output list (state of any release: anything unreadable is left out). */
export function recordedList(list: unknown): RecordedVariable[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((v): v is Props => v !== null && typeof v === "object" && typeof (v as Props).key === "string")
    .map((v) => ({
      id: text(v.id),
      key: String(v.key),
      ...(v.sensitive === true ? {} : { value: text(v.value) }),
      category: categoryOf(v.category) ?? "engine",
      ...(typeof v.description === "string" && v.description !== "" ? { description: v.description } : {}),
      hcl: v.hcl === true,
      sensitive: v.sensitive === true,
    }));
}

/** The recorded sensitive values (`sensitiveValues`), as strings. */
export function storedOf(map: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (map && typeof map === "object") for (const [k, v] of Object.entries(map)) out[k] = text(v);
  return out;
}

/** The recorded sensitive values of the variables in `variables` that are still sensitive. */
export function keptValues(variables: RecordedVariable[], stored: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of variables) {
    const value = stored[sensitiveKey(r)];
    if (r.sensitive && value !== undefined) out[sensitiveKey(r)] = value;
  }
  return out;
}

/**
 * Whether the declared list differs from the recorded one: an item added, removed or
 * changed (a sensitive value against the one recorded). `where` names the owner for the
 * info line of a change the service refuses in place.
 */
export function listDiffers(declared: unknown, recorded: unknown, stored: unknown, where: string): boolean {
  if (isUnknown(declared)) return true;
  const desired = declaredList(declared);
  const have = recordedList(recorded);
  const values = storedOf(stored);
  if (desired.length !== have.length) return true;
  let differs = false;
  for (const d of desired) {
    const r = have.find((h) => sameSlot(h, d));
    if (!r) return true;
    if (changedFields(d, r, values[sensitiveKey(r)]).length === 0) continue;
    differs = true;
    const why = refusedInPlace(d, r);
    if (why) reportInfo(`${variableLabel(r)} ${where}: deleted and created again, because ${why}`);
  }
  return differs;
}

/** The writes of one variable collection (a workspace's, a set's). */
export interface Collection {
  create(options: VariableCreateOptions): Promise<Variable>;
  update(variableId: string, options: VariableUpdateOptions): Promise<Variable>;
  delete(variableId: string): Promise<void>;
}

/**
 * Brings the variables `owned` (as found on the service now) to `desired`: deletes those no
 * longer declared and those the service cannot change in place, then updates what differs
 * (nothing for a variable that matches), then creates the rest. `taken` are variables of
 * the collection this resource takes over now (adopted, or its own by origin); `origin` is
 * the description of a variable created without one (see ./workspace-variable.ts).
 */
export async function reconcile(
  collection: Collection,
  desired: DeclaredVariable[],
  owned: RecordedVariable[],
  stored: Record<string, string>,
  origin?: string,
): Promise<RecordedList> {
  const keep: { d: DeclaredVariable; r: RecordedVariable }[] = [];
  const deletes: RecordedVariable[] = [];
  const creates: DeclaredVariable[] = [];
  for (const d of desired) {
    const r = owned.find((o) => sameSlot(o, d));
    if (!r) creates.push(d);
    else if (refusedInPlace(d, r)) {
      deletes.push(r);
      creates.push(d);
    } else keep.push({ d, r });
  }
  for (const o of owned) if (!desired.some((d) => sameSlot(d, o))) deletes.push(o);

  await Promise.all(deletes.map((r) => collection.delete(r.id)));
  const updated = await Promise.all(
    keep.map(async ({ d, r }) => {
      const changed = changedFields(d, r, stored[sensitiveKey(r)]);
      if (changed.length === 0) return { d, r };
      return { d, r: recordedOf(await collection.update(r.id, updateOf(d, changed))) };
    }),
  );
  const created = await Promise.all(
    creates.map(async (d) => {
      const description = d.description ?? origin;
      return { d, r: recordedOf(await collection.create({ ...createOf(d), ...(description ? { description } : {}) })) };
    }),
  );
  const all = [...updated, ...created];
  const sensitiveValues: Record<string, string> = {};
  for (const { d, r } of all) if (r.sensitive) sensitiveValues[sensitiveKey(r)] = d.value;
  const order = (r: RecordedVariable) => desired.findIndex((d) => sameSlot(d, r));
  return { variables: all.map(({ r }) => r).sort((a, b) => order(a) - order(b)), sensitiveValues };
}

/**
 * The `variables` input a read gives back from the recorded list: each item with its
 * declared sensitive value (from `sensitiveValues`), without its id, and without a
 * description that is only this package's origin mark (a program never declares it).
 */
export function listAsInput(recorded: unknown, stored: unknown, isOrigin: (d: string) => boolean): Props[] {
  const values = storedOf(stored);
  return recordedList(recorded).map((r) => {
    const value = r.sensitive ? values[sensitiveKey(r)] : r.value;
    return {
      key: r.key,
      ...(value !== undefined ? { value } : {}),
      category: r.category,
      ...(r.description !== undefined && !isOrigin(r.description) ? { description: r.description } : {}),
      hcl: r.hcl,
      sensitive: r.sensitive,
    };
  });
}

/** The recorded variables that are still on the service (by id), as found there now. */
export function stillThere(owned: RecordedVariable[], current: Variable[]): RecordedVariable[] {
  const byId = new Map(current.map((v) => [v.id, v]));
  return owned.flatMap((o) => {
    const v = byId.get(o.id);
    return v ? [recordedOf(v)] : [];
  });
}

/** The check failures of a list input `name` (each item, and keys given twice), and the list with its defaults written out. */
export function checkList(
  value: unknown,
  name: string,
  required: boolean,
): { failures: CheckFailure[]; list: unknown } {
  if (value === undefined || value === null)
    return {
      failures: required ? [{ property: name, reason: `${name} is required: a list of variables` }] : [],
      list: value,
    };
  if (isUnknown(value) && !Array.isArray(value)) return { failures: [], list: value };
  if (!Array.isArray(value))
    return { failures: [{ property: name, reason: `${name} must be a list of variables` }], list: value };
  const failures = value.flatMap((v, i) => checkVariable(v, `${name}[${i}]`));
  failures.push(...duplicateSlots(value, name));
  const list = value.map((v) => (v === null || typeof v !== "object" || isUnknown(v) ? v : withDefaults(v as Props)));
  return { failures, list };
}

/** The failure of an `adopt` that is not a boolean. */
export function adoptFailures(adopt: unknown): CheckFailure[] {
  return adopt !== undefined && adopt !== null && !isUnknown(adopt) && typeof adopt !== "boolean"
    ? [{ property: "adopt", reason: "adopt must be true or false" }]
    : [];
}
