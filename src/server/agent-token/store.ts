import type { Db } from "../store/db";
import { prepare } from "../store/db";

/** An agent token: the digest of its secret, never the secret. */
export interface AgentTokenRecord {
  id: string;
  agent_pool_id: string;
  digest: string;
  description: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
}

export function insertAgentToken(db: Db, t: AgentTokenRecord): void {
  prepare(
    db,
    `INSERT INTO agent_tokens (id, agent_pool_id, digest, description, created_by, created_at, last_used_at)
     VALUES (@id, @agent_pool_id, @digest, @description, @created_by, @created_at, @last_used_at)`,
  ).run(t);
}

export function findAgentToken(db: Db, id: string): AgentTokenRecord | undefined {
  return prepare(db, `SELECT * FROM agent_tokens WHERE id = ?`).get(id) as AgentTokenRecord | undefined;
}

export function countAgentTokens(db: Db, poolId: string): number {
  return (prepare(db, `SELECT COUNT(*) AS n FROM agent_tokens WHERE agent_pool_id = ?`).get(poolId) as { n: number }).n;
}

/** A page of the pool's tokens, oldest first. */
export function agentTokensPage(db: Db, poolId: string, limit: number, offset: number): AgentTokenRecord[] {
  return prepare(
    db,
    `SELECT * FROM agent_tokens WHERE agent_pool_id = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
  ).all(poolId, limit, offset) as AgentTokenRecord[];
}

export function deleteAgentTokenRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM agent_tokens WHERE id = ?`).run(id);
}
