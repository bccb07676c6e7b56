/** The variables of a `NoCodeWorkspace`: as given, as stored (sensitive values apart) and as sent. */
import type { NoCodeVariable } from "../../client";
import { text } from "../../api/common";
import { sameJsonUnordered } from "./compare";
import type { Props } from "./types";
import type { NoCodeVariableOutput } from "../no-code-workspace";

export interface Variable {
  key: string;
  value: string;
  category: "engine" | "env";
  hcl: boolean;
  sensitive: boolean;
  description?: string;
}

function category(c: unknown): "engine" | "env" {
  return c === "env" ? "env" : "engine";
}

/** Variables as given, normalized (alias category, defaults filled). */
export function normalizeVariables(v: unknown): Variable[] {
  if (!Array.isArray(v)) return [];
  return v.map((x: Props) => ({
    key: text(x.key),
    value: text(x.value),
    category: category(x.category),
    hcl: Boolean(x.hcl),
    sensitive: Boolean(x.sensitive),
    ...(x.description !== undefined && x.description !== null && x.description !== ""
      ? { description: text(x.description) }
      : {}),
  }));
}

/** Stored form: sensitive values are moved to a separate (secret) map. */
export function storedVariables(vars: Variable[]): {
  variables: NoCodeVariableOutput[];
  sensitiveValues: Record<string, string>;
} {
  const sensitiveValues: Record<string, string> = {};
  const variables = vars.map((v) => {
    if (!v.sensitive) return { ...v };
    sensitiveValues[v.key] = v.value;
    const { value: _omitted, ...rest } = v;
    return rest;
  });
  return { variables, sensitiveValues };
}

/** The variables recorded in state, sensitive values put back. */
export function recordedVariables(olds: {
  variables?: NoCodeVariableOutput[];
  sensitiveValues?: Record<string, string>;
}): Variable[] {
  const secret = olds.sensitiveValues ?? {};
  return normalizeVariables(
    (olds.variables ?? []).map((v) => (v.sensitive ? { ...v, value: secret[String(v.key)] ?? "" } : v)),
  );
}

export function sameVariables(desired: unknown, _actual: unknown, olds: Props): boolean {
  return sameJsonUnordered(normalizeVariables(desired), recordedVariables(olds));
}

export function apiVariables(vars: Variable[]): NoCodeVariable[] {
  return vars.map((v) => ({
    key: v.key,
    value: v.value,
    category: v.category,
    hcl: v.hcl,
    sensitive: v.sensitive,
    ...(v.description !== undefined ? { description: v.description } : {}),
  }));
}
