/**
 * A fake service on loopback whose every answer the test decides: delays, trickles,
 * stalls, any headers and bodies, contradictory pages. It exists to test the client
 * against answers the real server never gives; the client under test is the real one,
 * over real HTTP.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WorkspacesClient, resetLimiters, type ClientOptions } from "../../src/client";
import { emptyHome } from "./helpers";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface FakeService {
  url: string;
  /** Requests received, as `METHOD /path?query`. */
  requests: string[];
  /** Replaces the handler of later requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export const TOKEN = "fake-service-token-0123456789";
export const JSONAPI = "application/vnd.api+json";

export async function startFakeService(handler: Handler): Promise<FakeService> {
  let current = handler;
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push(`${req.method} ${req.url}`);
      current(req, res, Buffer.concat(chunks).toString("utf8"));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(h) {
      current = h;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client of the fake service; no pacing unless the options ask for it, limiters of earlier services forgotten. */
export function fakeClient(service: FakeService, options: ClientOptions = {}): WorkspacesClient {
  resetLimiters();
  return new WorkspacesClient({
    address: service.url,
    token: TOKEN,
    organization: "acme",
    env: {},
    homeDir: emptyHome,
    ...options,
  });
}

/** Sends `body` as JSON:API with `status` and extra headers. */
export function reply(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": JSONAPI, ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** Headers at once, then `body` one chunk of `chunkSize` bytes every `everyMs`, until it is all sent or the client leaves. */
export function trickle(res: http.ServerResponse, status: number, body: string, everyMs: number, chunkSize = 1): void {
  res.writeHead(status, { "content-type": JSONAPI });
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    const chunk = body.slice(at, at + chunkSize);
    at += chunkSize;
    if (at >= body.length) {
      clearInterval(timer);
      res.end(chunk);
    } else res.write(chunk);
  }, everyMs);
  res.on("close", () => clearInterval(timer));
}

/** An organization document, the smallest resource a client call parses. */
export function organizationDoc(name = "acme"): unknown {
  return { data: { id: name, type: "organizations", attributes: { name } } };
}

/** A page of flat tags with its pagination meta. */
export function tagPage(
  ids: string[],
  meta: { current: number; next: number | null; totalPages: number; totalCount?: number },
): unknown {
  return {
    data: ids.map((id) => ({ id, type: "tags", attributes: { name: id } })),
    meta: {
      pagination: {
        "current-page": meta.current,
        "next-page": meta.next,
        "prev-page": meta.current > 1 ? meta.current - 1 : null,
        "page-size": 100,
        "total-count": meta.totalCount ?? ids.length,
        "total-pages": meta.totalPages,
      },
    },
  };
}

/** The page number a request asked for. */
export function pageAsked(req: http.IncomingMessage): number {
  const url = new URL(req.url ?? "/", "http://x");
  return Number(url.searchParams.get("page[number]") ?? "1");
}

/**
 * A handler that answers as OTF does around its people and tokens: organization `acme` and
 * team `team-1` read, `extra` answers the routes a test adds (returning true when it did),
 * and any other route gets the router's plain-text 404.
 */
export function otfPeople(
  extra: (req: http.IncomingMessage, res: http.ServerResponse, path: string) => boolean,
): Handler {
  return (req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/api\/v2/, "");
    if (p === "/ping") return reply(res, 204, undefined);
    if (p === "/organizations/acme") return reply(res, 200, organizationDoc());
    if (p === "/teams/team-1")
      return reply(res, 200, { data: { id: "team-1", type: "teams", attributes: { name: "devs" } } });
    if (extra(req, res, p)) return;
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("404 page not found\n");
  };
}
