/**
 * When a failed attempt may be repeated, and how long to wait first.
 *
 * The rule that keeps retries harmless: an answer of 429 means the service did not
 * process the request, and a refused connection means it never arrived, so both may
 * be repeated for any request. A 5xx, a dropped connection or a timeout leaves the
 * outcome unknown, so only requests whose repetition changes nothing are repeated.
 * A create is never repeated blindly; its failure is reported, so a duplicate can
 * never appear.
 */

import type { BudgetReport } from "./shared-budget";

/** How failed attempts of a call are repeated. */
export interface RetryOptions {
  /** Attempts per call, the first included. Default 8. */
  maxAttempts?: number;
  /**
   * Time budget of one request, from its first send (time queued behind the pacing of
   * other calls does not count) to the last byte of its last answer, in ms: every attempt
   * and every wait between them. An answer still arriving when it runs out is cut off
   * (`NetworkError`, code `ETIMEDOUT`). Default 120 000. The call's overall deadline
   * (`deadlineMs`) bounds everything, this budget included.
   */
  maxElapsedMs?: number;
  /** First backoff step, in ms. Default 250. */
  baseDelayMs?: number;
  /** Longest single backoff wait, in ms. Default 8 000. */
  maxDelayMs?: number;
  /**
   * How long an unlock answered with 503 (state not yet finalized) is retried, in ms,
   * from its first send; an answer still arriving then is cut off. Default 30 000.
   */
  unlockRetryMs?: number;
}

/** {@link RetryOptions} with every default filled in. */
export type ResolvedRetryOptions = Required<RetryOptions>;

/** Retry settings used when `retry` is not given (each field of `RetryOptions` can be overridden on its own). */
export const DEFAULT_RETRY: ResolvedRetryOptions = {
  maxAttempts: 8,
  maxElapsedMs: 120_000,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  unlockRetryMs: 30_000,
};

/**
 * How a request may be repeated.
 * - `idempotent`: repeating it leaves the same result (GET, PATCH of settings, DELETE,
 *   safe-delete, relationship add/remove/replace, which ignore items already in place).
 * - `once`: repeating it could act twice or answer differently (creates, lock, force-unlock,
 *   no-code upgrade initiate and confirm).
 * - `unlock`: like `once`, but a 503 (latest state version not yet finalized) means nothing
 *   happened and the API documentation advises retrying for a short period.
 */
export type Repeatability = "idempotent" | "once" | "unlock";

/** Transport error codes that prove the request never reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Whether a transport error code proves the request never reached the service. */
function wasNeverSent(code: string): boolean {
  return NOT_SENT_CODES.has(code);
}

/** Whether a transport failure (no response) may be retried. */
export function mayRetryNetwork(repeat: Repeatability, code: string): boolean {
  return repeat === "idempotent" || wasNeverSent(code);
}

/** Whether an error status may be retried. */
export function mayRetryStatus(
  repeat: Repeatability,
  status: number,
  elapsedMs: number,
  opts: ResolvedRetryOptions,
): boolean {
  if (status === 429) return true;
  if (status === 503 && repeat === "unlock") return elapsedMs < opts.unlockRetryMs;
  if (status >= 500 && status !== 501) return repeat === "idempotent";
  return false;
}

/** Full-jitter exponential backoff: a random wait in [base/2, min(cap, base * 2^(attempt-1))]. */
export function backoffDelay(attempt: number, opts: ResolvedRetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const floor = Math.min(ceiling, opts.baseDelayMs / 2);
  return Math.round(floor + random() * (ceiling - floor));
}

/** Response headers as the HTTP library gives them (lower-case names, string or string[] values). */
export type HeaderBag = Record<string, unknown>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  const first: unknown = Array.isArray(v) ? v[0] : v;
  if (typeof first === "string") return first;
  return typeof first === "number" || typeof first === "boolean" ? String(first) : undefined;
}

/**
 * Longest wait a 429 (or a 503's `Retry-After`) is taken to ask for: thirty days. Any
 * wait near it is past every call's deadline anyway; the bound keeps absurd values
 * (`1e300`) a representable date.
 */
const MAX_ASKED_WAIT_MS = 30 * 86_400_000;

/**
 * How long a 429 asks the client to wait, and which header said so.
 * `X-RateLimit-Reset` is read as seconds until the window resets (the hosted service
 * sends fractions such as `0.412`); a value that is plainly an epoch timestamp is read
 * as one. `Retry-After` is seconds or an HTTP date.
 */
export function rateLimitWait(
  headers: HeaderBag,
  now: number = Date.now(),
): { ms: number; source: string } | undefined {
  const reset = resetWait(headers, now);
  if (reset !== undefined) return { ms: reset, source: "X-RateLimit-Reset" };
  const retryAfter = header(headers, "retry-after");
  if (retryAfter !== undefined && retryAfter.trim() !== "") {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs) && secs >= 0)
      return { ms: Math.min(MAX_ASKED_WAIT_MS, Math.ceil(secs * 1000)), source: "Retry-After" };
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return { ms: Math.min(MAX_ASKED_WAIT_MS, Math.max(0, date - now)), source: "Retry-After" };
  }
  return undefined;
}

/** Milliseconds until the window resets (`X-RateLimit-Reset`: seconds, or an epoch timestamp), if the answer says. */
function resetWait(headers: HeaderBag, now: number): number | undefined {
  const reset = header(headers, "x-ratelimit-reset");
  if (reset === undefined || reset.trim() === "") return undefined;
  const v = Number(reset);
  if (!Number.isFinite(v) || v < 0) return undefined;
  const ms = v > 1e12 ? v - now : v > 1e9 ? v * 1000 - now : v * 1000;
  return Math.min(MAX_ASKED_WAIT_MS, Math.max(0, Math.ceil(ms)));
}

/**
 * What an answer says of the token's budget in the current window (`X-RateLimit-Remaining`
 * with `X-RateLimit-Reset`), if it says both.
 */
export function budgetReport(headers: HeaderBag, now: number = Date.now()): BudgetReport | undefined {
  const remaining = Number(header(headers, "x-ratelimit-remaining") ?? NaN);
  if (!Number.isFinite(remaining) || remaining < 0) return undefined;
  const resetMs = resetWait(headers, now);
  if (resetMs === undefined) return undefined;
  return { remaining: Math.floor(remaining), resetMs, limit: announcedLimit(headers) };
}

/** The announced limit (`X-RateLimit-Limit`, requests per second), if any. */
export function announcedLimit(headers: HeaderBag): number | undefined {
  const v = Number(header(headers, "x-ratelimit-limit"));
  return Number.isFinite(v) && v > 0 ? v : undefined;
}
