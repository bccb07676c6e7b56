/**
 * How a domain plugs in: a domain is a folder (`workspace/`, `project/`, `no-code/`, ...)
 * with three rooms and an `index.ts` exporting its `Domain` (see ./context.ts), listed in
 * `DOMAINS` in ./domains.ts:
 *
 * - `service.ts`: plain functions of the domain over `ctx.db` (every mutation wrapped in
 *   `inTransaction`). No Fastify, no ./http, no JSON pointers: failures are the domain
 *   errors of ./domain-errors.ts. Other domains' data comes through their services; what they
 *   add to this domain's records comes through hooks (`ctx.hooks`).
 * - `store.ts`: all of the domain's SQL, on its own tables only. `schema` in the Domain
 *   is the DDL of its tables (later changes are numbered migrations, ./store/schema.ts).
 * - `routes.ts`: thin Fastify handlers, paths relative to /api/v2: read the caller
 *   (`requireCaller`), authorize, validate the body (`parseBody` with a zod schema from
 *   src/api), call the service, render (JSON:API renderers may sit in `render.ts`) and
 *   answer with `send`.
 *
 * `init(ctx)` registers hooks, for example a `ctx.hooks.workspaceRender` function that
 * adds attributes to every workspace document. The error handler below renders every
 * failure as a JSON:API error document: domain errors through the one table in
 * ./http/error-documents.ts, the HTTP layer's own `ApiError`s (401, 413, 415, 429, a malformed
 * query), Fastify's failures (bad JSON, wrong media type, body too large) and unknown
 * routes alike, and anything unexpected as a generic 500.
 */
import type { IncomingMessage } from "node:http";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { JSONAPI_MEDIA_TYPE } from "../api/common";
import type { Domain, ServerContext } from "./context";
import {
  ApiError,
  badRequest,
  failedAuthRefusal,
  internalError,
  notFound,
  payloadTooLarge,
  renderDomainError,
  unauthorized,
  unprocessable,
  unsupportedMediaType,
} from "./http/error-documents";
import { DomainError } from "./domain-errors";
import { API_PREFIX, foldRepeatedParameters } from "./http/jsonapi";
import { MAX_JSON_DEPTH, tooDeep, wellFormedJson } from "./http/json";
import { authenticate, isGeneratedToken } from "./auth/service/authn";
import type { Caller } from "./auth/service/caller";
import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS, RateLimiter, RATE_LIMITED_BODY } from "./ratelimit";
import { injectFault, type FaultOptions } from "./faults";
import { loggerOptions } from "./logging";
import { webView, type WebView } from "./web";

export const BODY_LIMIT = 5 * 1024 * 1024;

/**
 * A request refused before its body was read (too large, unauthenticated, wrong media
 * type) still has its body read and discarded, up to this many bytes or this long, before
 * the answer is sent and the connection closed: a client still sending when the server
 * closes sees a reset instead of the answer.
 */
const DISCARD_LIMIT = 4 * BODY_LIMIT;
const DISCARD_MS = 10_000;

function discardBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed || raw.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", done);
      raw.off("error", done);
      raw.off("close", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_LIMIT) done();
    };
    const timer = setTimeout(done, DISCARD_MS);
    timer.unref();
    raw.on("data", onData);
    raw.on("end", done);
    raw.on("error", done);
    raw.on("close", done);
    raw.resume();
  });
}

const tooLarge = () => payloadTooLarge(`The request body exceeds the limit of ${BODY_LIMIT} bytes.`);

/** Requests served, by `METHOD /route/pattern`, for benchmarks and tests. */
export interface RequestStats {
  total: number;
  /** Requests answered, by route (counted when the response is sent). */
  byRoute: Record<string, number>;
  /**
   * Requests received, by route (counted on arrival, before any injected latency or handler):
   * what a test watches to act while a request is still being served.
   */
  arrivedByRoute: Record<string, number>;
  byStatus: Record<string, number>;
  /** Requests failed on purpose by the fault injection (answered 503 or dropped before any handler ran). */
  faultsInjected: number;
  /** Time spent in the server per route (from the request's arrival to the response being sent), over its latest 2048 requests. */
  serverMs: Record<string, { p50: number; p95: number; samples: number }>;
}

const LATENCY_WINDOW = 2048;

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
}

export interface AppHandles {
  app: FastifyInstance;
  stats: () => RequestStats;
  setFaults: (faults: FaultOptions) => void;
  /** The web view, when the server serves it. */
  view: WebView | null;
}

/** Paths that need no token: the hosted service answers ping anonymously. */
const ANONYMOUS = new Set([`${API_PREFIX}/ping`]);

export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}

export function buildApp(
  ctx: ServerContext,
  domains: ReadonlyArray<Domain>,
  initialFaults: FaultOptions = {},
): AppHandles {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    ...loggerOptions(ctx.log),
    // Workspace names have no length limit, so a name of any length must reach its by-name
    // route; the router's default (100 characters) would answer 414 for a long name.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    forceCloseConnections: true,
    // Malformed URLs (bad percent-encoding) are refused by the router before any hook runs;
    // render them as JSON:API errors like every other failure.
    frameworkErrors: (error, request, reply) => {
      void discardBody(request.raw).then(() => sendError(reply, error));
    },
    // A request Node's HTTP parser cannot read never reaches Fastify; answer it with a
    // JSON:API 400 too, rather than Node's bare one.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return socket.destroy(error);
      const body = JSON.stringify({
        errors: [{ status: "400", title: "bad request", detail: "The request could not be parsed as HTTP." }],
      });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: ${JSONAPI_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
  const limiter = new RateLimiter(ctx.options.rateLimit);
  // Bounded with the request rate: a server without a rate limit (tests) has no bound either.
  const failedAuth = limiter.enabled ? new RateLimiter(FAILED_AUTH_LIMIT, Date.now, FAILED_AUTH_WINDOW_MS) : null;
  const view = ctx.options.webView ? webView(ctx, app, failedAuth) : null;
  let faults: FaultOptions = { ...initialFaults };
  const stats: Omit<RequestStats, "serverMs"> = {
    total: 0,
    byRoute: {},
    arrivedByRoute: {},
    byStatus: {},
    faultsInjected: 0,
  };
  const latencies = new Map<string, { ms: number[]; next: number }>();
  const snapshot = (): RequestStats => {
    const serverMs: RequestStats["serverMs"] = {};
    for (const [key, ring] of latencies) {
      const sorted = [...ring.ms].sort((a, b) => a - b);
      serverMs[key] = { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), samples: sorted.length };
    }
    return { ...(JSON.parse(JSON.stringify(stats)) as Omit<RequestStats, "serverMs">), serverMs };
  };

  app.decorateRequest("caller", null);
  app.decorateRequest("publicUrl", "");

  // `Expect: 100-continue` with a declared length over the limit is answered 413 at once,
  // so the client never sends the body; otherwise the client is told to continue.
  app.server.on("checkContinue", (req, res) => {
    const length = Number(req.headers["content-length"]);
    if (Number.isFinite(length) && length > BODY_LIMIT) {
      const body = JSON.stringify({ errors: tooLarge().errors });
      res.writeHead(413, {
        "content-type": JSONAPI_MEDIA_TYPE,
        "content-length": Buffer.byteLength(body),
        connection: "close",
      });
      res.end(body);
      return;
    }
    res.writeContinue();
    app.server.emit("request", req, res);
  });
  // Any other expectation is one the server cannot meet: a JSON:API 417 rather than Node's bare one.
  app.server.on("checkExpectation", (_req, res) => {
    const body = JSON.stringify({
      errors: [
        { status: "417", title: "expectation failed", detail: "Only the expectation 100-continue is supported." },
      ],
    });
    res.writeHead(417, {
      "content-type": JSONAPI_MEDIA_TYPE,
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    res.end(body);
  });

  // JSON:API bodies (and plain JSON, which some clients send) are parsed here; an empty
  // body is allowed because clients send the media type on bodiless POSTs and DELETEs.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([JSONAPI_MEDIA_TYPE, "application/json"], { parseAs: "string" }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    // A document nested past the bound is valid JSON the server refuses (422, like any
    // other body it cannot accept); text that is not JSON at all stays a 400.
    const deep = tooDeep(text, MAX_JSON_DEPTH);
    if (deep !== null) {
      if (!wellFormedJson(text)) return done(badRequest("The request body is not valid JSON."), undefined);
      return done(unprocessable(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, deep), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest("The request body is not valid JSON."), undefined);
    }
  });

  app.addHook("onRequest", async (request, reply) => {
    const route = `${request.method} ${request.routeOptions.url ?? "(unmatched)"}`;
    stats.arrivedByRoute[route] = (stats.arrivedByRoute[route] ?? 0) + 1;
    if (faults.failureRate || faults.latencyMs || faults.latencyJitterMs) {
      if (await injectFault(faults, request, reply)) {
        stats.faultsInjected++;
        return reply;
      }
    }
    request.publicUrl = ctx.publicUrl;
    const header = request.headers.authorization;
    const token = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    // Past its address's bound on failed authentications, a request is refused only for an
    // invalid token: a generated token is looked up whatever else the address sent (475
    // random bits: the bound protects nothing there), so one misconfigured client behind
    // a shared address locks out nobody. A token of any other shape may be a person's
    // guessable choice, and is refused before it is looked at, as every guess is.
    const address = `ip:${request.ip}`;
    const guessable = header !== undefined && !(token !== undefined && isGeneratedToken(token));
    if (failedAuth && guessable) {
      const standing = failedAuth.peek(address);
      if (!standing.allowed) throw failedAuthRefusal(standing.reset);
    }
    // Without an Authorization header, the web view's cookie may sign an /api/v2 read in.
    const viewed = header === undefined ? await view?.callerOf(request) : undefined;
    request.caller = token !== undefined ? await authenticate(ctx.db, token) : (viewed?.caller ?? null);
    if (failedAuth && !request.caller && header !== undefined) {
      const standing = failedAuth.peek(address);
      if (!standing.allowed) throw failedAuthRefusal(standing.reset);
    }
    const path = request.url.split("?")[0];
    // A route marked `anonymous` checks a credential of its own (an upload link's secret).
    const anonymousRoute = (request.routeOptions.config as { anonymous?: boolean } | undefined)?.anonymous === true;
    if (!request.caller && !ANONYMOUS.has(path) && !anonymousRoute && request.routeOptions.url !== undefined) {
      if (header !== undefined && failedAuth) failedAuth.take(address);
      throw unauthorized();
    }
    if (limiter.enabled) {
      const key = request.caller ? request.caller.principalId : `ip:${request.ip}`;
      const d = viewed ? view!.limiter.take(viewed.session) : limiter.take(key);
      reply.header("X-RateLimit-Limit", String(d.limit));
      reply.header("X-RateLimit-Remaining", String(d.remaining));
      reply.header("X-RateLimit-Reset", d.reset);
      if (!d.allowed) {
        reply.code(429).header("content-type", JSONAPI_MEDIA_TYPE).send(JSON.stringify(RATE_LIMITED_BODY));
        return reply;
      }
    }
    const repeated = foldRepeatedParameters(request.query as Record<string, unknown>);
    if (repeated !== null)
      throw badRequest(`The query parameter ${repeated} was given more than once; give it once.`, repeated);
  });

  app.addHook("onResponse", async (request, reply) => {
    stats.total++;
    const key = `${request.method} ${request.routeOptions.url ?? "(unmatched)"}`;
    stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
    const status = String(reply.statusCode);
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    let ring = latencies.get(key);
    if (!ring) latencies.set(key, (ring = { ms: [], next: 0 }));
    ring.ms[ring.next] = reply.elapsedTime;
    ring.next = (ring.next + 1) % LATENCY_WINDOW;
  });

  app.setNotFoundHandler((request, reply) => {
    const err = notFound(`No route for ${request.method} ${request.url.split("?")[0]}`);
    reply
      .code(404)
      .header("content-type", JSONAPI_MEDIA_TYPE)
      .send(JSON.stringify({ errors: err.errors }));
  });

  app.setErrorHandler(async (error: FastifyError | ApiError | Error, request, reply) => {
    await discardBody(request.raw);
    sendError(reply, error);
    return reply;
  });

  // Request counters for benchmarks: also available in-process as `server.stats()`.
  app.get(`${API_PREFIX}/_stats`, async (request, reply) => {
    if (!requireCaller(request).siteAdmin) throw notFound();
    reply.header("content-type", "application/json").send(JSON.stringify(snapshot()));
  });

  for (const domain of domains) domain.init?.(ctx);
  app.register(
    async (api) => {
      for (const domain of domains) domain.routes(api, ctx);
    },
    { prefix: API_PREFIX },
  );

  return {
    app,
    stats: snapshot,
    setFaults: (f) => {
      faults = { ...f };
    },
    view,
  };
}

function sendError(reply: FastifyReply, error: FastifyError | ApiError | Error): void {
  const apiError = toApiError(error);
  for (const [k, v] of Object.entries(apiError.headers)) reply.header(k, v);
  reply
    .code(apiError.status)
    .header("content-type", JSONAPI_MEDIA_TYPE)
    .send(JSON.stringify({ errors: apiError.errors }));
}

/** Maps every failure to a JSON:API error; only a genuine bug becomes a 500. */
function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return renderDomainError(error);
  const fe = error as FastifyError;
  switch (fe.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return tooLarge();
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return fe.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
        ? unsupportedMediaType(`Requests must use the media type ${JSONAPI_MEDIA_TYPE}.`)
        : badRequest("Invalid Content-Length.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return badRequest("The request body is not valid JSON.");
  }
  if (typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError(fe.statusCode, [{ status: String(fe.statusCode), title: "bad request", detail: fe.message }]);
  }
  process.stderr.write(`workspaces-server: internal error: ${error.stack ?? error.message}\n`);
  return internalError();
}
