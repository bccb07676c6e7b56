/**
 * The policy pack's agent-pool rules run by the real engine, through both doors: a
 * production workspace put on a pool by a `WorkspaceSettings` of the stack passes
 * `production-agent-pool`, and settings that take it back to remote runs fail the preview,
 * reported on the `WorkspaceSettings`; an organization-scoped `AgentPool` fails
 * `agent-pool-organization-scoped` where the config says so. Previews only: nothing is written.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { repoRoot, serverEnv, startTestServer, TestStack } from "./harness";

const policyPack = path.join(repoRoot, "policies");

const CONFIG = {
  "production-agent-pool": { enforcementLevel: "mandatory" },
  "agent-pool-organization-scoped": { enforcementLevel: "mandatory", allowOrganizationScoped: false },
};

const tsProgram = (mode: string, scoped: boolean) => `
import { AgentPool, Workspace, WorkspaceSettings } from "pulumi-workspaces";

const pool = new AgentPool("private", { name: "private", organizationScoped: ${scoped} });
const billing = new Workspace("billing", { name: "billing", tagNames: ["production"] });
new WorkspaceSettings("billing-settings", {
  workspaceId: billing.id,
  executionMode: ${JSON.stringify(mode)},
  ${mode === "agent" ? "agentPoolId: pool.id," : ""}
});
`;

const yamlProgram = (mode: string, scoped: boolean) => `
resources:
  private:
    type: workspaces:index:AgentPool
    properties:
      name: private
      organizationScoped: ${scoped}
  billing:
    type: workspaces:index:Workspace
    properties:
      name: billing
      tagNames: [production]
  billing-settings:
    type: workspaces:index:WorkspaceSettings
    properties:
      workspaceId: \${billing.id}
      executionMode: ${mode}
${mode === "agent" ? "      agentPoolId: ${private.id}\n" : ""}`;

describe.each([
  ["TypeScript", "pulumi-nodejs:dynamic/workspaces"],
  ["YAML", "workspaces:index"],
] as const)("the agent-pool rules on a %s program", (door, prefix) => {
  let server: RunningServer;
  let stack: TestStack;
  let config: string;
  const write = (mode: string, scoped: boolean) =>
    door === "YAML"
      ? stack.writeYaml(yamlProgram(mode, scoped))
      : stack.writeFiles({ "index.ts": tsProgram(mode, scoped) });
  const preview = () =>
    stack.pulumi(["preview", "--non-interactive", "--policy-pack", policyPack, "--policy-pack-config", config]);

  beforeAll(async () => {
    if (!fs.existsSync(path.join(policyPack, "node_modules", "@pulumi", "policy"))) {
      throw new Error(`${policyPack} has no node_modules: run node scripts/ensure-install.js (npm run test:e2e does)`);
    }
    server = await startTestServer();
    stack = await TestStack.create({
      project: `policy-pools-${door.toLowerCase()}`,
      ...(door === "YAML"
        ? { files: {}, yaml: yamlProgram("agent", false) }
        : { files: { "index.ts": tsProgram("agent", false) } }),
      env: serverEnv(server),
    });
    config = path.join(stack.root, "policy-config.json");
    fs.writeFileSync(config, JSON.stringify(CONFIG));
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("passes a production workspace that a WorkspaceSettings puts on a scoped pool", async () => {
    const before = server.stats().total;
    const r = await preview();
    expect(r.code, r.output).toBe(0);
    expect(r.output).not.toMatch(/mandatory/);
    expect(server.stats().total - before).toBe(0);
  });

  it("fails settings that take it off the pool, and an organization-scoped pool, naming each resource", async () => {
    write("remote", true);
    const before = server.stats().total;
    const r = await preview();
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toMatch(/\[mandatory\]\s+production-agent-pool/);
    expect(r.output).toContain(
      'Workspace "billing" is production (tagged "production"), but WorkspaceSettings "billing-settings" sets executionMode "remote"',
    );
    expect(r.output).toContain(`${prefix}:WorkspaceSettings: billing-settings`);
    expect(r.output).toMatch(/\[mandatory\]\s+agent-pool-organization-scoped/);
    expect(r.output).toContain('AgentPool "private": organizationScoped is true');
    expect(server.stats().total - before).toBe(0);
  });
});
