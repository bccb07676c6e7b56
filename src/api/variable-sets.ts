/**
 * Variable sets (`varsets`): named groups of variables an organization applies to
 * workspaces, to projects or to every workspace (`global`), and the precedence between
 * a workspace's own variables and those of its sets, as the hosted service documents it.
 * The rule lives here so that the local server's `GET /workspaces/:id/all-vars` and the
 * client's effective-variables lookup are one rule.
 */
import { z } from "zod";
import { documentSchema, identifiersBodySchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";
import { VARIABLE_DESCRIPTION_MAX, variableCategoryOf, variableCreateRequestSchema } from "./variables";

/** Longest variable set name the service accepts. */
export const VARIABLE_SET_NAME_MAX = 128;

/** Attributes of a variable set as the service renders it. */
export const variableSetAttributesSchema = z
  .object({
    name: orAbsent(z.string(), ""),
    description: z.string().nullable().optional(),
    /** Applied to every workspace of the organization. */
    global: maybe(z.boolean()),
    /** Its variables override a workspace's own (and the command line's). */
    priority: maybe(z.boolean()),
    "updated-at": maybe(z.string()),
    "var-count": maybe(z.number()),
    "workspace-count": maybe(z.number()),
    "project-count": maybe(z.number()),
  })
  .loose();

/** A variable set (`varsets`, id `varset-`). */
export const variableSetResourceSchema = resourceSchema("varsets", variableSetAttributesSchema);
/** A variable set as received. */
export type VariableSetResource = z.infer<typeof variableSetResourceSchema>;
/** Body of a response holding one variable set. */
export const variableSetDocumentSchema = documentSchema(variableSetResourceSchema);
/** Body of a list of variable sets. */
export const variableSetListDocumentSchema = listDocumentSchema(variableSetResourceSchema);

/** `include` values of a variable set read or list. */
export const VARIABLE_SET_INCLUDES = ["workspaces", "projects", "vars"] as const;

const nameSchema = z
  .string()
  .min(1, "can't be blank")
  .max(VARIABLE_SET_NAME_MAX, `is too long (maximum is ${VARIABLE_SET_NAME_MAX} characters)`);
const descriptionSchema = z
  .string()
  .max(VARIABLE_DESCRIPTION_MAX, `is too long (maximum is ${VARIABLE_DESCRIPTION_MAX} characters)`)
  .nullable();
const identifiers = (type: "workspaces" | "projects") =>
  z
    .object({ data: z.array(z.object({ type: z.literal(type), id: z.string().min(1) }).loose()) })
    .loose()
    .optional();
/** The owner of a set: the organization (the default) or one project, whose admins then manage it. */
const parentSchema = z
  .object({
    data: z
      .object({ type: z.enum(["organizations", "projects"]), id: z.string().min(1) })
      .loose()
      .nullable(),
  })
  .loose()
  .optional();

/** The attributes a create gives; an update gives any of them. */
const setAttributes = z
  .object({
    name: nameSchema,
    description: descriptionSchema.optional(),
    global: z.boolean().optional(),
    priority: z.boolean().optional(),
  })
  .loose();

/** Body of `POST /organizations/:org/varsets`: the set, and optionally where it applies and its first variables. */
export const variableSetCreateRequestSchema = z
  .object({
    /** The variable set to create. */
    data: z
      .object({
        type: z.literal("varsets"),
        attributes: setAttributes,
        relationships: z
          .object({
            workspaces: identifiers("workspaces"),
            projects: identifiers("projects"),
            vars: z
              .object({ data: z.array(variableCreateRequestSchema.shape.data) })
              .loose()
              .optional(),
            parent: parentSchema,
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that creates a variable set. */
export type VariableSetCreateRequest = z.infer<typeof variableSetCreateRequestSchema>;

/** Body of `PATCH /varsets/:id`: only the given attributes change; a relationship given replaces the set's list. */
export const variableSetUpdateRequestSchema = z
  .object({
    /** The changes to make. */
    data: z
      .object({
        type: z.literal("varsets"),
        attributes: setAttributes.extend({ name: nameSchema.optional() }).optional(),
        relationships: z
          .object({ workspaces: identifiers("workspaces"), projects: identifiers("projects") })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
/** Body of a request that updates a variable set. */
export type VariableSetUpdateRequest = z.infer<typeof variableSetUpdateRequestSchema>;

/** Body of `POST`/`DELETE /varsets/:id/relationships/workspaces`. */
export const variableSetWorkspacesBodySchema = identifiersBodySchema("workspaces");
/** Body of `POST`/`DELETE /varsets/:id/relationships/projects`. */
export const variableSetProjectsBodySchema = identifiersBodySchema("projects");

// Precedence

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
const WORKSPACE_RANK = 5;

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
    list.sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || a.order - b.order);
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
