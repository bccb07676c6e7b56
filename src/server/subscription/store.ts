import type { Db } from "../store/db";
import { prepare } from "../store/db";

export interface SubscriptionRow {
  organization: string;
  id: string;
  feature_set_id: string;
  /** JSON object of the limit attributes given. */
  limits: string;
  created_at: string;
  updated_at: string;
}

export function findSubscription(db: Db, organization: string): SubscriptionRow | undefined {
  return prepare(db, `SELECT * FROM subscriptions WHERE organization = ?`).get(organization) as
    SubscriptionRow | undefined;
}

/** Records the organization's subscription, or replaces the plan and limits of the one it has (keeping its id). */
export function upsertSubscription(db: Db, row: SubscriptionRow): void {
  prepare(
    db,
    `INSERT INTO subscriptions (organization, id, feature_set_id, limits, created_at, updated_at)
     VALUES (@organization, @id, @feature_set_id, @limits, @created_at, @updated_at)
     ON CONFLICT (organization) DO UPDATE SET feature_set_id = excluded.feature_set_id, limits = excluded.limits,
       updated_at = excluded.updated_at`,
  ).run(row);
}
