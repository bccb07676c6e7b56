import { assertMember } from "../auth/service/authz";
import type { Caller } from "../auth/service/caller";
import { Invalid, NameTaken, NotFound, visible } from "../domain-errors";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, now, onDuplicate, type Page } from "../store/db";
import {
  agentPoolsPage,
  agentPoolUsers,
  countAgentPools,
  deleteAgentPoolRow,
  findAgentPool,
  insertAgentPool,
  updateAgentPoolRow,
  type AgentPoolRecord,
} from "./store";

export type { AgentPoolRecord };

/** Creating pools takes an owner or the organization token; 404 otherwise. */
function assertAgentPoolCreator(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).owner && caller.kind !== "organization")
    throw new NotFound(`organization "${organization}" not found`);
}

/** A pool the caller may see (any member), or manage when `owner` is set (owners, the organization token); otherwise 404. */
export function loadAgentPool(db: Db, caller: Caller, id: string, owner: boolean): AgentPoolRecord {
  return visible("agent pool", findAgentPool(db, id), (p) => {
    const role = assertMember(db, caller, p.organization);
    return !owner || role.owner || caller.kind === "organization";
  });
}

export function createAgentPool(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { name: string; organizationScoped?: boolean },
): AgentPoolRecord {
  assertAgentPoolCreator(db, caller, organization);
  const input = read();
  const id = newId("agentPool");
  onDuplicate(
    () =>
      inTransaction(db, () =>
        insertAgentPool(db, {
          id,
          organization,
          name: input.name,
          organization_scoped: input.organizationScoped === false ? 0 : 1,
          created_at: now(),
        }),
      ),
    () => new NameTaken(),
  );
  return findAgentPool(db, id)!;
}

export function listAgentPools(
  db: Db,
  caller: Caller,
  organization: string,
  readPage: () => Page,
): { rows: AgentPoolRecord[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const page = readPage();
  return {
    rows: agentPoolsPage(db, organization, page.size, (page.number - 1) * page.size),
    total: countAgentPools(db, organization),
    page,
  };
}

export function updateAgentPool(
  db: Db,
  caller: Caller,
  id: string,
  read: () => { name?: string; organizationScoped?: boolean },
): AgentPoolRecord {
  const p = loadAgentPool(db, caller, id, true);
  const input = read();
  onDuplicate(
    () =>
      inTransaction(db, () =>
        updateAgentPoolRow(
          db,
          p.id,
          input.name ?? p.name,
          input.organizationScoped === undefined ? p.organization_scoped : input.organizationScoped ? 1 : 0,
        ),
      ),
    () => new NameTaken(),
  );
  return findAgentPool(db, p.id)!;
}

/** A pool that workspaces or the organization default still use is kept, as on the hosted service. */
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
