/**
 * A team's grant as both access providers check and compare it: a level and, for `custom`,
 * groups of permissions checked against the lists of src/api/team-access.ts, compared as
 * the permissions the grant ends with (a preset level and the same custom permissions are
 * equal; a permission the service adds later takes its level's default).
 */
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";
/** A permission list of src/api/team-access.ts: each permission's values, or `boolean`. */
type PermissionList = Readonly<Record<string, "boolean" | ReadonlyArray<string>>>;

/** Permission values in the program's spelling (`stateVersions`). */
export type Permissions = Record<string, string | boolean>;

/** One group of permissions of a grant: the input that holds it and what each level grants. */
interface PermissionGroup {
  /** The input and output (`permissions`, `projectPermissions`, `workspacePermissions`). */
  input: string;
  /** The permissions and their values, in the service's spelling. */
  list: PermissionList;
  /** What a level grants in this group, in the service's spelling; `custom` gives a custom grant's starting values. */
  preset(level: string): Readonly<Record<string, unknown>>;
}

/** A kind of grant: its levels and its permission groups. */
export interface GrantKind {
  levels: readonly string[];
  groups: readonly PermissionGroup[];
}

/** A team's access as the two providers read and write it, in the program's spelling. */
export interface Grant {
  id: string;
  access: string;
  /** Each group's permissions as the service sent them (unknown keys ignored). */
  groups: Record<string, Permissions>;
  teamId: string | null;
  targetId: string | null;
}

const camel = (k: string) => k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const names = (group: PermissionGroup) => Object.keys(group.list).map(camel);
const valuesOf = (v: "boolean" | ReadonlyArray<string>) =>
  v === "boolean" ? "true or false" : v.map((x) => JSON.stringify(x)).join(", ");

/** A group's values in the program's spelling, from the service's spelling; what the list does not name is left out. */
function fromWire(group: PermissionGroup, wire: Readonly<Record<string, unknown>> | undefined): Permissions {
  const out: Permissions = {};
  for (const key of Object.keys(group.list)) {
    const v = wire?.[key];
    if (typeof v === "string" || typeof v === "boolean") out[camel(key)] = v;
  }
  return out;
}

/**
 * The permissions a grant ends with in one group: a preset level's own, or for `custom` the
 * custom starting values with the given ones over them. Undefined for a level outside the set.
 */
function effective(kind: GrantKind, group: PermissionGroup, level: unknown, given: unknown): Permissions | undefined {
  if (typeof level !== "string" || !kind.levels.includes(level)) return undefined;
  const base = fromWire(group, group.preset(level));
  if (level !== "custom") return base;
  const over = given !== null && typeof given === "object" ? (given as Props) : {};
  for (const name of names(group)) {
    const v = over[name];
    if (typeof v === "string" || typeof v === "boolean") base[name] = v;
  }
  return base;
}

/** The permissions of a grant as recorded: what the service sent, and its level's defaults for what it did not. */
export function recorded(kind: GrantKind, group: PermissionGroup, level: unknown, stored: unknown): Permissions {
  const base = fromWire(
    group,
    group.preset(typeof level === "string" && kind.levels.includes(level) ? level : "custom"),
  );
  const got = stored !== null && typeof stored === "object" ? (stored as Props) : {};
  for (const name of names(group)) {
    const v = got[name];
    if (typeof v === "string" || typeof v === "boolean") base[name] = v;
  }
  return base;
}

/** Whether the declared grant (news) ends with the permissions of the recorded one (olds). */
export function sameGrant(kind: GrantKind, news: Props, olds: Props): boolean {
  if (isUnknown(news.access) || kind.groups.some((g) => isUnknown(news[g.input]))) return false;
  return kind.groups.every((g) => {
    const want = effective(kind, g, news.access, news[g.input]);
    const have = recorded(kind, g, olds.access, olds[g.input]);
    return want !== undefined && Object.keys(want).every((k) => want[k] === have[k]);
  });
}

/** Check failures of a grant's level and permissions, each with its property path. */
export function grantFailures(kind: GrantKind, news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const level = news.access;
  const levels = kind.levels.map((l) => JSON.stringify(l)).join(", ");
  if (level === undefined || level === null)
    failures.push({ property: "access", reason: `access is required: one of ${levels}` });
  else if (!isUnknown(level) && (typeof level !== "string" || !kind.levels.includes(level)))
    failures.push({ property: "access", reason: `access must be one of ${levels}, not ${JSON.stringify(level)}` });
  for (const group of kind.groups) {
    const given = news[group.input];
    if (given === undefined || given === null || isUnknown(given)) continue;
    if (typeof given !== "object" || Array.isArray(given)) {
      failures.push({ property: group.input, reason: `${group.input} must be an object of permissions` });
      continue;
    }
    const preset =
      typeof level === "string" && level !== "custom" && kind.levels.includes(level)
        ? fromWire(group, group.preset(level))
        : undefined;
    for (const [name, value] of Object.entries(given as Props)) {
      const wire = Object.keys(group.list).find((k) => camel(k) === name);
      const path = `${group.input}.${name}`;
      if (wire === undefined) {
        failures.push({
          property: path,
          reason: `${path} is not a permission of this grant: give ${names(group).join(", ")}`,
        });
        continue;
      }
      if (value === undefined || value === null || isUnknown(value)) continue;
      const allowed = group.list[wire];
      const ok = allowed === "boolean" ? typeof value === "boolean" : allowed.includes(value as string);
      if (!ok) {
        failures.push({
          property: path,
          reason: `${path} must be ${allowed === "boolean" ? "" : "one of "}${valuesOf(allowed)}, not ${JSON.stringify(value)}`,
        });
      } else if (preset && preset[name] !== value) {
        failures.push({
          property: path,
          reason: `${path} is ${JSON.stringify(value)}, but access "${String(level)}" grants ${JSON.stringify(preset[name])}: set access to "custom" to choose each permission, or leave ${path} out`,
        });
      }
    }
  }
  return failures;
}

/** What a create or update sends: the level, and for `custom` every permission it ends with. */
export function wanted(kind: GrantKind, inputs: Props): { access: string; groups: Record<string, Permissions> } {
  const access = String(inputs.access);
  const groups: Record<string, Permissions> = {};
  if (access === "custom")
    for (const g of kind.groups) groups[g.input] = effective(kind, g, access, inputs[g.input]) ?? {};
  return { access, groups };
}
