/**
 * What `check` finds wrong in the inputs of a `NotificationConfiguration`, each with its
 * property path, before anything is sent (./notification-configuration.ts).
 */
import { isId } from "../../api/common";
import {
  NOTIFICATION_DESTINATION_TYPES,
  NOTIFICATION_TRIGGERS,
  URL_DESTINATION_TYPES,
  type NotificationDestinationType,
} from "../../api/notifications";
import { reportWarning } from "../process/engine-status";
import { workspaceIdFailures } from "./inputs";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

const KNOWN_TRIGGERS: ReadonlySet<string> = new Set(NOTIFICATION_TRIGGERS);
const EMAIL_ONLY = ["emailAddresses", "emailUserIds"] as const;
/** An address as the service reads one: something, `@`, a domain with a dot. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How messages name a configuration: its name, id and workspace, where known. */
export function label(name: unknown, workspaceId: unknown, id?: string): string {
  const named = typeof name === "string" ? ` ${JSON.stringify(name)}` : "";
  const where = typeof workspaceId === "string" ? ` of workspace ${workspaceId}` : "";
  return `notification configuration${named}${id ? ` (${id})` : ""}${where}`;
}

function stringList(value: unknown, property: string, failures: CheckFailure[]): string[] {
  if (value === undefined || value === null || isUnknown(value)) return [];
  if (!Array.isArray(value)) {
    failures.push({ property, reason: `${property} must be a list of strings` });
    return [];
  }
  const known: string[] = [];
  value.forEach((v, i) => {
    if (isUnknown(v)) return;
    if (typeof v !== "string" || v === "")
      failures.push({ property: `${property}[${i}]`, reason: `${property}[${i}] must be a non-empty string` });
    else known.push(v);
  });
  return known;
}

function checkUrl(news: Props, destination: string | undefined, failures: CheckFailure[]): void {
  const url = news.url;
  const needsUrl = destination !== undefined && URL_DESTINATION_TYPES.includes(destination as never);
  if (url === undefined || url === null) {
    if (needsUrl) failures.push({ property: "url", reason: `url is required for a ${destination} destination` });
    return;
  }
  if (isUnknown(url)) return;
  if (destination === "email") {
    failures.push({
      property: "url",
      reason: "url is for generic, slack and microsoft-teams destinations: an email destination has none",
    });
    return;
  }
  let parsed: URL | undefined;
  try {
    parsed = typeof url === "string" ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
    // The value is not repeated: a URL may carry credentials.
    failures.push({ property: "url", reason: "url must be an http or https URL (https://host/path)" });
}

/** The failures of `news`, and a warning for each trigger this release does not know. */
export function checkConfiguration(news: Props): CheckFailure[] {
  const failures = workspaceIdFailures(news.workspaceId);
  const { name, destinationType, token, enabled } = news;
  if (name === undefined || name === null) failures.push({ property: "name", reason: "name is required" });
  else if (!isUnknown(name) && (typeof name !== "string" || name.trim() === ""))
    failures.push({ property: "name", reason: "name must be a non-empty string" });
  const kinds = NOTIFICATION_DESTINATION_TYPES.map((d) => `"${d}"`).join(", ");
  let destination: string | undefined;
  if (destinationType === undefined || destinationType === null)
    failures.push({ property: "destinationType", reason: `destinationType is required: one of ${kinds}` });
  else if (!isUnknown(destinationType)) {
    if (NOTIFICATION_DESTINATION_TYPES.includes(destinationType as NotificationDestinationType))
      destination = destinationType as string;
    else
      failures.push({
        property: "destinationType",
        reason: `destinationType must be one of ${kinds}, not ${JSON.stringify(destinationType)}`,
      });
  }
  checkUrl(news, destination, failures);
  if (token !== undefined && token !== null && !isUnknown(token)) {
    if (typeof token !== "string") failures.push({ property: "token", reason: "token must be a string" });
    else if (destination !== undefined && destination !== "generic")
      failures.push({
        property: "token",
        reason: `token signs the deliveries of a generic destination only: remove it for a ${destination} destination`,
      });
  }
  if (enabled !== undefined && enabled !== null && !isUnknown(enabled) && typeof enabled !== "boolean")
    failures.push({ property: "enabled", reason: "enabled must be true or false" });
  const unknown = stringList(news.triggers, "triggers", failures).filter((t) => !KNOWN_TRIGGERS.has(t));
  if (unknown.length > 0)
    reportWarning(
      `${label(name, news.workspaceId)}: ${unknown.map((t) => JSON.stringify(t)).join(", ")} ${unknown.length > 1 ? "are" : "is"} not among the triggers this release knows (${NOTIFICATION_TRIGGERS.join(", ")}); sent as given, for the service to judge`,
    );
  stringList(news.emailAddresses, "emailAddresses", failures).forEach((a, i) => {
    if (!EMAIL.test(a))
      failures.push({ property: `emailAddresses[${i}]`, reason: `emailAddresses[${i}] must be an email address` });
  });
  stringList(news.emailUserIds, "emailUserIds", failures).forEach((u, i) => {
    if (!isId("user", u))
      failures.push({ property: `emailUserIds[${i}]`, reason: `emailUserIds[${i}] must be a user id (user-...)` });
  });
  for (const property of EMAIL_ONLY) {
    const v = news[property];
    if (destination !== undefined && destination !== "email" && Array.isArray(v) && v.length > 0)
      failures.push({
        property,
        reason: `${property} is for email destinations only; a ${destination} destination delivers to its url`,
      });
  }
  return failures;
}
