/**
 * The typed error a request ends with, built from what happened: refused before it was
 * sent, cut off in flight, or failed by the verdict on its last attempt (attempt-verdict.ts).
 */
import type { Answer, AttemptBound, Failed } from "./attempt-verdict";
import type { CallBounds } from "./call-scope";
import {
  AbortedError,
  type ApiError,
  DeadlineExceededError,
  type ErrorContext,
  type HttpMethod,
  NetworkError,
  RateLimitedError,
  UnauthorizedError,
  errorForStatus,
} from "./typed-errors";
import { type ConflictContext, conflictReason } from "./error-objects";
import type { ResolvedRetryOptions } from "./retry";

/** An answer received, with its body (a 409's reason is read from it). */
export interface Received extends Answer {
  data: unknown;
}

/** The request, as its errors name it. */
export interface Requested {
  method: HttpMethod;
  path: string;
  conflict?: ConflictContext;
}

/** The error of the answer `received` (or of the transport error `networkCode`) that the verdict `failed` ends the request with. */
export function failureError(
  spec: Requested,
  outcome: { received: Received } | { networkCode: string },
  failed: Failed,
  attempts: number,
  elapsedMs: number,
): ApiError {
  const received = "received" in outcome ? outcome.received : undefined;
  const ctx: ErrorContext = {
    method: spec.method,
    path: spec.path,
    status: received?.status ?? 0,
    errors: received?.errors,
    attempts,
    elapsedMs,
    gaveUp: failed.gaveUp,
  };
  if (!received) return new NetworkError(ctx, (outcome as { networkCode: string }).networkCode);
  if (failed.refusedToken) return new UnauthorizedError(ctx);
  if (received.status === 429) return new RateLimitedError(ctx, failed.retryAt);
  return errorForStatus(ctx, () => conflictReason(spec.conflict ?? "other", received.data));
}

/** What is known of an attempt cut off in flight. */
export interface CutOff {
  /** The limit whose timer cut it, or undefined when the caller's signal or the deadline ended it otherwise. */
  by: AttemptBound["by"] | undefined;
  attempts: number;
  /** Since the call started. */
  callElapsedMs: number;
  /** Since the request's first send. */
  requestElapsedMs: number;
  /** The answer of the attempt before, if any. */
  last: Received | undefined;
}

/** The error of an attempt whose answer the deadline, the retry budget, the unlock window or the signal cut off. */
export function cutOffError(spec: Requested, call: CallBounds, cut: CutOff, retry: ResolvedRetryOptions): ApiError {
  const ctx: ErrorContext = {
    method: spec.method,
    path: spec.path,
    status: 0,
    attempts: cut.attempts,
    elapsedMs: cut.callElapsedMs,
  };
  if (call.signal?.aborted) return new AbortedError(ctx, "while the answer was awaited");
  if (cut.by === "deadline" || cut.by === undefined)
    return new DeadlineExceededError(ctx, call.deadlineMs, "before the answer was complete");
  const settled = cut.last;
  if (cut.by === "unlock window" && settled) {
    // The attempt that ran past the window proves nothing new: the last answer was the state still settling.
    const gaveUp = `gave up: the state was still not finalized at the end of the ${retry.unlockRetryMs}ms unlock window; the attempt in flight was cut off`;
    const lastCtx = {
      ...ctx,
      status: settled.status,
      errors: settled.errors,
      elapsedMs: cut.requestElapsedMs,
      gaveUp,
    };
    return errorForStatus(lastCtx, () => conflictReason(spec.conflict ?? "other", settled.data));
  }
  // The request's own time is up: no attempt is left to make.
  const budget =
    cut.by === "budget"
      ? `${retry.maxElapsedMs}ms retry budget (retry.maxElapsedMs)`
      : `${retry.unlockRetryMs}ms unlock window (retry.unlockRetryMs)`;
  const gaveUp = `gave up: the answer was still arriving when the ${budget} ran out`;
  return new NetworkError({ ...ctx, elapsedMs: cut.requestElapsedMs, gaveUp }, "ETIMEDOUT", "cut off (ETIMEDOUT)");
}
