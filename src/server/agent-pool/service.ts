import { AGENT_POOL_LISTS, AGENT_POOL_LIST_TYPES, AGENT_POOL_NOT_ALLOWED_DETAIL } from "../../api/agent-pools";
import { assertMember } from "../auth/service/authz";
import type { Caller } from "../auth/service/caller";
import { Invalid, NameTaken, NotFound, failIfAny, visible, type Failure } from "../domain-errors";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, now, onDuplicate, type Page } from "../store/db";
import {
  agentPoolLists,
  agentPoolsPage,
  agentPoolUsers,
  countAgentPools,
  deleteAgentPoolRow,
  findAgentPool,
  idsInOrganization,
  insertAgentPool,
  isAgentPoolSort,
  poolAllows,
  replaceAgentPoolList,
  updateAgentPoolRow,
  workspacesOnPools,
  type AgentPoolFilter,
  type AgentPoolLists,
  type AgentPoolRecord,
} from "./store";

export type { AgentPoolRecord };

/** What a create or update gives: attributes, and the lists to replace (an absent list is kept). */
export interface AgentPoolInput {
  name?: string;
  organizationScoped?: boolean;
  lists: Partial<AgentPoolLists>;
}

/** A pool with its lists and the workspaces running on it, as a document shows it. */
export interface AgentPoolView {
  pool: AgentPoolRecord;
  lists: AgentPoolLists;
  workspaces: string[];
}

/** Creating pools takes an owner, the organization token or a team with manage-agent-pools; 404 otherwise. */
function assertAgentPoolCreator(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageAgentPools)
    throw new NotFound(`organization "${organization}" not found`);
}

/** A pool the caller may see (any member), or manage when `owner` is set (owners, the organization token, teams with manage-agent-pools); otherwise 404. */
export function loadAgentPool(db: Db, caller: Caller, id: string, owner: boolean): AgentPoolRecord {
  return visible("agent pool", findAgentPool(db, id), (p) => {
    const role = assertMember(db, caller, p.organization);
    return !owner || role.manageAgentPools;
  });
}

/** Each pool with its lists and the workspaces on it, read in a few queries for a whole page. */
function agentPoolViews(db: Db, pools: readonly AgentPoolRecord[]): AgentPoolView[] {
  const ids = pools.map((p) => p.id);
  const lists = agentPoolLists(db, ids);
  const workspaces = workspacesOnPools(db, ids);
  return pools.map((pool) => ({ pool, lists: lists.get(pool.id)!, workspaces: workspaces.get(pool.id)! }));
}

/** The view of one pool the caller may see. */
export function readAgentPool(db: Db, caller: Caller, id: string): AgentPoolView {
  return agentPoolViews(db, [loadAgentPool(db, caller, id, false)])[0];
}

const NOUN: Record<"workspaces" | "projects" | "policies", string> = {
  workspaces: "workspace",
  projects: "project",
  policies: "policy",
};

/**
 * The given lists without repeats, once every id is found to be a record of the
 * organization (of the kind `types` gives each list); otherwise one failure per unknown
 * id, at `field(list, item)`. Agent pools' and policy sets' lists are checked here.
 */
export function checkedIdLists<L extends string>(
  db: Db,
  organization: string,
  given: Partial<Record<L, string[]>>,
  types: Readonly<Record<L, "workspaces" | "projects" | "policies">>,
  field: (list: L, item: number) => Failure["field"],
): Partial<Record<L, string[]>> {
  const failures: Failure[] = [];
  const out: Partial<Record<L, string[]>> = {};
  for (const list of Object.keys(types) as L[]) {
    const ids = given[list];
    if (ids === undefined) continue;
    const kind = types[list];
    const found = idsInOrganization(db, kind, organization, ids);
    ids.forEach((id, item) => {
      if (!found.has(id))
        failures.push({
          detail: `${NOUN[kind]} ${JSON.stringify(id)} not found in organization ${organization}`,
          field: field(list, item),
        });
    });
    out[list] = [...new Set(ids)];
  }
  failIfAny(failures);
  return out;
}

function checkedLists(db: Db, organization: string, given: Partial<AgentPoolLists>): Partial<AgentPoolLists> {
  return checkedIdLists(db, organization, given, AGENT_POOL_LIST_TYPES, (list, item) => ({
    relationship: list,
    item,
    id: true,
  }));
}

function writeLists(db: Db, id: string, lists: Partial<AgentPoolLists>): void {
  for (const list of AGENT_POOL_LISTS) {
    const ids = lists[list];
    if (ids !== undefined) replaceAgentPoolList(db, id, list, ids);
  }
}

export function createAgentPool(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => AgentPoolInput & { name: string },
): AgentPoolView {
  assertAgentPoolCreator(db, caller, organization);
  const input = read();
  const id = newId("agentPool");
  onDuplicate(
    () =>
      inTransaction(db, () => {
        const lists = checkedLists(db, organization, input.lists);
        insertAgentPool(db, {
          id,
          organization,
          name: input.name,
          organization_scoped: input.organizationScoped === false ? 0 : 1,
          created_at: now(),
        });
        writeLists(db, id, lists);
      }),
    () => new NameTaken(),
  );
  return agentPoolViews(db, [findAgentPool(db, id)!])[0];
}

/** What a list of pools reads: the page, the filters and the order (`name` unless asked). */
export interface AgentPoolQuery {
  page: Page;
  filter: AgentPoolFilter;
  sort?: string;
}

export function listAgentPools(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => AgentPoolQuery,
): { rows: AgentPoolView[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const { page, filter, sort = "name" } = read();
  if (!isAgentPoolSort(sort))
    throw new Invalid(`sort must be name, -name, created-at or -created-at, not ${JSON.stringify(sort)}`, {
      parameter: "sort",
    });
  return {
    rows: agentPoolViews(db, agentPoolsPage(db, organization, filter, sort, page.size, (page.number - 1) * page.size)),
    total: countAgentPools(db, organization, filter),
    page,
  };
}

/**
 * Applies a PATCH: absent attributes and lists keep their value, a given list replaces
 * the pool's. A workspace taken off the lists while it runs on the pool stays on it, as
 * on the hosted service; the rule holds for the next write that puts one on the pool.
 */
export function updateAgentPool(db: Db, caller: Caller, id: string, read: () => AgentPoolInput): AgentPoolView {
  const p = loadAgentPool(db, caller, id, true);
  const input = read();
  onDuplicate(
    () =>
      inTransaction(db, () => {
        const lists = checkedLists(db, p.organization, input.lists);
        updateAgentPoolRow(
          db,
          p.id,
          input.name ?? p.name,
          input.organizationScoped === undefined ? p.organization_scoped : input.organizationScoped ? 1 : 0,
        );
        writeLists(db, p.id, lists);
      }),
    () => new NameTaken(),
  );
  return agentPoolViews(db, [findAgentPool(db, p.id)!])[0];
}

/** A pool that workspaces or the organization default still use is kept, as on the hosted service; its tokens go with it. */
export function deleteAgentPool(db: Db, caller: Caller, id: string): void {
  const p = loadAgentPool(db, caller, id, true);
  inTransaction(db, () => {
    const users = agentPoolUsers(db, p.id);
    if (users.workspaces > 0 || users.organizationDefault) {
      throw new Invalid(
        `agent pool ${p.name} is still in use (${users.workspaces} workspaces${users.organizationDefault ? ", the organization default" : ""}); move them to another execution mode or pool first`,
      );
    }
    deleteAgentPoolRow(db, p.id);
  });
}

/** Whether the pool exists in the organization (workspaces, projects and organization defaults may only name their organization's pools). */
export function agentPoolInOrganization(db: Db, id: string, organization: string): boolean {
  const p = findAgentPool(db, id);
  return p !== undefined && p.organization === organization;
}

/**
 * Refuses, with the service's 422, to put a workspace of `projectId` (id `workspaceId`
 * once it exists) on a pool that does not let it run there: see `poolAllows`.
 */
export function assertPoolAllows(db: Db, poolId: string, projectId: string, workspaceId?: string): void {
  const pool = findAgentPool(db, poolId);
  if (pool && !poolAllows(db, pool, projectId, workspaceId))
    throw new Invalid(AGENT_POOL_NOT_ALLOWED_DETAIL, { attribute: "agent-pool-id" });
}
