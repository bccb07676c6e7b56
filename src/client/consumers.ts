/**
 * Remote state consumers (spec 4.9): which workspaces may read a workspace's state.
 * Replace, add and remove are idempotent on the service (present items are ignored on
 * add, absent ones on remove), so they are retried like reads.
 */
import { workspaceListDocumentSchema } from "../api/workspaces";
import { type PagedList, pagedGet } from "./pagination";
import { orUnavailable, workspaceOwner } from "./features";
import { type Transport, urlPath } from "./transport";
import { toWorkspace, type Workspace } from "./workspaces";

/** Remote state consumer calls of a {@link WorkspacesClient} (`client.remoteStateConsumers`). */
export class RemoteStateConsumers {
  constructor(private readonly transport: Transport) {}

  /** `GET /workspaces/:id/relationships/remote-state-consumers`, 100 per page. */
  list(workspaceId: string): PagedList<Workspace> {
    return pagedGet(this.transport, this.path(workspaceId), {}, workspaceListDocumentSchema, toWorkspace);
  }

  /** Ids of every consumer (all pages); FeatureUnavailableError from a server without remote state consumers. */
  async listIds(workspaceId: string): Promise<string[]> {
    return (
      await orUnavailable(this.transport, "remote state consumers", workspaceOwner(workspaceId), () =>
        this.list(workspaceId).all(),
      )
    ).map((w) => w.id);
  }

  /** `PATCH`: the consumer set becomes exactly `consumerIds`. Needs permission to manage all workspaces. */
  async replace(workspaceId: string, consumerIds: string[]): Promise<void> {
    await this.send("PATCH", workspaceId, consumerIds);
  }

  /** `POST`: adds consumers; ones already present are ignored by the service. */
  async add(workspaceId: string, consumerIds: string[]): Promise<void> {
    await this.send("POST", workspaceId, consumerIds);
  }

  /** `DELETE`: removes consumers; absent ones are ignored by the service. */
  async remove(workspaceId: string, consumerIds: string[]): Promise<void> {
    await this.send("DELETE", workspaceId, consumerIds);
  }

  private path(workspaceId: string): string {
    return urlPath("workspaces", workspaceId, "relationships", "remote-state-consumers");
  }

  private async send(method: "PATCH" | "POST" | "DELETE", workspaceId: string, ids: string[]): Promise<void> {
    await orUnavailable(this.transport, "remote state consumers", workspaceOwner(workspaceId), () =>
      this.transport.request({
        method,
        path: this.path(workspaceId),
        body: { data: ids.map((id) => ({ type: "workspaces", id })) },
        repeat: "idempotent",
      }),
    );
  }
}
