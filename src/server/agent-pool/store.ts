import type { Db } from "../store/db";
import { prepare } from "../store/db";

/** Agent pools are records only, so that `agent-pool-id` can be validated; no agent ever runs here. */
export interface AgentPoolRecord {
  id: string;
  organization: string;
  name: string;
  organization_scoped: number;
  created_at: string;
}

export function insertAgentPool(db: Db, p: AgentPoolRecord): void {
  prepare(
    db,
    `INSERT INTO agent_pools (id, organization, name, organization_scoped, created_at) VALUES (?, ?, ?, ?, ?)`,
  ).run(p.id, p.organization, p.name, p.organization_scoped, p.created_at);
}

export function findAgentPool(db: Db, id: string): AgentPoolRecord | undefined {
  return prepare(db, `SELECT * FROM agent_pools WHERE id = ?`).get(id) as AgentPoolRecord | undefined;
}

export function countAgentPools(db: Db, organization: string): number {
  return (
    prepare(db, `SELECT COUNT(*) AS n FROM agent_pools WHERE organization = ?`).get(organization) as { n: number }
  ).n;
}

export function agentPoolsPage(db: Db, organization: string, limit: number, offset: number): AgentPoolRecord[] {
  return prepare(db, `SELECT * FROM agent_pools WHERE organization = ? ORDER BY name LIMIT ? OFFSET ?`).all(
    organization,
    limit,
    offset,
  ) as AgentPoolRecord[];
}

export function updateAgentPoolRow(db: Db, id: string, name: string, organizationScoped: number): void {
  prepare(db, `UPDATE agent_pools SET name = ?, organization_scoped = ? WHERE id = ?`).run(
    name,
    organizationScoped,
    id,
  );
}

export function deleteAgentPoolRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM agent_pools WHERE id = ?`).run(id);
}

/**
 * Who still uses the pool: workspaces running on it, and whether it is its
 * organization's default. Read here, not through the workspace and organization
 * services, because both of those check pools through this domain.
 */
export function agentPoolUsers(db: Db, id: string): { workspaces: number; organizationDefault: boolean } {
  const workspaces = (
    prepare(db, `SELECT COUNT(*) AS n FROM workspaces WHERE agent_pool_id = ?`).get(id) as { n: number }
  ).n;
  const organizationDefault = !!prepare(db, `SELECT 1 FROM organizations WHERE default_agent_pool_id = ?`).get(id);
  return { workspaces, organizationDefault };
}
