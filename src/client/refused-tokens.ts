/**
 * Tokens a service refused with 401, per base URL, for this process. A 401 means that no
 * request with that token can succeed, so later requests with it to that service fail at
 * once instead of being sent: a program of hundreds of resources stops at its first
 * refusal rather than sending hundreds of doomed requests into the service's throttle of
 * invalid tokens and then waiting on it.
 *
 * Only a digest of each token is kept. Entries are few (a process talks to a handful of
 * services) and bounded, and each expires, so a long-lived process whose token is
 * repaired on the service's side recovers without a restart.
 */
import { createHash } from "node:crypto";
import type { ErrorObject } from "../api/common";

/** How long a refusal is remembered. */
const REMEMBER_MS = 10 * 60_000;

/** Most refusals remembered at once; the oldest is forgotten first. */
const MAX_REMEMBERED = 64;

/** A refusal remembered: when it came and the service's error objects (already free of the token). */
export interface Refusal {
  at: number;
  errors: ErrorObject[];
}

const refusals = new Map<string, Refusal>();

/** The key of a token at a base URL: the URL and a digest of the token, never the token itself. */
export function refusalKey(baseUrl: string, token: string): string {
  return `${baseUrl}\u0000${createHash("sha256").update(token).digest("base64")}`;
}

/** Remembers that the service at the key's base URL refused its token. */
export function rememberRefusal(key: string, errors: ErrorObject[], now: number = Date.now()): void {
  refusals.delete(key);
  refusals.set(key, { at: now, errors });
  for (const oldest of refusals.keys()) {
    if (refusals.size <= MAX_REMEMBERED) break;
    refusals.delete(oldest);
  }
}

/** The refusal remembered for the key, if it has not expired. */
export function refusalOf(key: string, now: number = Date.now()): Refusal | undefined {
  const refusal = refusals.get(key);
  if (refusal && now - refusal.at > REMEMBER_MS) {
    refusals.delete(key);
    return undefined;
  }
  return refusal;
}

/** Forgets every refusal (with the limiters, for tests that start several services on reused ports). */
export function forgetRefusals(): void {
  refusals.clear();
}
