import type { Caller } from "../auth/service/caller";
import { assertMember, orgRole } from "../auth/service/authz";
import { Invalid, NotFound, failIfAny, type Failure } from "../domain-errors";
import type { Db, Page } from "../store/db";
import { inTransaction } from "../store/db";
import * as store from "./store";
import type { BindingOwner, Clause, KeyValue, TagBindingRecord, TagRecord } from "./store";

export type { BindingOwner, Clause, KeyValue, TagBindingRecord, TagRecord } from "./store";
export { flatTagNames, pruneUnusedTags } from "./store";

/**
 * Tags (spec 4.10): flat tags on workspaces, and key-value tag bindings on workspaces and
 * projects. The callers (workspace and project domains, and this domain's routes) load
 * and authorize the workspace or project; these functions take it as found.
 */

// ---------------------------------------------------------------------------
// key-value bindings

/**
 * A key given twice in one set of bindings is invalid on the second occurrence. The set
 * comes from a `tag-bindings` relationship, or (`inRelationship` false) is the body's data.
 */
export function checkTagBindings(bindings: ReadonlyArray<KeyValue> | undefined, inRelationship = true): void {
  if (!bindings) return;
  const seen = new Set<string>();
  const failures: Failure[] = [];
  bindings.forEach((b, i) => {
    if (seen.has(b.key)) {
      failures.push({
        detail: `tag binding key "${b.key}" is given more than once`,
        field: inRelationship
          ? { relationship: "tag-bindings", item: i, attribute: "key" }
          : { item: i, attribute: "key" },
      });
    }
    seen.add(b.key);
  });
  failIfAny(failures);
}

/** Replaces the whole set of key-value tags bound directly to a workspace or a project. */
export function replaceTagBindings(
  db: Db,
  owner: BindingOwner,
  ownerId: string,
  bindings: ReadonlyArray<KeyValue>,
): void {
  store.replaceBindings(db, owner, ownerId, bindings);
}

/**
 * Adds bindings and changes the value of keys already bound, keeping the others;
 * returns every direct binding in the order they were first bound.
 */
export function mergeTagBindings(
  db: Db,
  owner: BindingOwner,
  ownerId: string,
  bindings: ReadonlyArray<KeyValue>,
): TagBindingRecord[] {
  store.upsertBindings(db, owner, ownerId, bindings);
  return store.selectBindings(db, owner, ownerId, "rowid");
}

export function directTagBindings(db: Db, workspaceId: string): TagBindingRecord[] {
  return store.selectBindings(db, "workspace", workspaceId, "key");
}

export function projectTagBindings(db: Db, projectId: string): TagBindingRecord[] {
  return store.selectBindings(db, "project", projectId, "key");
}

export interface EffectiveTagBinding {
  /** The binding it comes from (the workspace's own, or the project's when inherited). */
  sourceId: string;
  key: string;
  value: string;
  inherited: boolean;
}

/** Direct bindings plus the project's, the workspace's value winning on the same key. */
export function effectiveTagBindings(db: Db, ws: { id: string; project_id: string }): EffectiveTagBinding[] {
  const direct = directTagBindings(db, ws.id);
  const keys = new Set(direct.map((b) => b.key));
  const merged = [
    ...direct.map((b) => ({ sourceId: b.id, key: b.key, value: b.value, inherited: false })),
    ...projectTagBindings(db, ws.project_id)
      .filter((b) => !keys.has(b.key))
      .map((b) => ({ sourceId: b.id, key: b.key, value: b.value, inherited: true })),
  ];
  return merged.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Workspaces (alias `w` in a list query) whose effective bindings hold `key` (with `value` when given). */
export function taggedWorkspacesClause(key: string, value: string | undefined): Clause {
  return store.taggedClause(key, value);
}

// ---------------------------------------------------------------------------
// flat tags

/** Flat tag items as a request gives them: by id, or by name. */
export type TagItem = { id?: string; attributes?: { name?: string } };

/**
 * Tag ids for flat tag items (`{id}` or `{attributes.name}`, names lower-cased); a name
 * that matches nothing gives a new tag when `create`, else null. Unknown ids are invalid,
 * each at its item of the body's data, or of the `tags` relationship when `inRelationship`.
 */
function resolveTags(
  db: Db,
  organization: string,
  items: ReadonlyArray<TagItem>,
  create: boolean,
  inRelationship = false,
): (string | null)[] {
  const failures: Failure[] = [];
  const ids = items.map((item, i) => {
    if (item.id !== undefined) {
      if (!store.tagExists(db, organization, item.id)) {
        failures.push({
          detail: `tag "${item.id}" not found`,
          field: inRelationship ? { relationship: "tags", item: i, id: true } : { item: i, id: true },
        });
      }
      return item.id;
    }
    const name = item.attributes!.name!.toLowerCase();
    const found = store.tagIdByName(db, organization, name);
    if (found) return found;
    return create ? store.insertTag(db, organization, name) : null;
  });
  failIfAny(failures);
  return ids;
}

/** Adds flat tags to a workspace: names are created in the organization on first use. */
export function addWorkspaceTags(
  db: Db,
  ws: { id: string; organization: string },
  items: ReadonlyArray<TagItem>,
  inRelationship = false,
): void {
  store.attachTags(db, ws.id, resolveTags(db, ws.organization, items, true, inRelationship));
}

/** Removes flat tags from a workspace; a tag no workspace carries any more disappears. */
function removeWorkspaceTags(db: Db, ws: { id: string; organization: string }, items: ReadonlyArray<TagItem>): void {
  store.detachTags(db, ws.id, resolveTags(db, ws.organization, items, false));
  store.pruneUnusedTags(db, ws.organization);
}

/** Flat tag names of several workspaces, by workspace id. */
export function flatTagNamesByWorkspace(db: Db, workspaceIds: ReadonlyArray<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!workspaceIds.length) return out;
  for (const r of store.flatTagNamesOf(db, workspaceIds)) {
    const list = out.get(r.workspace_id);
    if (list) list.push(r.v);
    else out.set(r.workspace_id, [r.v]);
  }
  return out;
}

export function listWorkspaceTags(db: Db, workspaceId: string, page: Page): { rows: TagRecord[]; total: number } {
  return store.workspaceTagsPage(db, workspaceId, page);
}

/** Organization tags (`GET /organizations/:org/tags`): `q` filters by substring, `excludeWorkspaceId` drops a workspace's own. */
export function listOrganizationTags(
  db: Db,
  caller: Caller,
  organization: string,
  filter: { q?: string; excludeWorkspaceId?: string },
  page: Page,
): { rows: TagRecord[]; total: number } {
  assertMember(db, caller, organization);
  return store.organizationTagsPage(db, organization, filter, page);
}

/** Deleting an organization's tags takes its manage-workspaces permission; not found otherwise. */
function assertTagManager(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageWorkspaces)
    throw new NotFound(`organization "${organization}" not found`);
}

/** A tag of an organization the caller belongs to; not found otherwise. */
function loadTag(db: Db, caller: Caller, tagId: string): TagRecord {
  const tag = store.findTag(db, tagId);
  if (!tag || !orgRole(db, caller, tag.organization).member) throw new NotFound("tag not found");
  return tag;
}

/** `DELETE /organizations/:org/tags`: removes the tags (ids `read` once the caller may) from the organization and from every workspace. */
export function deleteOrganizationTags(db: Db, caller: Caller, organization: string, read: () => string[]): void {
  inTransaction(db, () => {
    assertTagManager(db, caller, organization);
    const ids = read();
    const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !store.tagExists(db, organization, id));
    if (missing.length)
      throw new Invalid(
        missing.map(({ id, i }) => ({
          detail: `tag "${id}" not found in organization ${organization}`,
          field: { item: i, id: true },
        })),
      );
    for (const id of ids) store.deleteTag(db, id);
  });
}

/**
 * A workspace whose tags the caller may manage, by id, or a 404. The workspace domain
 * decides (it imports this domain, so the route hands its check in).
 */
type TagManagedWorkspace = (id: string) => { id: string; organization: string };

/** Adds or removes a workspace's flat tags; `read` parses the tags once the caller may change them. */
export function changeWorkspaceTags(
  db: Db,
  change: "add" | "remove",
  workspaceId: string,
  workspace: TagManagedWorkspace,
  read: () => ReadonlyArray<TagItem>,
): void {
  inTransaction(db, () => {
    const ws = workspace(workspaceId);
    const items = read();
    if (change === "add") addWorkspaceTags(db, ws, items);
    else removeWorkspaceTags(db, ws, items);
  });
}

/** Adds bindings to the workspace and changes the value of keys it already binds; returns all of its bindings. */
export function mergeWorkspaceTagBindings(
  db: Db,
  workspaceId: string,
  workspace: TagManagedWorkspace,
  read: () => ReadonlyArray<KeyValue>,
): TagBindingRecord[] {
  return inTransaction(db, () => mergeTagBindings(db, "workspace", workspace(workspaceId).id, read()));
}

/**
 * Attaches a tag to workspaces: the workspaces the unvalidated body names (`targets`) are
 * checked before `read` parses it, so a caller who may not tag one is told 404 first.
 */
export function tagWorkspaces(
  db: Db,
  caller: Caller,
  tagId: string,
  workspace: TagManagedWorkspace,
  targets: ReadonlyArray<string>,
  read: () => ReadonlyArray<string>,
): void {
  inTransaction(db, () => {
    const tag = loadTag(db, caller, tagId);
    const checked = new Map(targets.map((id) => [id, workspace(id)]));
    const ids = read();
    addTagToWorkspaces(
      db,
      tag,
      ids.map((id) => checked.get(id) ?? workspace(id)),
    );
  });
}

/** Attaches an existing tag to more workspaces, each of the tag's organization. */
function addTagToWorkspaces(
  db: Db,
  tag: TagRecord,
  workspaces: ReadonlyArray<{ id: string; organization: string }>,
): void {
  for (const ws of workspaces) {
    if (ws.organization !== tag.organization)
      throw new Invalid(`workspace ${ws.id} is not in the tag's organization`, { data: true });
    store.attachTags(db, ws.id, [tag.id]);
  }
}

/** Workspaces (alias `w`) carrying every flat tag named and none of the excluded ones. */
export function flatTagClauses(
  organization: string,
  tags: ReadonlyArray<string>,
  excluded: ReadonlyArray<string>,
): Clause[] {
  const out = tags.map((t) => store.hasFlatTagClause(organization, t.toLowerCase()));
  if (excluded.length)
    out.push(
      store.lacksFlatTagsClause(
        organization,
        excluded.map((t) => t.toLowerCase()),
      ),
    );
  return out;
}

/** Projects (table `projects` in a list query) bound to `key` (with `value` when given). */
export function taggedProjectsClause(key: string, value: string | undefined): Clause {
  return store.taggedProjectClause(key, value);
}
