/**
 * What the agent-pool end-to-end tests do on the server directly, over its public API (the
 * hosted service's agent-pool routes as go-tfe speaks them): pools, their lists and tokens
 * made out of band, and the server's view of a pool, its tokens and a workspace's settings,
 * read back field by field.
 */
import type { RunningServer } from "../../src/server";
import { api } from "./harness";
import { read } from "./interrupt";
import { consumerIds, expectStatus } from "./server-helpers";

/** A pool as the server holds it, its lists sorted. */
export interface ServerPool {
  id: string;
  name: string;
  organizationScoped: boolean;
  allowedWorkspaceIds: string[];
  allowedProjectIds: string[];
  excludedWorkspaceIds: string[];
}

const refs = (ids: string[] | undefined, type: string) => ({ data: (ids ?? []).map((id) => ({ type, id })) });
const ids = (rel: { data?: Array<{ id: string }> } | undefined) => (rel?.data ?? []).map((r) => r.id).sort();

function poolOf(resource: any): ServerPool {
  const rel = resource.relationships ?? {};
  return {
    id: resource.id,
    name: resource.attributes.name,
    organizationScoped: resource.attributes["organization-scoped"],
    allowedWorkspaceIds: ids(rel["allowed-workspaces"]),
    allowedProjectIds: ids(rel["allowed-projects"]),
    excludedWorkspaceIds: ids(rel["excluded-workspaces"]),
  };
}

/** A pool made out of band (`POST /organizations/:org/agent-pools`), with its lists. */
export async function createPool(
  server: RunningServer,
  name: string,
  o: {
    organizationScoped?: boolean;
    allowedWorkspaces?: string[];
    allowedProjects?: string[];
    excluded?: string[];
  } = {},
): Promise<ServerPool> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/agent-pools`, {
      method: "POST",
      body: {
        data: {
          type: "agent-pools",
          attributes: {
            name,
            ...(o.organizationScoped === undefined ? {} : { "organization-scoped": o.organizationScoped }),
          },
          relationships: {
            "allowed-workspaces": refs(o.allowedWorkspaces, "workspaces"),
            "allowed-projects": refs(o.allowedProjects, "projects"),
            "excluded-workspaces": refs(o.excluded, "workspaces"),
          },
        },
      },
    }),
    [201],
    `create agent pool ${name}`,
  );
  return poolOf(body.data);
}

/** `PATCH /agent-pools/:id` out of band: attributes and any list given (a list given replaces the pool's). */
export async function patchPool(
  server: RunningServer,
  id: string,
  o: {
    name?: string;
    organizationScoped?: boolean;
    allowedWorkspaces?: string[];
    allowedProjects?: string[];
    excluded?: string[];
  },
): Promise<void> {
  const relationships: Record<string, unknown> = {};
  if (o.allowedWorkspaces) relationships["allowed-workspaces"] = refs(o.allowedWorkspaces, "workspaces");
  if (o.allowedProjects) relationships["allowed-projects"] = refs(o.allowedProjects, "projects");
  if (o.excluded) relationships["excluded-workspaces"] = refs(o.excluded, "workspaces");
  const attributes: Record<string, unknown> = {};
  if (o.name !== undefined) attributes.name = o.name;
  if (o.organizationScoped !== undefined) attributes["organization-scoped"] = o.organizationScoped;
  await expectStatus(
    api(server, `/agent-pools/${id}`, {
      method: "PATCH",
      body: { data: { type: "agent-pools", attributes, relationships } },
    }),
    [200],
    `update agent pool ${id}`,
  );
}

/** The pool as the server answers it now (waiting out the rate limit). */
export async function poolOnServer(server: RunningServer, id: string): Promise<ServerPool> {
  return poolOf((await read(server, `/agent-pools/${id}`)).data);
}

/** Whether the server answers 404 for the pool (deleted). */
export async function poolGone(server: RunningServer, id: string): Promise<boolean> {
  return (await api(server, `/agent-pools/${id}`)).status === 404;
}

/** Every pool of the server's organization, by name. */
export async function poolsOnServer(server: RunningServer): Promise<ServerPool[]> {
  const out: ServerPool[] = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/organizations/${server.organization}/agent-pools?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    out.push(...body.data.map(poolOf));
    if (!body.meta?.pagination?.["next-page"]) return out.sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** A token as the server lists it (never its secret). */
export interface ServerToken {
  id: string;
  description: string;
}

/** The pool's tokens (`GET /agent-pools/:id/authentication-tokens`), every page. */
export async function tokensOnServer(server: RunningServer, poolId: string): Promise<ServerToken[]> {
  const out: ServerToken[] = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/agent-pools/${poolId}/authentication-tokens?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    for (const t of body.data) out.push({ id: t.id, description: t.attributes.description });
    if (!body.meta?.pagination?.["next-page"]) return out;
  }
}

/** A token made out of band; its id and its secret (answered this once). */
export async function createToken(
  server: RunningServer,
  poolId: string,
  description: string,
): Promise<{ id: string; token: string }> {
  const body = await expectStatus(
    api<any>(server, `/agent-pools/${poolId}/authentication-tokens`, {
      method: "POST",
      body: { data: { type: "authentication-tokens", attributes: { description } } },
    }),
    [201],
    `create agent token ${description}`,
  );
  return { id: body.data.id, token: body.data.attributes.token };
}

/**
 * Attributes that move on any write (times), or that the server computes from others (the
 * older spelling of the execution mode, `operations`, follows it): left out when a
 * workspace's settings are compared field by field.
 */
const VOLATILE = new Set(["updated-at", "latest-change-at", "actions", "permissions", "operations"]);

/**
 * A workspace's settings as the server answers them now: every attribute but the volatile
 * ones, its agent pool and its remote-state consumers, so that two snapshots compare field
 * by field.
 */
export async function workspaceSnapshot(server: RunningServer, id: string): Promise<Record<string, unknown>> {
  const ws = (await read(server, `/workspaces/${id}`)).data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ws.attributes)) if (!VOLATILE.has(k)) out[k] = v;
  out["agent-pool"] = ws.relationships?.["agent-pool"]?.data?.id ?? null;
  out["remote-state-consumers"] = await consumerIds(server, id);
  return out;
}

/**
 * A workspace's `setting-overwrites` once the given settings are its own rather than the
 * organization's (or project's) defaults: what the service records when a write names them.
 */
export function overwritten(before: Record<string, unknown>, ...fields: string[]): Record<string, unknown> {
  const flags = { ...(before["setting-overwrites"] as Record<string, unknown>) };
  for (const f of fields) flags[f] = true;
  return flags;
}

/** The keys whose values differ between two snapshots, with both values. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = [before[k], after[k]];
  return out;
}

/** `PATCH /workspaces/:id` out of band, as another team would. */
export async function patchWorkspace(
  server: RunningServer,
  id: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
): Promise<void> {
  await expectStatus(
    api(server, `/workspaces/${id}`, {
      method: "PATCH",
      body: { data: { type: "workspaces", attributes, ...(relationships ? { relationships } : {}) } },
    }),
    [200],
    `update workspace ${id}`,
  );
}

/** Sets a workspace's remote-state consumers out of band (the whole list). */
export async function setConsumers(server: RunningServer, id: string, consumers: string[]): Promise<void> {
  await expectStatus(
    api(server, `/workspaces/${id}/relationships/remote-state-consumers`, {
      method: "PATCH",
      body: refs(consumers, "workspaces"),
    }),
    [200, 204],
    `set consumers of ${id}`,
  );
}
