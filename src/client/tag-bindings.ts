/**
 * Key-value tags (spec 2.6, 4.10). Direct bindings are set through the workspace update
 * (or on create); effective bindings add those inherited from the project and cost a
 * request of their own, so callers ask for them only when they need them.
 */
import { workspaceDocumentSchema } from "../api/workspaces";
import { effectiveTagBindingListDocumentSchema, tagBindingListDocumentSchema } from "../api/tags";
import { Transport, urlPath } from "./transport";
import { toWorkspace, workspaceRequestBody, type TagBindingInput, type Workspace } from "./workspaces";

export interface TagBinding {
  id: string;
  key: string;
  value: string;
}

/** A key-value tag in effect on a workspace; it has no id, and may come from the project. */
export interface EffectiveTagBinding {
  key: string;
  value: string;
}

export class TagBindings {
  constructor(private readonly transport: Transport) {}

  /** `GET /workspaces/:id/tag-bindings`: the bindings set on the workspace itself. */
  async list(workspaceId: string): Promise<TagBinding[]> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("workspaces", workspaceId, "tag-bindings"), repeat: "idempotent" },
      tagBindingListDocumentSchema,
    );
    return doc.data.map((r) => ({ id: r.id, key: r.attributes.key, value: r.attributes.value }));
  }

  /** `GET /workspaces/:id/effective-tag-bindings`: direct plus inherited bindings. */
  async listEffective(workspaceId: string): Promise<EffectiveTagBinding[]> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("workspaces", workspaceId, "effective-tag-bindings"), repeat: "idempotent" },
      effectiveTagBindingListDocumentSchema,
    );
    return doc.data.map((r) => ({ key: r.attributes.key, value: r.attributes.value }));
  }

  /** Sets the workspace's key-value tags with one `PATCH /workspaces/:id` carrying only `relationships.tag-bindings`. */
  async set(workspaceId: string, bindings: TagBindingInput[]): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path: urlPath("workspaces", workspaceId), body: workspaceRequestBody({ tagBindings: bindings }), repeat: "idempotent" },
      workspaceDocumentSchema,
    );
    return toWorkspace(doc.data);
  }
}
