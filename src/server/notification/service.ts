import { URL_DESTINATION_TYPES, type NotificationDestinationType } from "../../api/notifications";
import type { Caller } from "../auth/service/caller";
import { isProjectAdmin } from "../auth/service/authz";
import { isOrganizationPerson } from "../auth/service/memberships";
import type { ServerContext } from "../context";
import { NotFound, failIfAny, type Failure } from "../domain-errors";
import { newId } from "../ids";
import { loadProject } from "../project/service";
import { inTransaction, now, type Page } from "../store/db";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";
import { deliver, type DeliveryResponse } from "./delivery";
import * as store from "./store";
import type { NotificationRecord } from "./store";

export type { NotificationRecord };

/** What a configuration is attached to. */
export interface Subscribable {
  kind: "workspace" | "project";
  id: string;
  name: string;
  organization: string;
}

export interface NotificationInput {
  name?: string;
  destinationType?: NotificationDestinationType;
  enabled?: boolean;
  /** Write-only; null or "" clears it. */
  token?: string | null;
  url?: string | null;
  triggers?: string[] | null;
  emailAddresses?: string[] | null;
  /** The users an email configuration writes to; absent on an update clears them, as the service does. */
  userIds?: string[];
}

/** The column a token is sealed for (authenticated with it). */
const TOKEN_PURPOSE = "notification_configurations.token";
/** How many deliveries a configuration keeps in `delivery-responses`. */
const KEPT_DELIVERIES = 10;

/** The workspace or project, once the caller may read it (`manage`: may change its notifications). */
function subscribable(
  ctx: ServerContext,
  caller: Caller,
  kind: Subscribable["kind"],
  id: string,
  manage: boolean,
): Subscribable {
  if (kind === "workspace") {
    const { ws } = manage ? loadWorkspaceWith(ctx, caller, { id }, "can-update") : loadWorkspace(ctx, caller, { id });
    return { kind, id: ws.id, name: ws.name, organization: ws.organization };
  }
  const p = loadProject(ctx.db, caller, id);
  if (manage && !isProjectAdmin(ctx.db, caller, p.organization, p.id)) throw new NotFound("project not found");
  return { kind, id: p.id, name: p.name, organization: p.organization };
}

function subscribableOf(ctx: ServerContext, caller: Caller, r: NotificationRecord, manage: boolean): Subscribable {
  try {
    return r.workspace_id
      ? subscribable(ctx, caller, "workspace", r.workspace_id, manage)
      : subscribable(ctx, caller, "project", r.project_id!, manage);
  } catch (e) {
    if (e instanceof NotFound) throw new NotFound("notification configuration not found");
    throw e;
  }
}

function checkUrl(url: string | null, destination: string, failures: Failure[]): void {
  if (URL_DESTINATION_TYPES.includes(destination as NotificationDestinationType) && !url) {
    failures.push({ detail: `url is required for a ${destination} destination`, field: { attribute: "url" } });
    return;
  }
  if (!url) return;
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== "http:" && u.protocol !== "https:"))
    failures.push({ detail: "url must be an http or https URL", field: { attribute: "url" } });
}

function checkUsers(ctx: ServerContext, organization: string, userIds: string[], failures: Failure[]): void {
  userIds.forEach((id, item) => {
    if (!isOrganizationPerson(ctx.db, organization, id))
      failures.push({
        detail: `user "${id}" is not a member of the organization`,
        field: { relationship: "users", item, id: true },
      });
  });
}

function sealToken(ctx: ServerContext, token: string | null | undefined): string | null {
  return token ? ctx.secrets.seal(token, TOKEN_PURPOSE) : null;
}

export function createNotification(
  ctx: ServerContext,
  caller: Caller,
  kind: Subscribable["kind"],
  subscribableId: string,
  read: () => NotificationInput & { name: string; destinationType: NotificationDestinationType },
): NotificationRecord {
  return inTransaction(ctx.db, () => {
    const target = subscribable(ctx, caller, kind, subscribableId, true);
    const input = read();
    const failures: Failure[] = [];
    const url = input.url || null;
    checkUrl(url, input.destinationType, failures);
    checkUsers(ctx, target.organization, input.userIds ?? [], failures);
    failIfAny(failures);
    const t = now();
    const record: NotificationRecord = {
      id: newId("notificationConfiguration"),
      workspace_id: kind === "workspace" ? target.id : null,
      project_id: kind === "project" ? target.id : null,
      name: input.name,
      destination_type: input.destinationType,
      enabled: input.enabled ? 1 : 0,
      url,
      token: sealToken(ctx, input.token),
      triggers: JSON.stringify(input.triggers ?? []),
      email_addresses: JSON.stringify(input.emailAddresses ?? []),
      email_user_ids: JSON.stringify(input.userIds ?? []),
      delivery_responses: "[]",
      created_at: t,
      updated_at: t,
    };
    store.insertNotification(ctx.db, record);
    return record;
  });
}

/**
 * Every configuration of the workspace or project, or one page of them. `readPage` reads
 * the page asked for once the caller may see the workspace or project (one that may not
 * gets 404 whatever it asked).
 */
export function listNotifications(
  ctx: ServerContext,
  caller: Caller,
  kind: Subscribable["kind"],
  subscribableId: string,
  readPage: () => Page | null,
): { rows: NotificationRecord[]; total: number; page: Page | null } {
  const target = subscribable(ctx, caller, kind, subscribableId, false);
  const page = readPage();
  const found = store.notificationsOf(
    ctx.db,
    { column: kind === "workspace" ? "workspace_id" : "project_id", id: target.id },
    page,
  );
  return { ...found, page };
}

/** A configuration the caller may see (it can read the workspace or project). */
export function loadNotification(ctx: ServerContext, caller: Caller, id: string, manage = false): NotificationRecord {
  const r = store.findNotification(ctx.db, id);
  if (!r) throw new NotFound("notification configuration not found");
  subscribableOf(ctx, caller, r, manage);
  return r;
}

export function updateNotification(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  read: () => NotificationInput,
): NotificationRecord {
  return inTransaction(ctx.db, () => {
    const cur = loadNotification(ctx, caller, id, true);
    const target = subscribableOf(ctx, caller, cur, true);
    const input = read();
    const url = input.url === undefined ? cur.url : input.url || null;
    const failures: Failure[] = [];
    checkUrl(url, cur.destination_type, failures);
    checkUsers(ctx, target.organization, input.userIds ?? [], failures);
    failIfAny(failures);
    const next: NotificationRecord = {
      ...cur,
      name: input.name ?? cur.name,
      enabled: input.enabled === undefined ? cur.enabled : input.enabled ? 1 : 0,
      url,
      token: input.token === undefined ? cur.token : sealToken(ctx, input.token),
      triggers: input.triggers == null ? cur.triggers : JSON.stringify(input.triggers),
      email_addresses: input.emailAddresses == null ? cur.email_addresses : JSON.stringify(input.emailAddresses),
      email_user_ids: JSON.stringify(input.userIds ?? []),
      updated_at: now(),
    };
    store.updateNotificationRow(ctx.db, next);
    return next;
  });
}

export function deleteNotification(ctx: ServerContext, caller: Caller, id: string): void {
  inTransaction(ctx.db, () => {
    const r = loadNotification(ctx, caller, id, true);
    store.deleteNotificationRow(ctx.db, r.id);
  });
}

/**
 * Sends the configuration a verification message and records the answer in its
 * `delivery-responses`. Email configurations are not verified by a delivery. A
 * destination off this machine is refused (./delivery.ts); the token is opened only to
 * sign the message.
 */
export async function verifyNotification(ctx: ServerContext, caller: Caller, id: string): Promise<NotificationRecord> {
  const r = loadNotification(ctx, caller, id, true);
  if (!r.url) return r;
  const target = subscribableOf(ctx, caller, r, true);
  const payload = {
    payload_version: 1,
    notification_configuration_id: r.id,
    run_url: null,
    run_id: null,
    run_message: null,
    run_created_at: null,
    run_created_by: null,
    workspace_id: target.kind === "workspace" ? target.id : null,
    workspace_name: target.kind === "workspace" ? target.name : null,
    organization_name: target.organization,
    notifications: [
      {
        message: "Verification of " + r.name,
        trigger: "verification",
        run_status: null,
        run_updated_at: null,
        run_updated_by: null,
      },
    ],
  };
  const response = await deliver(r.url, r.token ? ctx.secrets.open(r.token, TOKEN_PURPOSE) : null, payload);
  return inTransaction(ctx.db, () => {
    const cur = store.findNotification(ctx.db, r.id);
    if (!cur) throw new NotFound("notification configuration not found");
    const kept = [response, ...(JSON.parse(cur.delivery_responses) as DeliveryResponse[])].slice(0, KEPT_DELIVERIES);
    const next = { ...cur, delivery_responses: JSON.stringify(kept) };
    store.updateNotificationRow(ctx.db, next);
    return next;
  });
}

/** The workspace a configuration's subscribable points at, for rendering (null for a project's). */
export function subscribableRef(r: NotificationRecord): { type: string; id: string } {
  return r.workspace_id ? { type: "workspaces", id: r.workspace_id } : { type: "projects", id: r.project_id! };
}
