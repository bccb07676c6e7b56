/**
 * Workspace locks (spec 3, 4.7). A 409 becomes a ConflictError whose `reason` says which
 * state forbade the call (`already-locked`, `not-locked`, `locked-by-another-user`).
 */
import { workspaceDocumentSchema } from "../api/workspaces";
import { type Transport, urlPath } from "./transport";
import { toWorkspace, type Workspace } from "./workspaces";

/** Lock calls of a {@link WorkspacesClient} (`client.locks`). */
export class WorkspaceLocks {
  constructor(private readonly transport: Transport) {}

  /** `POST /workspaces/:id/actions/lock`. Not repeated after a dropped connection: a second try would answer 409. */
  async lock(workspaceId: string, reason = ""): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("workspaces", workspaceId, "actions", "lock"),
        body: { reason },
        repeat: "once",
        conflict: "lock",
      },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }

  /**
   * `POST /workspaces/:id/actions/unlock`. A 503 (the latest intermediate state version
   * is not finalized yet) is retried for a bounded time, as the API documentation advises.
   */
  async unlock(workspaceId: string): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("workspaces", workspaceId, "actions", "unlock"),
        repeat: "unlock",
        conflict: "unlock",
      },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }

  /** `POST /workspaces/:id/actions/force-unlock`; needs admin access. */
  async forceUnlock(workspaceId: string): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("workspaces", workspaceId, "actions", "force-unlock"),
        repeat: "once",
        conflict: "force-unlock",
      },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }
}
