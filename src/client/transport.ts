/**
 * One HTTP exchange with retries, pacing, a timeout, and typed errors. Every API area
 * goes through {@link Transport.request}; nothing else talks to axios.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import axios, { AxiosInstance, AxiosResponse } from "axios";
import type { z } from "zod";
import { JSONAPI_MEDIA_TYPE, errorDocumentSchema, toPointer, type ErrorObject } from "../api/common";
import {
  ApiError,
  ConflictReason,
  ErrorContext,
  HttpMethod,
  NetworkError,
  UnexpectedResponseError,
  errorForStatus,
} from "./errors";
import { RateLimiter, limiterFor, sleep } from "./limiter";
import {
  DEFAULT_RETRY,
  Repeatability,
  ResolvedRetryOptions,
  RetryOptions,
  announcedLimit,
  backoffDelay,
  mayRetryNetwork,
  mayRetryStatus,
  rateLimitWait,
} from "./retry";
import type { Settings } from "./settings";

/** Names the operation so that a 409 can be given its reason. */
export type ConflictContext = "lock" | "unlock" | "force-unlock" | "safe-delete" | "create" | "other";

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

export interface RawResponse {
  status: number;
  data: unknown;
  headers: Record<string, unknown>;
}

export interface TransportOptions {
  /** Per-request timeout in milliseconds. Default 30 000. */
  timeoutMs?: number;
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

const PACKAGE = readPackage();
export const USER_AGENT = `${PACKAGE.name}/${PACKAGE.version} (node ${process.version})`;

export class Transport {
  readonly baseUrl: string;
  readonly stats: TransportStats = { requests: 0, retries: 0, rateLimited: 0 };
  readonly #token: string;
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
    // The retry budget starts at the first send: time queued behind the pacing of other
    // calls (hundreds at once in a large update) is not a reason to give up.
    let started = 0;
    let attempt = 0;
    let outcomeUnknown = false;
    for (;;) {
      attempt++;
      const limiter = await this.limiter();
      if (limiter) await limiter.acquire();
      const sentAt = Date.now();
      if (attempt === 1) started = sentAt;
      let response: AxiosResponse | undefined;
      let networkCode: string | undefined;
      try {
        this.stats.requests++;
        response = await this.#http.request({
          method: spec.method,
          url,
          data: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          headers: this.headers(),
        });
      } catch (err) {
        networkCode = transportCode(err);
      }
      const elapsed = Date.now() - started;
      if (response && limiter && this.#followsAnnouncements) limiter.follow(announcedLimit(response.headers as Record<string, unknown>));

      if (response && response.status === 404 && spec.goneMeansDone && outcomeUnknown) {
        // An earlier attempt whose answer was lost did the deletion.
        this.log(`${spec.method} ${spec.path} -> 404 after an attempt with no answer: already deleted (attempt ${attempt})`);
        return { status: 204, data: undefined, headers: response.headers as Record<string, unknown> };
      }
      // A redirect is not followed (it could carry the Authorization header elsewhere) and is reported as an error below.
      if (response && response.status < 300) {
        this.log(`${spec.method} ${spec.path} -> ${response.status} in ${Date.now() - sentAt}ms (attempt ${attempt})`);
        return { status: response.status, data: response.data, headers: response.headers as Record<string, unknown> };
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
      if (response) {
        const status = response.status;
        this.log(`${spec.method} ${spec.path} -> ${status} in ${Date.now() - sentAt}ms (attempt ${attempt})`);
        if (status === 429) {
          this.stats.rateLimited++;
          const asked = rateLimitWait(response.headers as Record<string, unknown>);
          // A little jitter after the reset keeps concurrent callers from arriving together.
          wait = asked ? asked.ms + Math.round(Math.random() * 50) : backoffDelay(attempt, this.#retry);
          why = asked ? asked.source : "backoff";
          if (asked && limiter) limiter.pauseUntil(Date.now() + asked.ms);
        } else if (spec.repeat === "unlock" && status === 503) {
          // The state is still being finalized: the unlock window bounds these retries, not the attempt count.
          wait = backoffDelay(attempt, this.#retry);
          why = "backoff";
          settling = true;
          if (elapsed + wait > this.#retry.unlockRetryMs) {
            throw this.scrub(
              errorForStatus(ctx(`gave up: the state was still not finalized at the end of the ${this.#retry.unlockRetryMs}ms unlock window`), () => "unknown"),
            );
          }
        } else if (mayRetryStatus(spec.repeat, status, elapsed, this.#retry)) {
          const asked = status === 503 ? rateLimitWait({ "retry-after": (response.headers as Record<string, unknown>)["retry-after"] }) : undefined;
          wait = asked ? Math.min(asked.ms, this.#retry.maxDelayMs) : backoffDelay(attempt, this.#retry);
          why = asked ? asked.source : "backoff";
        } else {
          const retriable = status >= 500 && status !== 501;
          throw this.scrub(
            errorForStatus(ctx(retriable ? notRepeatedNote(spec) : undefined), () => conflictReason(spec.conflict ?? "other", response!)),
          );
        }
      } else {
        this.log(`${spec.method} ${spec.path} -> no response (${networkCode}) after ${Date.now() - sentAt}ms (attempt ${attempt})`);
        if (!mayRetryNetwork(spec.repeat, networkCode!)) {
          throw this.scrub(new NetworkError(ctx(notRepeatedNote(spec)), networkCode!));
        }
        wait = backoffDelay(attempt, this.#retry);
        why = "backoff";
      }

      const budgetLeft = this.#retry.maxElapsedMs - (Date.now() - started);
      const outOfAttempts = attempt >= this.#retry.maxAttempts && !settling;
      if (outOfAttempts || wait > budgetLeft) {
        const reason =
          outOfAttempts
            ? `gave up after the maximum of ${this.#retry.maxAttempts} attempts`
            : `gave up: waiting ${wait}ms more would exceed the ${this.#retry.maxElapsedMs}ms budget`;
        if (response) {
          throw this.scrub(errorForStatus(ctx(reason), () => conflictReason(spec.conflict ?? "other", response!)));
        }
        throw this.scrub(new NetworkError(ctx(reason), networkCode!));
      }
      if (!response || response.status >= 500) outcomeUnknown = true;
      this.stats.retries++;
      this.log(`${spec.method} ${spec.path}: retrying in ${wait}ms (${why})`);
      await sleep(wait);
    }
  }

  /** Sends `spec` and parses the body with `schema`; a shape mismatch names each path. */
  async requestParsed<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.infer<S>> {
    const started = Date.now();
    const res = await this.request(spec);
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

  private async limiter(): Promise<RateLimiter | undefined> {
    const setting = this.#options.rateLimit ?? true;
    if (setting === false) return undefined;
    if (this.#limiter) return this.#limiter;
    if (typeof setting === "object") {
      // A fixed limit: private to this client, no announcement needed.
      this.#localLimiter ??= limiterFor(`${this.baseUrl}#fixed:${setting.requestsPerSecond}`, async () => setting.requestsPerSecond);
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
      res = await this.#http.request({ method: "GET", url: this.baseUrl + "/ping", headers: this.headers() });
    } catch (err) {
      this.log(`GET /ping -> no response (${transportCode(err)}); pacing at the default until an answer announces the limit`);
      return undefined;
    }
    const limit = announcedLimit(res.headers as Record<string, unknown>);
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
      : [{ status: String(response.status), title: response.statusText || undefined, detail: typeof response.data === "string" ? response.data.slice(0, 200) || undefined : undefined }];
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
    const logger = this.#options.logger ?? (process.env.WORKSPACES_LOG ? (l: string) => process.stderr.write(l + "\n") : undefined);
    if (logger) logger("workspaces-client: " + this.redact(line));
  }
}

/** Joins path segments, percent-encoding each. */
export function urlPath(...segments: string[]): string {
  return "/" + segments.map((s) => encodeURIComponent(s)).join("/");
}

/** Builds `?k=v&...` with brackets percent-encoded, as the spec asks. */
export function queryString(query: Record<string, string | number | boolean | undefined> | undefined): string {
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
  const known: ConflictReason[] = ["already-locked", "not-locked", "locked-by-another-user", "managing-resources", "still-processing", "already-exists"];
  for (const e of errors) {
    const code = (e.code ?? "").replace(/_/g, "-").toLowerCase();
    if ((known as string[]).includes(code)) return code as ConflictReason;
  }
  const text = errors.map((e) => `${e.title ?? ""} ${e.detail ?? ""}`).join(" ").toLowerCase();
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
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
    return { name: String(pkg.name), version: String(pkg.version) };
  } catch {
    return { name: "pulumi-workspaces", version: "0.0.0" };
  }
}
