/**
 * The agent pool lookup (./lookups.ts), for both doors: a pool by organization and name,
 * with its scope and the lists of who may use it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { WorkspacesClient } from "../client";
import { fail } from "./lookup-client";
import { poolByName } from "./providers/agent-pool";

/** Arguments of {@link getAgentPool}. */
export interface GetAgentPoolArgs {
  /** Name of the agent pool. */
  name: string;
  /** Organization of the pool. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: string;
}

/** Arguments of {@link getAgentPoolOutput}: those of {@link GetAgentPoolArgs}, each a `pulumi.Input`. */
export interface GetAgentPoolOutputArgs {
  /** Name of the agent pool. */
  name: pulumi.Input<string>;
  /** Organization of the pool. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: pulumi.Input<string>;
}

/** Result of {@link getAgentPool}. */
export interface GetAgentPoolResult {
  /** Agent pool id (`apool-...`), for `WorkspaceSettings.agentPoolId`, `AgentToken` and the pool's lists. */
  id: string;
  /** Name of the pool. */
  name: string;
  /** Organization of the pool. */
  organization: string;
  /** Whether every workspace of the organization may use the pool; when false, only those its lists allow. */
  organizationScoped: boolean;
  /** Workspaces the pool allows (`ws-...`). */
  allowedWorkspaceIds: string[];
  /** Projects whose workspaces the pool allows (`prj-...`). */
  allowedProjectIds: string[];
  /** Workspaces the pool never serves, whatever else allows them (`ws-...`). */
  excludedWorkspaceIds: string[];
}

/** The arguments of {@link getAgentPool} as validated. */
export const agentPoolArgsSchema = z
  .object({ name: z.string().min(1), organization: z.string().min(1).optional() })
  .strict();

/** The pool `name` of `organization`, as the lookup `fn` reports it; fails when the token sees none. */
export async function readAgentPool(
  fn: string,
  client: WorkspacesClient,
  organization: string,
  name: string,
): Promise<GetAgentPoolResult> {
  const found = await poolByName(client, organization, name);
  if (!found)
    throw fail(
      fn,
      `no agent pool "${name}" in organization "${organization}" that the token in use may see: it does not exist, or the token may not see the organization's agent pools`,
    );
  // The list's entries may leave the lists out: the pool's own read names them.
  const pool = await client.agentPools.read(found.id);
  return {
    id: pool.id,
    name: pool.name,
    organization: pool.organization ?? organization,
    organizationScoped: pool.organizationScoped ?? true,
    allowedWorkspaceIds: pool.allowedWorkspaceIds,
    allowedProjectIds: pool.allowedProjectIds,
    excludedWorkspaceIds: pool.excludedWorkspaceIds,
  };
}
