import type { Db } from "../../store/db";
import { inTransaction, now } from "../../store/db";
import { newId, randomString } from "../../ids";
import { visible } from "../../domain-errors";
import * as store from "../store/records";
import type { MembershipRecord } from "../store/records";
import { assertMember, assertOwner } from "./authz";
import type { Caller } from "./caller";

export type { MembershipRecord };

/**
 * Invites a person by email into the organization, in the hosted shape: the person is a
 * user (created here, as a local server has no sign-up) and a member of no team until
 * added to one, so the membership alone grants nothing.
 */
export function createMembership(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { email: string },
): MembershipRecord {
  assertOwner(db, caller, organization);
  const { email } = read();
  return inTransaction(db, () => {
    const userId = newId("user");
    const local = email.split("@")[0].replace(/[^A-Za-z0-9_-]/g, "") || "user";
    store.insertUser(db, {
      id: userId,
      username: `${local}-${randomString(6)}`,
      email,
      serviceAccount: false,
      createdAt: now(),
    });
    const record: MembershipRecord = {
      id: newId("organizationMembership"),
      organization,
      user_id: userId,
      email,
      created_at: now(),
    };
    store.insertMembership(db, record);
    return record;
  });
}

export function loadMembership(db: Db, caller: Caller, id: string): MembershipRecord {
  return visible(
    "organization membership",
    store.findMembership(db, id),
    (m) => void assertMember(db, caller, m.organization),
  );
}

export function deleteMembership(db: Db, caller: Caller, id: string): void {
  const m = visible(
    "organization membership",
    store.findMembership(db, id),
    (r) => void assertOwner(db, caller, r.organization),
  );
  inTransaction(db, () => store.deleteMembershipRow(db, m));
}

/** Whether the user is a person of the organization: invited into it, or on one of its teams. */
export function isOrganizationPerson(db: Db, organization: string, userId: string): boolean {
  return store.personOfOrganization(db, organization, userId);
}
