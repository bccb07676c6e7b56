/**
 * Workspaces (spec 2.2 to 2.5, 4.2 to 4.6): create, read, update, list, delete.
 * The client's shapes and their wire form are in `workspace-shapes.ts`.
 * Locking lives in `locks.ts` and SSH key assignment in `ssh-keys.ts`; both are also
 * reachable from {@link Workspaces} because callers think of them as workspace actions.
 */
import { type WorkspaceDocument, workspaceDocumentSchema, workspaceListDocumentSchema } from "../api/workspaces";
import type { AnyResource } from "../api/common";
import { orUnavailable, workspaceOwner } from "./features";
import { PagedList, pagedGet } from "./pagination";
import { UnexpectedResponseError, UnreadableCreateError } from "./typed-errors";
import { type RawResponse, type RequestSpec, type Transport, urlPath } from "./transport";
import {
  type Workspace,
  type WorkspaceCreateOptions,
  type WorkspaceListOptions,
  type WorkspaceUpdateOptions,
  toWorkspace,
  workspaceListQuery,
  workspaceRequestBody,
} from "./workspace-shapes";

export * from "./workspace-shapes";

/** `data.id` of a document the client could not otherwise read, when it is a non-empty string. */
function rawDataId(body: unknown): string | null {
  const data = body && typeof body === "object" ? (body as { data?: unknown }).data : undefined;
  const id = data && typeof data === "object" ? (data as { id?: unknown }).id : undefined;
  return typeof id === "string" && id !== "" ? id : null;
}

/** `GET` of one workspace document at `path` (`/workspaces/:id` or `/organizations/:org/workspaces/:name`). */
async function getWorkspace(transport: Transport, path: string): Promise<Workspace> {
  const doc = await transport.requestParsed({ method: "GET", path, repeat: "idempotent" }, workspaceDocumentSchema);
  return toWorkspace(doc.data);
}

/** Where a created workspace is found by name: its name, and its organization (null when it cannot be told). */
export interface CreatedName {
  /** The name the create asked for. */
  name: string;
  /** Its organization, asked for only when needed (a no-code create learns it from the module). */
  organization: () => Promise<string | null>;
}

/**
 * The workspace a create made, from the service's successful answer `res`. An answer
 * the client cannot read does not lose the workspace: it is read back, by the answer's
 * `data.id` when it has one, else by name in its organization. When that fails too,
 * UnreadableCreateError says the workspace exists and names its id if known.
 */
export async function createdWorkspace(
  transport: Transport,
  spec: RequestSpec,
  res: RawResponse,
  started: number,
  created: CreatedName,
): Promise<Workspace> {
  let doc: WorkspaceDocument;
  try {
    doc = transport.parseResponse(spec, res, workspaceDocumentSchema, started);
  } catch (err) {
    if (!(err instanceof UnexpectedResponseError)) throw err;
    const id = rawDataId(res.data);
    try {
      if (id) return await getWorkspace(transport, urlPath("workspaces", id));
      const organization = await created.organization();
      if (!organization) throw new Error("the answer names no workspace id, and no organization to find it in by name");
      return await getWorkspace(transport, urlPath("organizations", organization, "workspaces", created.name));
    } catch (readErr) {
      throw new UnreadableCreateError(err, id, readErr);
    }
  }
  return toWorkspace(doc.data);
}

/**
 * The lock calls {@link Workspaces} forwards to; `WorkspaceLocks` (./locks.ts) is the
 * implementation. Declared here so that this file does not import the files that
 * import it.
 */
export interface WorkspaceLockCalls {
  /** `POST /workspaces/:id/actions/lock`, with an optional reason. */
  lock(workspaceId: string, reason?: string): Promise<Workspace>;
  /** `POST /workspaces/:id/actions/unlock`. */
  unlock(workspaceId: string): Promise<Workspace>;
  /** `POST /workspaces/:id/actions/force-unlock` (admin access). */
  forceUnlock(workspaceId: string): Promise<Workspace>;
}

/** The SSH-key assignment calls {@link Workspaces} forwards to; `SshKeys` (./ssh-keys.ts) is the implementation. */
export interface SshKeyAssignmentCalls {
  /** Assigns an SSH key (`sshkey-...`) to the workspace. */
  assign(workspaceId: string, sshKeyId: string): Promise<Workspace>;
  /** Removes the workspace's SSH key. */
  unassign(workspaceId: string): Promise<Workspace>;
}

/** Workspace endpoints. */
export class Workspaces {
  constructor(
    private readonly transport: Transport,
    private readonly locks: WorkspaceLockCalls,
    private readonly sshKeys: SshKeyAssignmentCalls,
  ) {}

  /**
   * `POST /organizations/:org/workspaces`. Key-value tags given in `tagBindings` travel
   * in the same request. Never repeated after it reached the service (a duplicate
   * workspace must not appear): a 5xx or dropped connection is reported as is.
   */
  async create(organization: string, options: WorkspaceCreateOptions): Promise<Workspace> {
    const spec: RequestSpec = {
      method: "POST",
      path: urlPath("organizations", organization, "workspaces"),
      body: workspaceRequestBody(options),
      repeat: "once",
      conflict: "create",
    };
    const started = Date.now();
    const res = await this.transport.request(spec);
    return createdWorkspace(this.transport, spec, res, started, {
      name: options.name,
      organization: async () => organization,
    });
  }

  /** `GET /workspaces/:id`. One request; the result carries `tagNames`. */
  async read(workspaceId: string): Promise<Workspace> {
    return getWorkspace(this.transport, urlPath("workspaces", workspaceId));
  }

  /**
   * `GET /workspaces/:id?include=...`: the workspace and the related records asked for,
   * in one request (e.g. `effective_tag_bindings` to read key-value tags with it).
   */
  async readIncluding(
    workspaceId: string,
    include: readonly string[],
  ): Promise<{ workspace: Workspace; included: AnyResource[] }> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("workspaces", workspaceId),
        query: { include: include.join(",") || undefined },
        repeat: "idempotent",
      },
      workspaceDocumentSchema,
    );
    return { workspace: toWorkspace(doc.data), included: doc.included ?? [] };
  }

  /** `GET /organizations/:org/workspaces/:name`. */
  async readByName(organization: string, name: string): Promise<Workspace> {
    return getWorkspace(this.transport, urlPath("organizations", organization, "workspaces", name));
  }

  /** `PATCH /workspaces/:id`. Only the given settings change. */
  async update(workspaceId: string, options: WorkspaceUpdateOptions): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("workspaces", workspaceId),
        body: workspaceRequestBody(options),
        repeat: "idempotent",
      },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }

  /** `PATCH /organizations/:org/workspaces/:name`. */
  async updateByName(organization: string, name: string, options: WorkspaceUpdateOptions): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("organizations", organization, "workspaces", name),
        body: workspaceRequestBody(options),
        repeat: "idempotent",
      },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }

  /** `GET /organizations/:org/workspaces`, 100 per page, fetched as the caller iterates. */
  list(organization: string, options: WorkspaceListOptions = {}): PagedList<Workspace> {
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "workspaces"),
      workspaceListQuery(options),
      workspaceListDocumentSchema,
      toWorkspace,
    );
  }

  /**
   * `GET /organizations/:org/workspaces?include=...`, 100 per page: each workspace with the
   * related records its page included (e.g. `effective_tag_bindings`), so that one request
   * reads a hundred workspaces and their key-value tags.
   */
  listIncluding(
    organization: string,
    include: readonly string[],
    options: WorkspaceListOptions = {},
  ): PagedList<{ workspace: Workspace; included: AnyResource[] }> {
    const path = urlPath("organizations", organization, "workspaces");
    const query = { ...workspaceListQuery(options), include: include.join(",") || undefined };
    return new PagedList(
      async (number, size) => {
        const doc = await this.transport.requestParsed(
          {
            method: "GET",
            path,
            query: { ...query, "page[number]": number, "page[size]": size },
            repeat: "idempotent",
          },
          workspaceListDocumentSchema,
        );
        const included = doc.included ?? [];
        return {
          items: doc.data.map((r) => ({ workspace: toWorkspace(r), included })),
          pagination: doc.meta?.pagination,
        };
      },
      undefined,
      path,
    );
  }

  /**
   * `POST /workspaces/:id/actions/safe-delete`: deletes only when the workspace manages no
   * resources (else ConflictError `managing-resources`). A server without safe delete
   * (a 404 while the workspace reads fine) gives FeatureUnavailableError: it is never
   * replaced by a force delete.
   */
  async safeDelete(workspaceId: string): Promise<void> {
    await orUnavailable(this.transport, "safe delete", workspaceOwner(workspaceId), () =>
      this.transport.request({
        method: "POST",
        path: urlPath("workspaces", workspaceId, "actions", "safe-delete"),
        repeat: "idempotent",
        conflict: "safe-delete",
        goneMeansDone: true,
      }),
    );
  }

  /** `POST /organizations/:org/workspaces/:name/actions/safe-delete` (FeatureUnavailableError as for {@link safeDelete}). */
  async safeDeleteByName(organization: string, name: string): Promise<void> {
    await orUnavailable(this.transport, "safe delete", urlPath("organizations", organization, "workspaces", name), () =>
      this.transport.request({
        method: "POST",
        path: urlPath("organizations", organization, "workspaces", name, "actions", "safe-delete"),
        repeat: "idempotent",
        conflict: "safe-delete",
        goneMeansDone: true,
      }),
    );
  }

  /** `DELETE /workspaces/:id`: deletes without checking for managed resources (ForbiddenError without the right). */
  async forceDelete(workspaceId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("workspaces", workspaceId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `DELETE /organizations/:org/workspaces/:name`. */
  async forceDeleteByName(organization: string, name: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("organizations", organization, "workspaces", name),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  /** `client.locks.lock`: see `WorkspaceLocks.lock`. */
  lock(workspaceId: string, reason?: string): Promise<Workspace> {
    return this.locks.lock(workspaceId, reason);
  }

  /** `client.locks.unlock`: see `WorkspaceLocks.unlock`. */
  unlock(workspaceId: string): Promise<Workspace> {
    return this.locks.unlock(workspaceId);
  }

  /** `client.locks.forceUnlock`: see `WorkspaceLocks.forceUnlock`. */
  forceUnlock(workspaceId: string): Promise<Workspace> {
    return this.locks.forceUnlock(workspaceId);
  }

  /** `client.sshKeys.assign`: see `SshKeys.assign`. */
  assignSSHKey(workspaceId: string, sshKeyId: string): Promise<Workspace> {
    return this.sshKeys.assign(workspaceId, sshKeyId);
  }

  /** `client.sshKeys.unassign`: see `SshKeys.unassign`. */
  unassignSSHKey(workspaceId: string): Promise<Workspace> {
    return this.sshKeys.unassign(workspaceId);
  }
}
