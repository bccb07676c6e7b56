/**
 * The comparisons that keep `diff` quiet about what is not a real change (service
 * defaults, list order, tag-name case), and the field-by-field diff built on them.
 */
import { text } from "../../api/common";
import { isUnknown } from "./unknowns";
import type { Props } from "./types";

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** null, undefined and "" all mean "not set" for optional strings. */
export function sameOptionalString(a: unknown, b: unknown): boolean {
  const na = text(a);
  const nb = text(b);
  return na === nb;
}

/** Flags compared as booleans: absent is false. */
export function sameFlag(a: unknown, b: unknown): boolean {
  return Boolean(a) === Boolean(b);
}

/** Lists compared as sets of strings. */
export function sameStringSet(a: unknown, b: unknown, fold: (s: string) => string = (s) => s): boolean {
  const sa = new Set(((a as unknown[]) ?? []).map((v) => fold(String(v))));
  const sb = new Set(((b as unknown[]) ?? []).map((v) => fold(String(v))));
  if (sa.size !== sb.size) return false;
  for (const v of sa) if (!sb.has(v)) return false;
  return true;
}

/** Flat tag names: the service stores them lower-cased. */
export function foldTagName(name: string): string {
  return name.trim().toLowerCase();
}

export function sameTagNames(a: unknown, b: unknown): boolean {
  return sameStringSet(a, b, foldTagName);
}

/** Key-value maps compared by content. */
export function sameStringMap(a: unknown, b: unknown): boolean {
  const ma = (a ?? {}) as Record<string, unknown>;
  const mb = (b ?? {}) as Record<string, unknown>;
  const ka = Object.keys(ma);
  if (ka.length !== Object.keys(mb).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(mb, k) && String(ma[k]) === String(mb[k]));
}

/** Two timestamps naming the same instant (the service may reformat them). */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (!isGiven(a) || !isGiven(b) || a === "" || b === "") return sameOptionalString(a, b);
  const ta = Date.parse(String(a));
  const tb = Date.parse(String(b));
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

/** Deep equality of JSON values where arrays are compared without regard to order. */
export function sameJsonUnordered(a: unknown, b: unknown): boolean {
  return canonical(a, true) === canonical(b, true);
}

/** Deep equality of JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a, false) === canonical(b, false);
}

function canonical(v: unknown, unorderedArrays: boolean): string {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x, unorderedArrays));
    if (unorderedArrays) items.sort();
    return `[${items.join(",")}]`;
  }
  if (v && typeof v === "object") {
    const keys = Object.keys(v as Props)
      .filter((k) => (v as Props)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Props)[k], unorderedArrays)}`).join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * A field of a resource as `diff` sees it: `same` decides whether the desired
 * value (news) equals what the service last reported (olds). A field absent from
 * news is not managed and never differs.
 */
export interface FieldRule {
  name: string;
  same?: (desired: unknown, actual: unknown, olds: Props) => boolean;
  /** A change of this field needs a new resource. */
  replaces?: boolean;
  /** An absent value means "unset" rather than "not managed". */
  absentIsValue?: boolean;
}

export interface FieldDiff {
  changed: string[];
  replaces: string[];
}

export function diffFields(olds: Props, news: Props, rules: FieldRule[]): FieldDiff {
  const changed: string[] = [];
  const replaces: string[] = [];
  for (const rule of rules) {
    const desired = news[rule.name];
    if (desired === undefined && !rule.absentIsValue) continue;
    let differs: boolean;
    if (isUnknown(desired)) {
      // Not known until apply: it may change, so say so.
      differs = true;
    } else {
      const same = rule.same ?? ((a: unknown, b: unknown) => sameJson(a, b));
      differs = !same(desired, olds[rule.name], olds);
    }
    if (differs) {
      changed.push(rule.name);
      if (rule.replaces) replaces.push(rule.name);
    }
  }
  return { changed, replaces };
}

/** The subset of `object` keys that `desired` gives are equal (nested objects such as vcsRepo). */
export function sameGivenKeys(
  desired: unknown,
  actual: unknown,
  compare: Record<string, (a: unknown, b: unknown) => boolean> = {},
): boolean {
  if (desired === null) return actual === null || actual === undefined;
  if (!desired || typeof desired !== "object") return sameJson(desired, actual);
  if (!actual || typeof actual !== "object") return false;
  for (const [k, v] of Object.entries(desired as Props)) {
    if (v === undefined) continue;
    const same = compare[k] ?? sameJson;
    if (!same(v, (actual as Props)[k])) return false;
  }
  return true;
}
