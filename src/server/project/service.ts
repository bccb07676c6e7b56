import type { Db } from "../store/db";
import { inTransaction, now, onDuplicate, type Page } from "../store/db";
import { newId } from "../ids";
import type { Caller } from "../auth/service/caller";
import { assertMember, isProjectAdmin, orgRole } from "../auth/service/authz";
import { agentPoolInOrganization } from "../agent-pool/service";
import { Conflict, Invalid, NameTaken, NotFound } from "../domain-errors";
import { findOrganization } from "../organization/service";
import {
  checkTagBindings,
  mergeTagBindings,
  replaceTagBindings,
  taggedProjectsClause,
  type KeyValue,
  type TagBindingRecord,
} from "../tags/service";
import * as store from "./store";
import type { ProjectRecord } from "./store";
import { EXECUTION_MODES, type ExecutionMode } from "../../api/workspace-fields";
import { PROJECT_NAME_PATTERN } from "../../api/organizations";

export type { ProjectRecord };

/**
 * The execution mode and agent pool that workspaces of the project inherit: the
 * project's own when it overrides the organization's, else the organization's.
 */
export function projectExecutionDefaults(
  db: Db,
  p: ProjectRecord,
): { mode: ExecutionMode; agentPoolId: string | null } {
  if (p.default_execution_mode)
    return { mode: p.default_execution_mode as ExecutionMode, agentPoolId: p.default_agent_pool_id };
  const org = findOrganization(db, p.organization);
  const mode =
    org?.default_execution_mode === "local" || org?.default_execution_mode === "agent"
      ? org.default_execution_mode
      : "remote";
  return { mode, agentPoolId: mode === "agent" ? (org?.default_agent_pool_id ?? null) : null };
}

function checkProjectName(name: string | undefined): void {
  if (name !== undefined && !PROJECT_NAME_PATTERN.test(name)) {
    throw new Invalid("Name may only contain letters, numbers, spaces, dashes (-), and underscores (_)", {
      attribute: "name",
    });
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

/** The stored pair after applying `input` to `current`; invalid for a pool without agent mode or a pool of another organization. */
function executionSettings(
  db: Db,
  organization: string,
  current: Pick<ProjectRecord, "default_execution_mode" | "default_agent_pool_id">,
  input: ProjectExecutionInput,
) {
  let mode = current.default_execution_mode;
  let pool = current.default_agent_pool_id;
  if (input.overwritesMode === false && input.mode === undefined) {
    mode = null;
    pool = null;
  }
  if (input.mode !== undefined) {
    if (!(EXECUTION_MODES as readonly string[]).includes(input.mode)) {
      throw new Invalid(`default-execution-mode must be remote, local or agent, not "${input.mode}"`, {
        attribute: "default-execution-mode",
      });
    }
    mode = input.mode;
    if (mode !== "agent") pool = null;
  }
  if (input.agentPoolId !== undefined && input.agentPoolId !== null && input.agentPoolId !== "") {
    if (mode !== "agent") {
      throw new Invalid("default-agent-pool-id must not be specified unless using 'agent' execution mode", {
        attribute: "default-agent-pool-id",
      });
    }
    if (!agentPoolInOrganization(db, input.agentPoolId, organization)) {
      throw new Invalid(`agent pool "${input.agentPoolId}" not found in organization ${organization}`, {
        attribute: "default-agent-pool-id",
      });
    }
    pool = input.agentPoolId;
  }
  if (mode === "agent" && !pool)
    throw new Invalid("default-agent-pool-id is required when default-execution-mode is agent", {
      attribute: "default-agent-pool-id",
    });
  return { default_execution_mode: mode, default_agent_pool_id: pool };
}

export function findProject(db: Db, id: string): ProjectRecord | undefined {
  return store.findProject(db, id);
}

/** A project is visible to every member of its organization (workspace contents are guarded separately). */
export function loadProject(db: Db, caller: Caller, id: string): ProjectRecord {
  const p = findProject(db, id);
  if (!p || !orgRole(db, caller, p.organization).member) throw new NotFound("project not found");
  return p;
}

function loadProjectAsAdmin(db: Db, caller: Caller, id: string): ProjectRecord {
  const p = loadProject(db, caller, id);
  if (!isProjectAdmin(db, caller, p.organization, p.id)) throw new NotFound("project not found");
  return p;
}

export interface ProjectInput {
  name?: string;
  description?: string | null;
  tagBindings?: { key: string; value: string }[];
  execution?: ProjectExecutionInput;
}

/** Creating projects takes the organization's manage-projects permission; not found otherwise. */
function assertProjectCreator(db: Db, caller: Caller, organization: string): void {
  if (!assertMember(db, caller, organization).manageProjects)
    throw new NotFound(`organization "${organization}" not found`);
}

export function createProject(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => ProjectInput & { name: string },
): ProjectRecord {
  assertProjectCreator(db, caller, organization);
  const input = read();
  checkProjectName(input.name);
  if (input.tagBindings) checkTagBindings(input.tagBindings);
  return onDuplicate(
    () =>
      inTransaction(db, () => {
        if (store.projectNameInUse(db, organization, input.name)) throw new NameTaken();
        const id = newId("project");
        const exec = executionSettings(
          db,
          organization,
          { default_execution_mode: null, default_agent_pool_id: null },
          input.execution ?? {},
        );
        store.insertProject(db, {
          id,
          organization,
          name: input.name,
          description: input.description ?? "",
          created_at: now(),
          ...exec,
        });
        if (input.tagBindings) replaceTagBindings(db, "project", id, input.tagBindings);
        return findProject(db, id)!;
      }),
    () => new NameTaken(),
  );
}

/** Project admins change a project; `read` parses the body once the caller may. */
export function updateProject(db: Db, caller: Caller, id: string, read: () => ProjectInput): ProjectRecord {
  return onDuplicate(
    () =>
      inTransaction(db, () => {
        const p = loadProjectAsAdmin(db, caller, id);
        const input = read();
        checkProjectName(input.name);
        if (input.tagBindings) checkTagBindings(input.tagBindings);
        if (input.name !== undefined && input.name !== p.name) {
          if (store.projectNameInUse(db, p.organization, input.name, id)) throw new NameTaken();
          store.setName(db, id, input.name);
        }
        if (input.description !== undefined) store.setDescription(db, id, input.description ?? "");
        if (input.tagBindings) replaceTagBindings(db, "project", id, input.tagBindings);
        if (input.execution) {
          const exec = executionSettings(db, p.organization, p, input.execution);
          store.setExecution(db, id, exec.default_execution_mode, exec.default_agent_pool_id);
        }
        return findProject(db, id)!;
      }),
    () => new NameTaken(),
  );
}

/** Adds bindings to the project and changes the value of keys it already binds; returns all of its bindings. */
export function mergeProjectTagBindings(
  db: Db,
  caller: Caller,
  id: string,
  read: () => ReadonlyArray<KeyValue>,
): TagBindingRecord[] {
  return inTransaction(db, () => {
    const p = loadProjectAsAdmin(db, caller, id);
    return mergeTagBindings(db, "project", p.id, read());
  });
}

/** Whether the project is its organization's default project. */
export function isDefaultProject(db: Db, p: ProjectRecord): boolean {
  return findOrganization(db, p.organization)?.default_project_id === p.id;
}

/** The default project and projects that still hold workspaces cannot be deleted (conflict), as on the hosted service. */
export function deleteProject(db: Db, caller: Caller, id: string): void {
  inTransaction(db, () => {
    const p = loadProjectAsAdmin(db, caller, id);
    if (isDefaultProject(db, p))
      throw new Conflict("locked", "The default project of an organization cannot be deleted.");
    if (store.holdsWorkspaces(db, id))
      throw new Conflict("managing-resources", "The project still contains workspaces.");
    store.deleteProjectRow(db, id);
  });
}

export function projectWorkspaceCount(db: Db, projectId: string): number {
  return store.workspaceCount(db, projectId);
}

export interface ProjectListFilter {
  /** `filter[names]`: exact name. */
  name?: string;
  /** `q`: part of the name, any case. */
  query?: string;
  /** `filter[tagged][i][key|value]`: bound keys, with a value when one is given (all must match). */
  tagged?: { key: string; value?: string }[];
}

export function listProjects(
  db: Db,
  caller: Caller,
  organization: string,
  page: Page,
  filter: ProjectListFilter = {},
): { rows: ProjectRecord[]; total: number } {
  assertMember(db, caller, organization);
  const clauses: store.Clause[] = [];
  if (filter.name) clauses.push(store.nameIs(filter.name));
  if (filter.query) clauses.push(store.nameContains(filter.query));
  for (const t of filter.tagged ?? []) clauses.push(taggedProjectsClause(t.key, t.value));
  return store.projectsPage(db, organization, clauses, page.size, (page.number - 1) * page.size);
}
