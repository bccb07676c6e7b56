/**
 * The policy pack run by the real engine: `pulumi preview --policy-pack policies`
 * fails on a mandatory violation and passes on a compliant program.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { repoRoot, serverEnv, startTestServer, TestStack } from "./harness";

const policyPack = path.join(repoRoot, "policies");

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
    if (!fs.existsSync(path.join(policyPack, "node_modules", "@pulumi", "policy"))) {
      throw new Error(`${policyPack} has no node_modules: run node scripts/ensure-install.js (npm run test:e2e does)`);
    }
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
