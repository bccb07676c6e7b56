/**
 * terraform-provider-tfe #1111 in one `pulumi up`: a workspace can only be put on a pool
 * that allows it, and the allowance needs the workspace's id. The program declares a pool
 * that is not organization-scoped, the allowance of the workspace and the workspace's
 * settings on the pool, with no `dependsOn`, through the real engine from the TypeScript
 * door; in both orders of declaration (the allowance before and after the settings in the
 * program's text), on a fresh organization (the program makes the workspace) and on one
 * where the workspace already exists (made out of band; the program declares only its
 * settings). Each: one `up` succeeds and the server holds what the program says, a preview
 * changes nothing, and one `destroy` succeeds, leaving the out-of-band workspace with the
 * settings it had before, compared field by field.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { createWorkspace } from "./server-helpers";
import { changedFields, poolGone, poolOnServer, workspaceSnapshot } from "./agent-pool-steps";
import { read } from "./interrupt";

type Order = "allowance first" | "settings first";
type Organization = "fresh" | "existing";

function program(order: Order, organization: Organization): string {
  const workspace =
    organization === "fresh"
      ? `const workspaceId = new Workspace("app", { name: "app" }).id;`
      : `const workspaceId = new pulumi.Config().require("workspaceId");`;
  const allowance = `new AgentPoolAllowedWorkspaces("allowed", { agentPoolId: pool.id, workspaceIds: [workspaceId] });`;
  const settings = `new WorkspaceSettings("app-settings", { workspaceId, executionMode: "agent", agentPoolId: pool.id });`;
  return `
import * as pulumi from "@pulumi/pulumi";
import { AgentPool, AgentPoolAllowedWorkspaces, Workspace, WorkspaceSettings } from "pulumi-workspaces";

const pool = new AgentPool("pool", { name: "private-network", organizationScoped: false });
${workspace}
${order === "allowance first" ? `${allowance}\n${settings}` : `${settings}\n${allowance}`}

export const poolId = pool.id;
export const appId = workspaceId;
`;
}

const CASES: Array<[Organization, Order]> = [
  ["fresh", "allowance first"],
  ["fresh", "settings first"],
  ["existing", "allowance first"],
  ["existing", "settings first"],
];

describe("the #1111 program in one up (TypeScript)", () => {
  let server: RunningServer | undefined;
  let stack: TestStack | undefined;

  afterEach(async () => {
    stack?.dispose();
    await server?.close();
    stack = server = undefined;
  });

  it.each(CASES)("%s organization, %s: one up, no change, one destroy", async (organization, order) => {
    server = await startTestServer();
    const existing = organization === "existing" ? await createWorkspace(server, "app") : undefined;
    const before = existing ? await workspaceSnapshot(server, existing) : undefined;
    stack = await TestStack.create({
      project: "one-up",
      files: { "index.ts": program(order, organization) },
      env: serverEnv(server),
      config: existing ? { workspaceId: existing } : {},
    });

    const up = await stack.up();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    const { poolId, appId } = (await stack.outputs()) as { poolId: string; appId: string };
    if (existing) expect(appId).toBe(existing);
    expect(await poolOnServer(server, poolId)).toMatchObject({
      organizationScoped: false,
      allowedWorkspaceIds: [appId],
    });
    const app = (await read(server, `/workspaces/${appId}`)).data;
    expect(app.attributes["execution-mode"]).toBe("agent");
    expect(app.relationships["agent-pool"].data?.id).toBe(poolId);

    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    await stack.expectNoChanges();

    const destroy = await stack.destroy();
    expect(destroy.code, destroy.output.slice(-4000)).toBe(0);
    expect(await poolGone(server, poolId)).toBe(true);
    if (existing) expect(changedFields(before!, await workspaceSnapshot(server, existing))).toEqual({});
    else expect((await api(server, `/workspaces/${appId}`)).status).toBe(404);
  });
});
