import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
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
  constructor(
    readonly url: string,
    readonly token: string | null,
  ) {}

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

export function wsBody(
  name: string,
  attributes: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
) {
  return {
    data: { type: "workspaces", attributes: { name, ...attributes }, ...(relationships ? { relationships } : {}) },
  };
}

export async function createWorkspace(
  api: Api,
  org: string,
  name: string,
  attributes: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
) {
  const r = await api.post(`/organizations/${org}/workspaces`, wsBody(name, attributes, relationships));
  if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
  return r.body.data as {
    id: string;
    attributes: Record<string, any>;
    relationships: Record<string, any>;
    links: Record<string, string>;
  };
}

export async function expectStatus(p: Promise<Reply>, status: number): Promise<Reply> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  return r;
}

/** Creates a team (optionally with organization-level permissions) and returns its id and a team token. */
export async function makeTeam(
  api: Api,
  org: string,
  name: string,
  access: { manageWorkspaces?: boolean; manageProjects?: boolean; flags?: Record<string, boolean> } = {},
) {
  const team = await expectStatus(
    api.post(`/organizations/${org}/teams`, {
      data: {
        type: "teams",
        attributes: {
          name,
          "organization-access": {
            "manage-workspaces": !!access.manageWorkspaces,
            "manage-projects": !!access.manageProjects,
            ...access.flags,
          },
        },
      },
    }),
    201,
  );
  const token = await expectStatus(api.post(`/teams/${team.body.data.id}/authentication-token`), 201);
  return { id: team.body.data.id as string, token: token.body.data.attributes.token as string };
}

export async function grant(
  api: Api,
  teamId: string,
  workspaceId: string,
  access: string,
  extra: Record<string, unknown> = {},
) {
  return expectStatus(
    api.post(`/team-workspaces`, {
      data: {
        type: "team-workspaces",
        attributes: { access, ...extra },
        relationships: {
          workspace: { data: { type: "workspaces", id: workspaceId } },
          team: { data: { type: "teams", id: teamId } },
        },
      },
    }),
    201,
  );
}

export async function makeUser(api: Api, username: string) {
  const u = await expectStatus(api.post(`/admin/users`, { data: { type: "users", attributes: { username } } }), 201);
  const t = await expectStatus(api.post(`/users/${u.body.data.id}/authentication-tokens`), 201);
  return { id: u.body.data.id as string, token: t.body.data.attributes.token as string };
}

/** A state file (as the hosted upload expects it: base64 plus its md5) with `resources` entries. */
export function stateFile(resources: number, serial = 1) {
  const text = JSON.stringify({
    version: 4,
    serial,
    lineage: "lineage-1",
    resources: Array.from({ length: resources }, (_, i) => ({ name: `r${i}` })),
  });
  const md5 = createHash("md5").update(text).digest("hex");
  return { state: Buffer.from(text).toString("base64"), md5, serial, lineage: "lineage-1" };
}

/** Uploads `state` (a state file's contents, its `serial` sent along) as the workspace's current state version: lock, upload, unlock. Returns the state version. */
export async function uploadState(api: Api, workspaceId: string, state: { serial: number; [key: string]: unknown }) {
  const text = JSON.stringify(state);
  await expectStatus(api.post(`/workspaces/${workspaceId}/actions/lock`), 200);
  const sv = await expectStatus(
    api.post(`/workspaces/${workspaceId}/state-versions`, {
      data: {
        type: "state-versions",
        attributes: {
          serial: state.serial,
          md5: createHash("md5").update(text).digest("hex"),
          state: Buffer.from(text).toString("base64"),
        },
      },
    }),
    201,
  );
  await expectStatus(api.post(`/workspaces/${workspaceId}/actions/unlock`), 200);
  return sv.body.data;
}

/** Makes the workspace manage `resources` resources: lock, upload a final state version, unlock. */
export async function manageResources(api: Api, workspaceId: string, resources: number, serial = 1) {
  await expectStatus(api.post(`/workspaces/${workspaceId}/actions/lock`), 200);
  await expectStatus(
    api.post(`/workspaces/${workspaceId}/state-versions`, {
      data: { type: "state-versions", attributes: stateFile(resources, serial) },
    }),
    201,
  );
  await expectStatus(api.post(`/workspaces/${workspaceId}/actions/unlock`), 200);
}

/** Every byte SQLite keeps of a database file: the file, its WAL and shared-memory index. */
export function databaseBytes(file: string): Buffer {
  return Buffer.concat(
    ["", "-wal", "-shm"].map((suffix) => {
      try {
        return readFileSync(file + suffix);
      } catch {
        return Buffer.alloc(0);
      }
    }),
  );
}
