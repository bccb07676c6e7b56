import type { Db } from "../store/db";
import { inTransaction, isUniqueViolation, now, prepare } from "../store/db";
import { newId } from "../ids";
import { createServiceUser, issueToken, tokenDigest, type Caller, type IssuedToken, type OrgRole } from "../auth/service";
import { conflict, nameTaken, notFound, unprocessable } from "../http/errors";
import { API_PREFIX, ref, type Resource } from "../http/jsonapi";

export interface OrganizationRecord {
  name: string;
  email: string | null;
  created_at: string;
  default_project_id: string;
  allow_force_delete_workspaces: number;
  service_user_id: string;
  /** Where workspaces that do not override it run: `remote`, `local` or `agent`. */
  default_execution_mode: string;
  default_agent_pool_id: string | null;
  /** Days after which state versions are deleted, the default retention policy of its workspaces (self-managed); null keeps them. */
  data_retention_days: number | null;
}

/** Organization settings that workspaces inherit unless they override them (`setting-overwrites`). */
export interface OrganizationDefaults {
  executionMode?: "remote" | "local" | "agent";
  agentPoolId?: string | null;
}

/**
 * Checks and stores the organization's default execution mode and agent pool: `agent`
 * needs a pool of the organization, other modes drop the pool.
 */
function setDefaults(db: Db, name: string, d: OrganizationDefaults): void {
  if (d.executionMode === undefined && d.agentPoolId === undefined) return;
  const org = getOrganization(db, name);
  const mode = d.executionMode ?? org.default_execution_mode;
  let pool = d.agentPoolId !== undefined ? d.agentPoolId : org.default_agent_pool_id;
  if (mode !== "agent") pool = null;
  else if (!pool) throw unprocessable("default-agent-pool is required when default-execution-mode is agent", "/data/relationships/default-agent-pool");
  else if (!prepare(db, `SELECT 1 FROM agent_pools WHERE id = ? AND organization = ?`).get(pool, name)) {
    throw unprocessable(`agent pool "${pool}" not found in organization ${name}`, "/data/relationships/default-agent-pool");
  }
  prepare(db, `UPDATE organizations SET default_execution_mode = ?, default_agent_pool_id = ? WHERE name = ?`).run(mode, pool, name);
}

export const DEFAULT_PROJECT_NAME = "Default Project";

export function findOrganization(db: Db, name: string): OrganizationRecord | undefined {
  return prepare(db, `SELECT * FROM organizations WHERE name = ?`).get(name) as OrganizationRecord | undefined;
}

export function getOrganization(db: Db, name: string): OrganizationRecord {
  const org = findOrganization(db, name);
  if (!org) throw notFound(`organization "${name}" not found`);
  return org;
}

export interface CreatedOrganization {
  organization: OrganizationRecord;
  ownersTeamId: string;
}

/**
 * Creates an organization with its owners team and its default project, in one
 * transaction. A user who creates it joins the owners team, as on the hosted service.
 */
export function createOrganization(
  db: Db,
  input: { name: string; email?: string | null; allowForceDeleteWorkspaces?: boolean; defaults?: OrganizationDefaults },
  creatorUserId: string | null,
): CreatedOrganization {
  try {
    return inTransaction(db, () => {
      if (findOrganization(db, input.name)) throw nameTaken();
      const createdAt = now();
      const serviceUser = createServiceUser(db, `api-org-${input.name}`);
      const projectId = newId("project");
      prepare(db, 
        `INSERT INTO organizations (name, email, created_at, default_project_id, allow_force_delete_workspaces, service_user_id) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(input.name, input.email ?? null, createdAt, projectId, input.allowForceDeleteWorkspaces ? 1 : 0, serviceUser);
      prepare(db, `INSERT INTO projects (id, organization, name, description, created_at) VALUES (?, ?, ?, '', ?)`).run(projectId, input.name, DEFAULT_PROJECT_NAME, createdAt);
      const ownersTeamId = createTeamRecord(db, input.name, "owners", { owners: true, manageWorkspaces: true, manageProjects: true });
      if (creatorUserId) prepare(db, `INSERT INTO team_members (team_id, user_id) VALUES (?, ?)`).run(ownersTeamId, creatorUserId);
      if (input.defaults) setDefaults(db, input.name, input.defaults);
      return { organization: findOrganization(db, input.name)!, ownersTeamId };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

export function createTeamRecord(
  db: Db,
  organization: string,
  name: string,
  flags: { owners?: boolean; manageWorkspaces?: boolean; manageProjects?: boolean },
): string {
  const id = newId("team");
  const serviceUser = createServiceUser(db, `api-team-${name}`);
  prepare(db, 
    `INSERT INTO teams (id, organization, name, is_owners, manage_workspaces, manage_projects, service_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, organization, name, flags.owners ? 1 : 0, flags.manageWorkspaces ? 1 : 0, flags.manageProjects ? 1 : 0, serviceUser, now());
  return id;
}

export function updateOrganization(
  db: Db,
  name: string,
  patch: { email?: string | null; allowForceDeleteWorkspaces?: boolean; defaults?: OrganizationDefaults },
): OrganizationRecord {
  return inTransaction(db, () => {
    getOrganization(db, name);
    if (patch.email !== undefined) prepare(db, `UPDATE organizations SET email = ? WHERE name = ?`).run(patch.email, name);
    if (patch.allowForceDeleteWorkspaces !== undefined) {
      prepare(db, `UPDATE organizations SET allow_force_delete_workspaces = ? WHERE name = ?`).run(patch.allowForceDeleteWorkspaces ? 1 : 0, name);
    }
    if (patch.defaults) setDefaults(db, name, patch.defaults);
    return getOrganization(db, name);
  });
}

/** Deletes the organization and, through the schema's cascades, everything in it. */
export function deleteOrganization(db: Db, name: string): void {
  inTransaction(db, () => {
    getOrganization(db, name);
    prepare(db, `DELETE FROM workspaces WHERE organization = ?`).run(name);
    prepare(db, `DELETE FROM tokens WHERE organization = ? OR team_id IN (SELECT id FROM teams WHERE organization = ?)`).run(name, name);
    const res = prepare(db, `DELETE FROM organizations WHERE name = ?`).run(name);
    if (res.changes !== 1) throw conflict(`organization "${name}" could not be deleted`);
  });
}

/**
 * Starts a local server's organization if needed and makes sure `token` opens its
 * owners team. The bootstrap token is also a site administrator, so the person who
 * started the server can create and manage further organizations with it.
 */
export function bootstrapOrganization(db: Db, name: string, token: string | undefined): { token: string; issued: IssuedToken | null } {
  return inTransaction(db, () => {
    let org = findOrganization(db, name);
    if (!org) org = createOrganization(db, { name }, null).organization;
    const owners = prepare(db, `SELECT id FROM teams WHERE organization = ? AND is_owners = 1`).get(name) as { id: string };
    if (token) {
      const existing = prepare(db, `SELECT id FROM tokens WHERE digest = ?`).get(tokenDigest(token));
      if (existing) return { token, issued: null };
      const issued = issueToken(db, { kind: "team", organization: name, teamId: owners.id, siteAdmin: true, description: "bootstrap" }, token);
      return { token, issued };
    }
    const issued = issueToken(db, { kind: "team", organization: name, teamId: owners.id, siteAdmin: true, description: "bootstrap" });
    return { token: issued.token, issued };
  });
}

export function organizationPath(name: string): string {
  return `${API_PREFIX}/organizations/${encodeURIComponent(name)}`;
}

export function renderOrganization(org: OrganizationRecord, role: OrgRole): Resource {
  return {
    id: org.name,
    type: "organizations",
    attributes: {
      name: org.name,
      email: org.email,
      "created-at": org.created_at,
      "allow-force-delete-workspaces": org.allow_force_delete_workspaces === 1,
      "default-execution-mode": org.default_execution_mode,
      permissions: {
        "can-update": role.owner,
        "can-destroy": role.owner,
        "can-create-workspace": role.manageWorkspaces,
        "can-create-team": role.owner,
        "can-manage-tags": role.manageWorkspaces,
      },
    },
    relationships: {
      "default-project": { ...ref("projects", org.default_project_id), links: { related: `${API_PREFIX}/projects/${org.default_project_id}` } },
      "default-agent-pool": ref("agent-pools", org.default_agent_pool_id),
    },
    links: { self: organizationPath(org.name) },
  };
}

export type { Caller };
