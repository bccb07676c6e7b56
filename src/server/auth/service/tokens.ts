import type { Db } from "../../store/db";
import { inTransaction, now } from "../../store/db";
import { newId, newToken } from "../../ids";
import { NotFound } from "../../domain-errors";
import * as store from "../store/tokens";
import { personExists } from "../store/records";
import { storedDigest } from "./authn";
import type { Caller } from "./caller";

/** Issuing and revoking tokens: one per organization, one per team, any number per person. */

export interface IssuedToken {
  id: string;
  token: string;
  createdAt: string;
}

/**
 * Stores only the digest: the token itself is shown once, in the response that creates
 * it. `chosen` is a token a person picked (the bootstrap `--token`), stored under its
 * slow salted digest.
 */
export function issueToken(
  db: Db,
  spec: {
    kind: Caller["kind"];
    organization?: string | null;
    teamId?: string | null;
    userId?: string | null;
    siteAdmin?: boolean;
    description?: string | null;
    expiredAt?: string | null;
    createdBy?: string | null;
    auditTrails?: boolean;
  },
  chosen?: string,
): IssuedToken {
  const token = chosen ?? newToken();
  const id = newId("authenticationToken");
  const createdAt = now();
  store.insertToken(db, {
    id,
    digest: storedDigest(db, token, chosen !== undefined),
    kind: spec.kind,
    organization: spec.organization ?? null,
    teamId: spec.teamId ?? null,
    userId: spec.userId ?? null,
    siteAdmin: spec.siteAdmin ?? false,
    description: spec.description ?? null,
    createdAt,
    expiredAt: spec.expiredAt,
    createdBy: spec.createdBy,
    auditTrails: spec.auditTrails,
  });
  return { id, token, createdAt };
}

/** Revokes every token of the organization and of its teams (the organization is being deleted). */
export function revokeOrganizationTokens(db: Db, organization: string): void {
  store.deleteTokensOfOrganization(db, organization);
}

/** A token for a person, issued by the person or the site administrator. */
export function issueUserToken(db: Db, caller: Caller, userId: string): IssuedToken {
  if (!caller.siteAdmin && caller.userId !== userId) throw new NotFound("user not found");
  if (!personExists(db, userId)) throw new NotFound("user not found");
  return inTransaction(db, () => issueToken(db, { kind: "user", userId }));
}
