/** Safe and forced deletion of a workspace, shared by `Workspace` and `NoCodeWorkspace`. */
import { ConflictError, FeatureUnavailableError, ForbiddenError, capDetail, type WorkspacesClient } from "../../client";
import { isNotFound } from "./client";
import { ProviderError, withWayOut } from "./user-errors";
import { confirmGone, workspaceLabel } from "./gone";
import { reportStatus } from "../process/engine-status";
import { sleep } from "../../client/limiter";

/** How a service detail quoted in a message says it was shortened (the message is all a user sees). */
const SHORTENED = "of the service's detail left out";

/** How long a "still processing" conflict is waited out before giving up. */
const STILL_PROCESSING_BUDGET_MS = 120_000;

export interface DeleteOptions {
  force: boolean;
  /** For messages: the workspace's name when known. */
  name?: string;
  /** Organization recorded in state: a 404 means "already deleted" only when the token could have seen the workspace. */
  organization?: unknown;
  budgetMs?: number;
}

/**
 * Deletes a workspace. Safe delete unless `force`; an already deleted workspace is
 * success; a workspace still managing resources is an error naming `forceDelete`.
 */
export async function deleteWorkspace(
  client: WorkspacesClient,
  workspaceId: string,
  options: DeleteOptions,
): Promise<void> {
  const label = workspaceLabel(workspaceId, options.name);
  const budget = options.budgetMs ?? STILL_PROCESSING_BUDGET_MS;
  const started = Date.now();
  let pause = 250;
  for (;;) {
    try {
      if (options.force) await client.workspaces.forceDelete(workspaceId);
      else await client.workspaces.safeDelete(workspaceId);
      return;
    } catch (err) {
      // Never a force delete in place of the safe delete the resource asked for.
      if (err instanceof FeatureUnavailableError) throw withWayOut(err, `delete ${label}`);
      if (isNotFound(err)) {
        await confirmGone(client, { label, organization: options.organization, kind: "workspace" }, "delete");
        return;
      }
      if (err instanceof ForbiddenError) {
        throw new ProviderError(
          `cannot force delete ${label}: the token is not allowed to (by default only organization owners may force delete; ` +
            `owners can allow workspace admins). ${capDetail(err.detail, SHORTENED)}`.trim(),
        );
      }
      if (err instanceof ConflictError && err.reason === "still-processing" && Date.now() - started + pause <= budget) {
        reportStatus(
          `waiting for the service to finish processing ${label} before deleting it (${Math.round((Date.now() - started) / 1000)}s of ${Math.round(budget / 1000)}s)`,
        );
        await sleep(pause);
        pause = Math.min(pause * 2, 5_000);
        continue;
      }
      if (err instanceof ConflictError && !options.force && err.reason === "locked") {
        throw new ProviderError(
          `cannot delete ${label}: the workspace is locked, and safe delete refuses a locked workspace (whoever holds the lock may be writing its state). ` +
            `Unlock it (or let the run or the WorkspaceLock resource that holds it finish) and run again, or set forceDelete: true on the resource ` +
            `(and run \`pulumi up\` before destroying) to delete it anyway.${err.detail ? ` Service: ${capDetail(err.detail, SHORTENED)}` : ""}`,
        );
      }
      if (err instanceof ConflictError && !options.force && err.reason !== "still-processing") {
        throw new ProviderError(
          `cannot delete ${label}: the workspace still manages resources, so safe delete refused it. ` +
            `Destroy those resources first, or set forceDelete: true on the resource (and run \`pulumi up\` before destroying) ` +
            `to delete it anyway.${err.detail ? ` Service: ${capDetail(err.detail, SHORTENED)}` : ""}`,
        );
      }
      if (err instanceof ConflictError) {
        throw new ProviderError(
          `cannot delete ${label}: the service is still processing it after ${Math.round(budget / 1000)}s. ${capDetail(err.detail, SHORTENED)}`.trim(),
        );
      }
      throw err;
    }
  }
}
