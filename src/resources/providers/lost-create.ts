/** Recovery of a create whose answer was lost or could not be read, and the error that keeps what it made. */
import type { WorkspaceResource } from "../../api/workspaces";
import { NetworkError, ServerError, ServiceUnavailableError, UnreadableCreateError } from "../../client/typed-errors";
import { toWorkspace, type Workspace } from "../../client/workspace-shapes";
import { ProviderError } from "./user-errors";
import type { Props } from "./types";

/** How far the service's clock may lag ours when judging whether a record is the one our create made. */
const CREATE_CLOCK_SKEW_MS = 120_000;

/** Whether a request failed in a way that leaves its outcome unknown: it may have been carried out (dropped connection, timeout, 5xx). */
export function answerLost(err: unknown): boolean {
  return (
    (err instanceof NetworkError && err.code !== "ECONNREFUSED") ||
    err instanceof ServiceUnavailableError ||
    err instanceof ServerError
  );
}

/**
 * A create whose answer was lost (dropped connection, timeout, 5xx) may still have
 * happened, and the client never repeats it. Left alone, the record would be orphaned:
 * outside the state, and blocking every later create of its unique name. So look the
 * name up: a record created since the request started (allowing for clock skew) is
 * the one this create made, and is adopted. Anything else keeps the original error.
 */
export async function recoverLostCreate<T extends { createdAt: string }>(
  err: unknown,
  lookup: () => Promise<T>,
  startedMs: number,
): Promise<T> {
  if (!answerLost(err)) throw err;
  let found: T;
  try {
    found = await lookup();
  } catch {
    throw err;
  }
  const created = Date.parse(found.createdAt);
  if (Number.isFinite(created) && created >= startedMs - CREATE_CLOCK_SKEW_MS) return found;
  throw err;
}

/** Thrown after the record exists, so that the engine records it (`id`, `properties`) instead of orphaning it. */
export class PartialCreateError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
  ) {
    super(message);
    this.name = "PartialCreateError";
  }
  get reasons(): string[] {
    return [this.message];
  }
}

/**
 * A workspace create the service acknowledged (2xx) although neither its answer nor a
 * read of the workspace could be understood: the workspace exists, and is never left out
 * of the stack when its id is known. It is recorded with `outputsOf` a workspace that has
 * the service's defaults, so the next `pulumi up` sends what differs and a refresh reads
 * the rest. Without an id the error says how to take it over. Any other error is rethrown.
 */
export function keepUnreadableCreate(
  err: unknown,
  created: { name: string; organization?: string | null },
  outputsOf: (ws: Workspace) => Props,
): never {
  if (!(err instanceof UnreadableCreateError)) throw err;
  const { name, organization } = created;
  if (err.createdId) {
    const resource = {
      id: err.createdId,
      type: "workspaces",
      attributes: { name },
      relationships: organization ? { organization: { data: { id: organization, type: "organizations" } } } : {},
    };
    throw new PartialCreateError(
      `workspace "${name}" (${err.createdId}) was created, but neither the service's answer nor a read of it could be understood (${err.message}). ` +
        `It is recorded in the stack with the service's defaults; the next \`pulumi up\` sends the declared settings again.`,
      err.createdId,
      outputsOf(toWorkspace(resource as WorkspaceResource)),
    );
  }
  const where = organization ? ` in organization "${organization}"` : "";
  throw new ProviderError(
    `workspace "${name}"${where} was created, but neither the service's answer nor a read of it by name could be understood (${err.message}). ` +
      `Set adopt: true on the resource and run \`pulumi up\` to take it over.`,
  );
}
