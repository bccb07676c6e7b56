import { loadAgentPool } from "../agent-pool/service";
import { tokenDigest } from "../auth/service/authn";
import type { Caller } from "../auth/service/caller";
import { visible } from "../domain-errors";
import { newId, newToken } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, now, type Page } from "../store/db";
import {
  agentTokensPage,
  countAgentTokens,
  deleteAgentTokenRow,
  findAgentToken,
  insertAgentToken,
  type AgentTokenRecord,
} from "./store";

export type { AgentTokenRecord };

/**
 * A token of a pool the caller manages (owners, the organization token, teams with manage-agent-pools); anybody else,
 * and an unknown id, get the same 404.
 */
function loadAgentToken(db: Db, caller: Caller, id: string): AgentTokenRecord {
  return visible("agent token", findAgentToken(db, id), (t) => {
    loadAgentPool(db, caller, t.agent_pool_id, true);
  });
}

/**
 * Mints a token for the pool. Only the SHA-256 digest of the secret is kept (it is
 * generated, 475 random bits: nothing can guess it from the digest); the secret is
 * returned to the caller once, in the create's answer.
 */
export function createAgentToken(
  db: Db,
  caller: Caller,
  poolId: string,
  read: () => { description: string },
): { record: AgentTokenRecord; token: string } {
  const pool = loadAgentPool(db, caller, poolId, true);
  const { description } = read();
  const token = newToken();
  const record: AgentTokenRecord = {
    id: newId("authenticationToken"),
    agent_pool_id: pool.id,
    digest: tokenDigest(token),
    description,
    created_by: caller.principalId,
    created_at: now(),
    last_used_at: null,
  };
  inTransaction(db, () => insertAgentToken(db, record));
  return { record, token };
}

export function listAgentTokens(
  db: Db,
  caller: Caller,
  poolId: string,
  readPage: () => Page,
): { rows: AgentTokenRecord[]; total: number; page: Page } {
  const pool = loadAgentPool(db, caller, poolId, true);
  const page = readPage();
  return {
    rows: agentTokensPage(db, pool.id, page.size, (page.number - 1) * page.size),
    total: countAgentTokens(db, pool.id),
    page,
  };
}

export function readAgentToken(db: Db, caller: Caller, id: string): AgentTokenRecord {
  return loadAgentToken(db, caller, id);
}

export function deleteAgentToken(db: Db, caller: Caller, id: string): void {
  const t = loadAgentToken(db, caller, id);
  inTransaction(db, () => deleteAgentTokenRow(db, t.id));
}
