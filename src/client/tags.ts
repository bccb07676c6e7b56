/**
 * Flat tags (spec 2.6, 4.10): a workspace's tags and the organization's tag list.
 * Adding and removing are idempotent on the service, so they are retried like reads.
 */
import { tagListDocumentSchema, type TagResource } from "../api/tags";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";

/** A flat tag. */
export interface Tag {
  /** Tag id (`tag-...`). */
  id: string;
  /** Tag name (stored in lower case by the service). */
  name: string;
  /** Creation time (ISO 8601), or null. */
  createdAt: string | null;
  /** Workspaces carrying the tag (organization list only). */
  instanceCount: number | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A tag to add or remove: a bare name, or an existing tag's id. */
export type TagRef = string | { id: string } | { name: string };

/** Filters of the organization's tag list. */
export interface OrganizationTagListOptions {
  /** Partial name match (`q`). */
  search?: string;
}

function toTag(r: TagResource): Tag {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    createdAt: a["created-at"] ?? null,
    instanceCount: a["instance-count"] ?? null,
    attributes: a,
  };
}

function tagItem(ref: TagRef): Record<string, unknown> {
  if (typeof ref === "string") return { type: "tags", attributes: { name: ref } };
  if ("id" in ref) return { type: "tags", id: ref.id };
  return { type: "tags", attributes: { name: ref.name } };
}

/** Flat tag calls of a {@link WorkspacesClient} (`client.tags`). */
export class Tags {
  constructor(private readonly transport: Transport) {}

  /** `GET /workspaces/:id/relationships/tags`, 100 per page. `Workspace.tagNames` has the names without this request. */
  list(workspaceId: string): PagedList<Tag> {
    return this.paged(urlPath("workspaces", workspaceId, "relationships", "tags"), {});
  }

  /** `GET /organizations/:org/tags`, 100 per page. */
  listOrganization(organization: string, options: OrganizationTagListOptions = {}): PagedList<Tag> {
    return this.paged(urlPath("organizations", organization, "tags"), { q: options.search });
  }

  /** `POST /workspaces/:id/relationships/tags`: one request for any number of tags. */
  async add(workspaceId: string, tags: TagRef[]): Promise<void> {
    if (tags.length === 0) return;
    await this.send("POST", workspaceId, tags);
  }

  /** `DELETE /workspaces/:id/relationships/tags`: names matching no tag are ignored by the service. */
  async remove(workspaceId: string, tags: TagRef[]): Promise<void> {
    if (tags.length === 0) return;
    await this.send("DELETE", workspaceId, tags);
  }

  private paged(path: string, query: Record<string, string | undefined>): PagedList<Tag> {
    return pagedGet(this.transport, path, query, tagListDocumentSchema, toTag);
  }

  private async send(method: "POST" | "DELETE", workspaceId: string, tags: TagRef[]): Promise<void> {
    await this.transport.request({
      method,
      path: urlPath("workspaces", workspaceId, "relationships", "tags"),
      body: { data: tags.map(tagItem) },
      repeat: "idempotent",
    });
  }
}
