/** A real local server per test file, and the providers pointed at it through `configure`. */
import { startServer, type RunningServer, type ServerOptions } from "../../src/server";
import { configureFromStack, setConfiguredSettings } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { WorkspacesClient, resetLimiters } from "../../src/client";
import { expect } from "vitest";
import type { ProviderImpl, Props } from "../../src/resources/providers/types";
import { checkNew } from "./provider-io";

export interface Harness {
  server: RunningServer;
  /** A client of the same server, for out-of-band changes and assertions. */
  client: WorkspacesClient;
  org: string;
  close(): Promise<void>;
}

/**
 * Points the providers at `address` with `server`'s token and organization, the path the
 * engine takes (configure with the stack's config), with new clients and limiters.
 */
export function pointProviders(server: RunningServer, address: string): void {
  const config: Record<string, string> = {
    "workspaces:address": address,
    "workspaces:token": server.token,
    "workspaces:organization": server.organization,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
  resetLimiters();
}

export async function startHarness(options: Partial<ServerOptions> = {}): Promise<Harness> {
  const server = await startServer({ port: 0, db: ":memory:", runSpeed: 200, rateLimit: false, ...options });
  pointProviders(server, server.url);
  const client = new WorkspacesClient({
    address: server.url,
    token: server.token,
    organization: server.organization,
    rateLimit: false,
  });
  return {
    server,
    client,
    org: server.organization,
    close: async () => {
      setConfiguredSettings({});
      resetClients();
      await server.close();
    },
  };
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** A raw request to the server, for setting up records the providers do not manage. */
export async function api(
  h: Harness,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(h.server.url + path, {
    method,
    headers: { Authorization: `Bearer ${h.server.token}`, "Content-Type": "application/vnd.api+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** Makes the workspace manage `count` resources: lock, upload a state, unlock (which promotes it). */
export async function giveResources(h: Harness, workspaceId: string, count: number): Promise<void> {
  const { createHash } = await import("node:crypto");
  const state = JSON.stringify({
    version: 4,
    serial: 1,
    lineage: "l-1",
    resources: Array.from({ length: count }, (_, i) => ({ name: `r${i}` })),
  });
  const b64 = Buffer.from(state).toString("base64");
  const md5 = createHash("md5").update(state).digest("hex");
  await api(h, "POST", `/workspaces/${workspaceId}/actions/lock`, { reason: "state upload" });
  const sv = await api(h, "POST", `/workspaces/${workspaceId}/state-versions`, {
    data: { type: "state-versions", attributes: { serial: 1, md5, lineage: "l-1", state: b64 } },
  });
  if (sv.status >= 300) throw new Error(`state upload failed: ${sv.status} ${JSON.stringify(sv.json)}`);
  await api(h, "POST", `/workspaces/${workspaceId}/actions/unlock`);
}

export async function createProject(h: Harness, name: string, tags: Record<string, string> = {}): Promise<string> {
  const body: any = { data: { type: "projects", attributes: { name } } };
  if (Object.keys(tags).length) {
    body.data.relationships = {
      "tag-bindings": {
        data: Object.entries(tags).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })),
      },
    };
  }
  const r = await api(h, "POST", `/organizations/${h.org}/projects`, body);
  if (r.status >= 300) throw new Error(`project: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data.id;
}

/** check then create through a provider, as the engine does; the check must pass. */
export async function provision<I extends Props, O extends Props>(
  p: ProviderImpl<I, O>,
  inputs: Record<string, unknown>,
) {
  const checked = await checkNew(p, inputs);
  expect(checked.failures).toEqual([]);
  const created = await p.create(checked.inputs);
  return { id: created.id, outs: created.outs, inputs: checked.inputs };
}

/** A private registry module with the given versions; returns its id. */
export async function registryModuleWith(h: Harness, versions: string[]): Promise<string> {
  const name = uniqueName("mod").replace(/[^A-Za-z0-9_-]/g, "");
  const m = await api(h, "POST", `/organizations/${h.org}/registry-modules`, {
    data: {
      type: "registry-modules",
      attributes: { name, provider: "aws", "registry-name": "private", "no-code": true },
    },
  });
  expect(m.status, JSON.stringify(m.json)).toBe(201);
  for (const version of versions) {
    const v = await api(h, "POST", `/registry-modules/${h.org}/${name}/aws/versions`, {
      data: { type: "registry-module-versions", attributes: { version } },
    });
    expect(v.status, JSON.stringify(v.json)).toBe(201);
  }
  return m.json.data.id;
}

/**
 * The providers pointed at the harness's server with `token` (the engine's configure, and
 * new clients); `providersAs(h, h.server.token)` points them back.
 */
export function providersAs(h: Harness, token: string): void {
  const config: Record<string, string> = {
    "workspaces:address": h.server.url,
    "workspaces:token": token,
    "workspaces:organization": h.org,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
}

/** The token of a new team of the harness's organization with these organization flags (in the service's spelling). */
export async function teamTokenWith(h: Harness, flags: Record<string, boolean>): Promise<string> {
  const team = await api(h, "POST", `/organizations/${h.org}/teams`, {
    data: { type: "teams", attributes: { name: uniqueName("viewer"), "organization-access": flags } },
  });
  expect(team.status).toBe(201);
  return (await api(h, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes.token;
}

/** Writes (POST, PUT, PATCH, DELETE: a policy's code upload is a PUT) the harness's server has answered so far. */
export function writesTo(h: Harness): number {
  return Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PUT|PATCH|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

/** The status of a request to the harness's server made with `token` (a token a test minted). */
export async function statusWith(
  h: Harness,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<number> {
  const res = await fetch(h.server.url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}
