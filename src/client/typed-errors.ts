/**
 * Typed errors of the client. Callers branch with `instanceof`, as go-tfe callers
 * compare against its sentinel errors. Every error carries what is needed to act on
 * it (status, method, path, the service's own detail) and never the token: messages
 * are built from the request path and the service's error objects only, and the
 * underlying transport error (whose config holds the Authorization header) is never
 * attached.
 */
import { AGENT_POOL_NOT_ALLOWED_DETAIL } from "../api/agent-pools";
import { PARAMETER_NOT_ALLOWED_DETAIL } from "../api/policy-sets";
import type { ConflictCode, ErrorObject } from "../api/common";

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** What the client knows about the exchange that failed. */
export interface ErrorContext {
  /** Method of the request that failed. */
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

/**
 * Longest service detail (and longest summary) quoted in an error message, in
 * characters. The full text stays on the error object (`detail`, `errors`).
 */
export const MESSAGE_DETAIL_LIMIT = 500;

/** Base class of every error the client raises. */
export class WorkspacesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Base class of errors that come from a request: the service answered with an error status or did not answer. */
export class ApiError extends WorkspacesError {
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  /** Method of the request that failed. */
  readonly method: HttpMethod;
  /** Path relative to the base URL, e.g. `/workspaces/ws-123`. */
  readonly path: string;
  /** The service's detail (the error objects' `detail`, else `title`, joined), or an empty string. */
  readonly detail: string;
  /** The service's JSON:API error objects, as received. */
  readonly errors: ErrorObject[];
  /** Requests sent for this call, retries included. */
  readonly attempts: number;
  /** Time from the first attempt to the final failure, in milliseconds. */
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
export type ConflictReason = ConflictCode | "unknown";

/** 409: the workspace is in a state that forbids the operation. */
export class ConflictError extends ApiError {
  /** What the service's 409 said the workspace's state is (`locked`, `already-exists`, ...), `unknown` when it did not say. */
  readonly reason: ConflictReason;
  constructor(ctx: ErrorContext, reason: ConflictReason) {
    super(ctx, `conflict (${reason})`);
    this.reason = reason;
  }
}

/** One problem of a 422 answer: the JSON pointer into the request body and what is wrong there. */
export interface ValidationProblem {
  /** JSON pointer of the offending attribute (`/data/attributes/name`), or null. */
  pointer: string | null;
  /** The service's explanation of the problem. */
  detail: string;
}

/** 422: the request body was refused; `problems` lists each offending key. */
export class ValidationError extends ApiError {
  /** Each invalid attribute with the service's explanation. */
  readonly problems: ValidationProblem[];
  constructor(ctx: ErrorContext) {
    super(ctx);
    this.problems = (ctx.errors ?? []).map((e) => ({
      pointer: e.source?.pointer ?? e.source?.parameter ?? null,
      detail: e.detail ?? e.title ?? "invalid",
    }));
  }
}

/**
 * 422: a workspace (create or update) named an agent pool that does not allow it: the
 * pool is not organization-scoped and neither lists the workspace nor its project among
 * those it allows, or it excludes the workspace.
 */
export class AgentPoolNotAllowedError extends ValidationError {}

/**
 * 422: a parameter create on a policy set that cannot pass parameters to its policies:
 * an OPA set, or a set whose policies are attached individually (only a versioned
 * Sentinel set, uploaded or from VCS, takes parameters).
 */
export class PolicySetParameterNotAllowedError extends ValidationError {}

/**
 * 429 that persisted through every allowed retry, or a call the client did not send
 * because the service asked it to hold back (a 429's `X-RateLimit-Reset` or
 * `Retry-After`) for longer than the call's deadline leaves.
 */
export class RateLimitedError extends ApiError {
  /** When the service said requests may resume, when it said so. */
  readonly retryAt: Date | undefined;
  constructor(ctx: ErrorContext, retryAt?: Date, summary?: string) {
    super(ctx, summary);
    this.retryAt = retryAt;
  }
}

/** 503 that persisted (or was not safe to retry). */
export class ServiceUnavailableError extends ApiError {}

/** Any other 5xx (and a 5xx on a request that was not safe to repeat). */
export class ServerError extends ApiError {}

/** No response: connection refused or dropped, or the per-request timeout expired. */
export class NetworkError extends ApiError {
  /** The transport's error code (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`, ...). */
  readonly code: string;
  constructor(ctx: ErrorContext, code: string, summary = `no response (${code})`) {
    super(ctx, summary);
    this.code = code;
  }
}

/**
 * The call's overall deadline (`deadlineMs`) ran out before a complete answer arrived:
 * while waiting for a pacing slot, between retries, or while the answer was still
 * arriving. `code` is `EDEADLINE`. When a request had been sent, its outcome is unknown.
 */
export class DeadlineExceededError extends NetworkError {
  /** The deadline that ran out, in milliseconds. */
  readonly deadlineMs: number;
  constructor(ctx: ErrorContext, deadlineMs: number, during: string) {
    super(
      ctx,
      "EDEADLINE",
      `did not finish within its deadline of ${seconds(deadlineMs)} (deadlineMs); ran out ${during}`,
    );
    this.deadlineMs = deadlineMs;
  }
}

/** The caller's `AbortSignal` ended the call. `code` is `ABORTED`. When a request had been sent, its outcome is unknown. */
export class AbortedError extends NetworkError {
  constructor(ctx: ErrorContext, during: string) {
    super(ctx, "ABORTED", `aborted by the caller's signal ${during}`);
  }
}

/** A response that does not have the shape the API documents; `issues` names each path. */
export class UnexpectedResponseError extends ApiError {
  /** Where the answer departs from the expected document: the path in the document and what was wrong. */
  readonly issues: { path: string; message: string }[];
  constructor(ctx: ErrorContext, issues: { path: string; message: string }[]) {
    super(ctx, "unexpected response: " + issues.map((i) => `${i.path}: ${i.message}`).join("; "));
    this.issues = issues;
  }
}

/**
 * A create the service acknowledged (2xx) whose answer could not be read, and whose
 * record could not be read back either (by the id the answer named, else by name). The
 * record exists on the service: `createdId` is its id when the answer named one.
 */
export class UnreadableCreateError extends UnexpectedResponseError {
  /** Id of the record the service made, when its answer named one (`data.id`); null otherwise. */
  readonly createdId: string | null;
  /** Why reading the record back failed. */
  readonly readBackError: unknown;
  constructor(answer: UnexpectedResponseError, createdId: string | null, readBackError: unknown) {
    super(
      {
        method: answer.method,
        path: answer.path,
        status: answer.status,
        attempts: answer.attempts,
        elapsedMs: answer.elapsedMs,
      },
      answer.issues,
    );
    const readBack = readBackError instanceof Error ? readBackError.message : String(readBackError);
    this.message = `${answer.message}; the service made the record (${createdId ?? "its id not given"}) but reading it back failed too: ${capDetail(readBack)}`;
    this.createdId = createdId;
    this.readBackError = readBackError;
  }
}

/**
 * What a server lacks, in the words of {@link FeatureUnavailableError.feature}. Servers
 * of this API written by others (OTF, older self-managed releases) leave some out.
 */
export type Feature =
  | "safe delete"
  | "key-value tags"
  | "projects"
  | "remote state consumers"
  | "no-code provisioning"
  | "variable sets"
  | "team workspace access"
  | "team project access"
  | "notification verification"
  | "Microsoft Teams notifications"
  | "policies"
  | "policy sets"
  | "organization memberships"
  | "team members by organization membership"
  | "multiple team tokens";

/**
 * The server does not offer a feature: it answered 404, 405 or 501 on the feature's
 * route while the record the route belongs to (the workspace, the organization) reads
 * fine, or it left out of its answer what the feature puts there. A 404 alone never
 * says this: a 404 on a record that does not read either stays a {@link NotFoundError}.
 */
export class FeatureUnavailableError extends ApiError {
  /** The feature the server lacks (`safe delete`, `key-value tags`, ...). */
  readonly feature: Feature;
  /** Base address of the server. */
  readonly address: string;
  /** What the server answered, as a phrase: `answered 404`, `answered 201 without a project relationship`. */
  readonly answer: string;
  constructor(ctx: ErrorContext, feature: Feature, address: string, answer = `answered ${ctx.status}`) {
    super(ctx);
    this.feature = feature;
    this.address = address;
    this.answer = answer;
    this.message = `the server at ${address} does not offer ${feature} (${ctx.method} ${capDetail(ctx.path)} ${answer})`;
  }
}

/** Settings could not be resolved (no token, no address, unreadable credentials file). */
export class SettingsError extends WorkspacesError {}

/**
 * A paged list whose pages contradict each other (an empty page that names a next one,
 * a next page past the last, a page repeated): following it could go on forever, so
 * the listing stops with this error.
 */
export class InconsistentPaginationError extends WorkspacesError {
  /** Path of the list, relative to the base URL. */
  readonly path: string;
  /** The page whose answer was inconsistent. */
  readonly page: number;
  constructor(path: string, page: number, problem: string) {
    super(
      `GET ${path}: the service's pagination is inconsistent at page ${page}: ${problem}; the listing stopped there`,
    );
    this.path = path;
    this.page = page;
  }
}

/** A bounded wait (such as polling a no-code upgrade) ran out before the expected state was reached. */
export class WaitTimeoutError extends WorkspacesError {
  /** Status seen at the last poll, if any. */
  readonly lastStatus: string | undefined;
  /** Time spent waiting, in milliseconds. */
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
  const head = `${ctx.method} ${capDetail(ctx.path)}: ${ctx.status ? ctx.status : ctx.attempts === 0 ? "not sent" : "no response"}`;
  const parts = [head];
  if (summary) parts.push(capDetail(summary));
  if (detail) parts.push(capDetail(detail));
  let msg = parts.join(" - ");
  if (ctx.attempts === 0) {
    if (ctx.gaveUp) msg += ` (${capDetail(ctx.gaveUp)})`;
  } else if (ctx.attempts > 1 || ctx.gaveUp) {
    msg += ` (after ${ctx.attempts} attempt${ctx.attempts === 1 ? "" : "s"} over ${seconds(ctx.elapsedMs)}`;
    msg += ctx.gaveUp ? `; ${capDetail(ctx.gaveUp)})` : ")";
  }
  return msg;
}

/**
 * Cuts `text` (a service's detail, or anything else that comes from the service) to
 * {@link MESSAGE_DETAIL_LIMIT} characters for a message, saying how much was left out
 * and, with `where`, where the rest can be read.
 */
export function capDetail(text: string, where = "on the error object"): string {
  if (text.length <= MESSAGE_DETAIL_LIMIT) return text;
  return `${text.slice(0, MESSAGE_DETAIL_LIMIT)}... (${text.length - MESSAGE_DETAIL_LIMIT} more characters ${where})`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** Whether one of the service's error objects says `detail` (case and surrounding space aside). */
function saysDetail(ctx: ErrorContext, detail: string): boolean {
  return (ctx.errors ?? []).some((e) => e.detail?.trim().toLowerCase() === detail.toLowerCase());
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
      if (saysDetail(ctx, AGENT_POOL_NOT_ALLOWED_DETAIL)) return new AgentPoolNotAllowedError(ctx);
      if (saysDetail(ctx, PARAMETER_NOT_ALLOWED_DETAIL)) return new PolicySetParameterNotAllowedError(ctx);
      return new ValidationError(ctx);
    case 429:
      return new RateLimitedError(ctx);
    case 503:
      return new ServiceUnavailableError(ctx);
    default:
      return ctx.status >= 500 ? new ServerError(ctx) : new ApiError(ctx);
  }
}
