/** Provider of `WorkspaceLock` (spec 3, 4.7). */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { ConflictError, capDetail } from "../../client";
import { getClient, isNotFound } from "./client";
import { ProviderError } from "./user-errors";
import { confirmGone, dependentRecord, unlessGone } from "./gone";
import { diffFields, sameOptionalString, type FieldRule } from "./compare";
import { isUnknown } from "./unknowns";
import { workspaceIdOf } from "./workspace-tags";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { WorkspaceLockArgs } from "../workspace-lock";

/** Inputs as the engine hands them over. */
type WorkspaceLockInputs = pulumi.Unwrap<WorkspaceLockArgs>;

/** Outputs as stored in state. */
type WorkspaceLockOutputs = {
  workspaceId: string;
  /** Absent from state written before the organization was recorded. */
  organization?: string | null;
  reason: string;
  force: boolean;
  locked: boolean;
  lockedBy: string | null;
};

const FIELDS: FieldRule[] = [
  { name: "workspaceId", replaces: true },
  // The reason is stored when locking; changing it means locking again.
  { name: "reason", replaces: true, same: sameOptionalString },
  { name: "force", same: (a, b) => Boolean(a) === Boolean(b) },
];

function outputsOf(
  ws: {
    id: string;
    organization?: string | null;
    locked: boolean;
    lockedReason: string | null;
    lockedById: string | null;
  },
  inputs: { organization?: string | null; reason?: string; force?: boolean },
): WorkspaceLockOutputs {
  return {
    workspaceId: ws.id,
    organization: ws.organization ?? inputs.organization ?? null,
    reason: ws.lockedReason ?? inputs.reason ?? "",
    force: Boolean(inputs.force),
    locked: ws.locked,
    lockedBy: ws.lockedById,
  };
}

export const workspaceLockProvider: ProviderImpl<WorkspaceLockInputs & Props, WorkspaceLockOutputs> = {
  async check(_olds, news) {
    const failures: CheckFailure[] = [];
    if (news.workspaceId === undefined) failures.push({ property: "workspaceId", reason: "workspaceId is required" });
    else if (!isUnknown(news.workspaceId) && !isId("workspace", news.workspaceId)) {
      failures.push({ property: "workspaceId", reason: "workspaceId must be a workspace id (ws-...)" });
    }
    if (news.reason !== undefined && !isUnknown(news.reason) && typeof news.reason !== "string") {
      failures.push({ property: "reason", reason: "reason must be a string" });
    }
    if (news.force !== undefined && !isUnknown(news.force) && typeof news.force !== "boolean") {
      failures.push({ property: "force", reason: "force must be true or false" });
    }
    return { inputs: news, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },

  async create(inputs) {
    const client = getClient();
    const workspaceId = String(inputs.workspaceId);
    try {
      const ws = await client.workspaces.lock(workspaceId, inputs.reason ?? "");
      return { id: `${workspaceId}/lock`, outs: outputsOf(ws, inputs) };
    } catch (err) {
      if (err instanceof ConflictError) {
        let holder = "";
        try {
          const ws = await client.workspaces.read(workspaceId);
          holder = ` by ${ws.lockedById ?? "an unknown holder"}${ws.lockedReason ? ` (reason: ${capDetail(ws.lockedReason, "of the reason left out")})` : ""}`;
        } catch {
          // The conflict itself is the news; the holder is a courtesy.
        }
        throw new ProviderError(
          `cannot lock workspace ${workspaceId}: it is already locked${holder}. ${capDetail(err.detail, "of the service's detail left out")}`.trim(),
        );
      }
      throw err;
    }
  },

  async read(id, props) {
    const workspaceId = workspaceIdOf(id);
    const client = getClient();
    const ws = await unlessGone(
      client,
      () => dependentRecord(client, "lock", workspaceId, props),
      "refresh",
      () => client.workspaces.read(workspaceId),
      () => undefined,
    );
    // Gone with its workspace, or unlocked out of band: the lock this resource stands for is gone.
    if (!ws || !ws.locked) return {};
    return { id: `${workspaceId}/lock`, props: outputsOf(ws, props) };
  },

  async update(_id, olds, news) {
    return { outs: { ...olds, force: Boolean(news.force) } };
  },

  async delete(id, props) {
    const client = getClient();
    const workspaceId = workspaceIdOf(id);
    try {
      if (props.force) await client.workspaces.forceUnlock(workspaceId);
      else await client.workspaces.unlock(workspaceId);
    } catch (err) {
      if (isNotFound(err)) {
        await confirmGone(client, await dependentRecord(client, "lock", workspaceId, props), "delete");
        return;
      }
      if (err instanceof ConflictError && err.reason === "not-locked") return;
      if (err instanceof ConflictError && err.reason === "locked-by-another-user") {
        throw new ProviderError(
          `cannot unlock workspace ${workspaceId}: another user holds the lock now. Set force: true on the WorkspaceLock ` +
            `(needs admin access; run \`pulumi up\` before destroying) to force-unlock it. ${capDetail(err.detail, "of the service's detail left out")}`.trim(),
        );
      }
      throw err;
    }
  },
};
