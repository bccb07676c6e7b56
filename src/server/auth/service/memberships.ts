import type { Db } from "../../store/db";
import { inTransaction, now, type Page } from "../../store/db";
import { newId, randomString } from "../../ids";
import { Invalid, NotFound, visible } from "../../domain-errors";
import * as records from "../store/records";
import * as store from "../store/memberships";
import type { MembershipFilter, MembershipRecord } from "../store/memberships";
import type { OrganizationAccessFlag } from "../../../api/teams";
import { assertMember, orgRole } from "./authz";
import type { Caller } from "./caller";
import { organizationAccessOf } from "./presets";

export type { MembershipRecord, MembershipFilter };

/**
 * Whether the caller holds an organization-wide right a team may be given: owners, the
 * organization token, and members of a team with the flag.
 */
export function holdsOrganizationFlag(db: Db, caller: Caller, organization: string, flag: OrganizationAccessFlag) {
  const role = orgRole(db, caller, organization);
  if (role.owner || (caller.kind === "organization" && caller.organization === organization)) return true;
  return role.teamIds.some((id) => {
    const t = records.findTeam(db, id);
    return !!t && organizationAccessOf(t)[flag] === true;
  });
}

/** Owners, the organization token and `manage-membership` invite, remove and put people in teams; anybody else gets 404. */
export function assertMembershipManager(db: Db, caller: Caller, organization: string): void {
  assertMember(db, caller, organization);
  if (!holdsOrganizationFlag(db, caller, organization, "manage-membership"))
    throw new NotFound(`organization "${organization}" not found`);
}

/** An active membership for a person put on a team of the organization without one. */
export function ensureActiveMembership(db: Db, organization: string, userId: string): void {
  if (store.membershipOfUser(db, organization, userId)) return;
  const user = store.userView(db, userId);
  if (!user || user.service_account === 1) return;
  store.insertMembership(db, {
    id: newId("organizationMembership"),
    organization,
    user_id: userId,
    email: user.email ?? "",
    status: "active",
    created_at: now(),
  });
}

function teamsOfOrganization(db: Db, organization: string, teamIds: ReadonlyArray<string>): string[] {
  return teamIds.map((id, item) => {
    if (!records.teamInOrganization(db, id, organization))
      throw new Invalid(`team "${id}" not found in the organization`, { relationship: "teams", item, id: true });
    return id;
  });
}

/**
 * Invites a person by email, optionally onto teams: a person of the local server with
 * that email is linked, otherwise one is made (a local server has no sign-up). The
 * membership is `invited` until the person accepts; an email already in the
 * organization is a 422, as on the service.
 */
export function createMembership(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { email: string; teamIds: ReadonlyArray<string> },
): MembershipRecord {
  assertMembershipManager(db, caller, organization);
  const { email, teamIds } = read();
  return inTransaction(db, () => {
    const teams = teamsOfOrganization(db, organization, teamIds);
    const existing = store.personByEmail(db, email);
    if (
      store.emailTaken(db, organization, email) ||
      (existing && store.membershipOfUser(db, organization, existing.id))
    )
      throw new Invalid("Email has already been taken", { attribute: "email" });
    let userId = existing?.id;
    if (!userId) {
      userId = newId("user");
      const local = email.split("@")[0].replace(/[^A-Za-z0-9_-]/g, "") || "user";
      records.insertUser(db, {
        id: userId,
        username: `${local}-${randomString(6)}`,
        email,
        serviceAccount: false,
        createdAt: now(),
      });
    }
    const record: MembershipRecord = {
      id: newId("organizationMembership"),
      organization,
      user_id: userId,
      email,
      status: "invited",
      created_at: now(),
    };
    store.insertMembership(db, record);
    for (const teamId of teams) records.addTeamMember(db, teamId, userId);
    return record;
  });
}

/** A membership, for the members of its organization; anybody else gets what an unknown id gets. */
export function loadMembership(db: Db, caller: Caller, id: string): MembershipRecord {
  return visible(
    "organization membership",
    store.findMembership(db, id),
    (m) => void assertMember(db, caller, m.organization),
  );
}

export function listMemberships(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { filter: MembershipFilter; page: Page },
): { rows: MembershipRecord[]; total: number; page: Page } {
  assertMember(db, caller, organization);
  const { filter, page } = read();
  return { ...store.membershipsOf(db, organization, filter, page), page };
}

/** The teams of the membership's person, as its `teams` relationship lists them. */
export function membershipTeamIds(db: Db, m: MembershipRecord): string[] {
  return store.teamIdsOfMembership(db, m);
}

/** The owners team keeps one person who joined, as the service refuses to leave an organization without an owner. */
export function assertNotLastOwner(db: Db, teamId: string, userId: string): void {
  const team = records.findTeam(db, teamId);
  if (team?.is_owners !== 1) return;
  const m = store.membershipOfUser(db, team.organization, userId);
  if (m?.status !== "active" || !records.teamMemberIds(db, teamId).includes(userId)) return;
  if (store.countActivePeople(db, teamId) <= 1)
    throw new Invalid("the owners team must keep at least one member; add another owner first");
}

/** Ends a membership, invited or active; the person leaves the organization's teams. */
export function deleteMembership(db: Db, caller: Caller, id: string): void {
  const m = visible(
    "organization membership",
    store.findMembership(db, id),
    (r) => void assertMembershipManager(db, caller, r.organization),
  );
  inTransaction(db, () => {
    assertNotLastOwner(db, records.ownersTeamIdOf(db, m.organization), m.user_id);
    store.deleteMembershipRow(db, m);
  });
}

/**
 * The invited person accepts (a local server only: the service accepts by a link in the
 * invitation's email), with their own user token, or the site administrator for them.
 */
export function acceptMembership(db: Db, caller: Caller, id: string): MembershipRecord {
  const m = visible(
    "organization membership",
    store.findMembership(db, id),
    (r) => caller.siteAdmin || (caller.kind === "user" && caller.userId === r.user_id),
  );
  if (m.status === "active") return m;
  inTransaction(db, () => store.setMembershipStatus(db, m.id, "active"));
  return { ...m, status: "active" };
}

/** Whether the user is a person of the organization: invited into it, or on one of its teams. */
export function isOrganizationPerson(db: Db, organization: string, userId: string): boolean {
  return store.personOfOrganization(db, organization, userId);
}

/** The user a membership's `include=user` shows. */
export function membershipUser(db: Db, userId: string) {
  return store.userView(db, userId);
}
