/**
 * What the workspace page and the home make of the documents they read, without the DOM:
 * the variable sets in precedence order, the teams' access, the home's filter. The unit
 * tests read it (test/server/web-page-format.test.ts).
 */
import { ORGANIZATION_FLAGS_ON_WORKSPACES, WORKSPACE_PERMISSIONS } from "../../../api/access-levels";
import {
  effectiveVariablesOf,
  setsByPrecedence,
  WORKSPACE_RANK,
  type PrecedenceSet,
  type VariableSetScope,
} from "../../../api/precedence";

/** A JSON:API resource as the page reads it. */
export interface Resource {
  id: string;
  type?: string;
  attributes?: Record<string, any>;
  relationships?: Record<string, { data?: any } | undefined>;
}

const idsOf = (r: Resource, relationship: string): string[] => {
  const data: unknown = r.relationships?.[relationship]?.data;
  return Array.isArray(data) ? data.map((d: { id?: unknown }) => String(d?.id)) : [];
};

/** A variable set as precedence sees it, from its document: how it reaches the workspace (or its project), and its owner. */
export function precedenceSetOf(r: Resource, workspaceId: string, projectId: string | null): PrecedenceSet {
  const scopes: VariableSetScope[] = [];
  if (idsOf(r, "workspaces").includes(workspaceId)) scopes.push("workspace");
  if (projectId && idsOf(r, "projects").includes(projectId)) scopes.push("project");
  if (r.attributes?.global === true) scopes.push("global");
  // Listed as reaching the workspace without saying how: taken as applied to it.
  if (scopes.length === 0) scopes.push("workspace");
  return {
    id: r.id,
    name: String(r.attributes?.name ?? r.id),
    priority: r.attributes?.priority === true,
    ownedByProject: r.relationships?.parent?.data?.type === "projects",
    scopes,
  };
}

/** A row of the variable sets' list: a set, or the place of the workspace's own variables among them. */
export type PrecedenceRow =
  { kind: "set"; set: PrecedenceSet; scope: VariableSetScope; rank: number } | { kind: "own"; rank: number };

/**
 * The sets that reach the workspace, strongest first (src/api/precedence.ts, the rule of
 * the effective variables), with the workspace's own variables in their place: below the
 * priority sets, above the others.
 */
export function precedenceRows(sets: readonly PrecedenceSet[]): PrecedenceRow[] {
  const rows: PrecedenceRow[] = [];
  let ownPlaced = false;
  for (const r of setsByPrecedence(sets)) {
    if (!ownPlaced && r.rank > WORKSPACE_RANK) {
      rows.push({ kind: "own", rank: WORKSPACE_RANK });
      ownPlaced = true;
    }
    rows.push({ kind: "set", ...r });
  }
  if (!ownPlaced) rows.push({ kind: "own", rank: WORKSPACE_RANK });
  return rows;
}

/**
 * The variables that do not apply because another of the same key and category wins (the
 * rule of the effective variables), each by id with the name of what wins over it: a set's
 * name, or `this workspace` for its own variables.
 */
export function overriddenBy(
  own: readonly Resource[],
  sets: readonly { set: PrecedenceSet; variables: readonly Resource[] }[],
): Map<string, string> {
  const keyed = (v: Resource) => ({
    id: v.id,
    key: String(v.attributes?.key ?? ""),
    category: String(v.attributes?.category ?? ""),
  });
  const out = new Map<string, string>();
  const effective = effectiveVariablesOf(
    own.map(keyed),
    sets.map((s) => ({ set: s.set, variables: s.variables.map(keyed) })),
  );
  for (const e of effective) {
    const winner = e.source.kind === "workspace" ? "this workspace" : e.source.name;
    for (const lost of e.overridden) out.set(lost.variable.id, winner);
  }
  return out;
}

/** How a set reaches the workspace, in words. */
export function scopeText(scope: VariableSetScope, ownedByProject: boolean): string {
  const owner = ownedByProject ? ", owned by a project" : "";
  if (scope === "global") return "global: every workspace of the organization";
  return `${scope === "workspace" ? "applied to this workspace" : "applied to its project"}${owner}`;
}

/** Where a team's access to the workspace comes from. */
type AccessSource = "workspace" | "project" | "organization";

/** One team's access to the workspace from one source. */
export interface AccessRow {
  team: string;
  /** `read`, `plan`, `write`, `admin`, `custom` (a project grant may also say `maintain`). */
  access: string;
  source: AccessSource;
  /** What a custom grant allows, or which organization-wide permissions give the access. */
  details: string[];
}

/** The non-default parts of a custom grant's permissions, as `name: value` (a flag that is on: its name). */
function customDetails(permissions: Record<string, unknown> | undefined, prefix = ""): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(permissions ?? {})) {
    const label = `${prefix}${name.replace(/-/g, " ")}`;
    if (value === true) out.push(label);
    else if (typeof value === "string" && value !== "none") out.push(`${label}: ${value}`);
  }
  return out;
}

/** The permissions of a custom workspace grant, as `team-workspaces` carries them. */
const WORKSPACE_GRANT_PERMISSIONS = Object.keys(WORKSPACE_PERMISSIONS);
const SOURCE_ORDER: AccessSource[] = ["workspace", "project", "organization"];

/**
 * Every team's access to a workspace: its grants on the workspace (`team-workspaces`), on
 * its project (`team-projects`), and the organization-wide permissions that reach every
 * workspace; by team name, then workspace, project, organization.
 */
export function accessRows(workspaceGrants: Resource[], projectGrants: Resource[], teams: Resource[]): AccessRow[] {
  const teamName = new Map(teams.map((t) => [t.id, String(t.attributes?.name ?? t.id)]));
  const nameOf = (grant: Resource) => {
    const id = String(grant.relationships?.team?.data?.id ?? "");
    return teamName.get(id) ?? id;
  };
  const rows: AccessRow[] = [];
  for (const g of workspaceGrants) {
    const access = String(g.attributes?.access ?? "");
    const custom = Object.fromEntries(WORKSPACE_GRANT_PERMISSIONS.map((k) => [k, g.attributes?.[k]]));
    rows.push({
      team: nameOf(g),
      access,
      source: "workspace",
      details: access === "custom" ? customDetails(custom) : [],
    });
  }
  for (const g of projectGrants) {
    const access = String(g.attributes?.access ?? "");
    const details =
      access === "custom"
        ? [
            ...customDetails(g.attributes?.["project-access"], "project "),
            ...customDetails(g.attributes?.["workspace-access"], "workspace "),
          ]
        : [];
    rows.push({ team: nameOf(g), access, source: "project", details });
  }
  for (const t of teams) {
    const flags = (t.attributes?.["organization-access"] ?? {}) as Record<string, unknown>;
    const held = (
      Object.keys(ORGANIZATION_FLAGS_ON_WORKSPACES) as (keyof typeof ORGANIZATION_FLAGS_ON_WORKSPACES)[]
    ).filter((f) => flags[f] === true);
    if (!held.length) continue;
    const access = held.some((f) => ORGANIZATION_FLAGS_ON_WORKSPACES[f] === "admin") ? "admin" : "read";
    rows.push({ team: teamName.get(t.id)!, access, source: "organization", details: held });
  }
  return rows.sort(
    (a, b) =>
      (a.team < b.team ? -1 : a.team > b.team ? 1 : 0) ||
      SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source),
  );
}

/** Whether a workspace matches the home's filter: every word of `query` is in its name, a tag or its project's name. */
export function matchesFilter(query: string, fields: readonly string[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = fields.map((f) => f.toLowerCase());
  return words.every((w) => haystack.some((f) => f.includes(w)));
}

/** `1 workspace`, `2 workspaces`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
