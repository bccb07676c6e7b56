/** Run triggers (`client.runTriggers`): a run in a source workspace queues a run in the workspace that names it. */
import {
  runTriggerDocumentSchema,
  runTriggerListDocumentSchema,
  type RunTriggerDirection,
  type RunTriggerResource,
} from "../api/run-triggers";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { relId } from "./wire";

/** A run trigger: runs applied in the source workspace (`sourceable`) queue runs in the workspace. */
export interface RunTrigger {
  /** Run trigger id (`rt-...`). */
  id: string;
  /** The workspace whose runs are queued. */
  workspaceId: string | null;
  /** Name of that workspace (`workspace-name`), or null when the service does not say. */
  workspaceName: string | null;
  /** The source workspace whose runs queue them. */
  sourceableId: string | null;
  /** Name of the source workspace (`sourceable-name`), or null when the service does not say. */
  sourceableName: string | null;
  /** When the trigger was created (`created-at`, ISO 8601), or null when the service does not say. */
  createdAt: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

function toRunTrigger(r: RunTriggerResource): RunTrigger {
  const a = r.attributes;
  return {
    id: r.id,
    workspaceId: relId(r, "workspace"),
    workspaceName: a["workspace-name"] ?? null,
    sourceableId: relId(r, "sourceable"),
    sourceableName: a["sourceable-name"] ?? null,
    createdAt: a["created-at"] ?? null,
    attributes: a,
  };
}

/** Run trigger calls of a {@link WorkspacesClient} (`client.runTriggers`). */
export class RunTriggers {
  constructor(private readonly transport: Transport) {}

  /** `GET /workspaces/:id/run-triggers`: the triggers into the workspace (`inbound`) or out of it (`outbound`). */
  list(workspaceId: string, direction: RunTriggerDirection): PagedList<RunTrigger> {
    return pagedGet(
      this.transport,
      urlPath("workspaces", workspaceId, "run-triggers"),
      { "filter[run-trigger][type]": direction },
      runTriggerListDocumentSchema,
      toRunTrigger,
    );
  }

  /** `POST /workspaces/:id/run-triggers`; never repeated after it reached the service (a second is refused as taken). */
  async create(workspaceId: string, sourceableId: string): Promise<RunTrigger> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("workspaces", workspaceId, "run-triggers"),
        body: {
          data: {
            type: "run-triggers",
            relationships: { sourceable: { data: { type: "workspaces", id: sourceableId } } },
          },
        },
        repeat: "once",
        conflict: "create",
      },
      runTriggerDocumentSchema,
    );
    return toRunTrigger(doc.data);
  }

  /** `GET /run-triggers/:id`. */
  async read(runTriggerId: string): Promise<RunTrigger> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("run-triggers", runTriggerId), repeat: "idempotent" },
      runTriggerDocumentSchema,
    );
    return toRunTrigger(doc.data);
  }

  /** `DELETE`; a retry that finds the trigger gone means the first attempt deleted it (NotFoundError otherwise). */
  async delete(runTriggerId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("run-triggers", runTriggerId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
