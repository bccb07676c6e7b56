/**
 * A workspace's data retention policy (spec 4.11; self-managed offering only). The spec
 * leaves the bodies open; these follow the self-managed service: a policy that deletes
 * data older than a number of days.
 */
import type { z } from "zod";
import { anyResourceSchema, documentSchema } from "../api/common";
import { type Transport, urlPath } from "./transport";

/** The data retention policy in force for a workspace. */
export interface DataRetentionPolicy {
  /** Policy id, or null when the service sends none. */
  id: string | null;
  /** `data-retention-policy-delete-olders` or `data-retention-policy-dont-deletes`. */
  type: string;
  /** Days after which backing data is deleted, when the policy is of that kind. */
  deleteOlderThanNDays: number | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** The policy to set: delete backing data older than N days, or never delete it. */
export type DataRetentionPolicyOptions = { deleteOlderThanNDays: number } | { dontDelete: true };

const retentionDocumentSchema = documentSchema(anyResourceSchema.nullable());
const retentionSetDocumentSchema = documentSchema(anyResourceSchema);

function toPolicy(r: z.infer<typeof anyResourceSchema>): DataRetentionPolicy {
  const a = r.attributes ?? {};
  const days = a["delete-older-than-n-days"];
  return {
    id: r.id ?? null,
    type: r.type,
    deleteOlderThanNDays: typeof days === "number" ? days : null,
    attributes: a,
  };
}

/** Data retention policy calls of a {@link WorkspacesClient} (`client.dataRetentionPolicy`). */
export class DataRetentionPolicies {
  constructor(private readonly transport: Transport) {}

  /** `GET`: the policy set on the workspace, else the organization default; null when neither exists. */
  async read(workspaceId: string): Promise<DataRetentionPolicy | null> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: this.path(workspaceId), repeat: "idempotent" },
      retentionDocumentSchema,
    );
    return doc.data ? toPolicy(doc.data) : null;
  }

  /**
   * `POST`: creates or replaces the workspace's policy: delete data older than a number of
   * days, or never delete. Setting the same policy twice is harmless, so it is retried like a read.
   */
  async set(workspaceId: string, options: DataRetentionPolicyOptions): Promise<DataRetentionPolicy> {
    const data =
      "deleteOlderThanNDays" in options
        ? {
            type: "data-retention-policy-delete-olders",
            attributes: { "delete-older-than-n-days": options.deleteOlderThanNDays },
          }
        : { type: "data-retention-policy-dont-deletes", attributes: {} };
    const doc = await this.transport.requestParsed(
      { method: "POST", path: this.path(workspaceId), body: { data }, repeat: "idempotent" },
      retentionSetDocumentSchema,
    );
    return toPolicy(doc.data);
  }

  /** `DELETE`: removes the workspace's own policy; the organization default applies again. */
  async delete(workspaceId: string): Promise<void> {
    await this.transport.request({ method: "DELETE", path: this.path(workspaceId), repeat: "idempotent" });
  }

  private path(workspaceId: string): string {
    return urlPath("workspaces", workspaceId, "relationships", "data-retention-policy");
  }
}
