import {
  MAX_NOTIFICATION_CONFIGURATIONS,
  URL_DESTINATION_TYPES,
  type NotificationDestinationType,
} from "../../api/notifications";
import type { Caller } from "../auth/service/caller";
import { isProjectAdmin } from "../auth/service/authz";
import { isOrganizationPerson } from "../auth/service/memberships";
import type { ServerContext } from "../context";
import { Invalid, NotFound, failIfAny, visible, type Failure } from "../domain-errors";
import { newId } from "../ids";
import { loadProject } from "../project/service";
import { inTransaction, now, type Page } from "../store/db";
import { loadWorkspace, loadWorkspaceWith } from "../workspace/service";
import { deliver, onThisMachine, withoutCredentials, type DeliveryResponse } from "./delivery";
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
  return r.workspace_id
    ? subscribable(ctx, caller, "workspace", r.workspace_id, manage)
    : subscribable(ctx, caller, "project", r.project_id!, manage);
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

/**
 * Creates a configuration the way the service does: one created enabled is verified
 * first (./delivery.ts), and not saved when the verification fails. A workspace holds
 * at most {@link MAX_NOTIFICATION_CONFIGURATIONS}.
 */
export async function createNotification(
  ctx: ServerContext,
  caller: Caller,
  kind: Subscribable["kind"],
  subscribableId: string,
  read: () => NotificationInput & { name: string; destinationType: NotificationDestinationType },
): Promise<NotificationRecord> {
  const { record, target } = inTransaction(ctx.db, () => {
    const target = subscribable(ctx, caller, kind, subscribableId, true);
    const input = read();
    const failures: Failure[] = [];
    const url = input.url || null;
    checkUrl(url, input.destinationType, failures);
    checkUsers(ctx, target.organization, input.userIds ?? [], failures);
    failIfAny(failures);
    checkRoom(ctx, target);
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
    return { record, target };
  });
  const response = record.enabled ? await verifyBeforeSaving(ctx, record, target) : null;
  return inTransaction(ctx.db, () => {
    // The subscribable may have gone, or filled up, while the verification was on its way.
    checkRoom(ctx, subscribable(ctx, caller, kind, subscribableId, true));
    const saved = { ...record, delivery_responses: withDelivery(record, response) };
    store.insertNotification(ctx.db, saved);
    return saved;
  });
}

/** Refuses a workspace's configuration past the service's limit. */
function checkRoom(ctx: ServerContext, target: Subscribable): void {
  if (target.kind !== "workspace") return;
  const { total } = store.notificationsOf(ctx.db, { column: "workspace_id", id: target.id }, { number: 1, size: 1 });
  if (total >= MAX_NOTIFICATION_CONFIGURATIONS)
    throw new Invalid(
      `workspace "${target.name}" already has ${MAX_NOTIFICATION_CONFIGURATIONS} notification configurations, the most the service allows: delete one first`,
      { data: true },
    );
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
  return visible("notification configuration", store.findNotification(ctx.db, id), (r) => {
    subscribableOf(ctx, caller, r, manage);
  });
}

/**
 * Updates a configuration; one that ends up enabled with a new destination, token, or
 * after being disabled is verified first, and the update is not saved when the
 * verification fails (as the service does).
 */
export async function updateNotification(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  read: () => NotificationInput,
): Promise<NotificationRecord> {
  const { cur, next, target } = inTransaction(ctx.db, () => {
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
    return { cur, next, target };
  });
  const enabling = next.enabled === 1 && (cur.enabled === 0 || next.url !== cur.url || next.token !== cur.token);
  const response = enabling ? await verifyBeforeSaving(ctx, next, target) : null;
  return inTransaction(ctx.db, () => {
    const stored = loadNotification(ctx, caller, id, true);
    const saved = { ...next, delivery_responses: withDelivery(stored, response) };
    store.updateNotificationRow(ctx.db, saved);
    return saved;
  });
}

export function deleteNotification(ctx: ServerContext, caller: Caller, id: string): void {
  inTransaction(ctx.db, () => {
    const r = loadNotification(ctx, caller, id, true);
    store.deleteNotificationRow(ctx.db, r.id);
  });
}

/** The message a verification sends, as the service shapes it. */
function verificationPayload(r: NotificationRecord, target: Subscribable) {
  return {
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
}

/**
 * The one verification path (create, enabling update, `/actions/verify`): sends the
 * signed message and answers the delivery, or null when nothing is sent (an email
 * configuration, or a destination off this machine on a server started to store such
 * destinations without delivering). A destination off this machine is otherwise refused
 * before any connection (./delivery.ts); the token is opened only to sign the message.
 */
async function sendVerification(
  ctx: ServerContext,
  r: NotificationRecord,
  target: Subscribable,
): Promise<DeliveryResponse | null> {
  if (!r.url) return null;
  if (ctx.options.storeRemoteNotifications && !onThisMachine(r.url)) return null;
  return deliver(r.url, r.token ? ctx.secrets.open(r.token, TOKEN_PURPOSE) : null, verificationPayload(r, target));
}

/** The record's kept deliveries with `response` first. */
function withDelivery(r: NotificationRecord, response: DeliveryResponse | null): string {
  if (!response) return r.delivery_responses;
  return JSON.stringify(
    [response, ...(JSON.parse(r.delivery_responses) as DeliveryResponse[])].slice(0, KEPT_DELIVERIES),
  );
}

/**
 * Verifies a configuration about to be saved enabled: the delivery when one was sent; a
 * failed one throws the refusal that keeps the configuration from being saved.
 */
async function verifyBeforeSaving(
  ctx: ServerContext,
  r: NotificationRecord,
  target: Subscribable,
): Promise<DeliveryResponse | null> {
  const response = await sendVerification(ctx, r, target);
  if (response && response.successful !== "true")
    throw new Invalid(
      `notification configuration "${r.name}": the verification sent to ${withoutCredentials(r.url!)} failed (${
        response.code ? `the destination answered ${response.code}` : response.body
      }); make the destination answer 2xx, or save the configuration with enabled: false`,
      { attribute: "url" },
    );
  return response;
}

/**
 * Sends the configuration a verification message and records the answer in its
 * `delivery-responses`, whatever it was (the path create and enabling share).
 */
export async function verifyNotification(ctx: ServerContext, caller: Caller, id: string): Promise<NotificationRecord> {
  const r = loadNotification(ctx, caller, id, true);
  const response = await sendVerification(ctx, r, subscribableOf(ctx, caller, r, true));
  if (!response) return r;
  return inTransaction(ctx.db, () => {
    const cur = store.findNotification(ctx.db, r.id);
    if (!cur) throw new NotFound("notification configuration not found");
    const next = { ...cur, delivery_responses: withDelivery(cur, response) };
    store.updateNotificationRow(ctx.db, next);
    return next;
  });
}

/** The workspace a configuration's subscribable points at, for rendering (null for a project's). */
export function subscribableRef(r: NotificationRecord): { type: string; id: string } {
  return r.workspace_id ? { type: "workspaces", id: r.workspace_id } : { type: "projects", id: r.project_id! };
}
