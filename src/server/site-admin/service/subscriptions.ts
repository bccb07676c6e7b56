import { FEATURE_SETS, type SUBSCRIPTION_LIMITS } from "../../../api/admin";
import { assertSiteAdmin } from "../../auth/service/authz";
import type { Caller } from "../../auth/service/caller";
import { NotFound } from "../../domain-errors";
import { newInternalId } from "../../ids";
import { findOrganization } from "../../organization/service";
import type { Db } from "../../store/db";
import { inTransaction, now } from "../../store/db";
import { findSubscription, upsertSubscription, type SubscriptionRow } from "../store";

/**
 * Organization subscriptions, a local server's administration only: the site
 * administrator lists the plans (feature sets, a fixed list named after the hosted
 * service's) and gives an organization one, with its limits. The server records the
 * subscription and enforces nothing by it: every organization may use every feature.
 * Anybody else is told there is nothing here.
 */

export type FeatureSet = (typeof FEATURE_SETS)[number];

export interface Subscription {
  id: string;
  organization: string;
  featureSet: FeatureSet;
  limits: Partial<Record<(typeof SUBSCRIPTION_LIMITS)[number], number | string | null>>;
  createdAt: string;
  updatedAt: string;
}

/** The feature sets whose name contains `q` (any case), in the list's order; all of them without `q`. */
export function listFeatureSets(caller: Caller, q: string): FeatureSet[] {
  assertSiteAdmin(caller);
  const needle = q.trim().toLowerCase();
  return FEATURE_SETS.filter((f) => f.name.toLowerCase().includes(needle));
}

function organizationOf(db: Db, caller: Caller, organization: string): string {
  assertSiteAdmin(caller);
  if (!findOrganization(db, organization)) throw new NotFound(`organization "${organization}" not found`);
  return organization;
}

function view(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    organization: row.organization,
    featureSet: FEATURE_SETS.find((f) => f.id === row.feature_set_id) ?? FEATURE_SETS[0],
    limits: JSON.parse(row.limits) as Subscription["limits"],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The organization's subscription, or null when it was never given one (it is then on no plan, and limited by none). */
export function showSubscription(db: Db, caller: Caller, organization: string): Subscription | null {
  const row = findSubscription(db, organizationOf(db, caller, organization));
  return row ? view(row) : null;
}

/** Gives the organization a plan and its limits; the body is read (`read`) only for the site administrator. */
export function setSubscription(
  db: Db,
  caller: Caller,
  organization: string,
  read: () => { featureSetId: FeatureSet["id"]; limits: Subscription["limits"] },
): Subscription {
  const org = organizationOf(db, caller, organization);
  const input = read();
  return inTransaction(db, () => {
    const at = now();
    const existing = findSubscription(db, org);
    upsertSubscription(db, {
      organization: org,
      id: existing?.id ?? newInternalId("sub-"),
      feature_set_id: input.featureSetId,
      limits: JSON.stringify(input.limits),
      created_at: existing?.created_at ?? at,
      updated_at: at,
    });
    return view(findSubscription(db, org)!);
  });
}
