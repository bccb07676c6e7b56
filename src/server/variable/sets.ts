/**
 * Variable sets: a name unique in the organization, a description, `global` (every
 * workspace of the organization) and `priority` (its variables override the workspaces'
 * own); the workspaces and projects it is applied to; its variables. Any member of the
 * organization reads sets (a sensitive value is never answered); managing one takes the
 * organization's manage-workspaces permission, or admin on the project that owns it.
 */
import { effectiveVariablesOf, type PrecedenceSet, type VariableSetScope } from "../../api/variable-sets";
import type { VariableSetCreateRequest, VariableSetUpdateRequest } from "../../api/variable-sets";
import { assertMember, isAnyProjectAdmin, isProjectAdmin, orgRole } from "../auth/service/authz";
import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import { Invalid, NameTaken, NotFound, type Failure } from "../domain-errors";
import { newId } from "../ids";
import { findProject } from "../project/service";
import { inTransaction, now, type Page } from "../store/db";
import { findWorkspace } from "../workspace/service";
import { createVariableIn, variablesWorkspace } from "./service";
import * as store from "./store";
import type { Target, VariableRecord, VariableSetFilter, VariableSetRecord } from "./store";

export type { Target, VariableSetRecord };

function mayManage(ctx: ServerContext, caller: Caller, organization: string, parentProjectId: string | null): boolean {
  if (orgRole(ctx.db, caller, organization).manageWorkspaces) return true;
  return parentProjectId !== null && isProjectAdmin(ctx.db, caller, organization, parentProjectId);
}

/** May manage some set of the organization: the one the body names is not known before the body is read. */
function mayManageAny(ctx: ServerContext, caller: Caller, organization: string): boolean {
  return orgRole(ctx.db, caller, organization).manageWorkspaces || isAnyProjectAdmin(ctx.db, caller, organization);
}

/** A set the caller may see (any member of its organization), or manage when `manage` is set; otherwise 404. */
export function loadVariableSet(ctx: ServerContext, caller: Caller, id: string, manage: boolean): VariableSetRecord {
  const s = store.findVariableSet(ctx.db, id);
  if (!s || !orgRole(ctx.db, caller, s.organization).member) throw new NotFound("variable set not found");
  if (manage && !mayManage(ctx, caller, s.organization, s.parent_project_id))
    throw new NotFound("variable set not found");
  return s;
}

/** The ids of `kind` among `ids` that are not records of the organization, as failures of the relationship's items. */
function foreignTargets(
  ctx: ServerContext,
  organization: string,
  kind: Target,
  ids: readonly string[],
  relationship?: string,
): Failure[] {
  const failures: Failure[] = [];
  ids.forEach((id, item) => {
    const found = kind === "workspaces" ? findWorkspace(ctx, id) : findProject(ctx.db, id);
    if (found?.organization === organization) return;
    const detail = `${kind === "workspaces" ? "workspace" : "project"} ${JSON.stringify(id)} not found`;
    failures.push({ detail, field: relationship ? { relationship, item, id: true } : { item, id: true } });
  });
  return failures;
}

function assertNameFree(ctx: ServerContext, organization: string, name: string, id?: string): void {
  const other = store.variableSetByName(ctx.db, organization, name);
  if (other && other.id !== id) throw new NameTaken();
}

/**
 * Creates a set. A caller that may manage no set of the organization is refused before
 * the body is read: it is told 404, as for a valid body, never what is wrong with it.
 */
export function createVariableSet(
  ctx: ServerContext,
  caller: Caller,
  organization: string,
  read: () => VariableSetCreateRequest,
): VariableSetRecord {
  assertMember(ctx.db, caller, organization);
  if (!mayManageAny(ctx, caller, organization)) throw new NotFound(`organization "${organization}" not found`);
  const body = read().data;
  const rel = body.relationships ?? {};
  const parent = rel.parent?.data;
  const parentProjectId = parent?.type === "projects" ? parent.id : null;
  if (parentProjectId && findProject(ctx.db, parentProjectId)?.organization !== organization)
    throw new Invalid(`project ${JSON.stringify(parentProjectId)} not found`, { relationship: "parent", id: true });
  if (!mayManage(ctx, caller, organization, parentProjectId))
    throw new NotFound(`organization "${organization}" not found`);
  const workspaceIds = rel.workspaces?.data.map((d) => d.id) ?? [];
  const projectIds = rel.projects?.data.map((d) => d.id) ?? [];
  const failures = [
    ...foreignTargets(ctx, organization, "workspaces", workspaceIds, "workspaces"),
    ...foreignTargets(ctx, organization, "projects", projectIds, "projects"),
  ];
  if (failures.length) throw new Invalid(failures);
  const a = body.attributes;
  const t = now();
  const record: VariableSetRecord = {
    id: newId("variableSet"),
    organization,
    name: a.name,
    description: a.description ?? "",
    global: a.global ? 1 : 0,
    priority: a.priority ? 1 : 0,
    parent_project_id: parentProjectId,
    created_at: t,
    updated_at: t,
  };
  inTransaction(ctx.db, () => {
    assertNameFree(ctx, organization, a.name);
    store.insertVariableSet(ctx.db, record);
    store.addTargets(ctx.db, "workspaces", record.id, workspaceIds);
    store.addTargets(ctx.db, "projects", record.id, projectIds);
    for (const v of rel.vars?.data ?? []) createVariableIn(ctx, "varset_vars", record.id, v.attributes);
  });
  return record;
}

export function updateVariableSet(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  read: () => VariableSetUpdateRequest,
): VariableSetRecord {
  const current = loadVariableSet(ctx, caller, id, true);
  const body = read().data;
  const a = body.attributes ?? {};
  const rel = body.relationships ?? {};
  const workspaceIds = rel.workspaces?.data.map((d) => d.id);
  const projectIds = rel.projects?.data.map((d) => d.id);
  const failures = [
    ...foreignTargets(ctx, current.organization, "workspaces", workspaceIds ?? [], "workspaces"),
    ...foreignTargets(ctx, current.organization, "projects", projectIds ?? [], "projects"),
  ];
  if (failures.length) throw new Invalid(failures);
  const next: VariableSetRecord = {
    ...current,
    name: a.name ?? current.name,
    description: a.description !== undefined ? (a.description ?? "") : current.description,
    global: a.global !== undefined ? (a.global ? 1 : 0) : current.global,
    priority: a.priority !== undefined ? (a.priority ? 1 : 0) : current.priority,
    updated_at: now(),
  };
  inTransaction(ctx.db, () => {
    assertNameFree(ctx, current.organization, next.name, current.id);
    store.updateVariableSet(ctx.db, next);
    if (workspaceIds) {
      store.clearTargets(ctx.db, "workspaces", id);
      store.addTargets(ctx.db, "workspaces", id, workspaceIds);
    }
    if (projectIds) {
      store.clearTargets(ctx.db, "projects", id);
      store.addTargets(ctx.db, "projects", id, projectIds);
    }
  });
  return next;
}

export function deleteVariableSet(ctx: ServerContext, caller: Caller, id: string): void {
  const s = loadVariableSet(ctx, caller, id, true);
  inTransaction(ctx.db, () => store.deleteVariableSet(ctx.db, s.id));
}

/** Applies the set to (`add`) or removes it from workspaces or projects; targets already in place, or already gone, change nothing. */
export function relateVariableSet(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  kind: Target,
  add: boolean,
  read: () => string[],
): void {
  const s = loadVariableSet(ctx, caller, id, true);
  const ids = read();
  if (add) {
    const failures = foreignTargets(ctx, s.organization, kind, ids);
    if (failures.length) throw new Invalid(failures);
  }
  inTransaction(ctx.db, () => (add ? store.addTargets : store.removeTargets)(ctx.db, kind, s.id, ids));
}

export interface SetPage {
  rows: VariableSetRecord[];
  total: number;
  page: Page;
}

function pageOf(ctx: ServerContext, filter: VariableSetFilter, page: Page): SetPage {
  return {
    rows: store.variableSetsPage(ctx.db, filter, page.size, (page.number - 1) * page.size),
    total: store.countVariableSets(ctx.db, filter),
    page,
  };
}

/** A list's search and page, read once the caller may see what is listed (one that may not gets 404 whatever it asked). */
export type SetQuery = () => { query: string | undefined; page: Page };

/** The organization's sets. */
export function listVariableSets(ctx: ServerContext, caller: Caller, organization: string, read: SetQuery): SetPage {
  assertMember(ctx.db, caller, organization);
  const { query, page } = read();
  return pageOf(ctx, { organization, query }, page);
}

/** The sets that reach a workspace: applied to it, to its project, or global. */
export function listWorkspaceVariableSets(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  read: SetQuery,
): SetPage {
  const ws = variablesWorkspace(ctx, caller, workspaceId, false);
  const { query, page } = read();
  return pageOf(ctx, { organization: ws.organization, workspaceId: ws.id, projectId: ws.project_id, query }, page);
}

/** The sets applied to a project. */
export function listProjectVariableSets(
  ctx: ServerContext,
  caller: Caller,
  projectId: string,
  read: SetQuery,
): SetPage {
  const p = findProject(ctx.db, projectId);
  if (!p || !orgRole(ctx.db, caller, p.organization).member) throw new NotFound("project not found");
  const { query, page } = read();
  return pageOf(ctx, { projectId: p.id, query }, page);
}

/** Where a set applies and its variables' ids, for rendering. */
export function variableSetRelations(ctx: ServerContext, s: VariableSetRecord) {
  return {
    workspaceIds: store.targetsOf(ctx.db, "workspaces", s.id),
    projectIds: store.targetsOf(ctx.db, "projects", s.id),
    variables: store.variablesOf(ctx.db, "varset_vars", s.id),
  };
}

/**
 * A workspace's effective variables (`GET /workspaces/:id/all-vars`): one per key and
 * category, its own and its sets' resolved by the service's precedence (the rule of
 * src/api/variable-sets.ts, the one the client uses).
 */
export function effectiveWorkspaceVariables(ctx: ServerContext, caller: Caller, workspaceId: string): VariableRecord[] {
  const ws = variablesWorkspace(ctx, caller, workspaceId, false);
  const own = store.variablesOf(ctx.db, "vars", ws.id);
  const sets = store.variableSetsReaching(ctx.db, ws.organization, ws.id, ws.project_id).map((s) => {
    const scopes: VariableSetScope[] = [];
    if (store.targetsOf(ctx.db, "workspaces", s.id).includes(ws.id)) scopes.push("workspace");
    if (store.targetsOf(ctx.db, "projects", s.id).includes(ws.project_id)) scopes.push("project");
    if (s.global === 1) scopes.push("global");
    const set: PrecedenceSet = {
      id: s.id,
      name: s.name,
      priority: s.priority === 1,
      ownedByProject: s.parent_project_id !== null,
      scopes,
    };
    return { set, variables: store.variablesOf(ctx.db, "varset_vars", s.id) };
  });
  return effectiveVariablesOf(own, sets).map((e) => e.variable);
}
