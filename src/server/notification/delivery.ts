import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import { Invalid } from "../domain-errors";

/**
 * Delivery of a notification. The local server reaches no one: it sends only to loopback
 * addresses (`localhost`, 127.0.0.0/8, ::1), named literally, so that no name resolution
 * can lead it elsewhere; any other destination is refused before a connection is made.
 */

/** One delivery as the service reports it in `delivery-responses`. */
export interface DeliveryResponse {
  url: string;
  body: string;
  code: string;
  headers: Record<string, string[]>;
  "sent-at": string;
  successful: string;
}

const TIMEOUT_MS = 10_000;
const BODY_LIMIT = 2_000;

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.split(".")[0] === "127";
  if (isIP(host) === 6) return host === "::1" || /^::ffff:127\./.test(host);
  return false;
}

/** The URL with any user name and password taken out: it is what responses and records show of a destination. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** Whether `url` names a loopback destination, the only kind the local server delivers to. */
export function onThisMachine(url: string): boolean {
  try {
    return isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Throws the clear refusal when the local server may not deliver to `url`. */
function assertDeliverable(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Invalid("url must be an http or https URL", { attribute: "url" });
  }
  if (!isLoopback(u.hostname))
    throw new Invalid(
      `the local server delivers notifications only to loopback addresses (localhost, 127.0.0.0/8, ::1), and refused ${u.hostname}: verify against a receiver on this machine, create the configuration with enabled: false, or start the server with --store-remote-notifications to store it without delivering`,
      { attribute: "url" },
    );
  return u;
}

/**
 * Posts `payload` to a loopback `url`, signed with `token` when there is one (HMAC-SHA512
 * of the body in `X-TFE-Notification-Signature`, as the hosted service signs), and
 * reports the answer. Redirects are not followed: they could lead off the machine.
 */
export async function deliver(url: string, token: string | null, payload: unknown): Promise<DeliveryResponse> {
  const target = assertDeliverable(url);
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers["x-tfe-notification-signature"] = createHmac("sha512", token).update(body).digest("hex");
  if (target.username || target.password) {
    const user = decodeURIComponent(target.username);
    const pass = decodeURIComponent(target.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    target.username = "";
    target.password = "";
  }
  const sentAt = new Date().toISOString();
  const shown = withoutCredentials(url);
  try {
    const res = await fetch(target, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = (await res.text()).slice(0, BODY_LIMIT);
    const answered: Record<string, string[]> = {};
    res.headers.forEach((value, name) => (answered[name] = [value]));
    return {
      url: shown,
      body: text,
      code: String(res.status),
      headers: answered,
      "sent-at": sentAt,
      successful: String(res.status >= 200 && res.status < 300),
    };
  } catch (e) {
    return {
      url: shown,
      body: `delivery failed: ${e instanceof Error && e.name === "TimeoutError" ? "no answer in time" : "the connection failed"}`,
      code: "",
      headers: {},
      "sent-at": sentAt,
      successful: "false",
    };
  }
}
