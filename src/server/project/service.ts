import type { Db } from "../store/db";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId } from "../ids";
import type { Caller } from "../auth/service";
import { assertMember, isProjectAdmin, orgRole } from "../auth/service";
import { conflict, nameTaken, notFound } from "../http/errors";
import { API_PREFIX, ref, type Page, type Resource } from "../http/jsonapi";
import { projectTagBindings } from "../workspace/store";
import { checkTagBindings, replaceTagBindings } from "../store/tagBindings";

export interface ProjectRecord {
  id: string;
  organization: string;
  name: string;
  description: string;
  created_at: string;
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
}

/** Creating projects takes the organization's manage-projects permission; 404 otherwise. */
export function assertProjectCreator(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageProjects) throw notFound(`organization "${organization}" not found`);
}

export function createProject(db: Db, caller: Caller, organization: string, input: ProjectInput & { name: string }): ProjectRecord {
  assertProjectCreator(db, caller, organization);
  if (input.tagBindings) checkTagBindings(input.tagBindings);
  try {
    return inTransaction(db, () => {
      if (prepare(db, `SELECT 1 FROM projects WHERE organization = ? AND name = ?`).get(organization, input.name)) throw nameTaken();
      const id = newId("project");
      prepare(db, `INSERT INTO projects (id, organization, name, description, created_at) VALUES (?, ?, ?, ?, ?)`).run(id, organization, input.name, input.description ?? "", now());
      if (input.tagBindings) replaceTagBindings(db, "project", id, input.tagBindings);
      return findProject(db, id)!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

export function updateProject(db: Db, caller: Caller, id: string, input: ProjectInput): ProjectRecord {
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

export function listProjects(db: Db, caller: Caller, organization: string, page: Page, nameFilter?: string): { rows: ProjectRecord[]; total: number } {
  assertMember(db, caller, organization);
  const filter = nameFilter ? ` AND name = ?` : "";
  const params: unknown[] = nameFilter ? [organization, nameFilter] : [organization];
  const total = (prepare(db, `SELECT COUNT(*) AS n FROM projects WHERE organization = ?${filter}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM projects WHERE organization = ?${filter} ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`)
    .all(...params, page.size, (page.number - 1) * page.size) as ProjectRecord[];
  return { rows, total };
}

export function renderProject(db: Db, p: ProjectRecord): Resource {
  const count = (prepare(db, `SELECT COUNT(*) AS n FROM workspaces WHERE project_id = ?`).get(p.id) as { n: number }).n;
  const org = prepare(db, `SELECT default_project_id FROM organizations WHERE name = ?`).get(p.organization) as { default_project_id: string } | undefined;
  return {
    id: p.id,
    type: "projects",
    attributes: {
      name: p.name,
      description: p.description,
      "created-at": p.created_at,
      "workspace-count": count,
      "is-default": org?.default_project_id === p.id,
    },
    relationships: {
      organization: ref("organizations", p.organization),
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
