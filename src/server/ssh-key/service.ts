import { assertMember } from "../auth/service/authz";
import type { Caller } from "../auth/service/caller";
import { NotFound, visible } from "../domain-errors";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, now, type Page } from "../store/db";
import { countSshKeys, deleteSshKeyRow, findSshKey, insertSshKey, sshKeysPage, type SshKeyRecord } from "./store";

export type { SshKeyRecord };

/** Adding and deleting keys takes the organization's manage-workspaces permission; 404 otherwise. */
function assertSshKeyManager(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageWorkspaces)
    throw new NotFound(`organization "${organization}" not found`);
}

/** A key the caller may see (any member of its organization), or manage when `manage` is set; otherwise 404. */
export function loadSshKey(db: Db, caller: Caller, id: string, manage: boolean): SshKeyRecord {
  return visible("SSH key", findSshKey(db, id), (k) => {
    const role = assertMember(db, caller, k.organization);
    return !manage || role.manageWorkspaces;
  });
}

export function createSshKey(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { name: string; value: string },
): SshKeyRecord {
  assertSshKeyManager(db, caller, organization);
  const input = read();
  const id = newId("sshKey");
  inTransaction(db, () =>
    insertSshKey(db, { id, organization, name: input.name, value: input.value, created_at: now() }),
  );
  return findSshKey(db, id)!;
}

export function listSshKeys(
  db: Db,
  caller: Caller,
  organization: string,
  readPage: () => Page,
): { rows: SshKeyRecord[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const page = readPage();
  return {
    rows: sshKeysPage(db, organization, page.size, (page.number - 1) * page.size),
    total: countSshKeys(db, organization),
    page,
  };
}

export function deleteSshKey(db: Db, caller: Caller, id: string): void {
  const k = loadSshKey(db, caller, id, true);
  inTransaction(db, () => deleteSshKeyRow(db, k.id));
}

/** Whether the key exists in the organization (a workspace may only use its organization's keys). */
export function sshKeyInOrganization(db: Db, id: string, organization: string): boolean {
  const k = findSshKey(db, id);
  return k !== undefined && k.organization === organization;
}
