/**
 * The policy pack run by the real engine: `pulumi preview --policy-pack policies`
 * fails on a mandatory violation and passes on a compliant program, through either door:
 * a TypeScript program's dynamic resources and a YAML program's resources of the provider
 * plugin (`workspaces:index:*`), a stack rule's violation and a resource rule's alike.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { repoRoot, serverEnv, startTestServer, TestStack } from "./harness";

const policyPack = path.join(repoRoot, "policies");

function requirePack(): void {
  if (!fs.existsSync(path.join(policyPack, "node_modules", "@pulumi", "policy"))) {
    throw new Error(`${policyPack} has no node_modules: run node scripts/ensure-install.js (npm run test:e2e does)`);
  }
}

const program = (names: string[]) => `
import { Workspace } from "pulumi-workspaces";

${names
  .map(
    (n, i) => `new Workspace("ws-${i}", {
  name: ${JSON.stringify(n)},
  executionMode: "remote",
  tags: { env: "dev", owner: "platform" },
});`,
  )
  .join("\n")}
`;

describe("the policy pack through the engine", () => {
  let server: RunningServer;
  let stack: TestStack;

  beforeAll(async () => {
    requirePack();
    server = await startTestServer();
    stack = await TestStack.create({
      project: "policy-e2e",
      files: { "index.ts": program(["billing-dev", "billing-dev"]) },
      env: serverEnv(server),
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("fails the preview on a mandatory violation (two workspaces with one name)", async () => {
    const before = server.stats().total;
    const r = await stack.pulumi(["preview", "--non-interactive", "--policy-pack", policyPack]);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/workspace-name-unique/);
    expect(r.output).toMatch(/mandatory/);
    // A preview creates nothing.
    expect(server.stats().total - before).toBe(0);
  });

  it("passes the preview on a compliant program", async () => {
    stack.writeFiles({ "index.ts": program(["billing-dev", "billing-prod"]) });
    const r = await stack.pulumi(["preview", "--non-interactive", "--policy-pack", policyPack]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).not.toMatch(/mandatory/);
  });

  it("applies the pack's configuration (a narrower naming convention)", async () => {
    const config = path.join(stack.root, "policy-config.json");
    fs.writeFileSync(config, JSON.stringify({ "workspace-name-pattern": { pattern: "^[a-z]+-(dev|staging|prod)$" } }));
    stack.writeFiles({ "index.ts": program(["billing-dev", "billing_qa"]) });
    const r = await stack.pulumi([
      "preview",
      "--non-interactive",
      "--policy-pack",
      policyPack,
      "--policy-pack-config",
      config,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/workspace-name-pattern/);
    expect(r.output).toMatch(/billing_qa/);
  });
});

const yamlProgram = (name: string, tags: Record<string, string>) => `
resources:
  billing:
    type: workspaces:index:Workspace
    properties:
      name: ${name}
      executionMode: remote
      tags: ${JSON.stringify(tags)}
`;

describe("the policy pack on a YAML program (the provider plugin)", () => {
  let server: RunningServer;
  let stack: TestStack;
  let config: string;

  const preview = () =>
    stack.pulumi(["preview", "--non-interactive", "--policy-pack", policyPack, "--policy-pack-config", config]);

  beforeAll(async () => {
    requirePack();
    server = await startTestServer();
    stack = await TestStack.create({
      project: "policy-yaml-e2e",
      files: {},
      yaml: yamlProgram("billing_qa", { owner: "platform" }),
      env: serverEnv(server),
    });
    config = path.join(stack.root, "policy-config.json");
    fs.writeFileSync(
      config,
      JSON.stringify({
        "workspace-required-tags": { enforcementLevel: "mandatory", requiredKeys: ["owner", "env"] },
        "workspace-name-pattern": { pattern: "^[a-z]+-(dev|staging|prod)$" },
      }),
    );
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("fails the preview on a missing required tag and a name outside the convention", async () => {
    const before = server.stats().total;
    const r = await preview();
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toMatch(/\[mandatory\]\s+workspace-required-tags/);
    expect(r.output).toContain('Workspace "billing": tags {"owner":"platform"} lack the required key "env"');
    expect(r.output).toMatch(/\[mandatory\]\s+workspace-name-pattern/);
    expect(r.output).toContain('Workspace "billing": name "billing_qa" does not match');
    // Reported against the plugin's resource.
    expect(r.output).toContain("workspaces:index:Workspace: billing");
    // A preview creates nothing.
    expect(server.stats().total - before).toBe(0);
  });

  it("passes once the program is fixed", async () => {
    stack.writeYaml(yamlProgram("billing-dev", { owner: "platform", env: "dev" }));
    const r = await preview();
    expect(r.code, r.output).toBe(0);
    expect(r.output).not.toMatch(/mandatory/);
    expect(r.output).toMatch(/\+ +workspaces:index:Workspace billing create/);
  });
});
