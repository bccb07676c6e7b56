import type { Db } from "../../store/db";
import { inTransaction, now, type Page } from "../../store/db";
import { newId } from "../../ids";
import { Invalid, visible } from "../../domain-errors";
import { ensureActiveMembership } from "./memberships";
import * as store from "../store/records";
import type { TeamFilter, TeamRecord, TeamSettings } from "../store/records";
import type { OrganizationAccessFlag } from "../../../api/teams";
import { assertMember, assertOwner, orgRole } from "./authz";
import type { Caller } from "./caller";
import { organizationAccessOf } from "./presets";
import { createServiceUser, unique } from "./users";

export type { TeamRecord };

export function createTeamRecord(
  db: Db,
  organization: string,
  name: string,
  flags: { owners?: boolean; manageWorkspaces?: boolean; manageProjects?: boolean; settings?: TeamSettings },
): string {
  const id = newId("team");
  const serviceUserId = createServiceUser(db, `api-team-${name}`);
  store.insertTeam(db, {
    id,
    organization,
    name,
    owners: flags.owners ?? false,
    manageWorkspaces: flags.manageWorkspaces ?? false,
    manageProjects: flags.manageProjects ?? false,
    serviceUserId,
    createdAt: now(),
    settings: flags.settings,
  });
  return id;
}

/** The owners team of the organization (every organization has one). */
export function ownersTeamId(db: Db, organization: string): string {
  return store.ownersTeamIdOf(db, organization);
}

/** The person who founds an organization joins its owners team, an active member. */
export function addOwner(db: Db, teamId: string, userId: string): void {
  store.addTeamMember(db, teamId, userId);
  ensureActiveMembership(db, store.findTeam(db, teamId)!.organization, userId);
}

/** Whether a member sees every team of the organization: owners and teams that may see secret teams. */
function seesSecretTeams(db: Db, caller: Caller, organization: string): boolean {
  const role = orgRole(db, caller, organization);
  if (role.owner) return true;
  return store
    .teamsOf(db, organization)
    .some((t) => role.teamIds.includes(t.id) && organizationAccessOf(t)["access-secret-teams"]);
}

/**
 * A team the caller may see (members of its organization see the teams of visibility
 * `organization` and their own; owners see all), or manage when `owner` is set
 * (owners); otherwise 404.
 */
export function loadTeam(db: Db, caller: Caller, id: string, owner: boolean): TeamRecord {
  return visible("team", store.findTeam(db, id), (t) => {
    const role = (owner ? assertOwner : assertMember)(db, caller, t.organization);
    return (
      t.visibility === "organization" || role.teamIds.includes(t.id) || seesSecretTeams(db, caller, t.organization)
    );
  });
}

/** What the caller may do to a team, as its `permissions` attribute says. */
export interface TeamPermissions {
  canUpdate: boolean;
  canDestroy: boolean;
}

export function teamPermissions(db: Db, caller: Caller, t: TeamRecord): TeamPermissions {
  const owner = orgRole(db, caller, t.organization).owner;
  return { canUpdate: owner, canDestroy: owner && t.is_owners !== 1 };
}

export interface TeamInput {
  name?: string;
  /** The flags the body names; the others keep their values (false on create). */
  organizationAccess?: Partial<Record<OrganizationAccessFlag, boolean>>;
  visibility?: string;
  ssoTeamId?: string | null;
  allowMemberTokenManagement?: boolean;
}

/** The stored shape of a team's flags and settings: `current` with the input over it. */
function teamColumns(current: TeamRecord | undefined, input: TeamInput) {
  const access = { ...(current ? organizationAccessOf(current) : {}), ...input.organizationAccess };
  const { "manage-workspaces": manageWorkspaces, "manage-projects": manageProjects, ...rest } = access;
  return {
    manageWorkspaces: manageWorkspaces === true,
    manageProjects: manageProjects === true,
    settings: {
      visibility: input.visibility ?? current?.visibility ?? "secret",
      ssoTeamId: input.ssoTeamId !== undefined ? input.ssoTeamId : (current?.sso_team_id ?? null),
      allowMemberTokenManagement:
        input.allowMemberTokenManagement ?? (current ? current.allow_member_token_management === 1 : true),
      organizationAccess: JSON.stringify(Object.fromEntries(Object.entries(rest).filter(([, v]) => v === true))),
    },
  };
}

export function createTeam(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => TeamInput & { name: string },
): TeamRecord {
  assertOwner(db, caller, organization);
  const input = read();
  const columns = teamColumns(undefined, input);
  const id = unique(() =>
    inTransaction(db, () =>
      createTeamRecord(db, organization, input.name, {
        manageWorkspaces: columns.manageWorkspaces,
        manageProjects: columns.manageProjects,
        settings: columns.settings,
      }),
    ),
  );
  return store.findTeam(db, id)!;
}

/**
 * A page of the organization's teams in name order, filtered by exact names or a part of
 * the name, with the total. `read` reads the filter and page once the caller is a member
 * (one that is not gets 404 whatever it asked).
 */
export function listTeams(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { filter: TeamFilter; page: Page },
): { rows: TeamRecord[]; total: number; page: Page } {
  const role = assertMember(db, caller, organization);
  const { filter, page } = read();
  const visible = seesSecretTeams(db, caller, organization) ? filter : { ...filter, secretVisibleOnly: role.teamIds };
  return {
    rows: store.teamsOf(db, organization, visible, page),
    total: store.countTeams(db, organization, visible),
    page,
  };
}

/** The owners team keeps its name and its organization-wide rights. The body is read once the caller may manage the team. */
export function updateTeam(db: Db, caller: Caller, id: string, read: () => TeamInput): TeamRecord {
  const t = loadTeam(db, caller, id, true);
  const input = read();
  const owners = t.is_owners === 1;
  if (owners && input.name !== undefined && input.name !== t.name)
    throw new Invalid("the owners team cannot be renamed", { attribute: "name" });
  const columns = teamColumns(t, input);
  unique(() =>
    inTransaction(db, () =>
      store.updateTeamRow(
        db,
        t.id,
        input.name ?? t.name,
        owners || columns.manageWorkspaces,
        owners || columns.manageProjects,
        columns.settings,
      ),
    ),
  );
  return store.findTeam(db, t.id)!;
}

/** Deleting a team revokes its token and its access; its locks stay until an admin force-unlocks. */
export function deleteTeam(db: Db, caller: Caller, id: string): void {
  const t = loadTeam(db, caller, id, true);
  if (t.is_owners === 1) throw new Invalid("the owners team cannot be deleted");
  inTransaction(db, () => store.deleteTeamRow(db, t.id));
}
