/**
 * SSH keys: reading the organization's keys and assigning one to a workspace (spec 4.8).
 */
import { listDocumentSchema } from "../api/common";
import { sshKeyDocumentSchema, sshKeyResourceSchema, type SshKeyResource } from "../api/organizations";
import { workspaceDocumentSchema } from "../api/workspaces";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { toWorkspace, type Workspace } from "./workspaces";

/** An SSH key of the organization (the private key is never returned). */
export interface SshKey {
  /** Key id (`sshkey-...`). */
  id: string;
  /** Key name. */
  name: string;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

const sshKeyListDocumentSchema = listDocumentSchema(sshKeyResourceSchema);

function toSshKey(r: SshKeyResource): SshKey {
  return { id: r.id, name: r.attributes.name, attributes: r.attributes };
}

/** SSH key calls of a {@link WorkspacesClient} (`client.sshKeys`). */
export class SshKeys {
  constructor(private readonly transport: Transport) {}

  /** `GET /ssh-keys/:id`. */
  async read(sshKeyId: string): Promise<SshKey> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("ssh-keys", sshKeyId), repeat: "idempotent" },
      sshKeyDocumentSchema,
    );
    return toSshKey(doc.data);
  }

  /** `GET /organizations/:org/ssh-keys`. */
  list(organization: string): PagedList<SshKey> {
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "ssh-keys"),
      {},
      sshKeyListDocumentSchema,
      toSshKey,
    );
  }

  /** `PATCH /workspaces/:id/relationships/ssh-key` with the key's id. */
  async assign(workspaceId: string, sshKeyId: string): Promise<Workspace> {
    return this.patch(workspaceId, sshKeyId);
  }

  /** `PATCH /workspaces/:id/relationships/ssh-key` with `id: null`. */
  async unassign(workspaceId: string): Promise<Workspace> {
    return this.patch(workspaceId, null);
  }

  private async patch(workspaceId: string, id: string | null): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("workspaces", workspaceId, "relationships", "ssh-key"),
        body: { data: { type: "workspaces", attributes: { id } } },
        repeat: "idempotent",
      },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }
}
