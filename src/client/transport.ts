/**
 * One HTTP exchange with retries, pacing, a timeout, and typed errors. Every API area
 * goes through {@link Transport.request}; nothing else talks to axios.
 */
import axios, { type AxiosInstance } from "axios";
import type { z } from "zod";
import { toPointer } from "../api/common";
import {
  type AttemptBound,
  type Retry,
  type Verdict,
  attemptBound,
  classify,
  decideRetry,
  settleWithin,
  transportCode,
} from "./attempt-verdict";
import { type CallBounds, callBounds, currentCall } from "./call-scope";
import {
  AbortedError,
  type ApiError,
  DeadlineExceededError,
  type ErrorContext,
  RateLimitedError,
  UnauthorizedError,
  UnexpectedResponseError,
} from "./typed-errors";
import { errorObjectsOf, redactToken } from "./error-objects";
import { type Received, cutOffError, failureError } from "./request-errors";
import { PacingRefused, type RateLimiter, sleep } from "./limiter";
import { Pacing } from "./pacing";
import { refusalKey, refusalOf, rememberRefusal } from "./refused-tokens";
import {
  type RawResponse,
  type RequestSpec,
  type TransportOptions,
  type TransportStats,
  answerData,
  requestHeaders,
  requestUrl,
  wireOf,
} from "./request-spec";
import { DEFAULT_RETRY, type ResolvedRetryOptions } from "./retry";
import type { Settings } from "./connection-settings";

/** What the API areas build their requests from. */
export { urlPath } from "./request-spec";
export type { RawResponse, RequestSpec } from "./request-spec";

/** A request in progress: the call it belongs to and what its attempts have met so far. */
interface Run {
  spec: RequestSpec;
  url: string;
  /** The call's deadline and signal, resolved when the request started. */
  call: CallBounds;
  /** Attempts made, the current one included. */
  attempt: number;
  /** First send; the retry budget and an unlock's window count from it. */
  firstSentAt: number;
  /** An earlier attempt had no answer (5xx, dropped connection): it may have taken effect. */
  outcomeUnknown: boolean;
  /** An unlock answered 503: the unlock window now bounds it (`retry.unlockRetryMs`). */
  settlingUnlock: boolean;
  /** The answer of the latest attempt; undefined when it had none. */
  last: Received | undefined;
}

/** What an attempt brought back, or that it was cut off in flight. */
type Sent = Answered | { cut: { by: AttemptBound["by"] | undefined; callElapsedMs: number; requestElapsedMs: number } };

/** An attempt that was not cut off: its answer, or the transport error that ended it. */
type Answered = { received: Received } | { networkCode: string };

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
  readonly #pacing: Pacing;

  constructor(settings: Settings, options: TransportOptions = {}) {
    this.baseUrl = settings.baseUrl;
    this.#token = settings.token;
    this.#refusalKey = refusalKey(settings.baseUrl, settings.token);
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...stripUndefined(options.retry ?? {}) };
    this.#http = axios.create({
      timeout: options.timeoutMs ?? 30_000,
      // Redirects could carry the Authorization header elsewhere; the API never redirects.
      maxRedirects: 0,
      validateStatus: () => true,
      responseType: "json",
      transitional: { silentJSONParsing: true, forcedJSONParsing: true, clarifyTimeoutError: true },
    });
    this.#pacing = new Pacing(this.baseUrl, options.rateLimit, {
      http: this.#http,
      headers: () => this.headers(),
      log: (line) => this.log(line),
      sent: () => this.stats.requests++,
    });
  }

  /**
   * Sends `spec` and returns the successful response; throws a typed error otherwise.
   * Each attempt: check the token was not refused, pace, send, classify the outcome, then
   * return, fail, or wait and try again. The call's deadline and signal are resolved once,
   * here, and handed to each step as a value.
   */
  async request(spec: RequestSpec): Promise<RawResponse> {
    const run: Run = {
      spec,
      url: requestUrl(this.baseUrl, spec),
      call: this.callOf(),
      attempt: 0,
      firstSentAt: 0,
      outcomeUnknown: false,
      settlingUnlock: false,
      last: undefined,
    };
    for (;;) {
      run.attempt++;
      this.refuseRefusedToken(run);
      const paced = await this.pace(run);
      const limiter = paced?.limiter;
      const sentAt = this.beforeSend(run);
      const sent = await this.send(run, sentAt);
      if ("cut" in sent) {
        this.log(`${spec.method} ${spec.path} -> cut off after ${Date.now() - sentAt}ms (attempt ${run.attempt})`);
        const cut = { ...sent.cut, attempts: run.attempt, last: run.last };
        throw this.scrub(cutOffError(spec, run.call, cut, this.#retry));
      }
      run.last = "received" in sent ? sent.received : undefined;
      if (run.last && paced) this.#pacing.follow(paced.limiter, paced.slot, run.last.headers);

      const verdict = classify("received" in sent ? { answer: sent.received } : sent, {
        repeat: spec.repeat,
        goneMeansDone: spec.goneMeansDone ?? false,
        attempt: run.attempt,
        elapsedMs: Date.now() - run.firstSentAt,
        outcomeUnknown: run.outcomeUnknown,
        retry: this.#retry,
        now: Date.now(),
        random: Math.random,
      });
      this.logAttempt(run, sent, verdict, sentAt);
      if (verdict.kind === "success") {
        const { status, data, headers } = run.last!;
        return verdict.alreadyDone ? { status: 204, data: undefined, headers } : { status, data, headers };
      }
      if (run.last?.status === 401) rememberRefusal(this.#refusalKey, run.last.errors);
      if (run.last?.status === 429) {
        this.stats.rateLimited++;
        limiter?.rateLimited();
      }
      // Other calls hold back too; each of them only as long as its own deadline allows.
      if (verdict.kind === "retry" && verdict.retryAt && limiter) limiter.pauseUntil(verdict.retryAt.getTime());
      const decided =
        verdict.kind === "retry"
          ? decideRetry(verdict, {
              attempt: run.attempt,
              budgetLeftMs: this.#retry.maxElapsedMs - (Date.now() - run.firstSentAt),
              deadlineLeftMs: run.call.deadlineAt - Date.now(),
              deadlineMs: run.call.deadlineMs,
              retry: this.#retry,
            })
          : verdict;
      if (decided.kind === "fail") {
        throw this.scrub(failureError(spec, sent, decided, run.attempt, Date.now() - run.firstSentAt));
      }
      await this.waitToRetry(run, decided);
    }
  }

  /** After a 401 no request with this token can succeed: none is sent. */
  private refuseRefusedToken(run: Run): void {
    const refused = refusalOf(this.#refusalKey);
    if (!refused) return;
    const ago = `${Math.round((Date.now() - refused.at) / 1000)}s ago`;
    throw this.scrub(
      new UnauthorizedError({
        ...this.notSent(run, 401),
        errors: refused.errors,
        gaveUp: `not sent: the service refused this token ${ago} (401), and no request with it can succeed`,
      }),
    );
  }

  /** Waits for a pacing slot (on the first request, the limit's announcement too) within the deadline; the limiter and slot. */
  private async pace(run: Run): Promise<{ limiter: RateLimiter; slot: number } | undefined> {
    const limiter = await this.limiterWithin(run);
    if (!limiter) return undefined;
    try {
      return { limiter, slot: await limiter.acquire(run.call.deadlineAt, run.call.signal) };
    } catch (err) {
      if (!(err instanceof PacingRefused)) throw err;
      if (err.reason === "aborted")
        throw this.scrub(new AbortedError(this.notSent(run), "while waiting for a pacing slot"));
      if (err.reason === "deadline")
        throw this.scrub(
          new DeadlineExceededError(this.notSent(run), run.call.deadlineMs, "while waiting for a pacing slot"),
        );
      const retryAt = new Date(err.retryAt!);
      throw this.scrub(
        new RateLimitedError(
          {
            ...this.notSent(run, run.last?.status),
            gaveUp: `the service asked for a pause until ${retryAt.toISOString()}, past this call's deadline`,
          },
          retryAt,
          `rate limited: retry after ${retryAt.toISOString()}`,
        ),
      );
    }
  }

  /** The moment of sending, unless the call was aborted or its deadline passed meanwhile. */
  private beforeSend(run: Run): number {
    const sentAt = Date.now();
    if (run.call.signal?.aborted) throw this.scrub(new AbortedError(this.notSent(run), "before the request was sent"));
    if (sentAt >= run.call.deadlineAt)
      throw this.scrub(
        new DeadlineExceededError(this.notSent(run), run.call.deadlineMs, "before the request was sent"),
      );
    // The retry budget starts at the first send: time queued behind the pacing of other
    // calls (hundreds at once in a large update) is not a reason to give up. The call's
    // deadline counts from the start of the call and bounds everything.
    if (run.attempt === 1) run.firstSentAt = sentAt;
    return sentAt;
  }

  /**
   * One attempt. One controller per attempt: the call's deadline, the request's retry
   * budget (and an unlock's window), or the caller's signal cancels the request, however
   * the answer arrives: a trickle resets the idle timeout (`timeoutMs`) with every byte.
   */
  private async send(run: Run, sentAt: number): Promise<Sent> {
    const { spec, call } = run;
    const cancel = new AbortController();
    const bound = attemptBound(call.deadlineAt, run.firstSentAt, run.settlingUnlock, this.#retry);
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
    let networkCode: string;
    try {
      this.stats.requests++;
      const response = await this.#http.request({
        method: spec.method,
        url: run.url,
        ...wireOf(spec, this.headers()),
        signal: cancel.signal,
      });
      response.data = answerData(spec, response.status, response.data);
      const failed = response.status >= 300;
      const errors = failed ? errorObjectsOf(response, (t) => this.redact(t)) : [];
      return { received: { status: response.status, headers: response.headers, errors, data: response.data } };
    } catch (err) {
      networkCode = transportCode(err);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onAbort);
    }
    if (cancel.signal.aborted || Date.now() >= call.deadlineAt) {
      const now = Date.now();
      return { cut: { by: cutBy, callElapsedMs: now - call.startedAt, requestElapsedMs: now - run.firstSentAt } };
    }
    return { networkCode };
  }

  /** One line per attempt: its answer, or why there was none. */
  private logAttempt(run: Run, sent: Answered, verdict: Verdict, sentAt: number): void {
    const { method, path } = run.spec;
    const took = Date.now() - sentAt;
    if ("networkCode" in sent) {
      this.log(`${method} ${path} -> no response (${sent.networkCode}) after ${took}ms (attempt ${run.attempt})`);
    } else if (verdict.kind === "success" && verdict.alreadyDone) {
      // An earlier attempt whose answer was lost did the deletion.
      this.log(`${method} ${path} -> 404 after an attempt with no answer: already deleted (attempt ${run.attempt})`);
    } else {
      this.log(`${method} ${path} -> ${sent.received.status} in ${took}ms (attempt ${run.attempt})`);
    }
  }

  /** Waits before the next attempt; an abort meanwhile ends the call. */
  private async waitToRetry(run: Run, retry: Retry): Promise<void> {
    if (!run.last || run.last.status >= 500) run.outcomeUnknown = true;
    if (retry.settling) run.settlingUnlock = true;
    this.stats.retries++;
    this.log(`${run.spec.method} ${run.spec.path}: retrying in ${retry.wait}ms (${retry.why})`);
    if (await sleep(retry.wait, run.call.signal)) return;
    const ctx: ErrorContext = {
      method: run.spec.method,
      path: run.spec.path,
      status: run.last?.status ?? 0,
      errors: run.last?.errors,
      attempts: run.attempt,
      elapsedMs: Date.now() - run.firstSentAt,
    };
    throw this.scrub(new AbortedError(ctx, "while waiting to retry"));
  }

  /** The context of an error raised before the current attempt was sent. */
  private notSent(run: Run, status = 0): ErrorContext {
    return {
      method: run.spec.method,
      path: run.spec.path,
      status,
      errors: run.last?.errors,
      attempts: run.attempt - 1,
      elapsedMs: Date.now() - run.call.startedAt,
    };
  }

  /** The deadline and signal of the call being made (see {@link runInCall}), with the client's defaults. */
  private callOf(): CallBounds {
    return callBounds(currentCall(), this.#options, Date.now());
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
  private async limiterWithin(run: Run): Promise<RateLimiter | undefined> {
    const settled = this.#pacing.settled;
    if (settled) return settled.limiter;
    const outcome = await settleWithin(this.#pacing.limiter(), run.call);
    if (outcome === "aborted")
      throw this.scrub(new AbortedError(this.notSent(run), "while waiting for the rate-limit announcement"));
    if (outcome === "deadline")
      throw this.scrub(
        new DeadlineExceededError(
          this.notSent(run),
          run.call.deadlineMs,
          "while waiting for the rate-limit announcement",
        ),
      );
    return outcome.value;
  }

  private headers(): Record<string, string> {
    return requestHeaders(this.#token, this.#options.userAgent);
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
    return redactToken(this.#token, text);
  }

  private log(line: string): void {
    const logger =
      this.#options.logger ?? (process.env.WORKSPACES_LOG ? (l: string) => process.stderr.write(l + "\n") : undefined);
    if (logger) logger("workspaces-client: " + this.redact(line));
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
