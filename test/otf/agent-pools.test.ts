/**
 * Agent pools and agent tokens against OTF, which serves them under the hosted service's
 * routes: pools (name, organization-scoped, allowed workspaces; no allowed projects, since
 * OTF has no projects, and no excluded workspaces) and their tokens (create with the secret
 * answered once, list, read, delete). Through the typed client call by call, each read back
 * over OTF's API; then `AgentPool`, `AgentPoolAllowedWorkspaces` and `AgentToken` through
 * the real engine: up, a preview with no change, destroy, the token's secret in the
 * checkpoint only encrypted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, WorkspacesClient } from "../../src/client";
import { TestStack } from "../e2e/harness";
import {
  createOrganization,
  createWorkspace,
  failure,
  otfApi,
  otfEnv,
  otfServer,
  runOrganization,
  type OtfServer,
} from "./otf";

const org = runOrganization("pools");
let otf: OtfServer;
let client: WorkspacesClient;
const ws = { a: "", b: "" };

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  ws.a = await createWorkspace(otf, org, { name: "pool-user-a" });
  ws.b = await createWorkspace(otf, org, { name: "pool-user-b" });
  client = new WorkspacesClient({ address: otf.url, token: otf.token, organization: org, env: {} });
});

/** The pool as OTF answers it over plain HTTP. */
async function rawPool(id: string): Promise<any> {
  const r = await otfApi<any>(otf, `/agent-pools/${id}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

describe("agent pools on OTF, through the client", () => {
  it("creates, reads, lists, renames, rescopes, changes the allowed workspaces of and deletes a pool", async () => {
    const pool = await client.agentPools.create(org, {
      name: "private",
      organizationScoped: false,
      allowedWorkspaceIds: [ws.a],
    });
    expect(pool).toMatchObject({ name: "private", organizationScoped: false, allowedWorkspaceIds: [ws.a] });
    const raw = await rawPool(pool.id);
    expect(raw.attributes).toMatchObject({ name: "private", "organization-scoped": false });
    expect(raw.relationships["allowed-workspaces"].data.map((w: any) => w.id)).toEqual([ws.a]);
    expect(await client.agentPools.read(pool.id)).toMatchObject({ id: pool.id, allowedWorkspaceIds: [ws.a] });
    // OTF has no projects and no excluded workspaces: the client reads both lists as empty.
    expect(await client.agentPools.read(pool.id)).toMatchObject({ allowedProjectIds: [], excludedWorkspaceIds: [] });

    const listed = await client.agentPools.list(org, { query: "priv" }).all();
    expect(listed.map((p) => p.id)).toEqual([pool.id]);

    const renamed = await client.agentPools.update(pool.id, { name: "private-network", organizationScoped: true });
    expect(renamed).toMatchObject({ name: "private-network", organizationScoped: true });
    expect((await rawPool(pool.id)).attributes).toMatchObject({ name: "private-network", "organization-scoped": true });

    await client.agentPools.updateAllowedWorkspaces(pool.id, [ws.a, ws.b]);
    expect((await rawPool(pool.id)).relationships["allowed-workspaces"].data.map((w: any) => w.id).sort()).toEqual(
      [ws.a, ws.b].sort(),
    );

    await client.agentPools.delete(pool.id);
    expect(await failure(client.agentPools.read(pool.id))).toBeInstanceOf(NotFoundError);
    expect((await otfApi(otf, `/agent-pools/${pool.id}`)).status).toBe(404);
  });

  it("creates a token with its secret once, lists and reads it without, and deletes it", async () => {
    const pool = await client.agentPools.create(org, { name: "tokens" });
    const created = await client.agentTokens.create(pool.id, "build agents");
    expect(created).toMatchObject({ description: "build agents" });
    expect(created.token).toMatch(/\S{16,}/);
    const listed = await client.agentTokens.list(pool.id).all();
    expect(listed.map((t) => [t.id, t.description])).toEqual([[created.id, "build agents"]]);
    expect(listed[0]).not.toHaveProperty("token");
    const raw = await otfApi<any>(otf, `/authentication-tokens/${created.id}`);
    expect(raw.status).toBe(200);
    expect(JSON.stringify(raw.body)).not.toContain(created.token!);
    expect(await client.agentTokens.read(created.id)).toMatchObject({ id: created.id, description: "build agents" });

    await client.agentTokens.delete(created.id);
    expect(await failure(client.agentTokens.read(created.id))).toBeInstanceOf(NotFoundError);
    await client.agentPools.delete(pool.id);
  });
});

const program = `
import * as pulumi from "@pulumi/pulumi";
import { AgentPool, AgentPoolAllowedWorkspaces, AgentToken } from "pulumi-workspaces";

const config = new pulumi.Config();
const pool = new AgentPool("pool", { name: "engine-pool", organizationScoped: false });
new AgentPoolAllowedWorkspaces("allowed", { agentPoolId: pool.id, workspaceIds: [config.require("workspaceId")] });
const token = new AgentToken("token", { agentPoolId: pool.id, description: "engine agents" });
export const poolId = pool.id;
export const tokenId = token.id;
export const tokenSecret = token.token;
`;

describe("agent pools on OTF, through the engine", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.create({
      project: "otf-agent-pools",
      files: { "index.ts": program },
      env: otfEnv(otf, org),
      config: { workspaceId: ws.a },
    });
  });
  afterAll(() => stack?.dispose());

  it("up creates the pool, its allowed workspace and a token; a preview changes nothing; destroy deletes them", async () => {
    const up = await stack.up();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    const { poolId, tokenId, tokenSecret } = (await stack.outputs()) as Record<string, string>;
    const raw = await rawPool(poolId);
    expect(raw.attributes).toMatchObject({ name: "engine-pool", "organization-scoped": false });
    expect(raw.relationships["allowed-workspaces"].data.map((w: any) => w.id)).toEqual([ws.a]);
    expect((await otfApi(otf, `/authentication-tokens/${tokenId}`)).status).toBe(200);
    expect(up.output).not.toContain(tokenSecret);
    await stack.expectEncryptedOnly([tokenSecret]);

    await stack.expectNoChanges();

    const destroy = await stack.destroy();
    expect(destroy.code, destroy.output.slice(-4000)).toBe(0);
    expect((await otfApi(otf, `/agent-pools/${poolId}`)).status).toBe(404);
    expect((await otfApi(otf, `/authentication-tokens/${tokenId}`)).status).toBe(404);
  });
});
