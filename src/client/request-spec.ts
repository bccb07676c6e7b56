/**
 * What a request is, as an API area describes it and as it goes on the wire: the spec,
 * the successful answer, the client's network options, and the URL and headers sent.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { JSONAPI_MEDIA_TYPE } from "../api/common";
import type { HttpMethod } from "./typed-errors";
import type { ConflictContext } from "./error-objects";
import type { Repeatability, RetryOptions } from "./retry";

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
  /** A body sent as it is (a policy's code, a tarball) with its own media type, instead of `body` as JSON. */
  raw?: { data: string | Buffer; contentType: string };
  /** Read the answer as text (a policy's code), not as a JSON document. */
  text?: boolean;
  /**
   * `path` is an absolute URL the service handed out (a version's `links.upload`): sent
   * there as it is, without the token, as the service's own clients do.
   */
  foreign?: boolean;
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
   * When pacing is on, the budget each answer reports (`X-RateLimit-Remaining`,
   * `X-RateLimit-Reset`) is followed too, so that several processes with one token share
   * its limit with few 429s.
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
/** `User-Agent` header the client sends: the package name and version and the Node.js version. */
export const USER_AGENT = `${PACKAGE.name}/${PACKAGE.version} (node ${process.version})`;

/** The headers of every request; the spec asks for the media type on bodiless ones too. */
export function requestHeaders(token: string, userAgent: string | undefined): Record<string, string> {
  return {
    Accept: JSONAPI_MEDIA_TYPE,
    "Content-Type": JSONAPI_MEDIA_TYPE,
    Authorization: `Bearer ${token}`,
    "User-Agent": userAgent ? `${USER_AGENT} ${userAgent}` : USER_AGENT,
  };
}

/** The URL `spec` goes to. */
export function requestUrl(baseUrl: string, spec: RequestSpec): string {
  return (spec.foreign ? spec.path : baseUrl + spec.path) + queryString(spec.query);
}

/**
 * What goes on the wire for `spec` besides its method and URL: the body, the headers (a
 * raw body's media type; no token to a foreign URL) and how the answer is read.
 */
export function wireOf(
  spec: RequestSpec,
  headers: Record<string, string>,
): { data: unknown; headers: Record<string, string>; responseType: "json" | "text" } {
  const out = { ...headers };
  if (spec.foreign) delete out.Authorization;
  if (spec.raw) out["Content-Type"] = spec.raw.contentType;
  if (spec.raw || spec.text) out.Accept = `${JSONAPI_MEDIA_TYPE}, */*`;
  const data = spec.raw ? spec.raw.data : spec.body === undefined ? undefined : JSON.stringify(spec.body);
  return { data, headers: out, responseType: spec.text ? "text" : "json" };
}

/** An answer read as text: its error document, when it failed with one, parsed as the JSON answers are. */
export function answerData(spec: RequestSpec, status: number, data: unknown): unknown {
  if (!spec.text || status < 300 || typeof data !== "string") return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
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
