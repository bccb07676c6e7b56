import type { Db } from "../../store/db";
import { inTransaction, now, onDuplicate } from "../../store/db";
import { newId } from "../../ids";
import { NameTaken, type Field } from "../../domain-errors";
import * as store from "../store/records";
import type { UserRecord } from "../store/records";
import { assertSiteAdmin } from "./authz";
import type { Caller } from "./caller";

export type { UserRecord };

/** Turns a lost race on a unique key into the duplicate-name failure of `field`. */
export function unique<T>(fn: () => T, field?: Field): T {
  return onDuplicate(fn, () => new NameTaken(field));
}

export function createServiceUser(db: Db, username: string): string {
  const id = newId("user");
  store.insertUser(db, {
    id,
    username: `${username}-${id.slice(5, 13)}`,
    email: null,
    serviceAccount: true,
    createdAt: now(),
  });
  return id;
}

export function findUser(db: Db, id: string): UserRecord | undefined {
  return store.findUser(db, id);
}

/** Reads the body (`read`) only for the site administrator. */
export function createUser(
  db: Db,
  caller: Caller,
  read: () => { username: string; email: string | null },
): { id: string; username: string; email: string | null } {
  assertSiteAdmin(caller);
  const input = read();
  const id = newId("user");
  unique(
    () =>
      inTransaction(db, () =>
        store.insertUser(db, {
          id,
          username: input.username,
          email: input.email,
          serviceAccount: false,
          createdAt: now(),
        }),
      ),
    {
      attribute: "username",
    },
  );
  return { id, ...input };
}
