import type { Db } from "../../store/db";
import { inTransaction, now } from "../../store/db";
import { newId } from "../../ids";
import { Invalid, NotFound } from "../../domain-errors";
import * as store from "../store/records";
import type { TeamRecord } from "../store/records";
import { assertMember, assertOwner } from "./authz";
import type { Caller } from "./caller";
import { createServiceUser, unique } from "./users";

export type { TeamRecord };

export function createTeamRecord(
  db: Db,
  organization: string,
  name: string,
  flags: { owners?: boolean; manageWorkspaces?: boolean; manageProjects?: boolean },
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
  });
  return id;
}

/** The owners team of the organization (every organization has one). */
export function ownersTeamId(db: Db, organization: string): string {
  return store.ownersTeamIdOf(db, organization);
}

export function addOwner(db: Db, teamId: string, userId: string): void {
  store.addTeamMember(db, teamId, userId);
}

/** A team the caller may see (members of its organization), or manage when `owner` is set (owners); otherwise 404. */
export function loadTeam(db: Db, caller: Caller, id: string, owner: boolean): TeamRecord {
  const t = store.findTeam(db, id);
  if (!t) throw new NotFound("team not found");
  (owner ? assertOwner : assertMember)(db, caller, t.organization);
  return t;
}

export function teamMemberIds(db: Db, teamId: string): string[] {
  return store.teamMemberIds(db, teamId);
}

export interface TeamInput {
  name?: string;
  manageWorkspaces?: boolean;
  manageProjects?: boolean;
}

export function createTeam(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => TeamInput & { name: string },
): TeamRecord {
  assertOwner(db, caller, organization);
  const input = read();
  const id = unique(() =>
    inTransaction(db, () =>
      createTeamRecord(db, organization, input.name, {
        manageWorkspaces: input.manageWorkspaces,
        manageProjects: input.manageProjects,
      }),
    ),
  );
  return store.findTeam(db, id)!;
}

export function listTeams(db: Db, caller: Caller, organization: string): TeamRecord[] {
  assertMember(db, caller, organization);
  return store.teamsOf(db, organization);
}

/** The owners team keeps its name and its organization-wide rights. The body is read once the caller may manage the team. */
export function updateTeam(db: Db, caller: Caller, id: string, read: () => TeamInput): TeamRecord {
  const t = loadTeam(db, caller, id, true);
  const input = read();
  const owners = t.is_owners === 1;
  if (owners && input.name !== undefined && input.name !== t.name)
    throw new Invalid("the owners team cannot be renamed", { attribute: "name" });
  unique(() =>
    inTransaction(db, () =>
      store.updateTeamRow(
        db,
        t.id,
        input.name ?? t.name,
        owners || (input.manageWorkspaces ?? t.manage_workspaces === 1),
        owners || (input.manageProjects ?? t.manage_projects === 1),
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

/** Adds people (by id or username) to the team; one unknown name adds nobody. */
export function addTeamMembers(db: Db, caller: Caller, id: string, read: () => ReadonlyArray<string>): void {
  const t = loadTeam(db, caller, id, true);
  const users = read();
  inTransaction(db, () => {
    for (const name of users) {
      const userId = store.findPersonId(db, name);
      if (!userId) throw new NotFound(`user "${name}" not found`);
      store.addTeamMember(db, t.id, userId);
    }
  });
}
