import type { Db, Page } from "../store/db";
import { inTransaction, now, onDuplicate } from "../store/db";
import { newId } from "../ids";
import { addOwner, createTeamRecord, ownersTeamId } from "../auth/service/teams";
import { createServiceUser } from "../auth/service/users";
import { issueToken, revokeOrganizationTokens, type IssuedToken } from "../auth/service/tokens";
import { assertMember, assertOwner, orgRole, organizationsThroughTeams } from "../auth/service/authz";
import { chosenTokenExists } from "../auth/service/authn";
import type { Caller, OrgRole } from "../auth/service/caller";
import { agentPoolInOrganization } from "../agent-pool/service";
import { Conflict, Invalid, NameTaken, NotFound } from "../domain-errors";
import * as store from "./store";
import type { OrganizationRecord } from "./store";
import type { ExecutionMode } from "../../api/workspace-fields";

export type { OrganizationRecord };

/** Organization settings that workspaces inherit unless they override them (`setting-overwrites`). */
export interface OrganizationDefaults {
  executionMode?: ExecutionMode;
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

function getOrganization(db: Db, name: string): OrganizationRecord {
  const org = findOrganization(db, name);
  if (!org) throw new NotFound(`organization "${name}" not found`);
  return org;
}

/** The organizations the caller belongs to, by name (all of them for the local server's administrator). */
function organizationNamesOf(db: Db, caller: Caller): string[] {
  if (caller.siteAdmin) return store.allOrganizationNames(db);
  if (caller.kind === "organization")
    return caller.organization !== null && findOrganization(db, caller.organization) ? [caller.organization] : [];
  return organizationsThroughTeams(db, caller);
}

interface CreatedOrganization {
  organization: OrganizationRecord;
  ownersTeamId: string;
}

/** Organizations are founded by users and by the local server's bootstrap token, not by organization or team tokens. */
function assertOrganizationFounder(caller: Caller): void {
  if (caller.kind !== "user" && !caller.siteAdmin)
    throw new NotFound("organizations cannot be created with this token");
}

/** An organization as the caller sees it: the record, and the caller's standing in it, which its document shows. */
export interface OrganizationView {
  organization: OrganizationRecord;
  role: OrgRole;
}

type OrganizationInput = {
  name: string;
  email?: string | null;
  allowForceDeleteWorkspaces?: boolean;
  defaults?: OrganizationDefaults;
};

/** A caller founds an organization (`read` parses the body once the caller may) and becomes its owner. */
export function foundOrganization(db: Db, caller: Caller, read: () => OrganizationInput): OrganizationView {
  assertOrganizationFounder(caller);
  const { organization } = createOrganization(db, read(), caller.userId);
  caller.roles.delete(organization.name);
  return { organization, role: orgRole(db, caller, organization.name) };
}

/** A page of the organizations the caller belongs to. */
export function listOrganizations(db: Db, caller: Caller, page: Page): { rows: OrganizationView[]; total: number } {
  const names = organizationNamesOf(db, caller);
  const slice = names.slice((page.number - 1) * page.size, page.number * page.size);
  return {
    rows: slice.map((name) => ({ organization: getOrganization(db, name), role: orgRole(db, caller, name) })),
    total: names.length,
  };
}

/** An organization its members may read; anybody else is told it is not there. */
export function showOrganization(db: Db, caller: Caller, name: string): OrganizationView {
  const role = assertMember(db, caller, name);
  return { organization: getOrganization(db, name), role };
}

/**
 * Creates an organization with its owners team and its default project, in one
 * transaction. A user who creates it joins the owners team, as on the hosted service.
 */
function createOrganization(db: Db, input: OrganizationInput, creatorUserId: string | null): CreatedOrganization {
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

/** Owners change the organization's settings; `read` parses the body once the caller may. */
export function updateOrganization(
  db: Db,
  caller: Caller,
  name: string,
  read: () => Omit<OrganizationInput, "name">,
): OrganizationView {
  const role = assertOwner(db, caller, name);
  const patch = read();
  const organization = inTransaction(db, () => {
    getOrganization(db, name);
    if (patch.email !== undefined) store.setEmail(db, name, patch.email);
    if (patch.allowForceDeleteWorkspaces !== undefined)
      store.setAllowForceDelete(db, name, patch.allowForceDeleteWorkspaces);
    if (patch.defaults) setDefaults(db, name, patch.defaults);
    return getOrganization(db, name);
  });
  return { organization, role };
}

/** Owners delete the organization and, through the schema's cascades, everything in it. */
export function deleteOrganization(db: Db, caller: Caller, name: string): void {
  assertOwner(db, caller, name);
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
