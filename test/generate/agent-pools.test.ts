/**
 * The generator and where runs execute, against the real server: the organization's agent
 * pools (`adopt: true`, organization-scoped only where the service's default is not), their
 * lists (the pool's whole list, by reference where the program declares the workspace or
 * project), their tokens (adopted by description, never with a secret; tokens that share a
 * description left out and named in the README), workspaces on a pool referring to it; a
 * program of one project naming pools by id; stack `organization` of a split program owning
 * the pools; the reads it takes; and that every program type-checks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import { generate, ORGANIZATION_STACK, type GenerateResult, type SplitResult } from "../../src/generate";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import type { RunningServer } from "../../src/server";
import { generateBoth, seededServer, statementOf as declaredBy, typeErrors } from "./check";
import { workspaceName, type Seeded } from "./seed";
import { ALLOWED, EXCLUDED, seedAgentPools, type SeededPools } from "./seed-agent-pools";

const COUNT = 14;
const NO_CODE = 2;

let server: RunningServer;
let seeded: Seeded;
let pools: SeededPools;
let client: WorkspacesClient;
let dir: string;
let result: GenerateResult;
let reads: Record<string, number>;
let split: SplitResult;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(COUNT, NO_CODE));
  pools = await seedAgentPools(client, seeded);
  ({ dir, result, reads, split } = await generateBoth(server, client, "pw-generate-pools-"));
}, 90_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

/** The statement that declares the resource named `name`, on one line. */
const statementOf = (program: string, kind: string, name: string) =>
  declaredBy(program, kind, name).replace(/\s+/g, " ");
const names = (program: string, kind: string) =>
  [...program.matchAll(new RegExp(`new ${kind}\\("([^"]+)"`, "g"))].map((m) => m[1]).sort();
const ws = (i: number) => seeded.ids.get(workspaceName(i))!;

describe("generate with agent pools, their lists and tokens", () => {
  it("declares each pool with adopt: true, scoped only where the service's default is not", () => {
    expect(names(result.program, "AgentPool")).toEqual(["on-prem-pool", "private-pool"]);
    expect(statementOf(result.program, "AgentPool", "on-prem-pool")).toBe(
      'new AgentPool("on-prem-pool", { name: "on-prem", organization, adopt: true });',
    );
    expect(statementOf(result.program, "AgentPool", "private-pool")).toBe(
      'new AgentPool("private-pool", { name: "private", organization, organizationScoped: false, adopt: true });',
    );
    expect(result.program).toContain("export const privatePool = new AgentPool(");
  });

  it("refers to the generated pool from each workspace on it, never by a literal id", () => {
    expect(statementOf(result.program, "Workspace", workspaceName(0))).toContain(
      'executionMode: "agent", agentPoolId: onPremPool.id,',
    );
    expect(statementOf(result.program, "Workspace", workspaceName(ALLOWED[0]))).toContain(
      'executionMode: "agent", agentPoolId: privatePool.id,',
    );
    expect(result.program).not.toContain(pools.onPrem);
    expect(result.program).not.toContain(pools.private);
  });

  it("declares each list a pool has as the pool's whole list, by reference to the generated workspaces and projects", () => {
    expect(names(result.program, "AgentPoolAllowedWorkspaces")).toEqual(["private-allowed-workspaces"]);
    expect(statementOf(result.program, "AgentPoolAllowedWorkspaces", "private-allowed-workspaces")).toBe(
      'new AgentPoolAllowedWorkspaces("private-allowed-workspaces", { agentPoolId: privatePool.id, workspaceIds: [app10.id, app5.id] });',
    );
    expect(statementOf(result.program, "AgentPoolAllowedProjects", "private-allowed-projects")).toBe(
      'new AgentPoolAllowedProjects("private-allowed-projects", { agentPoolId: privatePool.id, projectIds: [dataProject.id] });',
    );
    expect(statementOf(result.program, "AgentPoolExcludedWorkspaces", "private-excluded-workspaces")).toBe(
      `new AgentPoolExcludedWorkspaces("private-excluded-workspaces", { agentPoolId: privatePool.id, workspaceIds: [app${EXCLUDED}.id] });`,
    );
    // The organization-scoped pool has no lists: none is declared (an absent list is not managed).
    expect(result.program).not.toMatch(/new AgentPool\w+\("on-prem-/);
    // The lists come after the workspaces they name.
    expect(result.program.indexOf("new AgentPoolAllowedWorkspaces(")).toBeGreaterThan(
      result.program.indexOf(`new Workspace("${workspaceName(10)}"`),
    );
  });

  it("declares each token to adopt by its description, says how to get a secret, and leaves out tokens that share one", () => {
    expect(names(result.program, "AgentToken")).toEqual([
      "on-prem-build-token",
      "on-prem-ci-runners-token",
      "private-vpc-agents-token",
    ]);
    expect(statementOf(result.program, "AgentToken", "on-prem-ci-runners-token")).toBe(
      'new AgentToken("on-prem-ci-runners-token", { agentPoolId: onPremPool.id, description: "ci runners", adopt: true });',
    );
    expect(result.program).toContain("// adopted token has no `token` output: to get one, set `rotation`");
    expect(result.tokensNotDeclared).toEqual([{ pool: "private", description: "old", ids: pools.shared }]);
    expect(result.readme).toContain("## Agent tokens not declared");
    expect(result.readme).toContain(`| private | "old" | ${pools.shared.map((id) => `\`${id}\``).join(", ")} |`);
    const imports = fs.readFileSync(result.importPath!, "utf8");
    for (const text of [result.program, result.readme, imports]) {
      for (const secret of pools.secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain(server.token);
    }
  });

  it("counts each kind, in the README too", () => {
    expect(result.counts).toMatchObject({ agentPools: 2, agentPoolLists: 3, agentTokens: 3 });
    expect(result.readme).toContain(
      "- 2 agent pools with 3 lists of who may use them (each the pool's whole list) and 3 agent tokens",
    );
  });

  it("lists each record in the bulk import file by an id of a form the import-id table documents", () => {
    const { resources } = JSON.parse(fs.readFileSync(result.importPath!, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const idsOf = (kind: string) =>
      resources
        .filter((r) => r.type === `workspaces:index:${kind}`)
        .map((r) => r.id)
        .sort();
    expect(idsOf("AgentPool")).toEqual([pools.onPrem, pools.private].sort());
    for (const kind of ["AgentPoolAllowedWorkspaces", "AgentPoolAllowedProjects", "AgentPoolExcludedWorkspaces"])
      expect(idsOf(kind)).toEqual([pools.private]);
    expect(idsOf("AgentToken")).toEqual(
      [
        `${pools.onPrem}/${pools.tokens.get("on-prem-build")!}`,
        `${pools.onPrem}/${pools.tokens.get("on-prem-ci runners")!}`,
        `${pools.private}/${pools.tokens.get("private-vpc agents")!}`,
      ].sort(),
    );
    const forms: Record<string, RegExp> = {
      AgentPool: /^apool-<id>$/,
      AgentPoolAllowedWorkspaces: /^apool-<id>$/,
      AgentToken: /^apool-<id>\/at-<id>$/,
    };
    for (const [kind, form] of Object.entries(forms))
      expect(
        IMPORT_IDS[kind]?.forms.some((f) => form.test(f.form)),
        kind,
      ).toBe(true);
  });

  it("reads the pools in one list and each pool's tokens in one more, and writes nothing", () => {
    expect(Object.keys(reads).filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect(reads["GET /api/v2/organizations/:organization_name/agent-pools"]).toBe(1);
    expect(reads["GET /api/v2/agent-pools/:id/authentication-tokens"]).toBe(2);
    expect(reads["GET /api/v2/agent-pools/:id"]).toBeUndefined();
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([result.programPath])).toEqual([]);
  }, 60_000);

  it("for one project, names the pools by id without declaring them, and reads no tokens", async () => {
    const before = server.stats().byRoute["GET /api/v2/agent-pools/:id/authentication-tokens"] ?? 0;
    const r = await generate({ client, projectId: seeded.projects[1], out: path.join(dir, "project", "index.ts") });
    expect(server.stats().byRoute["GET /api/v2/agent-pools/:id/authentication-tokens"] ?? 0).toBe(before);
    expect(r.program).not.toMatch(/new AgentPool|new AgentToken/);
    expect(statementOf(r.program, "Workspace", workspaceName(ALLOWED[0]))).toContain(
      `agentPoolId: "${pools.private}" /* agent pool private */`,
    );
    expect(r.counts).toMatchObject({ agentPools: 0, agentPoolLists: 0, agentTokens: 0 });
    expect(typeErrors([r.programPath])).toEqual([]);
  }, 60_000);
});

describe("generate --split-by project with agent pools", () => {
  const file = (name: string) => fs.readFileSync(path.join(split.dir, name), "utf8");
  const stack = (name: string) => split.stacks.find((s) => s.name === name)!;

  it("gives stack organization the pools, their lists and tokens; a workspace's stack names its pool by id", () => {
    const organization = file(stack(ORGANIZATION_STACK).file);
    expect(names(organization, "AgentPool")).toEqual(["on-prem-pool", "private-pool"]);
    expect(names(organization, "AgentToken")).toHaveLength(3);
    // The list names workspaces of other stacks by id, each with the stack that owns it.
    expect(statementOf(organization, "AgentPoolAllowedWorkspaces", "private-allowed-workspaces")).toContain(
      `"${ws(ALLOWED[0])}" /* ${workspaceName(ALLOWED[0])}, stack payments */`,
    );
    expect(statementOf(organization, "AgentPoolAllowedProjects", "private-allowed-projects")).toContain(
      `projectIds: ["${seeded.projects[2]}" /* project data, stack data */]`,
    );
    const payments = file(stack("payments").file);
    expect(payments).not.toMatch(/new AgentPool/);
    expect(statementOf(payments, "Workspace", workspaceName(ALLOWED[0]))).toContain(
      `agentPoolId: "${pools.private}" /* agent pool private, stack organization */`,
    );
    expect(split.counts).toMatchObject(result.counts);
    for (const f of split.written) for (const secret of pools.secrets) expect(file(f)).not.toContain(secret);
    expect(file("README.md")).toContain("## Agent tokens not declared");
  });

  it("type-checks, every stack file", () => {
    expect(typeErrors(split.stacks.map((s) => path.join(split.dir, s.file)))).toEqual([]);
  }, 60_000);
});
