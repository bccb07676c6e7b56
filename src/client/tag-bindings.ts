/**
 * Key-value tags (spec 2.6, 4.10). Direct bindings are set through the workspace update
 * (or on create); effective bindings add those inherited from the project and cost a
 * request of their own, so callers ask for them only when they need them.
 */
import { text } from "../api/common";
import { workspaceDocumentSchema } from "../api/workspaces";
import { effectiveTagBindingListDocumentSchema, tagBindingListDocumentSchema } from "../api/tags";
import { BadRequestError } from "./typed-errors";
import { orUnavailable, workspaceOwner } from "./features";
import { type Transport, urlPath } from "./transport";
import { relId } from "./wire";
import { toWorkspace, workspaceRequestBody, type TagBindingInput, type Workspace, type Workspaces } from "./workspaces";

/** A key-value tag set on a workspace. */
export interface TagBinding {
  /** Binding id, as the service assigns it. */
  id: string;
  /** Tag key. */
  key: string;
  /** Tag value (may be empty). */
  value: string;
}

/** A key-value tag in effect on a workspace; it has no id, and may come from the project. */
export interface EffectiveTagBinding {
  /** Tag key. */
  key: string;
  /** Tag value (may be empty). */
  value: string;
}

/** A workspace with its key-value tags, as read by {@link TagBindings.readWithWorkspace}. */
export interface WorkspaceWithTagBindings {
  /** The workspace, as `workspaces.read` returns it. */
  workspace: Workspace;
  /** Bindings set on the workspace itself. */
  tagBindings: EffectiveTagBinding[];
  /** Direct plus inherited bindings; `inheritedFrom` names the project of an inherited one. */
  effectiveTagBindings: (EffectiveTagBinding & { inheritedFrom: string | null })[];
  /** Requests the read cost: 1 with `include=effective_tag_bindings`; 4 from a service that refuses it (the refused read and three plain ones). */
  requests: number;
}

/** Key-value tag calls of a {@link WorkspacesClient} (`client.tagBindings`). */
export class TagBindings {
  constructor(
    private readonly transport: Transport,
    private readonly workspaces: Workspaces,
  ) {}

  /**
   * The workspace, its own key-value tags and its effective ones, in one request
   * (`include=effective_tag_bindings`). A service that refuses the include (400) is
   * asked with the workspace read and the two binding lists instead.
   */
  async readWithWorkspace(workspaceId: string): Promise<WorkspaceWithTagBindings> {
    try {
      const { workspace, included } = await this.workspaces.readIncluding(workspaceId, ["effective_tag_bindings"]);
      const effective = included
        .filter((r) => r.type === "effective-tag-bindings")
        .filter((r) => (relId(r, "workspace") ?? workspace.id) === workspace.id)
        .map((r) => ({
          key: text(r.attributes?.key),
          value: text(r.attributes?.value),
          inheritedFrom: relId(r, "inherited-from"),
        }));
      return {
        workspace,
        tagBindings: effective.filter((b) => b.inheritedFrom === null).map(({ key, value }) => ({ key, value })),
        effectiveTagBindings: effective,
        requests: 1,
      };
    } catch (err) {
      if (!(err instanceof BadRequestError)) throw err;
    }
    const [workspace, direct, effective] = await Promise.all([
      this.workspaces.read(workspaceId),
      this.list(workspaceId),
      this.listEffective(workspaceId),
    ]);
    const own = new Map(direct.map((b) => [b.key, b.value]));
    return {
      workspace,
      tagBindings: direct.map(({ key, value }) => ({ key, value })),
      effectiveTagBindings: effective.map((b) => ({
        ...b,
        inheritedFrom: own.get(b.key) === b.value ? null : workspace.projectId,
      })),
      requests: 4,
    };
  }

  /** `GET /workspaces/:id/tag-bindings`: the bindings set on the workspace itself (FeatureUnavailableError from a server without key-value tags). */
  async list(workspaceId: string): Promise<TagBinding[]> {
    const doc = await orUnavailable(this.transport, "key-value tags", workspaceOwner(workspaceId), () =>
      this.transport.requestParsed(
        { method: "GET", path: urlPath("workspaces", workspaceId, "tag-bindings"), repeat: "idempotent" },
        tagBindingListDocumentSchema,
      ),
    );
    return doc.data.map((r) => ({ id: r.id, key: r.attributes.key, value: r.attributes.value }));
  }

  /** `GET /workspaces/:id/effective-tag-bindings`: direct plus inherited bindings (FeatureUnavailableError as for {@link list}). */
  async listEffective(workspaceId: string): Promise<EffectiveTagBinding[]> {
    const doc = await orUnavailable(this.transport, "key-value tags", workspaceOwner(workspaceId), () =>
      this.transport.requestParsed(
        { method: "GET", path: urlPath("workspaces", workspaceId, "effective-tag-bindings"), repeat: "idempotent" },
        effectiveTagBindingListDocumentSchema,
      ),
    );
    return doc.data.map((r) => ({ key: r.attributes.key, value: r.attributes.value }));
  }

  /**
   * Sets the workspace's key-value tags with one `PATCH /workspaces/:id` carrying only
   * `relationships.tag-bindings`. A server without key-value tags (OTF) ignores the
   * relationship and answers 200: an answer that names no tag bindings is checked with
   * {@link list}, which then fails with FeatureUnavailableError.
   */
  async set(workspaceId: string, bindings: TagBindingInput[]): Promise<Workspace> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: urlPath("workspaces", workspaceId),
        body: workspaceRequestBody({ tagBindings: bindings }),
        repeat: "idempotent",
      },
      workspaceDocumentSchema,
    );
    const ws = toWorkspace(doc.data);
    if (bindings.length > 0 && !("tag-bindings" in ws.relationships) && !("effective-tag-bindings" in ws.relationships))
      await this.list(workspaceId);
    return ws;
  }
}
