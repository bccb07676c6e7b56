/**
 * Seeds where runs execute, over the service's API, on top of {@link seedOrganization}
 * (which makes the organization-scoped pool `on-prem` and puts every fifth workspace on
 * it): a pool `private` that is not organization-scoped, with allowed workspaces, an
 * allowed project and an excluded workspace, a workspace moved onto it, and agent tokens
 * of both pools, two of them sharing a description.
 */
import type { WorkspacesClient } from "../../src/client";
import { workspaceName, type Seeded } from "./seed";

export interface SeededPools {
  /** The organization-scoped pool seedOrganization made. */
  onPrem: string;
  /** The pool that is not organization-scoped. */
  private: string;
  /** Token ids by `<pool>-<description>`, of the tokens whose description is their pool's alone. */
  tokens: Map<string, string>;
  /** The ids of the two tokens of `private` that share the description `old`. */
  shared: string[];
  /** Every token's secret: none may appear in a generated file. */
  secrets: string[];
}

/** Workspace indexes, as seedOrganization names them: allowed on `private` (the first runs on it), and excluded from it. */
export const ALLOWED = [5, 10];
export const EXCLUDED = 2;

export async function seedAgentPools(client: WorkspacesClient, seeded: Seeded): Promise<SeededPools> {
  const org = client.organization!;
  const ws = (i: number) => seeded.ids.get(workspaceName(i))!;
  const onPrem = seeded.agentPoolId;
  const pool = await client.agentPools.create(org, { name: "private", organizationScoped: false });
  await client.agentPools.updateAllowedWorkspaces(pool.id, ALLOWED.map(ws));
  // app-2 is in the data project (projects[i % 4]); the pool allows the project but not app-2.
  await client.agentPools.updateAllowedProjects(pool.id, [seeded.projects[2]]);
  await client.agentPools.updateExcludedWorkspaces(pool.id, [ws(EXCLUDED)]);
  await client.workspaces.update(ws(ALLOWED[0]), { executionMode: "agent", agentPoolId: pool.id });

  const tokens = new Map<string, string>();
  const shared: string[] = [];
  const secrets: string[] = [];
  for (const [poolName, poolId, description] of [
    ["on-prem", onPrem, "ci runners"],
    ["on-prem", onPrem, "build"],
    ["private", pool.id, "vpc agents"],
    ["private", pool.id, "old"],
    ["private", pool.id, "old"],
  ]) {
    const t = await client.agentTokens.create(poolId, description);
    if (t.token) secrets.push(t.token);
    if (description === "old") shared.push(t.id);
    else tokens.set(`${poolName}-${description}`, t.id);
  }
  return { onPrem, private: pool.id, tokens, shared: shared.sort(), secrets };
}
