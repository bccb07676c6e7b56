/**
 * Provider of `AgentPoolAllowedWorkspaces`, `AgentPoolAllowedProjects` and
 * `AgentPoolExcludedWorkspaces`: the three lists of an agent pool, served by the one
 * provider of lists (./record-lists.ts). Id: the pool's id (`apool-...`).
 *
 * The service only replaces a whole list (`PATCH /agent-pools/:id`). The lists that allow
 * workspaces tell the workspace settings waiting for them when their write landed
 * (../process/agent-pool-allowances.ts).
 */
import type { AgentPool } from "../../client";
import { allowanceDeclared, allowanceFailed, allowanceWritten } from "../process/agent-pool-allowances";
import { recordListProvider } from "./record-lists";
import type { ListOwner, RecordList } from "./record-list-rules";
import type { ProviderImpl } from "./types";

/** The three lists, by resource type name. */
export type AgentPoolListKind =
  "AgentPoolAllowedWorkspaces" | "AgentPoolAllowedProjects" | "AgentPoolExcludedWorkspaces";

const POOL: ListOwner<AgentPool> = {
  arg: "agentPoolId",
  idKind: "agentPool",
  noun: "agent pool",
  short: "pool",
  manager: "a token that may manage agent pools",
  read: (client, id) => client.agentPools.read(id),
  organization: (pool) => pool.organization,
};

/** What a list that lets workspaces use the pool tells those waiting for it. */
const ALLOWS = { declared: allowanceDeclared, written: allowanceWritten, failed: allowanceFailed };

const LISTS: Record<AgentPoolListKind, RecordList<AgentPool>> = {
  AgentPoolAllowedWorkspaces: {
    owner: POOL,
    relationship: "allowed-workspaces",
    noun: "allowed workspaces",
    arg: "workspaceIds",
    added: "addedWorkspaceIds",
    idKind: "workspace",
    signals: ALLOWS,
    of: (pool) => pool.allowedWorkspaceIds,
    write: async (client, poolId, _current, ids) =>
      (await client.agentPools.updateAllowedWorkspaces(poolId, ids)).allowedWorkspaceIds,
  },
  AgentPoolAllowedProjects: {
    owner: POOL,
    relationship: "allowed-projects",
    noun: "allowed projects",
    arg: "projectIds",
    added: "addedProjectIds",
    idKind: "project",
    signals: ALLOWS,
    of: (pool) => pool.allowedProjectIds,
    write: async (client, poolId, _current, ids) =>
      (await client.agentPools.updateAllowedProjects(poolId, ids)).allowedProjectIds,
  },
  AgentPoolExcludedWorkspaces: {
    owner: POOL,
    relationship: "excluded-workspaces",
    noun: "excluded workspaces",
    arg: "workspaceIds",
    added: "addedWorkspaceIds",
    idKind: "workspace",
    of: (pool) => pool.excludedWorkspaceIds,
    write: async (client, poolId, _current, ids) =>
      (await client.agentPools.updateExcludedWorkspaces(poolId, ids)).excludedWorkspaceIds,
  },
};

/** The provider of one kind of list. */
export function agentPoolListProvider(kind: AgentPoolListKind): ProviderImpl {
  return recordListProvider(LISTS[kind]);
}
