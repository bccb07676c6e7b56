import type { Db, Page } from "../store/db";
import { prepare } from "../store/db";

/** The notification domain's table: `notification_configurations` (the token column holds sealed text only). */

export interface NotificationRecord {
  id: string;
  workspace_id: string | null;
  project_id: string | null;
  name: string;
  destination_type: string;
  enabled: number;
  url: string | null;
  token: string | null;
  triggers: string;
  email_addresses: string;
  email_user_ids: string;
  delivery_responses: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, workspace_id, project_id, name, destination_type, enabled, url, token, triggers, email_addresses,
  email_user_ids, delivery_responses, created_at, updated_at`;

export function insertNotification(db: Db, r: NotificationRecord): void {
  prepare(
    db,
    `INSERT INTO notification_configurations (${COLUMNS}) VALUES (@id, @workspace_id, @project_id, @name, @destination_type,
       @enabled, @url, @token, @triggers, @email_addresses, @email_user_ids, @delivery_responses, @created_at, @updated_at)`,
  ).run(r);
}

export function findNotification(db: Db, id: string): NotificationRecord | undefined {
  return prepare(db, `SELECT ${COLUMNS} FROM notification_configurations WHERE id = ?`).get(id) as
    NotificationRecord | undefined;
}

/** The configurations of a workspace or a project, oldest first; every one when `page` is absent. */
export function notificationsOf(
  db: Db,
  subscribable: { column: "workspace_id" | "project_id"; id: string },
  page: Page | null,
): { rows: NotificationRecord[]; total: number } {
  const where = `${subscribable.column} = ?`;
  const limit = page ? ` LIMIT ${page.size} OFFSET ${(page.number - 1) * page.size}` : "";
  const rows = prepare(
    db,
    `SELECT ${COLUMNS} FROM notification_configurations WHERE ${where} ORDER BY created_at, rowid${limit}`,
  ).all(subscribable.id) as NotificationRecord[];
  const total = (
    prepare(db, `SELECT count(*) AS n FROM notification_configurations WHERE ${where}`).get(subscribable.id) as {
      n: number;
    }
  ).n;
  return { rows, total };
}

export function updateNotificationRow(db: Db, r: NotificationRecord): void {
  prepare(
    db,
    `UPDATE notification_configurations SET name = @name, enabled = @enabled, url = @url, token = @token,
       triggers = @triggers, email_addresses = @email_addresses, email_user_ids = @email_user_ids,
       delivery_responses = @delivery_responses, updated_at = @updated_at WHERE id = @id`,
  ).run(r);
}

export function deleteNotificationRow(db: Db, id: string): void {
  prepare(db, `DELETE FROM notification_configurations WHERE id = ?`).run(id);
}
