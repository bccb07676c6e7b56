/**
 * The web view: a read-only page of the organisation served at /app/ when the server is
 * started with `webView: true` (CLI `--web-view`). The page reads the same JSON:API the
 * clients use, through the server's own read paths, as the token a session was opened
 * with; it signs in with a one-time code (`RunningServer.viewUrl()`) or a pasted token
 * and keeps only an HttpOnly cookie. Only this machine may use it: requests from another
 * address, or naming another host (DNS rebinding), answer 404 as an unknown route does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authenticate, isGeneratedToken } from "../auth/service/authn";
import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import { ApiError, failedAuthRefusal, notFound } from "../http/error-documents";
import { API_PREFIX } from "../http/jsonapi";
import { carriesCredentials } from "../../api/credentials";
import { RateLimiter } from "../ratelimit";
import { loadPage, type PageAssets } from "./assets";
import { isLoopbackAddress, isLoopbackHost, sessionCookie, sessionIdOf, ViewSessions } from "./session";

/** Requests per second of one session's reads: the map of 200 workspaces takes about 400. */
const VIEW_RATE_LIMIT = 500;

const HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const readOnly = () =>
  new ApiError(403, [
    {
      status: "403",
      title: "forbidden",
      detail:
        "The web view is read-only: its session only reads (GET). Send this request with an API token in the Authorization header instead.",
    },
  ]);

/**
 * What a session never reads, though its token may: contents rather than records (state
 * files, output values, a policy's code). The page shows relations and settings, never
 * these, so a session is worth less than its token to whoever might borrow it.
 */
const CONTENTS =
  /\/(download|outputs|current-state-version-outputs)$|\/state-version-outputs\/[^/]+$|\/policy-set-versions\//;

const recordsOnly = () =>
  new ApiError(403, [
    {
      status: "403",
      title: "forbidden",
      detail:
        "The web view reads records, not their contents (state, output values, policy code): read them with an API token in the Authorization header.",
    },
  ]);

const signInRefused = (what: "code" | "token") =>
  new ApiError(401, [
    {
      status: "401",
      title: "unauthorized",
      detail:
        what === "code"
          ? "The sign-in code is unknown, used or expired (a code works once, for ten minutes): ask the server for a new address, or sign in with a token."
          : "The token is unknown or expired: paste a valid API token.",
    },
  ]);

/**
 * A JSON:API document with the `url` of each notification configuration that carries
 * credentials (src/api/credentials.ts's rule, the one the resources mark secret by)
 * cut to its origin and `/…`.
 */
function withoutCredentialedUrls(payload: string): string {
  let doc: { data?: unknown; included?: unknown };
  try {
    doc = JSON.parse(payload) as typeof doc;
  } catch {
    return payload;
  }
  const resources = [doc.data, doc.included].flat().filter(Boolean) as {
    type?: string;
    attributes?: Record<string, unknown>;
  }[];
  for (const r of resources)
    if (r.type === "notification-configurations" && r.attributes && carriesCredentials(r.attributes.url))
      r.attributes.url = `${new URL(String(r.attributes.url)).origin}/…`;
  return JSON.stringify(doc);
}

/** What a request signed in through the view acts as, and the session whose bucket it spends. */
interface ViewCaller {
  caller: Caller;
  session: string;
}

export interface WebView {
  /** Resolves once the page's files are in memory; the server listens after that. */
  ready: Promise<void>;
  /** The session rate limiter (VIEW_RATE_LIMIT, or the server's limit when higher). */
  limiter: RateLimiter;
  /**
   * For a request without an Authorization header: the caller its view cookie acts as on
   * /api/v2, or null. Throws a 404 for a request from off this machine and a 403 for a
   * request that would write.
   */
  callerOf(request: FastifyRequest): Promise<ViewCaller | null>;
  /** The address that signs the browser in as `token`, once: `http://127.0.0.1:<port>/app/#code=…`. */
  signInAddress(token: string, port: number): string;
}

/** Whether the request comes from this machine and names it, at the port it reached. */
function local(request: FastifyRequest): boolean {
  return (
    isLoopbackAddress(request.socket.remoteAddress) && isLoopbackHost(request.headers.host, request.socket.localPort!)
  );
}

const unknownRoute = (request: FastifyRequest) =>
  notFound(`No route for ${request.method} ${request.url.split("?")[0]}`);

/**
 * Sets up the view on `app`: its routes under /app and the session machinery the app's
 * request hook asks. `failedAuth` is the server's bound on failed authentications per
 * address, which failed sign-ins spend from too.
 */
export function webView(ctx: ServerContext, app: FastifyInstance, failedAuth: RateLimiter | null): WebView {
  const sessions = new ViewSessions();
  let page: PageAssets | undefined;
  const ready = loadPage().then((p) => {
    page = p;
  });
  const limit = ctx.options.rateLimit > 0 ? Math.max(VIEW_RATE_LIMIT, ctx.options.rateLimit) : 0;

  /** The caller a session's token acts as now; a token gone or expired closes the session. */
  const sessionCaller = async (id: string | undefined): Promise<Caller | null> => {
    const token = id === undefined ? undefined : sessions.tokenOf(id);
    if (id === undefined || token === undefined) return null;
    const caller = await authenticate(ctx.db, token);
    if (!caller) sessions.close(id);
    return caller;
  };

  // What a session reads is what its token would, but for a notification URL that is itself
  // a credential (a Slack or Teams webhook, a user:password, a ?token=): the page gets its origin.
  const viewed = new WeakSet<FastifyRequest>();
  app.addHook("onSend", async (request, reply, payload) => {
    if (!viewed.has(request) || typeof payload !== "string" || !payload.includes("notification-configurations"))
      return payload;
    return withoutCredentialedUrls(payload);
  });

  app.register(
    async (view) => {
      const anonymous = { config: { anonymous: true } };
      view.addHook("onRequest", async (request, reply) => {
        if (!local(request)) throw unknownRoute(request);
        reply.headers(HEADERS);
      });
      const file = (name: keyof PageAssets) => async (_request: FastifyRequest, reply: FastifyReply) => {
        const f = page![name];
        return reply.code(200).header("content-type", f.type).send(f.body);
      };
      view.get("/", anonymous, async (request, reply) => {
        // `/app` and `/app/` share the route; the page's relative addresses need the slash.
        if (!request.url.split("?")[0].endsWith("/")) return reply.redirect("/app/", 308);
        return file("index.html")(request, reply);
      });
      view.get("/app.js", anonymous, file("app.js"));
      view.get("/app.css", anonymous, file("app.css"));

      view.get("/session", anonymous, async (request, reply) => {
        const caller = await sessionCaller(sessionIdOf(request.headers.cookie));
        return reply
          .code(200)
          .header("content-type", "application/json")
          .send({ signedIn: caller !== null });
      });
      view.delete("/session", anonymous, async (request, reply) => {
        const id = sessionIdOf(request.headers.cookie);
        if (id !== undefined) sessions.close(id);
        return reply.code(204).header("set-cookie", sessionCookie()).send();
      });
      view.post("/session", anonymous, async (request, reply) => {
        const body = request.body as { code?: unknown; token?: unknown } | undefined;
        const code = typeof body?.code === "string" ? body.code : undefined;
        const presented = typeof body?.token === "string" ? body.token : undefined;
        if ((code === undefined) === (presented === undefined))
          throw new ApiError(400, [
            {
              status: "400",
              title: "bad request",
              detail: 'Send {"code": "<one-time code>"} or {"token": "<API token>"} as JSON.',
            },
          ]);
        // As for a token in a header: past the address's bound on failures, refused before it
        // is looked at, unless it is a generated token (unguessable, so the bound protects nothing).
        const address = `ip:${request.ip}`;
        const guessable = presented === undefined || !isGeneratedToken(presented);
        const standing = failedAuth?.peek(address);
        if (guessable && standing && !standing.allowed) throw failedAuthRefusal(standing.reset);
        const token = code !== undefined ? sessions.redeemCode(code) : presented;
        const caller = token === undefined ? null : await authenticate(ctx.db, token);
        if (!caller || token === undefined) {
          failedAuth?.take(address);
          throw signInRefused(code !== undefined ? "code" : "token");
        }
        return reply
          .code(204)
          .header("set-cookie", sessionCookie(sessions.open(token)))
          .send();
      });
    },
    { prefix: "/app" },
  );

  return {
    ready,
    limiter: new RateLimiter(limit),
    async callerOf(request) {
      const id = sessionIdOf(request.headers.cookie);
      const path = request.url.split("?")[0];
      if (id === undefined || !(path === API_PREFIX || path.startsWith(`${API_PREFIX}/`))) return null;
      if (!local(request)) throw unknownRoute(request);
      if (request.method !== "GET" && request.method !== "HEAD") throw readOnly();
      if (CONTENTS.test(path)) throw recordsOnly();
      const caller = await sessionCaller(id);
      if (caller) viewed.add(request);
      return caller && { caller, session: id };
    },
    signInAddress(token, port) {
      const host = ctx.options.host === "::1" ? "[::1]" : "127.0.0.1";
      return `http://${host}:${port}/app/#code=${sessions.mintCode(token)}`;
    },
  };
}
