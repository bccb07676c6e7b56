/**
 * What every variable resource shares (`WorkspaceVariable`, the items of
 * `WorkspaceVariables` and of `VariableSet`): the checks of one variable as a program
 * declares it, how a declared variable compares with the recorded one (and which changes
 * the service refuses in place, with the reason), and the shapes of state.
 *
 * A sensitive value is write-only on the service, so what is recorded for it is the value
 * the program last declared, kept only as a secret; it is compared with the new
 * declaration, never with the service.
 */
import { text } from "../../api/common";
import {
  VARIABLE_CATEGORIES,
  VARIABLE_CATEGORY_ALIASES,
  VARIABLE_DESCRIPTION_MAX,
  variableKeyProblem,
  type VariableCategory,
} from "../../api/variables";
import { ConflictError, ValidationError, type Variable, type VariableUpdateOptions } from "../../client";
import { sameOptionalString } from "./compare";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";
import type { VariableOutput } from "../workspace-variables";

/** A variable as a program declares it, with the defaults applied; `description` undefined is not managed. */
export interface DeclaredVariable {
  key: string;
  value: string;
  category: VariableCategory;
  description?: string;
  hcl: boolean;
  sensitive: boolean;
}

/**
 * A variable as the outputs record it, the item of a list resource's `variables` output:
 * without the value of a sensitive one (see {@link sensitiveKey}).
 */
export type RecordedVariable = VariableOutput;

/** `engine`, `env`, or the wire's `terraform` as `engine`; undefined for anything else. */
export function categoryOf(v: unknown): VariableCategory | undefined {
  if (typeof v !== "string") return undefined;
  const c = VARIABLE_CATEGORY_ALIASES[v] ?? v;
  return (VARIABLE_CATEGORIES as readonly string[]).includes(c) ? c : undefined;
}

/** Where a list keeps a sensitive value: `<category>/<key>` (a key is unique per category). */
export function sensitiveKey(v: { key: string; category: string }): string {
  return `${categoryOf(v.category) ?? v.category}/${v.key}`;
}

/** Whether two variables are the same slot: key and category. */
export function sameSlot(a: { key: string; category: string }, b: { key: string; category: string }): boolean {
  return sensitiveKey(a) === sensitiveKey(b);
}

function at(prefix: string, name: string): string {
  return prefix ? `${prefix}.${name}` : name;
}

/** The check failures of one declared variable; `prefix` is its property path (`""`, `variables[2]`). */
export function checkVariable(v: unknown, prefix: string): CheckFailure[] {
  if (isUnknown(v)) return [];
  if (v === null || typeof v !== "object" || Array.isArray(v))
    return [{ property: prefix, reason: `${prefix}: must be a variable (key, value, category, ...)` }];
  const p = v as Props;
  const failures: CheckFailure[] = [];
  const fail = (name: string, reason: string) => failures.push({ property: at(prefix, name), reason });
  if (p.key === undefined || p.key === null) fail("key", "key is required");
  else if (!isUnknown(p.key)) {
    if (typeof p.key !== "string") fail("key", "key must be a string");
    else {
      const problem = variableKeyProblem(p.key);
      if (problem) fail("key", `key ${JSON.stringify(p.key)} ${problem}`);
    }
  }
  if (p.category === undefined || p.category === null) fail("category", 'category is required: "engine" or "env"');
  else if (!isUnknown(p.category) && !categoryOf(p.category))
    fail(
      "category",
      `category must be "engine" or "env" (the wire's "terraform" is read as "engine"), not ${JSON.stringify(p.category)}`,
    );
  if (p.value !== undefined && p.value !== null && !isUnknown(p.value) && typeof p.value !== "string")
    fail("value", "value must be a string (an HCL value too, with hcl: true)");
  if (p.description !== undefined && p.description !== null && !isUnknown(p.description)) {
    if (typeof p.description !== "string") fail("description", "description must be a string");
    else if (p.description.length > VARIABLE_DESCRIPTION_MAX)
      fail("description", `description is too long (at most ${VARIABLE_DESCRIPTION_MAX} characters)`);
  }
  for (const flag of ["hcl", "sensitive"]) {
    const f = p[flag];
    if (f !== undefined && f !== null && !isUnknown(f) && typeof f !== "boolean")
      fail(flag, `${flag} must be true or false`);
  }
  return failures;
}

/** A checked variable input with its defaults written out, so that every later comparison sees the whole variable. */
export function withDefaults(p: Props): Props {
  const item: Props = { ...p };
  if (item.value === undefined || item.value === null) item.value = "";
  if (item.hcl === undefined || item.hcl === null) item.hcl = false;
  if (item.sensitive === undefined || item.sensitive === null) item.sensitive = false;
  const category = categoryOf(item.category);
  if (category) item.category = category;
  return item;
}

/** Failures for a key given twice in one category of one list: the service keeps one variable per slot. */
export function duplicateSlots(list: unknown[], name: string): CheckFailure[] {
  const seen = new Map<string, number>();
  const failures: CheckFailure[] = [];
  list.forEach((v, i) => {
    if (v === null || typeof v !== "object" || isUnknown(v)) return;
    const { key, category } = v as Props;
    const c = categoryOf(category);
    if (typeof key !== "string" || !c) return;
    const slot = sensitiveKey({ key, category: c });
    const first = seen.get(slot);
    if (first === undefined) seen.set(slot, i);
    else
      failures.push({
        property: `${name}[${i}].key`,
        reason: `${name}[${i}].key: ${key} (${c}) is already declared at ${name}[${first}]; a key is unique per category`,
      });
  });
  return failures;
}

/** A declared variable with the defaults applied (inputs checked by {@link checkVariable}). */
export function declaredOf(p: Props): DeclaredVariable {
  const description = p.description === undefined || p.description === null ? undefined : text(p.description);
  return {
    key: String(p.key),
    value: text(p.value),
    category: categoryOf(p.category) ?? "engine",
    ...(description !== undefined ? { description } : {}),
    hcl: p.hcl === true,
    sensitive: p.sensitive === true,
  };
}

/** A variable as the outputs record it. */
export function recordedOf(v: Variable): RecordedVariable {
  return {
    id: v.id,
    key: v.key,
    ...(v.sensitive ? {} : { value: v.value ?? "" }),
    category: categoryOf(v.category) ?? "engine",
    ...(v.description ? { description: v.description } : {}),
    hcl: v.hcl,
    sensitive: v.sensitive,
  };
}

/**
 * Why the service cannot make the declared change in place, or undefined when it can:
 * a sensitive variable never becomes non-sensitive again, and the key of a sensitive
 * variable cannot be changed (as terraform-provider-tfe plans them too).
 */
export function refusedInPlace(desired: DeclaredVariable, recorded: RecordedVariable): string | undefined {
  if (recorded.sensitive && !desired.sensitive)
    return "the service never makes a sensitive variable non-sensitive again";
  if (desired.sensitive && desired.key !== recorded.key)
    return "the service does not change the key of a sensitive variable";
  return undefined;
}

/**
 * The properties of `desired` that differ from `recorded`. `stored` is the sensitive value
 * recorded with the state (the program's last one); undefined where none is (a variable
 * adopted or imported: its value is taken to be the declared one, which the service never shows).
 */
export function changedFields(desired: DeclaredVariable, recorded: RecordedVariable, stored?: string): string[] {
  const changed: string[] = [];
  if (desired.key !== recorded.key) changed.push("key");
  if (desired.category !== recorded.category) changed.push("category");
  if (desired.hcl !== recorded.hcl) changed.push("hcl");
  if (desired.sensitive !== recorded.sensitive) changed.push("sensitive");
  if (desired.description !== undefined && !sameOptionalString(desired.description, recorded.description))
    changed.push("description");
  const value = recorded.sensitive ? stored : recorded.value;
  if (value !== undefined ? value !== desired.value : !recorded.sensitive) changed.push("value");
  return changed;
}

/** The update that brings `recorded` to `desired`: only what differs, the value too when it becomes sensitive. */
export function updateOf(desired: DeclaredVariable, changed: string[]): VariableUpdateOptions {
  const out: VariableUpdateOptions = {};
  if (changed.includes("key")) out.key = desired.key;
  if (changed.includes("category")) out.category = desired.category;
  if (changed.includes("hcl")) out.hcl = desired.hcl;
  if (changed.includes("sensitive")) out.sensitive = desired.sensitive;
  if (changed.includes("description")) out.description = desired.description ?? "";
  if (changed.includes("value") || changed.includes("sensitive")) out.value = desired.value;
  return out;
}

/** The create request of a declared variable. */
export function createOf(desired: DeclaredVariable) {
  return {
    key: desired.key,
    value: desired.value,
    category: desired.category,
    hcl: desired.hcl,
    sensitive: desired.sensitive,
    ...(desired.description !== undefined ? { description: desired.description } : {}),
  };
}

/** A create refused because the key is taken in that category: a 422 from the hosted service, a 409 from others. */
export function keyTaken(err: unknown): boolean {
  if (err instanceof ConflictError) return err.reason === "already-exists";
  return (
    err instanceof ValidationError && err.problems.some((p) => /already been taken|already exists/i.test(p.detail))
  );
}

/** How messages name a variable: `variable "KEY" (env)`. */
export function variableLabel(v: { key: string; category: string }): string {
  return `variable ${JSON.stringify(v.key)} (${categoryOf(v.category) ?? v.category})`;
}
