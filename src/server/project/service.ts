import type { Db } from "../store/db";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId } from "../ids";
import type { Caller } from "../auth/service";
import { assertMember, isProjectAdmin, orgRole } from "../auth/service";
import { conflict, nameTaken, notFound, unprocessable } from "../http/errors";
import { API_PREFIX, ref, type Page, type Resource } from "../http/jsonapi";
import { projectTagBindings } from "../workspace/store";
import { checkTagBindings, replaceTagBindings } from "../store/tagBindings";

export interface ProjectRecord {
  id: string;
  organization: string;
  name: string;
  description: string;
  created_at: string;
  /** Null while the project follows the organization's default. */
  default_execution_mode: string | null;
  default_agent_pool_id: string | null;
}

/**
 * The execution mode and agent pool that workspaces of the project inherit: the
 * project's own when it overrides the organization's, else the organization's.
 */
export function projectExecutionDefaults(db: Db, p: ProjectRecord): { mode: "remote" | "local" | "agent"; agentPoolId: string | null } {
  if (p.default_execution_mode) return { mode: p.default_execution_mode as "remote" | "local" | "agent", agentPoolId: p.default_agent_pool_id };
  const org = prepare(db, `SELECT default_execution_mode, default_agent_pool_id FROM organizations WHERE name = ?`).get(p.organization) as
    | { default_execution_mode: string | null; default_agent_pool_id: string | null }
    | undefined;
  const mode = org?.default_execution_mode === "local" || org?.default_execution_mode === "agent" ? org.default_execution_mode : "remote";
  return { mode, agentPoolId: mode === "agent" ? (org?.default_agent_pool_id ?? null) : null };
}

/** Project names as the hosted service allows them. */
const PROJECT_NAME = /^[A-Za-z0-9 _-]+$/;

function checkProjectName(name: string | undefined): void {
  if (name !== undefined && !PROJECT_NAME.test(name)) {
    throw unprocessable("Name may only contain letters, numbers, spaces, dashes (-), and underscores (_)", "/data/attributes/name");
  }
}

/**
 * Execution settings of a create or update body: `default-execution-mode`,
 * `default-agent-pool-id` and `setting-overwrites` (false returns to the organization's).
 */
export interface ProjectExecutionInput {
  mode?: string;
  agentPoolId?: string | null;
  overwritesMode?: boolean;
  overwritesPool?: boolean;
}

/** The stored pair after applying `input` to `current`; 422 for a pool without agent mode or a pool of another organization. */
function executionSettings(db: Db, organization: string, current: Pick<ProjectRecord, "default_execution_mode" | "default_agent_pool_id">, input: ProjectExecutionInput) {
  let mode = current.default_execution_mode;
  let pool = current.default_agent_pool_id;
  if (input.overwritesMode === false && input.mode === undefined) {
    mode = null;
    pool = null;
  }
  if (input.mode !== undefined) {
    if (!["remote", "local", "agent"].includes(input.mode)) {
      throw unprocessable(`default-execution-mode must be remote, local or agent, not "${input.mode}"`, "/data/attributes/default-execution-mode");
    }
    mode = input.mode;
    if (mode !== "agent") pool = null;
  }
  if (input.agentPoolId !== undefined && input.agentPoolId !== null && input.agentPoolId !== "") {
    if (mode !== "agent") {
      throw unprocessable("default-agent-pool-id must not be specified unless using 'agent' execution mode", "/data/attributes/default-agent-pool-id");
    }
    if (!prepare(db, `SELECT 1 FROM agent_pools WHERE id = ? AND organization = ?`).get(input.agentPoolId, organization)) {
      throw unprocessable(`agent pool "${input.agentPoolId}" not found in organization ${organization}`, "/data/attributes/default-agent-pool-id");
    }
    pool = input.agentPoolId;
  }
  if (mode === "agent" && !pool) throw unprocessable("default-agent-pool-id is required when default-execution-mode is agent", "/data/attributes/default-agent-pool-id");
  return { default_execution_mode: mode, default_agent_pool_id: pool };
}

export function findProject(db: Db, id: string): ProjectRecord | undefined {
  return prepare(db, `SELECT * FROM projects WHERE id = ?`).get(id) as ProjectRecord | undefined;
}

/** A project is visible to every member of its organization (workspace contents are guarded separately). */
export function loadProject(db: Db, caller: Caller, id: string): ProjectRecord {
  const p = findProject(db, id);
  if (!p || !orgRole(db, caller, p.organization).member) throw notFound("project not found");
  return p;
}

export function loadProjectAsAdmin(db: Db, caller: Caller, id: string): ProjectRecord {
  const p = loadProject(db, caller, id);
  if (!isProjectAdmin(db, caller, p.organization, p.id)) throw notFound("project not found");
  return p;
}

export interface ProjectInput {
  name?: string;
  description?: string | null;
  tagBindings?: { key: string; value: string }[];
  execution?: ProjectExecutionInput;
}

/** Creating projects takes the organization's manage-projects permission; 404 otherwise. */
export function assertProjectCreator(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageProjects) throw notFound(`organization "${organization}" not found`);
}

export function createProject(db: Db, caller: Caller, organization: string, input: ProjectInput & { name: string }): ProjectRecord {
  assertProjectCreator(db, caller, organization);
  checkProjectName(input.name);
  if (input.tagBindings) checkTagBindings(input.tagBindings);
  try {
    return inTransaction(db, () => {
      if (prepare(db, `SELECT 1 FROM projects WHERE organization = ? AND name = ?`).get(organization, input.name)) throw nameTaken();
      const id = newId("project");
      const exec = executionSettings(db, organization, { default_execution_mode: null, default_agent_pool_id: null }, input.execution ?? {});
      prepare(db, `INSERT INTO projects (id, organization, name, description, created_at, default_execution_mode, default_agent_pool_id) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
        id,
        organization,
        input.name,
        input.description ?? "",
        now(),
        exec.default_execution_mode,
        exec.default_agent_pool_id,
      );
      if (input.tagBindings) replaceTagBindings(db, "project", id, input.tagBindings);
      return findProject(db, id)!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

export function updateProject(db: Db, caller: Caller, id: string, input: ProjectInput): ProjectRecord {
  checkProjectName(input.name);
  if (input.tagBindings) checkTagBindings(input.tagBindings);
  try {
    return inTransaction(db, () => {
      const p = loadProjectAsAdmin(db, caller, id);
      if (input.name !== undefined && input.name !== p.name) {
        if (prepare(db, `SELECT 1 FROM projects WHERE organization = ? AND name = ? AND id <> ?`).get(p.organization, input.name, id)) throw nameTaken();
        prepare(db, `UPDATE projects SET name = ? WHERE id = ?`).run(input.name, id);
      }
      if (input.description !== undefined) prepare(db, `UPDATE projects SET description = ? WHERE id = ?`).run(input.description ?? "", id);
      if (input.tagBindings) replaceTagBindings(db, "project", id, input.tagBindings);
      if (input.execution) {
        const exec = executionSettings(db, p.organization, p, input.execution);
        prepare(db, `UPDATE projects SET default_execution_mode = ?, default_agent_pool_id = ? WHERE id = ?`).run(exec.default_execution_mode, exec.default_agent_pool_id, id);
      }
      return findProject(db, id)!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

/** The default project and projects that still hold workspaces cannot be deleted (409), as on the hosted service. */
export function deleteProject(db: Db, caller: Caller, id: string): void {
  inTransaction(db, () => {
    const p = loadProjectAsAdmin(db, caller, id);
    const org = prepare(db, `SELECT default_project_id FROM organizations WHERE name = ?`).get(p.organization) as { default_project_id: string };
    if (org.default_project_id === id) throw conflict("The default project of an organization cannot be deleted.");
    if (prepare(db, `SELECT 1 FROM workspaces WHERE project_id = ? LIMIT 1`).get(id)) throw conflict("The project still contains workspaces.");
    prepare(db, `DELETE FROM projects WHERE id = ?`).run(id);
  });
}

export interface ProjectListFilter {
  /** `filter[names]`: exact name. */
  name?: string;
  /** `q`: part of the name, any case. */
  query?: string;
  /** `filter[tagged][i][key|value]`: bound keys, with a value when one is given (all must match). */
  tagged?: { key: string; value?: string }[];
}

export function listProjects(db: Db, caller: Caller, organization: string, page: Page, filter: ProjectListFilter = {}): { rows: ProjectRecord[]; total: number } {
  assertMember(db, caller, organization);
  const where = ["organization = ?"];
  const params: unknown[] = [organization];
  if (filter.name) {
    where.push("name = ?");
    params.push(filter.name);
  }
  if (filter.query) {
    where.push("instr(lower(name), lower(?)) > 0");
    params.push(filter.query);
  }
  for (const t of filter.tagged ?? []) {
    where.push(`EXISTS (SELECT 1 FROM project_tag_bindings b WHERE b.project_id = projects.id AND b.key = ?${t.value === undefined ? "" : " AND b.value = ?"})`);
    params.push(t.key, ...(t.value === undefined ? [] : [t.value]));
  }
  const sql = where.join(" AND ");
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM projects WHERE ${sql}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM projects WHERE ${sql} ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`)
    .all(...params, page.size, (page.number - 1) * page.size) as ProjectRecord[];
  return { rows, total };
}

export function renderProject(db: Db, p: ProjectRecord): Resource {
  const count = (prepare(db, `SELECT COUNT(*) AS n FROM workspaces WHERE project_id = ?`).get(p.id) as { n: number }).n;
  const org = prepare(db, `SELECT default_project_id FROM organizations WHERE name = ?`).get(p.organization) as { default_project_id: string } | undefined;
  const exec = projectExecutionDefaults(db, p);
  const overrides = p.default_execution_mode !== null;
  return {
    id: p.id,
    type: "projects",
    attributes: {
      name: p.name,
      description: p.description,
      "created-at": p.created_at,
      "workspace-count": count,
      "is-default": org?.default_project_id === p.id,
      "default-execution-mode": exec.mode,
      "setting-overwrites": { "default-execution-mode": overrides, "default-agent-pool": overrides },
    },
    relationships: {
      organization: ref("organizations", p.organization),
      "default-agent-pool": ref("agent-pools", exec.agentPoolId),
      "tag-bindings": { links: { related: `${API_PREFIX}/projects/${p.id}/tag-bindings` } },
      "effective-tag-bindings": { links: { related: `${API_PREFIX}/projects/${p.id}/effective-tag-bindings` } },
    },
    links: { self: `${API_PREFIX}/projects/${p.id}` },
  };
}

export function renderProjectTagBindings(db: Db, projectId: string): Resource[] {
  return projectTagBindings(db, projectId).map((b) => ({
    id: b.id,
    type: "tag-bindings",
    attributes: { key: b.key, value: b.value, "created-at": b.created_at },
  }));
}
