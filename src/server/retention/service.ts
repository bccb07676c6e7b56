import type { ServerContext } from "../context";
import { NotFound } from "../domain-errors";
import { newId } from "../ids";
import { findOrganization } from "../organization/service";
import type { Db } from "../store/db";
import { inTransaction, now } from "../store/db";
import { deleteWorkspacePolicy, findWorkspacePolicy, upsertWorkspacePolicy, type PolicyRecord } from "./store";
import { DELETE_OLDER, type DONT_DELETE } from "../../api/data-retention";

export type { PolicyRecord };

/**
 * Data retention policies (spec 4.11), served only in self-managed mode; the hosted
 * offering has no such endpoints, so otherwise they answer 404 like any unknown path.
 * A policy is either "delete older than N days" or "don't delete", as in the
 * self-managed product.
 */

export function assertSelfManaged(ctx: ServerContext): void {
  if (!ctx.options.selfManaged)
    throw new NotFound("Data retention policies are only available in the self-managed offering.");
}

/** The policy that applies to a workspace: its own, else the organization's default, else none. */
export function policyOf(db: Db, ws: { id: string; organization: string }): PolicyRecord | null {
  const own = findWorkspacePolicy(db, ws.id);
  if (own) return own;
  const days = findOrganization(db, ws.organization)?.data_retention_days;
  return days == null ? null : { id: `drp-org-${ws.organization}`, kind: DELETE_OLDER, delete_older_than_n_days: days };
}

/** Sets the workspace's own policy (`days` for delete-older, null for don't-delete); the caller has checked `can-update`. */
export function setWorkspacePolicy(
  db: Db,
  workspaceId: string,
  kind: typeof DELETE_OLDER | typeof DONT_DELETE,
  days: number | null,
): PolicyRecord {
  return inTransaction(db, () => {
    const id = findWorkspacePolicy(db, workspaceId)?.id ?? newId("dataRetentionPolicy");
    const policy = { id, kind, delete_older_than_n_days: days };
    upsertWorkspacePolicy(db, workspaceId, policy, now());
    return policy;
  });
}

/** Removes the workspace's own policy, so the organization's default applies again; the caller has checked `can-update`. */
export function removeWorkspacePolicy(db: Db, workspaceId: string): void {
  inTransaction(db, () => deleteWorkspacePolicy(db, workspaceId));
}
