import type { Db } from "../store/db";
import { now, prepare } from "../store/db";
import { newId } from "../ids";
import { unprocessableMany } from "../http/errors";
import { problemsToErrors } from "../../api/common";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";

/** A workspace row. Settings without their own column live in `settings` as JSON, in wire spelling. */
export interface WorkspaceRecord {
  id: string;
  organization: string;
  name: string;
  project_id: string;
  settings: string;
  source: string;
  locked: number;
  locked_reason: string | null;
  locked_by: string | null;
  ssh_key_id: string | null;
  agent_pool_id: string | null;
  current_state_version_id: string | null;
  current_run_id: string | null;
  resource_count: number;
  latest_change_at: string;
  created_at: string;
  updated_at: string;
}

/** The attributes kept in `settings`, keyed as on the wire. */
export interface WorkspaceSettings {
  description: string | null;
  environment: string;
  "execution-mode": "remote" | "local" | "agent";
  "allow-destroy-plan": boolean;
  "assessments-enabled": boolean;
  "auto-apply": boolean;
  "auto-apply-run-trigger": boolean;
  "auto-destroy-at": string | null;
  "auto-destroy-activity-duration": string | null;
  "file-triggers-enabled": boolean;
  "global-remote-state": boolean;
  "queue-all-runs": boolean;
  "source-name": string | null;
  "source-url": string | null;
  "speculative-enabled": boolean;
  "structured-run-output-enabled": boolean;
  "engine-version": string;
  "trigger-patterns": string[];
  "trigger-prefixes": string[];
  "vcs-repo": StoredVcsRepo | null;
  "working-directory": string | null;
  "setting-overwrites": { "execution-mode": boolean; "agent-pool": boolean };
}

export interface StoredVcsRepo {
  identifier: string;
  "oauth-token-id": string | null;
  "vcs-app-installation-id": string | null;
  branch: string;
  "ingress-submodules": boolean;
  "tags-regex": string | null;
  "webhook-id": string;
}

export function settingsOf(ws: WorkspaceRecord): WorkspaceSettings {
  return JSON.parse(ws.settings) as WorkspaceSettings;
}

export function findWorkspaceById(db: Db, id: string): WorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM workspaces WHERE id = ?`).get(id) as WorkspaceRecord | undefined;
}

export function findWorkspaceByName(db: Db, organization: string, name: string): WorkspaceRecord | undefined {
  return prepare(db, `SELECT * FROM workspaces WHERE organization = ? AND name = ? COLLATE NOCASE`).get(organization, name) as WorkspaceRecord | undefined;
}

export function insertWorkspace(db: Db, ws: WorkspaceRecord): void {
  prepare(db, 
    `INSERT INTO workspaces (id, organization, name, project_id, settings, source, locked, locked_reason, locked_by, ssh_key_id, agent_pool_id,
       current_state_version_id, current_run_id, resource_count, latest_change_at, created_at, updated_at)
     VALUES (@id, @organization, @name, @project_id, @settings, @source, @locked, @locked_reason, @locked_by, @ssh_key_id, @agent_pool_id,
       @current_state_version_id, @current_run_id, @resource_count, @latest_change_at, @created_at, @updated_at)`,
  ).run(ws);
}

/** Writes the columns a settings update may change. */
export function saveWorkspace(db: Db, ws: WorkspaceRecord): void {
  prepare(db, 
    `UPDATE workspaces SET name = @name, project_id = @project_id, settings = @settings, agent_pool_id = @agent_pool_id,
       ssh_key_id = @ssh_key_id, updated_at = @updated_at WHERE id = @id`,
  ).run(ws);
}

export function flatTagNames(db: Db, workspaceId: string): string[] {
  return (
    prepare(db, `SELECT t.name FROM workspace_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.workspace_id = ? ORDER BY t.name`).all(workspaceId) as { name: string }[]
  ).map((r) => r.name);
}

export interface TagBindingRecord {
  id: string;
  key: string;
  value: string;
  created_at: string;
}

export function directTagBindings(db: Db, workspaceId: string): TagBindingRecord[] {
  return prepare(db, `SELECT id, key, value, created_at FROM workspace_tag_bindings WHERE workspace_id = ? ORDER BY key`).all(workspaceId) as TagBindingRecord[];
}

export function projectTagBindings(db: Db, projectId: string): TagBindingRecord[] {
  return prepare(db, `SELECT id, key, value, created_at FROM project_tag_bindings WHERE project_id = ? ORDER BY key`).all(projectId) as TagBindingRecord[];
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

export interface EffectiveTagBinding {
  /** The binding it comes from (the workspace's own, or the project's when inherited). */
  sourceId: string;
  key: string;
  value: string;
  inherited: boolean;
}

/**
 * An `effective-tag-bindings` resource. The spec gives these no identity of their own;
 * the id of the binding each comes from is added so that JSON:API clients can match
 * the entries of an `include` to the workspace's relationship (go-tfe does); workspaces
 * of one project share the inherited entries. An
 * inherited one names its project both as relationship `inherited-from` and as link
 * `inherited-from`, where go-tfe reads it; a direct one has neither.
 */
export function renderEffectiveTagBinding(b: EffectiveTagBinding, projectId: string): Resource {
  return {
    id: b.sourceId,
    type: "effective-tag-bindings",
    attributes: { key: b.key, value: b.value },
    ...(b.inherited
      ? { relationships: { "inherited-from": ref("projects", projectId) }, links: { "inherited-from": `${API_PREFIX}/projects/${projectId}` } }
      : {}),
  };
}

export function variableIds(db: Db, workspaceId: string): string[] {
  return (prepare(db, `SELECT id FROM vars WHERE workspace_id = ? ORDER BY created_at, key`).all(workspaceId) as { id: string }[]).map((r) => r.id);
}

/** Flat tags that no workspace carries any more disappear from the organization (spec 4.10). */
export function pruneUnusedTags(db: Db, organization: string): void {
  prepare(db, `DELETE FROM tags WHERE organization = ? AND NOT EXISTS (SELECT 1 FROM workspace_tags wt WHERE wt.tag_id = tags.id)`).run(organization);
}

/**
 * Tag ids for flat tag items (`{id}` or `{attributes.name}`, names lower-cased); a name
 * that matches nothing gives a new tag when `create`, else null. Unknown ids are a 422
 * pointing at `${pointer}/i/id`.
 */
export function resolveTags(
  db: Db,
  organization: string,
  items: ReadonlyArray<{ id?: string; attributes?: { name?: string } }>,
  create: boolean,
  pointer = "/data",
): (string | null)[] {
  const errors: { pointer: string; detail: string }[] = [];
  const byId = prepare(db, `SELECT id FROM tags WHERE id = ? AND organization = ?`);
  const byName = prepare(db, `SELECT id FROM tags WHERE name = ? AND organization = ?`);
  const insert = prepare(db, `INSERT INTO tags (id, organization, name, created_at) VALUES (?, ?, ?, ?)`);
  const ids = items.map((item, i) => {
    if (item.id !== undefined) {
      if (!byId.get(item.id, organization)) errors.push({ pointer: `${pointer}/${i}/id`, detail: `tag "${item.id}" not found` });
      return item.id;
    }
    const name = item.attributes!.name!.toLowerCase();
    const found = byName.get(name, organization) as { id: string } | undefined;
    if (found) return found.id;
    if (!create) return null;
    const id = newId("tag");
    insert.run(id, organization, name, now());
    return id;
  });
  if (errors.length) throw unprocessableMany(problemsToErrors(errors));
  return ids;
}

export function attachTags(db: Db, workspaceId: string, tagIds: (string | null)[]): void {
  const link = prepare(db, `INSERT OR IGNORE INTO workspace_tags (workspace_id, tag_id) VALUES (?, ?)`);
  for (const id of tagIds) if (id) link.run(workspaceId, id);
}
