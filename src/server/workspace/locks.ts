import type { ServerContext } from "../context";
import type { Caller } from "../auth/service/caller";
import { inTransaction } from "../store/db";
import { Conflict } from "../domain-errors";
import { ID_PREFIXES } from "../../api/common";
import * as store from "./store";
import { findWorkspaceById } from "./store";
import { loadWorkspaceWith, type AccessibleWorkspace } from "./service";

/** The lock state machine of spec 3: lock, unlock by the holder, force-unlock by an admin. */

/** Locks the workspace for the caller; `read` gives the reason once the caller may lock it. */
export function lockWorkspace(ctx: ServerContext, caller: Caller, id: string, read: () => string): AccessibleWorkspace {
  return inTransaction(ctx.db, () => {
    const { ws, permissions } = loadWorkspaceWith(ctx, caller, { id }, "can-lock");
    const reason = read();
    if (ws.locked === 1)
      throw new Conflict("already-locked", "Unable to lock workspace. The workspace is already locked.");
    store.setLock(ctx.db, ws.id, reason, caller.principalId);
    return { ws: findWorkspaceById(ctx.db, ws.id)!, permissions };
  });
}

/**
 * Unlocks a workspace locked by the caller. The unlock hooks run first (the state-version
 * domain settles the versions uploaded under the lock there, and may refuse the unlock).
 */
export function unlockWorkspace(ctx: ServerContext, caller: Caller, id: string): AccessibleWorkspace {
  return inTransaction(ctx.db, () => {
    const { ws, permissions } = loadWorkspaceWith(ctx, caller, { id }, "can-unlock");
    if (ws.locked !== 1)
      throw new Conflict("not-locked", "Unable to unlock workspace. The workspace is already unlocked.");
    if (ws.locked_by !== caller.principalId) {
      throw new Conflict(
        "locked-by-another-user",
        `Unable to unlock workspace. The workspace is locked by ${lockHolder(ctx, ws.locked_by)}; its holder unlocks it, or an admin force-unlocks it.`,
      );
    }
    for (const hook of ctx.hooks.workspaceUnlock) hook(ctx, ws, false);
    store.clearLock(ctx.db, ws.id);
    return { ws: findWorkspaceById(ctx.db, ws.id)!, permissions };
  });
}

/**
 * Names the kind of the lock holder the way the hosted service does (`Team <name>`,
 * `User <name>`, `Run <id>`); clients tell the cases apart by that word.
 */
function lockHolder(ctx: ServerContext, principal: string | null): string {
  if (!principal) return "User unknown";
  if (principal.startsWith(ID_PREFIXES.run)) return `Run ${principal}`;
  const named = store.principalName(ctx.db, principal);
  return named ? `${named.kind} ${named.name}` : `User ${principal}`;
}

/** Admin override: unlocks whoever holds the lock, abandoning unsettled intermediate state. */
export function forceUnlockWorkspace(ctx: ServerContext, caller: Caller, id: string): AccessibleWorkspace {
  return inTransaction(ctx.db, () => {
    const { ws, permissions } = loadWorkspaceWith(ctx, caller, { id }, "can-force-unlock");
    if (ws.locked !== 1)
      throw new Conflict("not-locked", "Unable to unlock workspace. The workspace is already unlocked.");
    for (const hook of ctx.hooks.workspaceUnlock) hook(ctx, ws, true);
    store.clearLock(ctx.db, ws.id);
    return { ws: findWorkspaceById(ctx.db, ws.id)!, permissions };
  });
}
