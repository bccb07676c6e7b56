/**
 * Typed errors of the client. Callers branch with `instanceof`, as go-tfe callers
 * compare against its sentinel errors. Every error carries what is needed to act on
 * it (status, method, path, the service's own detail) and never the token: messages
 * are built from the request path and the service's error objects only, and the
 * underlying transport error (whose config holds the Authorization header) is never
 * attached.
 */
import type { ErrorObject } from "../api/common";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** What the client knows about the exchange that failed. */
export interface ErrorContext {
  method: HttpMethod;
  /** Path relative to the base URL, e.g. `/workspaces/ws-123/actions/lock`. */
  path: string;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  /** The service's error objects, as received. */
  errors?: ErrorObject[];
  /** Requests sent for this call, retries included. */
  attempts: number;
  /** Time from the first attempt to the final failure, in milliseconds. */
  elapsedMs: number;
  /** Why the client stopped retrying, when it did retry. */
  gaveUp?: string;
}

/** Base class of every error the client raises. */
export class WorkspacesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Base class of errors that come from a request: the service answered with an error status or did not answer. */
export class ApiError extends WorkspacesError {
  readonly status: number;
  readonly method: HttpMethod;
  readonly path: string;
  /** The service's detail (the error objects' `detail`, else `title`, joined), or an empty string. */
  readonly detail: string;
  readonly errors: ErrorObject[];
  readonly attempts: number;
  readonly elapsedMs: number;

  constructor(ctx: ErrorContext, summary?: string) {
    const detail = describeErrors(ctx.errors ?? []);
    super(formatMessage(ctx, summary, detail));
    this.status = ctx.status;
    this.method = ctx.method;
    this.path = ctx.path;
    this.detail = detail;
    this.errors = ctx.errors ?? [];
    this.attempts = ctx.attempts;
    this.elapsedMs = ctx.elapsedMs;
  }
}

/** 400: a malformed request, such as an unknown `include` value. */
export class BadRequestError extends ApiError {}

/** 401: the token is missing, malformed, expired or revoked. */
export class UnauthorizedError extends ApiError {}

/** 403: the token may see the resource but not do this (force delete without the right). */
export class ForbiddenError extends ApiError {}

/** 404: the resource does not exist or the token may not see it (the service does not tell which). */
export class NotFoundError extends ApiError {}

/** Why the service answered 409, derived from the operation and the service's detail. */
export type ConflictReason =
  | "already-locked"
  | "not-locked"
  | "locked-by-another-user"
  | "managing-resources"
  | "still-processing"
  | "already-exists"
  | "unknown";

/** 409: the workspace is in a state that forbids the operation. */
export class ConflictError extends ApiError {
  readonly reason: ConflictReason;
  constructor(ctx: ErrorContext, reason: ConflictReason) {
    super(ctx, `conflict (${reason})`);
    this.reason = reason;
  }
}

/** One problem of a 422 answer: the JSON pointer into the request body and what is wrong there. */
export interface ValidationProblem {
  pointer: string | null;
  detail: string;
}

/** 422: the request body was refused; `problems` lists each offending key. */
export class ValidationError extends ApiError {
  readonly problems: ValidationProblem[];
  constructor(ctx: ErrorContext) {
    super(ctx);
    this.problems = (ctx.errors ?? []).map((e) => ({
      pointer: e.source?.pointer ?? e.source?.parameter ?? null,
      detail: e.detail ?? e.title ?? "invalid",
    }));
  }
}

/** 429 that persisted through every allowed retry. */
export class RateLimitedError extends ApiError {}

/** 503 that persisted (or was not safe to retry). */
export class ServiceUnavailableError extends ApiError {}

/** Any other 5xx (and a 5xx on a request that was not safe to repeat). */
export class ServerError extends ApiError {}

/** No response: connection refused or dropped, or the per-request timeout expired. */
export class NetworkError extends ApiError {
  /** The transport's error code (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`, ...). */
  readonly code: string;
  constructor(ctx: ErrorContext, code: string) {
    super(ctx, `no response (${code})`);
    this.code = code;
  }
}

/** A response that does not have the shape the spec promises; `issues` names each path. */
export class UnexpectedResponseError extends ApiError {
  readonly issues: { path: string; message: string }[];
  constructor(ctx: ErrorContext, issues: { path: string; message: string }[]) {
    super(ctx, "unexpected response: " + issues.map((i) => `${i.path}: ${i.message}`).join("; "));
    this.issues = issues;
  }
}

/** Settings could not be resolved (no token, no address, unreadable credentials file). */
export class SettingsError extends WorkspacesError {}

/** A bounded wait (such as polling a no-code upgrade) ran out before the expected state was reached. */
export class WaitTimeoutError extends WorkspacesError {
  readonly lastStatus: string | undefined;
  readonly elapsedMs: number;
  constructor(message: string, lastStatus: string | undefined, elapsedMs: number) {
    super(message);
    this.lastStatus = lastStatus;
    this.elapsedMs = elapsedMs;
  }
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => e.detail ?? e.title ?? "")
    .filter((s) => s.length > 0)
    .join("; ");
}

function formatMessage(ctx: ErrorContext, summary: string | undefined, detail: string): string {
  const head = `${ctx.method} ${ctx.path}: ${ctx.status ? ctx.status : "no response"}`;
  const parts = [head];
  if (summary) parts.push(summary);
  if (detail) parts.push(detail);
  let msg = parts.join(" - ");
  if (ctx.attempts > 1 || ctx.gaveUp) {
    msg += ` (after ${ctx.attempts} attempt${ctx.attempts === 1 ? "" : "s"} over ${(ctx.elapsedMs / 1000).toFixed(1)}s`;
    msg += ctx.gaveUp ? `; ${ctx.gaveUp})` : ")";
  }
  return msg;
}

/** Maps an error status to its class. `conflictReason` is only consulted for 409. */
export function errorForStatus(ctx: ErrorContext, conflictReason: () => ConflictReason): ApiError {
  switch (ctx.status) {
    case 400:
      return new BadRequestError(ctx);
    case 401:
      return new UnauthorizedError(ctx);
    case 403:
      return new ForbiddenError(ctx);
    case 404:
      return new NotFoundError(ctx);
    case 409:
      return new ConflictError(ctx, conflictReason());
    case 422:
      return new ValidationError(ctx);
    case 429:
      return new RateLimitedError(ctx);
    case 503:
      return new ServiceUnavailableError(ctx);
    default:
      return ctx.status >= 500 ? new ServerError(ctx) : new ApiError(ctx);
  }
}
