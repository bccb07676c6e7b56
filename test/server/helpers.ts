import { startServer, type RunningServer } from "../../src/server";
import type { ServerOptions } from "../../src/server/context";

export const MEDIA = "application/vnd.api+json";

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** A thin fetch wrapper: real HTTP on loopback, JSON:API media type, bearer token. */
export class Api {
  constructor(readonly url: string, readonly token: string | null) {}

  as(token: string | null): Api {
    return new Api(this.url, token);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const h: Record<string, string> = { ...headers };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      h["content-type"] ??= MEDIA;
    }
    const res = await fetch(this.url + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get = (path: string) => this.request("GET", path);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request("POST", path, body, headers);
  patch = (path: string, body?: unknown) => this.request("PATCH", path, body);
  delete = (path: string, body?: unknown) => this.request("DELETE", path, body);
}

export interface TestServer {
  server: RunningServer;
  api: Api;
  org: string;
}

export async function start(options: ServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ port: 0, db: ":memory:", rateLimit: false, ...options });
  return { server, api: new Api(server.url, server.token), org: server.organization };
}

export function wsBody(name: string, attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>) {
  return { data: { type: "workspaces", attributes: { name, ...attributes }, ...(relationships ? { relationships } : {}) } };
}

export async function createWorkspace(api: Api, org: string, name: string, attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>) {
  const r = await api.post(`/organizations/${org}/workspaces`, wsBody(name, attributes, relationships));
  if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
  return r.body.data as { id: string; attributes: Record<string, any>; relationships: Record<string, any>; links: Record<string, string> };
}
