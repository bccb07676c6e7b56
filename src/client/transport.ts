/**
 * One HTTP exchange with retries, pacing, a timeout, and typed errors. Every API area
 * goes through {@link Transport.request}; nothing else talks to axios.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import type { z } from "zod";
import { JSONAPI_MEDIA_TYPE, errorDocumentSchema, toPointer, type ErrorObject } from "../api/common";
import {
  AbortedError,
  type ApiError,
  type ConflictReason,
  DeadlineExceededError,
  type ErrorContext,
  type HttpMethod,
  NetworkError,
  RateLimitedError,
  UnauthorizedError,
  UnexpectedResponseError,
  errorForStatus,
} from "./errors";
import { currentCall } from "./call";
import { PacingRefused, type RateLimiter, limiterFor, sleep } from "./limiter";
import { refusalKey, refusalOf, rememberRefusal } from "./refused-tokens";
import {
  DEFAULT_RETRY,
  type Repeatability,
  type ResolvedRetryOptions,
  type RetryOptions,
  announcedLimit,
  backoffDelay,
  mayRetryNetwork,
  mayRetryStatus,
  rateLimitWait,
} from "./retry";
import type { Settings } from "./settings";

/** Names the operation so that a 409 can be given its reason. */
type ConflictContext = "lock" | "unlock" | "force-unlock" | "safe-delete" | "create" | "other";

/** One request as an API area describes it to the transport. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path relative to the base URL; build it with {@link urlPath} so segments are encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  repeat: Repeatability;
  conflict?: ConflictContext;
  /**
   * For deletions: a 404 on a retry that follows an attempt with no answer (5xx, dropped
   * connection) means that attempt did the deletion, so the call succeeds.
   */
  goneMeansDone?: boolean;
}

/** A successful answer, before its body is parsed. */
export interface RawResponse {
  status: number;
  data: unknown;
  headers: Record<string, unknown>;
}

/** Network behaviour of a client: deadlines, timeouts, retries and pacing. */
export interface TransportOptions {
  /**
   * Overall deadline of each call in milliseconds, from the moment it is made until the
   * last byte of its answer: pacing waits, every attempt and every wait between retries
   * included. A call that runs out fails with {@link DeadlineExceededError}, naming the
   * call and the deadline. Override it for one call with `client.with({ deadlineMs })`.
   * Default 300 000 (five minutes).
   */
  deadlineMs?: number;
  /** Ends every call of this client when aborted (with {@link AbortedError}); a call's own signal is given with `client.with({ signal })`. */
  signal?: AbortSignal;
  /**
   * Longest silence on the connection during one attempt, in milliseconds, before the
   * attempt fails (and may be retried). Default 30 000. An answer that keeps arriving a
   * byte at a time is never silent: the retry budget (`retry.maxElapsedMs`) and the
   * deadline (`deadlineMs`) bound it.
   */
  timeoutMs?: number;
  /** Which failures are retried, how often and how long (defaults: `DEFAULT_RETRY`). */
  retry?: RetryOptions;
  /**
   * Client-side pacing under the service's announced limit. `true` (default) shares one
   * limiter per base URL in this process; `false` disables pacing (429s are still
   * retried); an object fixes the per-second limit and skips the `/ping` announcement.
   */
  rateLimit?: boolean | { requestsPerSecond: number };
  /** Receives one line per request and per retry wait. Lines never contain the token. */
  logger?: (line: string) => void;
  /** Appended to the User-Agent (e.g. `my-script/1.2`). */
  userAgent?: string;
}

/** Counters of one client, for diagnostics and for measuring request counts. */
export interface TransportStats {
  /** HTTP requests sent, retries and the `/ping` announcement included. */
  requests: number;
  /** Attempts that were repeated after a failure. */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
}

/** Default overall deadline of a call. */
export const DEFAULT_DEADLINE_MS = 300_000;

/** Longest wait for the rate-limit announcement (`GET /ping`) that every first call waits for. */
const ANNOUNCE_TIMEOUT_MS = 10_000;

/** The moment an attempt in flight is cut off, and the limit that sets it. */
interface AttemptBound {
  at: number;
  by: "deadline" | "budget" | "unlock window";
}

/** A call's deadline and signal, resolved. */
interface ResolvedCall {
  startedAt: number;
  deadlineMs: number;
  deadlineAt: number;
  signal: AbortSignal | undefined;
}

const PACKAGE = readPackage();
/** `User-Agent` header the client sends: the package name and version and the Node.js version. */
export const USER_AGENT = `${PACKAGE.name}/${PACKAGE.version} (node ${process.version})`;

/** Sends the requests of every API area of one client: pacing, deadline, retries, typed errors. */
export class Transport {
  readonly baseUrl: string;
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimited: 0 };
  readonly #token: string;
  /** This token at this service, for the refusals remembered (see refused-tokens.ts). */
  readonly #refusalKey: string;
  readonly #http: AxiosInstance;
  readonly #retry: ResolvedRetryOptions;
  readonly #options: TransportOptions;
  #limiter: RateLimiter | undefined;
  /** False when the caller fixed the limit: announcements are then ignored. */
  readonly #followsAnnouncements: boolean;
  #localLimiter: Promise<RateLimiter> | undefined;

  constructor(settings: Settings, options: TransportOptions = {}) {
    this.baseUrl = settings.baseUrl;
    this.#token = settings.token;
    this.#refusalKey = refusalKey(settings.baseUrl, settings.token);
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...stripUndefined(options.retry ?? {}) };
    this.#followsAnnouncements = typeof options.rateLimit !== "object";
    this.#http = axios.create({
      timeout: options.timeoutMs ?? 30_000,
      // Redirects could carry the Authorization header elsewhere; the API never redirects.
      maxRedirects: 0,
      validateStatus: () => true,
      responseType: "json",
      transitional: { silentJSONParsing: true, forcedJSONParsing: true, clarifyTimeoutError: true },
    });
  }

  /** Sends `spec` and returns the successful response; throws a typed error otherwise. */
  async request(spec: RequestSpec): Promise<RawResponse> {
    const url = this.baseUrl + spec.path + queryString(spec.query);
    const call = this.callOf();
    // The retry budget starts at the first send: time queued behind the pacing of other
    // calls (hundreds at once in a large update) is not a reason to give up. The call's
    // deadline counts from the start of the call and bounds everything.
    let started = 0;
    let attempt = 0;
    let outcomeUnknown = false;
    /** An unlock answered 503: the unlock window now bounds it (see {@link RetryOptions.unlockRetryMs}). */
    let settlingUnlock = false;
    let last: AxiosResponse | undefined;
    const notSent = (status = 0): ErrorContext => ({
      method: spec.method,
      path: spec.path,
      status,
      errors: last ? this.errorObjects(last) : undefined,
      attempts: attempt - 1,
      elapsedMs: Date.now() - call.startedAt,
    });
    for (;;) {
      attempt++;
      // After a 401 no request with this token can succeed: none is sent.
      const refused = refusalOf(this.#refusalKey);
      if (refused) {
        const ago = `${Math.round((Date.now() - refused.at) / 1000)}s ago`;
        throw this.scrub(
          new UnauthorizedError({
            ...notSent(401),
            errors: refused.errors,
            gaveUp: `not sent: the service refused this token ${ago} (401), and no request with it can succeed`,
          }),
        );
      }
      const limiter = await this.limiterWithin(call, notSent);
      if (limiter) {
        try {
          await limiter.acquire(call.deadlineAt, call.signal);
        } catch (err) {
          if (!(err instanceof PacingRefused)) throw err;
          if (err.reason === "aborted")
            throw this.scrub(new AbortedError(notSent(), "while waiting for a pacing slot"));
          if (err.reason === "deadline")
            throw this.scrub(new DeadlineExceededError(notSent(), call.deadlineMs, "while waiting for a pacing slot"));
          const retryAt = new Date(err.retryAt!);
          throw this.scrub(
            new RateLimitedError(
              {
                ...notSent(last?.status),
                gaveUp: `the service asked for a pause until ${retryAt.toISOString()}, past this call's deadline`,
              },
              retryAt,
              `rate limited: retry after ${retryAt.toISOString()}`,
            ),
          );
        }
      }
      const sentAt = Date.now();
      if (call.signal?.aborted) throw this.scrub(new AbortedError(notSent(), "before the request was sent"));
      if (sentAt >= call.deadlineAt)
        throw this.scrub(new DeadlineExceededError(notSent(), call.deadlineMs, "before the request was sent"));
      if (attempt === 1) started = sentAt;
      let response: AxiosResponse | undefined;
      let networkCode: string | undefined;
      // One controller per attempt: the call's deadline, the request's retry budget (and an
      // unlock's window), or the caller's signal cancels the request, however the answer
      // arrives: a trickle resets the idle timeout (`timeoutMs`) with every byte.
      const cancel = new AbortController();
      const bound = this.attemptBound(call, started, settlingUnlock);
      let cutBy: AttemptBound["by"] | undefined;
      const timer = setTimeout(
        () => {
          cutBy = bound.by;
          cancel.abort();
        },
        Math.max(0, bound.at - sentAt),
      );
      const onAbort = () => cancel.abort();
      call.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        this.stats.requests++;
        response = await this.#http.request({
          method: spec.method,
          url,
          data: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          headers: this.headers(),
          signal: cancel.signal,
        });
      } catch (err) {
        networkCode = transportCode(err);
      } finally {
        clearTimeout(timer);
        call.signal?.removeEventListener("abort", onAbort);
      }
      if (!response && (cancel.signal.aborted || Date.now() >= call.deadlineAt)) {
        const ctx: ErrorContext = {
          method: spec.method,
          path: spec.path,
          status: 0,
          attempts: attempt,
          elapsedMs: Date.now() - call.startedAt,
        };
        this.log(`${spec.method} ${spec.path} -> cut off after ${Date.now() - sentAt}ms (attempt ${attempt})`);
        if (call.signal?.aborted) throw this.scrub(new AbortedError(ctx, "while the answer was awaited"));
        if (cutBy === "deadline" || cutBy === undefined)
          throw this.scrub(new DeadlineExceededError(ctx, call.deadlineMs, "before the answer was complete"));
        if (cutBy === "unlock window" && last) {
          // The attempt that ran past the window proves nothing new: the last answer was the state still settling.
          const settled = last;
          const gaveUp = `gave up: the state was still not finalized at the end of the ${this.#retry.unlockRetryMs}ms unlock window; the attempt in flight was cut off`;
          const lastCtx = {
            ...ctx,
            status: settled.status,
            errors: this.errorObjects(settled),
            elapsedMs: Date.now() - started,
            gaveUp,
          };
          throw this.scrub(errorForStatus(lastCtx, () => conflictReason(spec.conflict ?? "other", settled)));
        }
        // The request's own time is up: no attempt is left to make.
        const budget =
          cutBy === "budget"
            ? `${this.#retry.maxElapsedMs}ms retry budget (retry.maxElapsedMs)`
            : `${this.#retry.unlockRetryMs}ms unlock window (retry.unlockRetryMs)`;
        throw this.scrub(
          new NetworkError(
            {
              ...ctx,
              elapsedMs: Date.now() - started,
              gaveUp: `gave up: the answer was still arriving when the ${budget} ran out`,
            },
            "ETIMEDOUT",
            "cut off (ETIMEDOUT)",
          ),
        );
      }
      last = response;
      const elapsed = Date.now() - started;
      if (response && limiter && this.#followsAnnouncements) limiter.follow(announcedLimit(response.headers));

      if (response && response.status === 404 && spec.goneMeansDone && outcomeUnknown) {
        // An earlier attempt whose answer was lost did the deletion.
        this.log(
          `${spec.method} ${spec.path} -> 404 after an attempt with no answer: already deleted (attempt ${attempt})`,
        );
        return { status: 204, data: undefined, headers: response.headers };
      }
      // A redirect is not followed (it could carry the Authorization header elsewhere) and is reported as an error below.
      if (response && response.status < 300) {
        this.log(`${spec.method} ${spec.path} -> ${response.status} in ${Date.now() - sentAt}ms (attempt ${attempt})`);
        return { status: response.status, data: response.data, headers: response.headers };
      }

      const ctx = (gaveUp?: string): ErrorContext => ({
        method: spec.method,
        path: spec.path,
        status: response?.status ?? 0,
        errors: response ? this.errorObjects(response) : undefined,
        attempts: attempt,
        elapsedMs: Date.now() - started,
        gaveUp,
      });
      let wait: number | undefined;
      let why = "";
      let settling = false;
      let retryAt: Date | undefined;
      const fail = (gaveUp?: string): ApiError => {
        if (!response) return new NetworkError(ctx(gaveUp), networkCode!);
        if (response.status === 429) return new RateLimitedError(ctx(gaveUp), retryAt);
        return errorForStatus(ctx(gaveUp), () => conflictReason(spec.conflict ?? "other", response));
      };
      if (response) {
        const status = response.status;
        this.log(`${spec.method} ${spec.path} -> ${status} in ${Date.now() - sentAt}ms (attempt ${attempt})`);
        if (status === 401) rememberRefusal(this.#refusalKey, this.errorObjects(response));
        if (status === 429 && refusesInvalidToken(this.errorObjects(response))) {
          // Waiting would not make the token valid, and every wait would renew the throttle.
          this.stats.rateLimited++;
          throw this.scrub(
            new UnauthorizedError(
              ctx(
                "not waited on: the service holds back requests with an invalid token, and this token is one of them",
              ),
            ),
          );
        }
        if (status === 429) {
          this.stats.rateLimited++;
          const asked = rateLimitWait(response.headers);
          // A little jitter after the reset keeps concurrent callers from arriving together.
          wait = asked ? asked.ms + Math.round(Math.random() * 50) : backoffDelay(attempt, this.#retry);
          why = asked ? asked.source : "backoff";
          if (asked) {
            retryAt = new Date(Date.now() + asked.ms);
            // Other calls hold back too; each of them only as long as its own deadline allows.
            if (limiter) limiter.pauseUntil(retryAt.getTime());
          }
        } else if (spec.repeat === "unlock" && status === 503) {
          // The state is still being finalized: the unlock window bounds these retries, not the attempt count.
          wait = backoffDelay(attempt, this.#retry);
          why = "backoff";
          settling = true;
          settlingUnlock = true;
          if (elapsed + wait > this.#retry.unlockRetryMs) {
            throw this.scrub(
              fail(
                `gave up: the state was still not finalized at the end of the ${this.#retry.unlockRetryMs}ms unlock window`,
              ),
            );
          }
        } else if (mayRetryStatus(spec.repeat, status, elapsed, this.#retry)) {
          const asked =
            status === 503
              ? rateLimitWait({ "retry-after": (response.headers as Record<string, unknown>)["retry-after"] })
              : undefined;
          wait = asked ? Math.min(asked.ms, this.#retry.maxDelayMs) : backoffDelay(attempt, this.#retry);
          why = asked ? asked.source : "backoff";
        } else {
          const retriable = status >= 500 && status !== 501;
          throw this.scrub(fail(retriable ? notRepeatedNote(spec) : undefined));
        }
      } else {
        this.log(
          `${spec.method} ${spec.path} -> no response (${networkCode}) after ${Date.now() - sentAt}ms (attempt ${attempt})`,
        );
        if (!mayRetryNetwork(spec.repeat, networkCode!)) throw this.scrub(fail(notRepeatedNote(spec)));
        wait = backoffDelay(attempt, this.#retry);
        why = "backoff";
      }

      const budgetLeft = this.#retry.maxElapsedMs - (Date.now() - started);
      const deadlineLeft = call.deadlineAt - Date.now();
      const outOfAttempts = attempt >= this.#retry.maxAttempts && !settling;
      if (outOfAttempts || wait > budgetLeft || wait > deadlineLeft) {
        const reason = outOfAttempts
          ? `gave up after the maximum of ${this.#retry.maxAttempts} attempts`
          : wait > budgetLeft
            ? `gave up: waiting ${wait}ms more would exceed the ${this.#retry.maxElapsedMs}ms budget`
            : `gave up: waiting ${wait}ms more would pass this call's deadline of ${call.deadlineMs}ms`;
        throw this.scrub(fail(retryAt ? `${reason}; retry after ${retryAt.toISOString()}` : reason));
      }
      if (!response || response.status >= 500) outcomeUnknown = true;
      this.stats.retries++;
      this.log(`${spec.method} ${spec.path}: retrying in ${wait}ms (${why})`);
      if (!(await sleep(wait, call.signal))) {
        throw this.scrub(new AbortedError({ ...ctx(), status: response?.status ?? 0 }, "while waiting to retry"));
      }
    }
  }

  /**
   * When an attempt sent now must end, and which limit says so: the call's deadline, the
   * retry budget counted from the request's first send, and for an unlock that met a 503,
   * its unlock window.
   */
  private attemptBound(call: ResolvedCall, firstSentAt: number, settlingUnlock: boolean): AttemptBound {
    let bound: AttemptBound = { at: call.deadlineAt, by: "deadline" };
    const budgetAt = firstSentAt + this.#retry.maxElapsedMs;
    if (budgetAt < bound.at) bound = { at: budgetAt, by: "budget" };
    const windowAt = firstSentAt + this.#retry.unlockRetryMs;
    if (settlingUnlock && windowAt < bound.at) bound = { at: windowAt, by: "unlock window" };
    return bound;
  }

  /** The deadline and signal of the call being made (see {@link runInCall}), with the client's defaults. */
  private callOf(): ResolvedCall {
    const scope = currentCall();
    const startedAt = scope?.startedAt ?? Date.now();
    const deadlineMs = scope?.options.deadlineMs ?? this.#options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const signals = [this.#options.signal, scope?.options.signal].filter((s): s is AbortSignal => s !== undefined);
    return {
      startedAt,
      deadlineMs,
      deadlineAt: startedAt + deadlineMs,
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    };
  }

  /** Sends `spec` and parses the body with `schema`; a shape mismatch names each path. */
  async requestParsed<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.infer<S>> {
    const started = Date.now();
    const res = await this.request(spec);
    return this.parseResponse(spec, res, schema, started);
  }

  /** Parses the body of a successful answer to `spec` with `schema`; a shape mismatch is an UnexpectedResponseError naming each path. */
  parseResponse<S extends z.ZodType>(spec: RequestSpec, res: RawResponse, schema: S, started = Date.now()): z.infer<S> {
    const result = schema.safeParse(res.data);
    if (result.success) return result.data;
    throw this.scrub(
      new UnexpectedResponseError(
        { method: spec.method, path: spec.path, status: res.status, attempts: 1, elapsedMs: Date.now() - started },
        result.error.issues.map((i) => ({ path: toPointer(i.path) || "/", message: i.message })),
      ),
    );
  }

  /** `GET /ping` without pacing; returns the raw answer (used for the limit announcement). */
  async ping(): Promise<RawResponse> {
    const res = await this.request({ method: "GET", path: "/ping", repeat: "idempotent" });
    return res;
  }

  /** The limiter, waiting for the rate-limit announcement no longer than the call may. */
  private async limiterWithin(call: ResolvedCall, ctx: () => ErrorContext): Promise<RateLimiter | undefined> {
    if (this.#limiter || this.#options.rateLimit === false) return this.#limiter;
    const outcome = await settleWithin(this.limiter(), call);
    if (outcome === "aborted")
      throw this.scrub(new AbortedError(ctx(), "while waiting for the rate-limit announcement"));
    if (outcome === "deadline")
      throw this.scrub(
        new DeadlineExceededError(ctx(), call.deadlineMs, "while waiting for the rate-limit announcement"),
      );
    return outcome.value;
  }

  private async limiter(): Promise<RateLimiter | undefined> {
    const setting = this.#options.rateLimit ?? true;
    if (setting === false) return undefined;
    if (this.#limiter) return this.#limiter;
    if (typeof setting === "object") {
      // A fixed limit: private to this client, no announcement needed.
      this.#localLimiter ??= limiterFor(`${this.baseUrl}#fixed:${setting.requestsPerSecond}`, () =>
        Promise.resolve(setting.requestsPerSecond),
      );
      this.#limiter = await this.#localLimiter;
      return this.#limiter;
    }
    this.#limiter = await limiterFor(this.baseUrl, () => this.announce());
    return this.#limiter;
  }

  /** One unpaced `GET /ping` to learn the announced limit. */
  private async announce(): Promise<number | undefined> {
    this.stats.requests++;
    let res: AxiosResponse;
    try {
      res = await this.#http.request({
        method: "GET",
        url: this.baseUrl + "/ping",
        headers: this.headers(),
        signal: AbortSignal.timeout(ANNOUNCE_TIMEOUT_MS),
      });
    } catch (err) {
      this.log(`GET /ping -> no response (${transportCode(err)}); no pacing until an answer announces a limit`);
      return undefined;
    }
    const limit = announcedLimit(res.headers);
    this.log(`GET /ping -> ${res.status} (rate limit announcement: ${limit ?? "none"})`);
    return limit;
  }

  /** The spec asks for the media type on every request, bodiless ones included. */
  private headers(): Record<string, string> {
    return {
      Accept: JSONAPI_MEDIA_TYPE,
      "Content-Type": JSONAPI_MEDIA_TYPE,
      Authorization: `Bearer ${this.#token}`,
      "User-Agent": this.#options.userAgent ? `${USER_AGENT} ${this.#options.userAgent}` : USER_AGENT,
    };
  }

  /** The service's error objects, with anything that echoes the token removed before a message is built from them. */
  private errorObjects(response: AxiosResponse): ErrorObject[] {
    const parsed = errorDocumentSchema.safeParse(response.data);
    const raw: ErrorObject[] = parsed.success
      ? parsed.data.errors
      : [
          {
            status: String(response.status),
            title: response.statusText || undefined,
            detail: typeof response.data === "string" ? response.data || undefined : undefined,
          },
        ];
    return raw.map((e) => JSON.parse(this.redact(JSON.stringify(e))) as ErrorObject);
  }

  /** Last line of defence: no message, stack or field of an error carries the token. */
  private scrub<E extends ApiError>(err: E): E {
    const writable = err as unknown as { message: string; stack?: string; detail: string; path: string };
    writable.message = this.redact(writable.message);
    if (writable.stack) writable.stack = this.redact(writable.stack);
    writable.detail = this.redact(writable.detail);
    writable.path = this.redact(writable.path);
    return err;
  }

  private redact(text: string): string {
    const token = this.#token;
    return token.length >= 4 && text.includes(token) ? text.split(token).join("[redacted]") : text;
  }

  private log(line: string): void {
    const logger =
      this.#options.logger ?? (process.env.WORKSPACES_LOG ? (l: string) => process.stderr.write(l + "\n") : undefined);
    if (logger) logger("workspaces-client: " + this.redact(line));
  }
}

/** Joins path segments, percent-encoding each. */
export function urlPath(...segments: string[]): string {
  return "/" + segments.map((s) => encodeURIComponent(s)).join("/");
}

/** Builds `?k=v&...` with brackets percent-encoded, as the spec asks. */
function queryString(query: Record<string, string | number | boolean | undefined> | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? "?" + parts.join("&") : "";
}

function notRepeatedNote(spec: RequestSpec): string | undefined {
  return spec.repeat === "idempotent" ? undefined : "not repeated: the request may already have taken effect";
}

/** Reads a 409's reason from the error objects' `code` when present, else from the operation and its detail. */
function conflictReason(context: ConflictContext, response: AxiosResponse): ConflictReason {
  const parsed = errorDocumentSchema.safeParse(response.data);
  const errors = parsed.success ? parsed.data.errors : [];
  const known: ConflictReason[] = [
    "already-locked",
    "not-locked",
    "locked-by-another-user",
    "managing-resources",
    "locked",
    "still-processing",
    "already-exists",
  ];
  for (const e of errors) {
    const code = (e.code ?? "").replace(/_/g, "-").toLowerCase();
    if ((known as string[]).includes(code)) return code as ConflictReason;
  }
  const text = errors
    .map((e) => `${e.title ?? ""} ${e.detail ?? ""}`)
    .join(" ")
    .toLowerCase();
  // A safe delete refused because a lock is held (the workspace may be writing state).
  if (context === "safe-delete" && /currently locked|must be unlocked|\bis locked\b/.test(text)) return "locked";
  if (/another user|different user|locked by (user|run|team)|held by/.test(text)) return "locked-by-another-user";
  if (/already locked/.test(text)) return "already-locked";
  if (/not locked|already unlocked|is unlocked/.test(text)) return "not-locked";
  if (/processing|in progress|pending/.test(text)) return "still-processing";
  if (/\bmanag(ing|es)\b.*\bresources?\b|has resources/.test(text)) return "managing-resources";
  if (/already (exists|been taken|taken)|has already been taken/.test(text)) return "already-exists";
  switch (context) {
    case "lock":
      return "already-locked";
    case "unlock":
    case "force-unlock":
      return "not-locked";
    case "safe-delete":
      return "managing-resources";
    case "create":
      return "already-exists";
    default:
      return "unknown";
  }
}

/** Whether a 429's error objects say that it throttles requests with an invalid token (not the token's own rate). */
function refusesInvalidToken(errors: ErrorObject[]): boolean {
  return errors.some((e) => /\binvalid (api )?token\b/i.test(`${e.title ?? ""} ${e.detail ?? ""}`));
}

/** Waits for `promise` until the call's deadline or signal ends the wait. */
async function settleWithin<T>(
  promise: Promise<T>,
  call: ResolvedCall,
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

function transportCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === "string" && e.code !== "ERR_NETWORK") return e.code;
  if (typeof e?.cause?.code === "string") return e.cause.code;
  return typeof e?.code === "string" ? e.code : "ERR_NETWORK";
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function readPackage(): { name: string; version: string } {
  // src/client and dist/client both sit two levels below the package root.
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
      name?: unknown;
      version?: unknown;
    };
    return { name: String(pkg.name), version: String(pkg.version) };
  } catch {
    return { name: "pulumi-workspaces", version: "0.0.0" };
  }
}
