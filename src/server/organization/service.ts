import type { Db } from "../store/db";
import { inTransaction, now, onDuplicate } from "../store/db";
import { newId } from "../ids";
import { addOwner, createTeamRecord, ownersTeamId } from "../auth/service/teams";
import { createServiceUser } from "../auth/service/users";
import { issueToken, revokeOrganizationTokens, type IssuedToken } from "../auth/service/tokens";
import { organizationsThroughTeams } from "../auth/service/authz";
import { chosenTokenExists } from "../auth/service/authn";
import type { Caller } from "../auth/service/caller";
import { agentPoolInOrganization } from "../agentpool/service";
import { Conflict, Invalid, NameTaken, NotFound } from "../errors";
import * as store from "./store";
import type { OrganizationRecord } from "./store";

export type { OrganizationRecord };

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
  else if (!pool)
    throw new Invalid("default-agent-pool is required when default-execution-mode is agent", {
      relationship: "default-agent-pool",
    });
  else if (!agentPoolInOrganization(db, pool, name)) {
    throw new Invalid(`agent pool "${pool}" not found in organization ${name}`, { relationship: "default-agent-pool" });
  }
  store.setExecutionDefaults(db, name, mode, pool);
}

const DEFAULT_PROJECT_NAME = "Default Project";

export function findOrganization(db: Db, name: string): OrganizationRecord | undefined {
  return store.findOrganization(db, name);
}

export function getOrganization(db: Db, name: string): OrganizationRecord {
  const org = findOrganization(db, name);
  if (!org) throw new NotFound(`organization "${name}" not found`);
  return org;
}

/** The organizations the caller belongs to, by name (all of them for the local server's administrator). */
export function organizationNamesOf(db: Db, caller: Caller): string[] {
  if (caller.siteAdmin) return store.allOrganizationNames(db);
  if (caller.kind === "organization")
    return caller.organization !== null && findOrganization(db, caller.organization) ? [caller.organization] : [];
  return organizationsThroughTeams(db, caller);
}

export interface CreatedOrganization {
  organization: OrganizationRecord;
  ownersTeamId: string;
}

/** Organizations are founded by users and by the local server's bootstrap token, not by organization or team tokens. */
export function assertOrganizationFounder(caller: Caller): void {
  if (caller.kind !== "user" && !caller.siteAdmin)
    throw new NotFound("organizations cannot be created with this token");
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
  return onDuplicate(
    () =>
      inTransaction(db, () => {
        if (findOrganization(db, input.name)) throw new NameTaken();
        const createdAt = now();
        const serviceUserId = createServiceUser(db, `api-org-${input.name}`);
        const projectId = newId("project");
        store.insertOrganization(db, {
          name: input.name,
          email: input.email ?? null,
          createdAt,
          defaultProjectId: projectId,
          allowForceDeleteWorkspaces: input.allowForceDeleteWorkspaces ?? false,
          serviceUserId,
        });
        store.insertDefaultProject(db, {
          id: projectId,
          organization: input.name,
          name: DEFAULT_PROJECT_NAME,
          createdAt,
        });
        const ownersTeamId = createTeamRecord(db, input.name, "owners", {
          owners: true,
          manageWorkspaces: true,
          manageProjects: true,
        });
        if (creatorUserId) addOwner(db, ownersTeamId, creatorUserId);
        if (input.defaults) setDefaults(db, input.name, input.defaults);
        return { organization: findOrganization(db, input.name)!, ownersTeamId };
      }),
    () => new NameTaken(),
  );
}

export function updateOrganization(
  db: Db,
  name: string,
  patch: { email?: string | null; allowForceDeleteWorkspaces?: boolean; defaults?: OrganizationDefaults },
): OrganizationRecord {
  return inTransaction(db, () => {
    getOrganization(db, name);
    if (patch.email !== undefined) store.setEmail(db, name, patch.email);
    if (patch.allowForceDeleteWorkspaces !== undefined)
      store.setAllowForceDelete(db, name, patch.allowForceDeleteWorkspaces);
    if (patch.defaults) setDefaults(db, name, patch.defaults);
    return getOrganization(db, name);
  });
}

/** Deletes the organization and, through the schema's cascades, everything in it. */
export function deleteOrganization(db: Db, name: string): void {
  inTransaction(db, () => {
    getOrganization(db, name);
    revokeOrganizationTokens(db, name);
    if (store.deleteOrganizationRow(db, name) !== 1)
      throw new Conflict("locked", `organization "${name}" could not be deleted`);
  });
}

/**
 * Starts a local server's organization if needed and makes sure `token` opens its
 * owners team. The bootstrap token is also a site administrator, so the person who
 * started the server can create and manage further organizations with it.
 */
export function bootstrapOrganization(
  db: Db,
  name: string,
  token: string | undefined,
): { token: string; issued: IssuedToken | null } {
  return inTransaction(db, () => {
    if (!findOrganization(db, name)) createOrganization(db, { name }, null);
    const teamId = ownersTeamId(db, name);
    if (token) {
      if (chosenTokenExists(db, token)) return { token, issued: null };
      const issued = issueToken(
        db,
        { kind: "team", organization: name, teamId, siteAdmin: true, description: "bootstrap" },
        token,
      );
      return { token, issued };
    }
    const issued = issueToken(db, {
      kind: "team",
      organization: name,
      teamId,
      siteAdmin: true,
      description: "bootstrap",
    });
    return { token: issued.token, issued };
  });
}

export type { Caller };
