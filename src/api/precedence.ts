/**
 * The precedence between a workspace's own variables and those of the variable sets that
 * reach it, as the hosted service documents it. No zod: the local server's
 * `GET /workspaces/:id/all-vars`, the client's effective-variables lookup (both through
 * ./variable-sets.ts, which re-exports it) and the web view's page share this one rule.
 */
import { variableCategoryOf } from "./variable-categories";

/** How a set reaches a workspace: applied to it, to its project, or to every workspace (`global`). */
export type VariableSetScope = "workspace" | "project" | "global";

/** What precedence needs of a set that reaches a workspace. */
export interface PrecedenceSet {
  /** Set id. */
  id: string;
  /** Set name: of two sets at the same rank, the name first in lexical order wins. */
  name: string;
  /** Whether the set is a priority set (its variables override the workspace's own). */
  priority: boolean;
  /** Whether a project owns the set (rather than the organization). */
  ownedByProject: boolean;
  /** How the set reaches the workspace; a set that reaches it in several ways counts by the strongest. */
  scopes: readonly VariableSetScope[];
}

/** A variable as precedence sees it: its key and its category (either spelling). */
export interface KeyedVariable {
  /** Variable name (`key`). */
  key: string;
  /** Variable category: `engine` (or its vendor spelling `terraform`) or `env`. */
  category: string;
}

/** Where an effective variable comes from. */
export type VariableSource =
  | { kind: "workspace" }
  | { kind: "variable-set"; id: string; name: string; scope: VariableSetScope; priority: boolean };

/** One effective variable of a workspace: the one that wins for its key and category, and those it overrides. */
export interface EffectiveVariable<V extends KeyedVariable> {
  /** The variable that applies. */
  variable: V;
  /** Where it comes from. */
  source: VariableSource;
  /** The variables of the same key and category it overrides, strongest first. */
  overridden: { variable: V; source: VariableSource }[];
}

/** Rank of the workspace's own variables: priority sets rank below (win over) it, the others above. */
export const WORKSPACE_RANK = 5;

/**
 * Rank of a set that reaches a workspace with `scope`, lower winning, as the hosted
 * service documents its precedence (highest first): priority global sets; priority
 * project-scoped then workspace-scoped sets owned by the organization; the same owned by
 * a project; the workspace's own variables; workspace-scoped then project-scoped sets
 * owned by a project; the same owned by the organization; global sets.
 */
function rankOf(set: PrecedenceSet, scope: VariableSetScope): number {
  if (set.priority) {
    if (scope === "global") return 0;
    const base = set.ownedByProject ? 3 : 1;
    return base + (scope === "project" ? 0 : 1);
  }
  if (scope === "global") return 10;
  const base = set.ownedByProject ? 6 : 8;
  return base + (scope === "workspace" ? 0 : 1);
}

/** The strongest rank at which `set` reaches the workspace. */
function setRank(set: PrecedenceSet): { rank: number; scope: VariableSetScope } {
  let best: { rank: number; scope: VariableSetScope } = { rank: Infinity, scope: "global" };
  for (const scope of set.scopes) {
    const rank = rankOf(set, scope);
    if (rank < best.rank) best = { rank, scope };
  }
  return best;
}

/**
 * A workspace's effective variables: for each key and category, the variable that wins
 * among the workspace's own (`own`) and those of the sets that reach it (`sets`), with
 * the ones it overrides. The order is the workspace's own first, then the sets' by rank.
 */
export function effectiveVariablesOf<V extends KeyedVariable>(
  own: readonly V[],
  sets: readonly { set: PrecedenceSet; variables: readonly V[] }[],
): EffectiveVariable<V>[] {
  const candidates: { variable: V; source: VariableSource; rank: number; name: string; order: number }[] = [];
  let order = 0;
  for (const variable of own)
    candidates.push({ variable, source: { kind: "workspace" }, rank: WORKSPACE_RANK, name: "", order: order++ });
  for (const { set, variables } of sets) {
    const { rank, scope } = setRank(set);
    if (rank === Infinity) continue;
    const source: VariableSource = { kind: "variable-set", id: set.id, name: set.name, scope, priority: set.priority };
    for (const variable of variables) candidates.push({ variable, source, rank, name: set.name, order: order++ });
  }
  const byKey = new Map<string, typeof candidates>();
  for (const c of candidates) {
    const id = `${variableCategoryOf(c.variable.category) ?? c.variable.category}\u0000${c.variable.key}`;
    const list = byKey.get(id);
    if (list) list.push(c);
    else byKey.set(id, [c]);
  }
  const out: (EffectiveVariable<V> & { rank: number; order: number })[] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.rank - b.rank || byName(a.name, b.name) || a.order - b.order);
    const [winner, ...rest] = list;
    out.push({
      variable: winner.variable,
      source: winner.source,
      overridden: rest.map((c) => ({ variable: c.variable, source: c.source })),
      rank: winner.rank === WORKSPACE_RANK ? -1 : winner.rank,
      order: winner.order,
    });
  }
  out.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return out.map(({ variable, source, overridden }) => ({ variable, source, overridden }));
}

/** A set that reaches a workspace, placed by precedence (see {@link setsByPrecedence}). */
export interface RankedSet<S extends PrecedenceSet = PrecedenceSet> {
  /** The set. */
  set: S;
  /** The strongest way it reaches the workspace. */
  scope: VariableSetScope;
  /** Its rank, lower winning; {@link WORKSPACE_RANK} is the workspace's own variables'. */
  rank: number;
}

/**
 * The sets that reach a workspace, strongest first, with the same rule as
 * {@link effectiveVariablesOf}: by rank (priority sets above the workspace's own
 * variables, the others below), then by name in lexical order. A set that reaches the
 * workspace in no way is left out.
 */
export function setsByPrecedence<S extends PrecedenceSet>(sets: readonly S[]): RankedSet<S>[] {
  return sets
    .map((set) => ({ set, ...setRank(set) }))
    .filter((r) => r.rank !== Infinity)
    .sort((a, b) => a.rank - b.rank || byName(a.set.name, b.set.name));
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
