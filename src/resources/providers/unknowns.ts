/** Values the engine does not know until apply (preview), and copies without them. */
import type { Props } from "./types";

/** The placeholder the engine sends for values not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/** A copy without the properties (at any depth) whose value is not known yet. */
export function withoutUnknowns<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== UNKNOWN).map(withoutUnknowns) as T;
  if (value && typeof value === "object") {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== UNKNOWN) out[k] = withoutUnknowns(v);
    return out as T;
  }
  return value;
}
