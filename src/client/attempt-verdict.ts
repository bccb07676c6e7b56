/**
 * The decisions of one request's life, as functions of values: what an attempt's outcome
 * means ({@link classify}), whether a retry still fits ({@link decideRetry}), and when an
 * attempt in flight must be cut off ({@link attemptBound}). The transport (transport.ts)
 * sends, waits and logs; these only decide, so each can be tested alone.
 */
import type { ErrorObject } from "../api/common";
import type { CallBounds } from "./call-scope";
import { refusesInvalidToken } from "./error-objects";
import {
  type HeaderBag,
  type Repeatability,
  type ResolvedRetryOptions,
  backoffDelay,
  mayRetryNetwork,
  mayRetryStatus,
  rateLimitWait,
} from "./retry";

/** An answer of the service, as the decisions need it. */
export interface Answer {
  status: number;
  headers: HeaderBag;
  /** Its error objects (token removed); empty for a success. */
  errors: ErrorObject[];
}

/** What one attempt brought back: an answer, or a transport error code (`ECONNRESET`, `ETIMEDOUT`, ...). */
export type Outcome = { answer: Answer } | { networkCode: string };

/** Wait `wait` ms, then try again. */
export interface Retry {
  kind: "retry";
  wait: number;
  /** What set the wait: `backoff`, `Retry-After`, `X-RateLimit-Reset`. */
  why: string;
  /** When a 429 said the service takes requests again. */
  retryAt?: Date;
  /** An unlock's 503: the unlock window bounds its retries, not the attempt count. */
  settling: boolean;
}

/** Report the failure; `gaveUp` says why it was not repeated, `refusedToken` marks a 429 that throttles an invalid token. */
export interface Failed {
  kind: "fail";
  gaveUp?: string;
  /** When a 429 said the service takes requests again. */
  retryAt?: Date;
  refusedToken?: boolean;
}

/**
 * What to do after an attempt: return the answer (`alreadyDone` when a 404 shows that an
 * earlier attempt whose answer was lost did the deletion), retry, or fail.
 */
export type Verdict = { kind: "success"; alreadyDone: boolean } | Retry | Failed;

/** What {@link classify} needs to know of the request besides the outcome. */
export interface ClassifyInput {
  repeat: Repeatability;
  goneMeansDone: boolean;
  /** Attempt number, from 1. */
  attempt: number;
  /** Since the request's first send, when the answer arrived. */
  elapsedMs: number;
  /** An earlier attempt had no answer (5xx, dropped connection): its effect is unknown. */
  outcomeUnknown: boolean;
  retry: ResolvedRetryOptions;
  now: number;
  random: () => number;
}

/** What an attempt's outcome means: success, a retry with its wait, or a failure to report. */
export function classify(outcome: Outcome, c: ClassifyInput): Verdict {
  const backoff = (): Retry => ({
    kind: "retry",
    wait: backoffDelay(c.attempt, c.retry, c.random),
    why: "backoff",
    settling: false,
  });
  if ("networkCode" in outcome) {
    return mayRetryNetwork(c.repeat, outcome.networkCode)
      ? backoff()
      : { kind: "fail", gaveUp: notRepeatedNote(c.repeat) };
  }
  const { status, headers, errors } = outcome.answer;
  if (status === 404 && c.goneMeansDone && c.outcomeUnknown) return { kind: "success", alreadyDone: true };
  // A redirect is not followed (it could carry the Authorization header elsewhere) and is reported as an error.
  if (status < 300) return { kind: "success", alreadyDone: false };
  if (status === 429) {
    if (refusesInvalidToken(errors)) {
      // Waiting would not make the token valid, and every wait would renew the throttle.
      const gaveUp =
        "not waited on: the service holds back requests with an invalid token, and this token is one of them";
      return { kind: "fail", gaveUp, refusedToken: true };
    }
    const asked = rateLimitWait(headers, c.now);
    if (!asked) return backoff();
    // A little jitter after the reset keeps concurrent callers from arriving together.
    const wait = asked.ms + Math.round(c.random() * 50);
    return { kind: "retry", wait, why: asked.source, retryAt: new Date(c.now + asked.ms), settling: false };
  }
  if (c.repeat === "unlock" && status === 503) {
    // The state is still being finalized: the unlock window bounds these retries, not the attempt count.
    const retry: Retry = { ...backoff(), settling: true };
    if (c.elapsedMs + retry.wait <= c.retry.unlockRetryMs) return retry;
    const gaveUp = `gave up: the state was still not finalized at the end of the ${c.retry.unlockRetryMs}ms unlock window`;
    return { kind: "fail", gaveUp };
  }
  if (mayRetryStatus(c.repeat, status, c.elapsedMs, c.retry)) {
    const asked = status === 503 ? rateLimitWait({ "retry-after": headers["retry-after"] }, c.now) : undefined;
    if (!asked) return backoff();
    return { kind: "retry", wait: Math.min(asked.ms, c.retry.maxDelayMs), why: asked.source, settling: false };
  }
  const retriable = status >= 500 && status !== 501;
  return { kind: "fail", gaveUp: retriable ? notRepeatedNote(c.repeat) : undefined };
}

/** What {@link decideRetry} weighs a retry against. */
export interface RetryRoom {
  /** Attempts made so far. */
  attempt: number;
  /** Left of the request's retry budget (`retry.maxElapsedMs`). */
  budgetLeftMs: number;
  /** Left until the call's deadline. */
  deadlineLeftMs: number;
  deadlineMs: number;
  retry: ResolvedRetryOptions;
}

/** `retry` when its wait fits the attempts, the budget and the deadline left; else the failure, saying which ran out. */
export function decideRetry(retry: Retry, room: RetryRoom): Retry | Failed {
  const { wait, retryAt } = retry;
  const outOfAttempts = room.attempt >= room.retry.maxAttempts && !retry.settling;
  if (!outOfAttempts && wait <= room.budgetLeftMs && wait <= room.deadlineLeftMs) return retry;
  const reason = outOfAttempts
    ? `gave up after the maximum of ${room.retry.maxAttempts} attempts`
    : wait > room.budgetLeftMs
      ? `gave up: waiting ${wait}ms more would exceed the ${room.retry.maxElapsedMs}ms budget`
      : `gave up: waiting ${wait}ms more would pass this call's deadline of ${room.deadlineMs}ms`;
  return { kind: "fail", gaveUp: retryAt ? `${reason}; retry after ${retryAt.toISOString()}` : reason, retryAt };
}

/** The moment an attempt in flight is cut off, and the limit that sets it. */
export interface AttemptBound {
  at: number;
  by: "deadline" | "budget" | "unlock window";
}

/**
 * When an attempt sent now must end, and which limit says so: the call's deadline, the
 * retry budget counted from the request's first send, and for an unlock that met a 503,
 * its unlock window.
 */
export function attemptBound(
  deadlineAt: number,
  firstSentAt: number,
  settlingUnlock: boolean,
  retry: ResolvedRetryOptions,
): AttemptBound {
  let bound: AttemptBound = { at: deadlineAt, by: "deadline" };
  const budgetAt = firstSentAt + retry.maxElapsedMs;
  if (budgetAt < bound.at) bound = { at: budgetAt, by: "budget" };
  const windowAt = firstSentAt + retry.unlockRetryMs;
  if (settlingUnlock && windowAt < bound.at) bound = { at: windowAt, by: "unlock window" };
  return bound;
}

function notRepeatedNote(repeat: Repeatability): string | undefined {
  return repeat === "idempotent" ? undefined : "not repeated: the request may already have taken effect";
}

/** The code of a transport error (`ECONNRESET`, `ETIMEDOUT`, ...), `ERR_NETWORK` when it has none more precise. */
export function transportCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === "string" && e.code !== "ERR_NETWORK") return e.code;
  if (typeof e?.cause?.code === "string") return e.cause.code;
  return typeof e?.code === "string" ? e.code : "ERR_NETWORK";
}

/** Waits for `promise` until the call's deadline or signal ends the wait. */
export async function settleWithin<T>(
  promise: Promise<T>,
  call: CallBounds,
): Promise<{ value: T } | "deadline" | "aborted"> {
  if (call.signal?.aborted) return "aborted";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<"deadline" | "aborted">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), Math.max(0, call.deadlineAt - Date.now()));
    onAbort = () => resolve("aborted");
    call.signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.then((value) => ({ value })), ended]);
  } finally {
    clearTimeout(timer);
    if (onAbort) call.signal?.removeEventListener("abort", onAbort);
  }
}
