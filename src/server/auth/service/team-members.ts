import type { Db } from "../../store/db";
import { inTransaction } from "../../store/db";
import { Invalid, NotFound, visible } from "../../domain-errors";
import * as records from "../store/records";
import * as store from "../store/memberships";
import { teamHasToken } from "../store/tokens";
import type { Caller } from "./caller";
import { assertMembershipManager, assertNotLastOwner, ensureActiveMembership } from "./memberships";
import type { TeamRecord } from "./teams";

/**
 * Who is on a team, by username (`/teams/:id/relationships/users`) or by organization
 * membership (`/teams/:id/relationships/organization-memberships`). A username names a
 * person who joined the organization (or a service user); an invited person is added
 * by membership, and counts once they accept.
 */

/** A team whose members the caller may change: any team (secret ones too) of an organization where it manages membership. */
function teamToChange(db: Db, caller: Caller, id: string): TeamRecord {
  return visible("team", records.findTeam(db, id), (t) => void assertMembershipManager(db, caller, t.organization));
}

/** The user a username (or a user id) names; none is a 404 naming it. */
function userNamed(db: Db, name: string): { id: string; service_account: number } {
  const personId = records.findPersonId(db, name);
  if (personId) return { id: personId, service_account: 0 };
  const user = store.userByUsername(db, name);
  if (!user) throw new NotFound(`user "${name}" not found`);
  return user;
}

/** Adds people by username; one unknown or invited name adds nobody. */
export function addTeamUsers(db: Db, caller: Caller, id: string, read: () => ReadonlyArray<string>): void {
  const t = teamToChange(db, caller, id);
  const names = read();
  inTransaction(db, () => {
    for (const [item, name] of names.entries()) {
      const user = userNamed(db, name);
      if (user.service_account === 0) {
        if (store.membershipOfUser(db, t.organization, user.id)?.status === "invited")
          throw new Invalid(
            `user "${name}" has not accepted the organization's invitation yet; add them by organization membership`,
            { item, id: true },
          );
        ensureActiveMembership(db, t.organization, user.id);
      }
      records.addTeamMember(db, t.id, user.id);
    }
  });
}

/** Removes people by username; a name not on the team is nothing to remove. */
export function removeTeamUsers(db: Db, caller: Caller, id: string, read: () => ReadonlyArray<string>): void {
  const t = teamToChange(db, caller, id);
  const names = read();
  inTransaction(db, () => {
    for (const name of names) {
      const user = userNamed(db, name);
      assertNotLastOwner(db, t.id, user.id);
      store.removeTeamMember(db, t.id, user.id);
    }
  });
}

/** The memberships a body names, each of the team's organization (another's is unknown here: 404). */
function membershipsNamed(db: Db, t: TeamRecord, ids: ReadonlyArray<string>): store.MembershipRecord[] {
  return ids.map((mid) => {
    const m = store.findMembership(db, mid);
    if (!m || m.organization !== t.organization) throw new NotFound(`organization membership "${mid}" not found`);
    return m;
  });
}

/** Adds people by their memberships, invited ones too. */
export function addTeamMemberships(db: Db, caller: Caller, id: string, read: () => ReadonlyArray<string>): void {
  const t = teamToChange(db, caller, id);
  const ids = read();
  inTransaction(db, () => {
    for (const m of membershipsNamed(db, t, ids)) records.addTeamMember(db, t.id, m.user_id);
  });
}

export function removeTeamMemberships(db: Db, caller: Caller, id: string, read: () => ReadonlyArray<string>): void {
  const t = teamToChange(db, caller, id);
  const ids = read();
  inTransaction(db, () => {
    for (const m of membershipsNamed(db, t, ids)) {
      assertNotLastOwner(db, t.id, m.user_id);
      store.removeTeamMember(db, t.id, m.user_id);
    }
  });
}

/**
 * A team's members as the service shows them: `users`, the people who joined, and the
 * team's service user once it has a token (#708: it is a member there too, marked
 * `is-service-account`); `memberships`, the memberships of its people, invited ones too.
 */
export function teamMembersView(db: Db, teamId: string): { users: string[]; memberships: store.MembershipRecord[] } {
  const users = store.activeTeamMemberIds(db, teamId);
  const team = records.findTeam(db, teamId);
  if (team && teamHasToken(db, teamId) && !users.includes(team.service_user_id)) users.push(team.service_user_id);
  return { users, memberships: store.membershipsOfTeam(db, teamId) };
}
