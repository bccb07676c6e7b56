import type { ServerContext } from "../context";
import type { Caller } from "../auth/service";
import { assertMember, orgRole } from "../auth/service";
import { notFound, unprocessable, unprocessableMany } from "../http/errors";
import { problemsToErrors } from "../../api/common";
import { inTransaction, prepare } from "../store/db";
import { ref, type Page, type Resource } from "../http/jsonapi";
import type { TagsRelationshipRequest } from "../../api/tags";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";
import { directTagBindings, effectiveTagBindings, pruneUnusedTags, renderEffectiveTagBinding, resolveTags, attachTags } from "../workspace/store";

export interface TagRecord {
  id: string;
  organization: string;
  name: string;
  created_at: string;
  instance_count?: number;
}

export function renderTag(t: TagRecord): Resource {
  return {
    id: t.id,
    type: "tags",
    attributes: { name: t.name, "created-at": t.created_at, "instance-count": t.instance_count ?? 0 },
    relationships: { organization: ref("organizations", t.organization) },
  };
}

const TAG_COLUMNS = `t.id, t.organization, t.name, t.created_at, (SELECT COUNT(*) FROM workspace_tags c WHERE c.tag_id = t.id) AS instance_count`;

export function listWorkspaceTags(ctx: ServerContext, caller: Caller, workspaceId: string, page: Page): { rows: TagRecord[]; total: number } {
  const { ws } = loadWorkspace(ctx, caller, { id: workspaceId });
  const total = (prepare(ctx.db, `SELECT COUNT(*) AS n FROM workspace_tags WHERE workspace_id = ?`).get(ws.id) as { n: number }).n;
  const rows = ctx.db
    .prepare(`SELECT ${TAG_COLUMNS} FROM workspace_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.workspace_id = ? ORDER BY t.name LIMIT ? OFFSET ?`)
    .all(ws.id, page.size, (page.number - 1) * page.size) as TagRecord[];
  return { rows, total };
}

/** Organization tags (`GET /organizations/:org/tags`): `q` filters by substring, `filter[exclude][taggable][id]` drops a workspace's own. */
export function listOrganizationTags(ctx: ServerContext, caller: Caller, organization: string, query: Record<string, unknown>, page: Page): { rows: TagRecord[]; total: number } {
  assertMember(ctx.db, caller, organization);
  const where = ["t.organization = ?"];
  const params: unknown[] = [organization];
  if (typeof query.q === "string" && query.q !== "") {
    // `instr` compares every byte, so a control character in `q` is matched literally.
    where.push(`instr(lower(t.name), lower(?)) > 0`);
    params.push(query.q);
  }
  const exclude = query["filter[exclude][taggable][id]"];
  if (typeof exclude === "string" && exclude !== "") {
    where.push(`NOT EXISTS (SELECT 1 FROM workspace_tags x WHERE x.tag_id = t.id AND x.workspace_id = ?)`);
    params.push(exclude);
  }
  const sql = where.join(" AND ");
  const total = (prepare(ctx.db, `SELECT COUNT(*) AS n FROM tags t WHERE ${sql}`).get(...params) as { n: number }).n;
  const rows = prepare(ctx.db, `SELECT ${TAG_COLUMNS} FROM tags t WHERE ${sql} ORDER BY t.name LIMIT ? OFFSET ?`).all(...params, page.size, (page.number - 1) * page.size) as TagRecord[];
  return { rows, total };
}

/**
 * Adds flat tags (spec 4.10). Names are stored lower-cased and created in the
 * organization on first use; an id must name an existing tag of the organization.
 */
export function addWorkspaceTags(ctx: ServerContext, caller: Caller, workspaceId: string, body: TagsRelationshipRequest): void {
  inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-manage-tags");
    attachTags(ctx.db, ws.id, resolveTags(ctx.db, ws.organization, body.data, true));
  });
}

export function removeWorkspaceTags(ctx: ServerContext, caller: Caller, workspaceId: string, body: TagsRelationshipRequest): void {
  inTransaction(ctx.db, () => {
    const { ws } = loadWorkspaceWith(ctx, caller, { id: workspaceId }, "can-manage-tags");
    const tagIds = resolveTags(ctx.db, ws.organization, body.data, false);
    const unlink = prepare(ctx.db, `DELETE FROM workspace_tags WHERE workspace_id = ? AND tag_id = ?`);
    for (const id of tagIds) if (id) unlink.run(ws.id, id);
    pruneUnusedTags(ctx.db, ws.organization);
  });
}

export function renderTagBindings(ctx: ServerContext, caller: Caller, workspaceId: string): Resource[] {
  const { ws } = loadWorkspace(ctx, caller, { id: workspaceId });
  return directTagBindings(ctx.db, ws.id).map((b) => ({
    id: b.id,
    type: "tag-bindings",
    attributes: { key: b.key, value: b.value, "created-at": b.created_at },
  }));
}

export function renderEffectiveTagBindings(ctx: ServerContext, caller: Caller, workspaceId: string): Resource[] {
  const { ws } = loadWorkspace(ctx, caller, { id: workspaceId });
  return effectiveTagBindings(ctx.db, ws).map((b) => renderEffectiveTagBinding(b, ws.project_id));
}

/** `DELETE /organizations/:org/tags`: removes the tags from the organization and from every workspace. */
/** Deleting an organization's tags takes its manage-workspaces permission; 404 otherwise. */
export function assertTagManager(ctx: ServerContext, caller: Caller, organization: string): void {
  if (!assertMember(ctx.db, caller, organization).manageWorkspaces) throw notFound(`organization "${organization}" not found`);
}

/** A tag of an organization the caller belongs to; 404 otherwise. */
export function loadTag(ctx: ServerContext, caller: Caller, tagId: string): { organization: string } {
  const tag = prepare(ctx.db, `SELECT organization FROM tags WHERE id = ?`).get(tagId) as { organization: string } | undefined;
  if (!tag || !orgRole(ctx.db, caller, tag.organization).member) throw notFound("tag not found");
  return tag;
}

export function deleteOrganizationTags(ctx: ServerContext, caller: Caller, organization: string, ids: string[]): void {
  inTransaction(ctx.db, () => {
    assertTagManager(ctx, caller, organization);
    const known = prepare(ctx.db, `SELECT 1 FROM tags WHERE id = ? AND organization = ?`);
    const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !known.get(id, organization));
    if (missing.length) {
      throw unprocessableMany(problemsToErrors(missing.map(({ id, i }) => ({ pointer: `/data/${i}/id`, detail: `tag "${id}" not found in organization ${organization}` }))));
    }
    for (const id of ids) {
      prepare(ctx.db, `DELETE FROM workspace_tags WHERE tag_id = ?`).run(id);
      prepare(ctx.db, `DELETE FROM tags WHERE id = ?`).run(id);
    }
  });
}

/** `POST /tags/:id/relationships/workspaces`: attaches an existing tag to more workspaces. */
export function addTagToWorkspaces(ctx: ServerContext, caller: Caller, tagId: string, workspaceIds: string[]): void {
  inTransaction(ctx.db, () => {
    const tag = loadTag(ctx, caller, tagId);
    for (const id of workspaceIds) {
      const { ws } = loadWorkspaceWith(ctx, caller, { id }, "can-manage-tags");
      if (ws.organization !== tag.organization) throw unprocessable(`workspace ${id} is not in the tag's organization`, "/data");
      attachTags(ctx.db, ws.id, [tagId]);
    }
  });
}
