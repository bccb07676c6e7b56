/**
 * Where runs execute, in the organization stack (organization.json): the records made over
 * HTTP before the first step (the settings of a workspace another team owns, a pool with an
 * allowed workspace and a token that the import step takes over), and what the server
 * holds for them after each step, in the wire's words.
 */
import type { RunningServer } from "../../src/server";
import { api as once } from "../e2e/harness";
import { expectStatus } from "../e2e/server-helpers";
import { organization, type SettingsExpected } from "./organization";

/**
 * A request as the harness's `api` makes it, made again while the server answers 429: the
 * suite's own reads and writes share the token's rate limit (30 a second) with the stack's
 * provider, and a step's checks follow one another closely.
 */
export async function api<T = any>(
  server: RunningServer,
  path: string,
  init: Parameters<typeof once>[2] = {},
): Promise<{ status: number; body: T }> {
  for (let attempt = 1; ; attempt++) {
    const r = await once<T>(server, path, init);
    if (r.status !== 429 || attempt === 20) return r;
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** What secrets look like in `pulumi stack export`: encrypted, under the engine's signature key. */
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

/** A JSON:API write that must succeed; its body. */
function write(server: RunningServer, method: string, path: string, body: unknown, what: string): Promise<any> {
  return expectStatus(api<any>(server, path, { method, body }), [200, 201, 204], what);
}

function read(server: RunningServer, path: string, what: string): Promise<any> {
  return expectStatus(api<any>(server, path), [200], what);
}

const workspaceRefs = (ids: string[]) => ({ data: ids.map((id) => ({ type: "workspaces", id })) });

/**
 * Made over HTTP before the first step: the values of the workspace whose settings the
 * program declares (`server.settings`), and their pool (with its three lists) and a token.
 * `workspaceIds`, `projectIds`: the ids of the workspaces and projects made over HTTP, by name.
 */
export async function makeAgentRecords(
  server: RunningServer,
  workspaceIds: Record<string, string>,
  projectIds: Record<string, string>,
  settingsWorkspaceId: string,
): Promise<{ theirPoolId: string; theirTokenId: string }> {
  const s = organization.server.settings;
  await write(
    server,
    "PATCH",
    `/workspaces/${settingsWorkspaceId}`,
    { data: { type: "workspaces", id: settingsWorkspaceId, attributes: s.attributes } },
    "the settings of the workspace owned elsewhere",
  );
  await write(
    server,
    "POST",
    `/workspaces/${settingsWorkspaceId}/relationships/remote-state-consumers`,
    workspaceRefs(s.consumers.map((n) => workspaceIds[n])),
    "its remote state consumers",
  );
  const { allowed, projects, excluded, ...attributes } = organization.server.theirs.agentPool;
  const pool = await write(
    server,
    "POST",
    `/organizations/${server.organization}/agent-pools`,
    { data: { type: "agent-pools", attributes } },
    "their agent pool",
  );
  const poolId: string = pool.data.id;
  await write(
    server,
    "PATCH",
    `/agent-pools/${poolId}`,
    {
      data: {
        type: "agent-pools",
        id: poolId,
        relationships: {
          "allowed-workspaces": workspaceRefs(allowed.map((n) => workspaceIds[n])),
          "allowed-projects": { data: projects.map((n) => ({ type: "projects", id: projectIds[n] })) },
          "excluded-workspaces": workspaceRefs(excluded.map((n) => workspaceIds[n])),
        },
      },
    },
    "the lists of their pool",
  );
  const token = await write(
    server,
    "POST",
    `/agent-pools/${poolId}/authentication-tokens`,
    { data: { type: "authentication-tokens", attributes: organization.server.theirs.agentToken } },
    "their agent token",
  );
  return { theirPoolId: poolId, theirTokenId: token.data.id };
}

/** The name of the workspace of `id`. */
export async function workspaceName(server: RunningServer, id: string): Promise<string> {
  return (await read(server, `/workspaces/${id}`, `workspace ${id}`)).data.attributes.name;
}

/** A pool as the server holds it: its record, the names of the workspaces it allows, and its tokens. */
export async function agentPool(
  server: RunningServer,
  id: string,
): Promise<{ record: any; allowed: string[]; tokens: { id: string; description: string }[] }> {
  const record = (await read(server, `/agent-pools/${id}`, `agent pool ${id}`)).data;
  const ids: string[] = (record.relationships?.["allowed-workspaces"]?.data ?? []).map((x: any) => x.id);
  const allowed = (await Promise.all(ids.map((w) => workspaceName(server, w)))).sort();
  const tokens = (await read(server, `/agent-pools/${id}/authentication-tokens`, `tokens of ${id}`)).data.map(
    (t: any) => ({ id: t.id, description: t.attributes.description }),
  );
  return { record, allowed, tokens };
}

/** The pools of the organization, by name. */
export async function agentPoolsByName(server: RunningServer): Promise<Record<string, any>> {
  const body = await read(
    server,
    `/organizations/${server.organization}/agent-pools?page%5Bsize%5D=100`,
    "list agent pools",
  );
  return Object.fromEntries(body.data.map((x: any) => [x.attributes.name, x]));
}

/**
 * A workspace's settings as `SettingsExpected` states them: the attributes `want` names,
 * whether it is on the pool `poolId` (without one: on any pool), its consumers by name.
 */
export async function workspaceSettings(
  server: RunningServer,
  workspaceId: string,
  want: SettingsExpected,
  poolId: string | undefined,
): Promise<SettingsExpected> {
  const ws = (await read(server, `/workspaces/${workspaceId}`, `workspace ${workspaceId}`)).data;
  const attributes = Object.fromEntries(Object.keys(want.attributes).map((k) => [k, ws.attributes[k]]));
  const pool: string | undefined = ws.relationships?.["agent-pool"]?.data?.id;
  const got: SettingsExpected = { attributes, onPool: poolId === undefined ? pool !== undefined : pool === poolId };
  if (want.consumers) {
    const body = await read(
      server,
      `/workspaces/${workspaceId}/relationships/remote-state-consumers`,
      `consumers of ${workspaceId}`,
    );
    got.consumers = (await Promise.all(body.data.map((x: any) => workspaceName(server, x.id)))).sort();
  }
  return got;
}

/** Whether a value of `pulumi stack export` is a secret, encrypted. */
export function isSealed(value: any): boolean {
  return (
    !!value &&
    typeof value === "object" &&
    Object.entries(SECRET_SIG).every(([k, v]) => value[k] === v) &&
    typeof value.ciphertext === "string"
  );
}

/** The resources whose `token` output is a secret the service answered once. */
const TOKEN_TYPES = ["AgentToken", "TeamToken", "OrganizationToken"].map((t) => `workspaces:index:${t}`);

/** The tokens' secrets as the checkpoint holds them: encrypted, each `[urn name, what is wrong]` when it is not. */
export function plainTokenOutputs(resources: { urn: string; type: string; outputs?: any }[]): string[] {
  return resources
    .filter((r) => TOKEN_TYPES.includes(r.type) && r.outputs?.token !== undefined)
    .filter((r) => !isSealed(r.outputs.token))
    .map((r) => `${r.urn.split("::").pop()}: token is not encrypted`);
}
