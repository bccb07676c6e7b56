/**
 * Provider of `AgentPoolAllowedWorkspaces`, `AgentPoolAllowedProjects` and
 * `AgentPoolExcludedWorkspaces`: one implementation for the three lists of an agent pool,
 * which differ only in the relationship, the kind of id and the argument's name. Id: the
 * pool's id (`apool-...`).
 *
 * The service only replaces a whole list (`PATCH /agent-pools/:id`), so additive mode is a
 * read-modify-write of the list, taken in turn per pool in this process (../process/in-turn.ts)
 * so that two resources adding to one pool in one `up` never lose each other's ids.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ID_PREFIXES, isId, type IdKind } from "../../api/common";
import type { AgentPool, WorkspacesClient } from "../../client";
import { ValidationError } from "../../client/typed-errors";
import { CLAIMANT_KEY, claimList, claimedItems, holderOf, type ListHolding } from "../process/claims";
import { inTurn } from "../process/in-turn";
import { allowanceDeclared, allowanceFailed, allowanceWritten } from "../process/agent-pool-allowances";
import { getClient, isNotFound } from "./client";
import { diffFields, sameStringSet, type FieldRule } from "./compare";
import { childRecord, unlessGone, updatedUnlessGone, type MissingRecord } from "./gone";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { AgentPoolAllowedWorkspacesArgs } from "../agent-pool-lists";
import type { OwnershipMode } from "../workspace-tags";

/** The three lists, by resource type name. */
export type AgentPoolListKind =
  "AgentPoolAllowedWorkspaces" | "AgentPoolAllowedProjects" | "AgentPoolExcludedWorkspaces";

/** What tells one list of a pool from another. */
interface ListSpec {
  /** The relationship on the wire, and the kind of claims in this process. */
  relationship: "allowed-workspaces" | "allowed-projects" | "excluded-workspaces";
  /** How messages name the list: `allowed workspaces`. */
  noun: string;
  /** The input that lists the ids, and the output of the ids an additive resource added. */
  arg: "workspaceIds" | "projectIds";
  added: "addedWorkspaceIds" | "addedProjectIds";
  /** The kind of id the list holds. */
  idKind: Extract<IdKind, "workspace" | "project">;
  /** Whether the list lets workspaces use the pool (see ../process/agent-pool-allowances.ts). */
  allows: boolean;
  of(pool: AgentPool): string[];
  write(client: WorkspacesClient, poolId: string, ids: string[]): Promise<AgentPool>;
}

const LISTS: Record<AgentPoolListKind, ListSpec> = {
  AgentPoolAllowedWorkspaces: {
    relationship: "allowed-workspaces",
    noun: "allowed workspaces",
    arg: "workspaceIds",
    added: "addedWorkspaceIds",
    idKind: "workspace",
    allows: true,
    of: (pool) => pool.allowedWorkspaceIds,
    write: (client, poolId, ids) => client.agentPools.updateAllowedWorkspaces(poolId, ids),
  },
  AgentPoolAllowedProjects: {
    relationship: "allowed-projects",
    noun: "allowed projects",
    arg: "projectIds",
    added: "addedProjectIds",
    idKind: "project",
    allows: true,
    of: (pool) => pool.allowedProjectIds,
    write: (client, poolId, ids) => client.agentPools.updateAllowedProjects(poolId, ids),
  },
  AgentPoolExcludedWorkspaces: {
    relationship: "excluded-workspaces",
    noun: "excluded workspaces",
    arg: "workspaceIds",
    added: "addedWorkspaceIds",
    idKind: "workspace",
    allows: false,
    of: (pool) => pool.excludedWorkspaceIds,
    write: (client, poolId, ids) => client.agentPools.updateExcludedWorkspaces(poolId, ids),
  },
};

/** Inputs as the engine hands them over (the list's argument under its own name). */
type ListInputs = pulumi.Unwrap<Omit<AgentPoolAllowedWorkspacesArgs, "workspaceIds">> & Props;

/** Outputs as stored in state: the list's ids and the added ids under the kind's own names. */
type ListOutputs = {
  agentPoolId: string;
  /** Absent when adopted through `get`. */
  mode?: OwnershipMode;
  /** The pool's organization, for the 404 rule. */
  organization?: string | null;
} & Props;

const MODES: readonly string[] = ["authoritative", "additive"];

function modeOf(p: { mode?: unknown }): OwnershipMode {
  return p.mode === "additive" ? "additive" : "authoritative";
}

function idsOf(v: unknown): string[] {
  return Array.isArray(v) ? Array.from(new Set(v.map(String))).sort() : [];
}

/** `apool-...`, or `apool-.../<list>` as an import may write it -> `apool-...`. */
function poolIdOf(id: string): string {
  const slash = id.indexOf("/");
  return slash > 0 ? id.slice(0, slash) : id;
}

function label(list: ListSpec, poolId: string): string {
  return `the ${list.noun} of agent pool ${poolId}`;
}

function missing(client: WorkspacesClient, list: ListSpec, poolId: string, props: Props): Promise<MissingRecord> {
  return childRecord(client, { label: label(list, poolId), kind: "agent pool" }, props, []);
}

function checkList(list: ListSpec, news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const pool = news.agentPoolId;
  if (pool === undefined || pool === null)
    failures.push({ property: "agentPoolId", reason: "agentPoolId is required" });
  else if (!isUnknown(pool) && !isId("agentPool", pool))
    failures.push({ property: "agentPoolId", reason: "agentPoolId must be an agent pool id (apool-...)" });
  if (news.mode !== undefined && !isUnknown(news.mode) && !MODES.includes(news.mode as string))
    failures.push({
      property: "mode",
      reason: `mode must be "authoritative" or "additive", not ${JSON.stringify(news.mode)}`,
    });
  const ids = news[list.arg];
  const prefix = `${list.idKind} id (${ID_PREFIXES[list.idKind]}...)`;
  if (ids === undefined || ids === null)
    failures.push({
      property: list.arg,
      reason: `${list.arg} is required (an empty list clears the pool's ${list.noun} in authoritative mode)`,
    });
  else if (!Array.isArray(ids)) {
    if (!isUnknown(ids)) failures.push({ property: list.arg, reason: `${list.arg} must be a list of ${prefix}s` });
  } else {
    const seen = new Set<unknown>();
    ids.forEach((id: unknown, i: number) => {
      if (isUnknown(id)) return;
      const property = `${list.arg}[${i}]`;
      if (!isId(list.idKind, id))
        failures.push({ property, reason: `${property}: must be a ${prefix}, not ${JSON.stringify(id)}` });
      else if (seen.has(id)) failures.push({ property, reason: `${property}: ${id} is listed twice` });
      seen.add(id);
    });
  }
  return failures;
}

/** What the resource holds of its list, for the claims: all of it, or the ids it adds. */
function holdingOf(list: ListSpec, inputs: Props): ListHolding {
  return {
    list: String(inputs.agentPoolId),
    items: modeOf(inputs) === "authoritative" ? "all" : idsOf(inputs[list.arg]),
  };
}

/**
 * The refusals of two resources of this stack on one list: two owners of the whole list, a
 * whole list and an additive resource, or two additive resources adding the same id.
 */
function claimFailures(list: ListSpec, news: Props, claimant: string): CheckFailure[] {
  const mode = modeOf(news);
  const conflicts = claimList(list.relationship, claimant, holdingOf(list, news));
  const seen = new Set<string>();
  const failures: CheckFailure[] = [];
  for (const c of conflicts) {
    if (seen.has(c.other)) continue;
    seen.add(c.other);
    const what =
      c.item !== undefined
        ? `both add ${c.item} to it`
        : `"${c.other}" is ${c.otherHolds === "all" ? "authoritative" : "additive"} and this one is ${mode}`;
    failures.push({
      property: c.item !== undefined ? list.arg : "agentPoolId",
      reason:
        `${label(list, String(news.agentPoolId))} are declared by two resources of this stack, this one and "${c.other}": ${what}. ` +
        `A list has one owner: keep one authoritative resource for the whole list, or only additive ones that each add different ids.`,
    });
  }
  return failures;
}

/** The outputs as the service shows the list: the managed ids (all of them in authoritative mode) and those this resource added. */
function outputsOf(
  list: ListSpec,
  poolId: string,
  organization: unknown,
  inputs: Props,
  current: string[],
  added: string[],
): ListOutputs {
  const mode = modeOf(inputs);
  const all = [...current].sort();
  return {
    agentPoolId: poolId,
    mode,
    [list.arg]: mode === "authoritative" ? all : idsOf(inputs[list.arg]).filter((id) => all.includes(id)),
    [list.added]: mode === "additive" ? added.filter((id) => all.includes(id)).sort() : [],
    organization: typeof organization === "string" && organization !== "" ? organization : null,
  };
}

/** The error of a create whose pool the service answered 404 for: agentPoolId names no pool this token may see. */
function noPool(list: ListSpec, poolId: string): ProviderError {
  return new ProviderError(
    `cannot set ${label(list, poolId)}: the service answered 404 for agent pool ${poolId}, so it does not exist or the token in use may not see it. ` +
      `Check agentPoolId, or use a token that may manage agent pools.`,
  );
}

/**
 * The write of the list. The pool was just read, so a 404 or a 422 concerns the ids it
 * lists: one message that names them and the way out.
 */
async function write(client: WorkspacesClient, list: ListSpec, poolId: string, ids: string[]): Promise<AgentPool> {
  try {
    return await list.write(client, poolId, ids);
  } catch (err) {
    const refused = err instanceof ValidationError;
    if (!refused && !isNotFound(err)) throw err;
    const why = refused
      ? `the service refused the list (${err.problems.map((p) => p.detail).join("; ")})`
      : "the service answered 404, so one of them does not exist or the token in use may not see it";
    throw new ProviderError(
      `cannot set ${label(list, poolId)} to ${JSON.stringify(ids)}: ${why}. ` +
        `Check ${list.arg}: each must be a ${list.idKind} of the pool's organization that the token may see.`,
    );
  }
}

/**
 * Brings the pool's list to the declaration, in the pool's turn: the whole list in
 * authoritative mode; in additive mode the declared ids added, and the ids this resource
 * added earlier and no longer declares removed. Writes nothing when the list already is as
 * it should be.
 */
function apply(list: ListSpec, poolId: string, inputs: Props, previouslyAdded: string[]): Promise<ListOutputs> {
  return inTurn(poolId, async () => {
    const client = getClient();
    // A 404 here is the pool's (create and update each say what it means).
    const pool = await client.agentPools.read(poolId);
    const current = list.of(pool);
    const desired = idsOf(inputs[list.arg]);
    let next = desired;
    let added: string[] = [];
    if (modeOf(inputs) === "additive") {
      const add = desired.filter((id) => !current.includes(id));
      // An id another resource of the stack declares in this update (handed over) stays.
      const kept = claimedItems(list.relationship, poolId);
      const drop = previouslyAdded.filter((id) => !desired.includes(id) && kept !== "all" && !kept.includes(id));
      next = [...current.filter((id) => !drop.includes(id)), ...add];
      added = Array.from(new Set([...previouslyAdded.filter((id) => desired.includes(id)), ...add]));
    }
    const after = sameStringSet(next, current) ? pool : await write(client, list, poolId, next);
    return outputsOf(list, poolId, pool.organization, inputs, list.of(after), added);
  });
}

/** The claimant of the allowance `inputs` declare (see ../process/agent-pool-allowances.ts), for a list that allows. */
function allowanceClaimant(list: ListSpec, poolId: string, inputs: Props): string {
  return holderOf(list.relationship, holdingOf(list, inputs)) ?? label(list, poolId);
}

/** `apply`, with the allowance of the pool said written (or failed) for the resources waiting for it. */
async function applyAllowing(list: ListSpec, poolId: string, inputs: Props, previouslyAdded: string[]) {
  const claimant = list.allows ? allowanceClaimant(list, poolId, inputs) : "";
  try {
    const outs = await apply(list, poolId, inputs, previouslyAdded);
    if (list.allows) allowanceWritten(poolId, claimant);
    return outs;
  } catch (err) {
    if (list.allows) allowanceFailed(poolId, claimant);
    throw err;
  }
}

const FIELDS = (list: ListSpec): FieldRule[] => [
  { name: "agentPoolId", replaces: true },
  { name: "mode", same: (a, b) => modeOf({ mode: a }) === modeOf({ mode: b }) },
  { name: list.arg, same: (a, b) => sameStringSet(a, b) },
];

/** The provider of one kind of list. */
export function agentPoolListProvider(kind: AgentPoolListKind): ProviderImpl<ListInputs, ListOutputs> {
  const list = LISTS[kind];
  const fields = FIELDS(list);
  return {
    async check(_olds, news) {
      const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
      if (inputs.mode === undefined) inputs.mode = "authoritative";
      const failures = checkList(list, inputs);
      const ids = inputs[list.arg];
      const complete = Array.isArray(ids) && !ids.some(isUnknown) && !isUnknown(inputs.mode);
      if (failures.length === 0 && typeof claimant === "string" && !isUnknown(inputs.agentPoolId)) {
        if (complete) failures.push(...claimFailures(list, inputs, claimant));
        if (failures.length === 0 && list.allows) allowanceDeclared(String(inputs.agentPoolId), claimant);
      }
      return { inputs, failures };
    },

    async diff(_id, olds, news) {
      const { changed, replaces } = diffFields(olds, news, fields);
      // Nothing to write: the allowance its check declared is on the service already, so
      // nothing waits for a create or update that will not come.
      if (changed.length === 0 && list.allows && !isUnknown(news.agentPoolId)) {
        const poolId = String(news.agentPoolId);
        allowanceWritten(poolId, allowanceClaimant(list, poolId, news));
      }
      return { changes: changed.length > 0, replaces };
    },

    async create(inputs) {
      const poolId = String(inputs.agentPoolId);
      const outs = await applyAllowing(list, poolId, inputs, []).catch((err: unknown) => {
        throw isNotFound(err) ? noPool(list, poolId) : err;
      });
      return { id: poolId, outs };
    },

    async read(id, props) {
      const poolId = poolIdOf(id);
      const client = getClient();
      return unlessGone(
        client,
        () => missing(client, list, poolId, props),
        "refresh",
        async () => {
          const pool = await client.agentPools.read(poolId);
          // Adopted through `get` or imported: the whole list, as an authoritative resource holds it.
          const inputs = props.mode === undefined ? { mode: "authoritative" } : props;
          const added = idsOf(props[list.added]);
          return {
            id: poolId,
            props: outputsOf(list, poolId, pool.organization ?? props.organization, inputs, list.of(pool), added),
          };
        },
        () => ({}),
      );
    },

    async update(id, olds, news) {
      const poolId = poolIdOf(id);
      const client = getClient();
      const record = await missing(client, list, poolId, olds);
      const previouslyAdded = modeOf(olds) === "additive" ? idsOf(olds[list.added]) : [];
      return {
        outs: await updatedUnlessGone(client, record, () => applyAllowing(list, poolId, news, previouslyAdded)),
      };
    },

    async delete(id, props) {
      const poolId = poolIdOf(id);
      const client = getClient();
      const ours = idsOf(props[list.added]);
      await unlessGone(
        client,
        () => missing(client, list, poolId, props),
        "delete",
        () =>
          inTurn(poolId, async () => {
            // What another resource of this stack declares of the list in this update (this
            // one renamed, or the list handed to other owners) stays.
            const kept = claimedItems(list.relationship, poolId);
            if (kept === "all") return;
            const current = list.of(await client.agentPools.read(poolId));
            const gone = modeOf(props) === "authoritative" ? current : ours;
            const next = current.filter((id) => !gone.includes(id) || kept.includes(id));
            // Written as is: a pool deleted since the read (its AgentPool deleted in parallel)
            // is a 404 that unlessGone judges, not a refused list.
            if (!sameStringSet(next, current)) await list.write(client, poolId, next);
          }),
        () => undefined,
      );
    },
  };
}
