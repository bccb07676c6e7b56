/**
 * The generator and the service's own policies, against the real server: each policy adopted
 * with its code written, byte for byte, in a file beside the program (`codeFile`); each set
 * adopted with its policies by reference, where it applies (the set's whole lists, by
 * reference to the generated workspaces and projects), its parameters (a sensitive value
 * from secret stack config, never written); stack `organization` of a split program owning
 * them; a program of one project declaring none; the reads it takes; and that every program
 * type-checks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import { fakeClient } from "../client/fake-service";
import { startOtfLike } from "../client/otf-like";
import { generate, ORGANIZATION_STACK, type GenerateResult, type SplitResult } from "../../src/generate";
import type { RunningServer } from "../../src/server";
import { generateBoth, runCli, seededServer, statementOf as declaredBy, typeErrors } from "./check";
import { workspaceName, type Seeded } from "./seed";
import { CODE, EXCLUDED, LISTED, SENSITIVE_VALUE, seedPolicies, type SeededPolicies } from "./seed-policies";

let server: RunningServer;
let seeded: Seeded;
let seededPolicies: SeededPolicies;
let client: WorkspacesClient;
let dir: string;
let result: GenerateResult;
let reads: Record<string, number>;
let split: SplitResult;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(8, 2));
  seededPolicies = await seedPolicies(client, seeded);
  ({ dir, result, reads, split } = await generateBoth(server, client, "pw-generate-policies-"));
}, 90_000);

afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

/** The statement that declares the resource named `name`, on one line. */
const statementOf = (program: string, kind: string, name: string) =>
  declaredBy(program, kind, name)
    .replace(/\s+/g, " ")
    .replace(/, ([}\]])/g, " $1");
const names = (program: string, kind: string) =>
  [...program.matchAll(new RegExp(`new ${kind}\\("([^"]+)"`, "g"))].map((m) => m[1]).sort();
const ident = (i: number) => workspaceName(i).replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe("generate with the service's policies", () => {
  it("declares each policy with adopt: true and its code in a file beside the program, written byte for byte", () => {
    expect(names(result.program, "Policy")).toEqual(["cost.limit-policy", "deny-public-policy", "no-admins-policy"]);
    expect(statementOf(result.program, "Policy", "deny-public-policy")).toBe(
      'new Policy("deny-public-policy", { name: "deny-public", organization, description: "No public buckets", ' +
        'enforcementLevel: "hard-mandatory", codeFile: "policies/deny-public.sentinel", adopt: true });',
    );
    expect(statementOf(result.program, "Policy", "no-admins-policy")).toBe(
      'new Policy("no-admins-policy", { name: "no-admins", organization, kind: "opa", query: "data.terraform.policies.deny", ' +
        'enforcementLevel: "mandatory", codeFile: "policies/no-admins.rego", adopt: true });',
    );
    expect(result.files).toEqual({
      "policies/cost.limit.sentinel": CODE["cost.limit"],
      "policies/deny-public.sentinel": CODE["deny-public"],
      "policies/no-admins.rego": CODE["no-admins"],
    });
    for (const [file, code] of Object.entries(result.files))
      expect(fs.readFileSync(path.join(dir, "one", file), "utf8")).toBe(code);
    expect(result.filePaths.sort()).toEqual(Object.keys(result.files).map((f) => path.join(dir, "one", f)));
  });

  it("leaves out a policy without code, says so, and names it by id in its set", () => {
    expect(result.program).toContain(
      `// Policy "draft" (${seededPolicies.policies.get("draft")}) has no code on the service: not declared.`,
    );
    expect(statementOf(result.program, "PolicySet", "baseline-policy-set")).toBe(
      'new PolicySet("baseline-policy-set", { name: "baseline", organization, description: "What every workspace must pass", ' +
        `policyIds: [costLimitPolicy.id, denyPublicPolicy.id, "${seededPolicies.policies.get("draft")}"], adopt: true });`,
    );
  });

  it("declares each set with what differs from the defaults; a versioned set without its policies", () => {
    expect(statementOf(result.program, "PolicySet", "opa-guard-policy-set")).toBe(
      'new PolicySet("opa-guard-policy-set", { name: "opa-guard", organization, kind: "opa", overridable: true, global: true, ' +
        "policyIds: [noAdminsPolicy.id], adopt: true });",
    );
    expect(statementOf(result.program, "PolicySet", "versioned-policy-set")).toBe(
      'new PolicySet("versioned-policy-set", { name: "versioned", organization, adopt: true });',
    );
    expect(result.program).toContain(
      "// Policy sets. A set whose policies come from a version (uploaded, or from VCS)",
    );
    // The sets refer to the policies, declared before them.
    expect(result.program.indexOf("export const noAdminsPolicy = new Policy(")).toBeLessThan(
      result.program.indexOf('new PolicySet("opa-guard-policy-set"'),
    );
  });

  it("declares parameters: a plain value as it is, a sensitive one from secret config it never writes", () => {
    expect(statementOf(result.program, "PolicySetParameter", "versioned-region")).toBe(
      'new PolicySetParameter("versioned-region", { policySetId: versionedPolicySet.id, key: "region", value: "eu-west-1", adopt: true });',
    );
    expect(statementOf(result.program, "PolicySetParameter", "versioned-api_key")).toBe(
      'new PolicySetParameter("versioned-api_key", { policySetId: versionedPolicySet.id, key: "api_key", ' +
        'value: config.requireSecret("polset-versioned-api-key"), sensitive: true, adopt: true });',
    );
    expect(result.program).toContain("// stack config that you set before `pulumi up` (README.md lists the keys)");
    expect(result.secrets).toContainEqual({
      key: "polset-versioned-api-key",
      policySet: "versioned",
      variable: "api_key",
    });
    expect(result.readme).toContain("| `polset-versioned-api-key` | policy set versioned | api_key |");
    expect(result.readme).toContain("pulumi config set --secret polset-versioned-api-key '<value of api_key>'");
    const imports = fs.readFileSync(result.importPath!, "utf8");
    for (const text of [result.program, result.readme, imports, ...Object.values(result.files)]) {
      expect(text).not.toContain(SENSITIVE_VALUE);
      expect(text).not.toContain(server.token);
    }
  });

  it("declares where each set applies as the set's whole lists, by reference to the generated workspaces and projects", () => {
    const ws = LISTED.map(ident).sort();
    expect(statementOf(result.program, "PolicySetWorkspaces", "baseline-workspaces")).toBe(
      `new PolicySetWorkspaces("baseline-workspaces", { policySetId: baselinePolicySet.id, workspaceIds: [${ws.map((w) => `${w}.id`).join(", ")}] });`,
    );
    expect(statementOf(result.program, "PolicySetProjects", "baseline-projects")).toBe(
      'new PolicySetProjects("baseline-projects", { policySetId: baselinePolicySet.id, projectIds: [paymentsProject.id] });',
    );
    expect(statementOf(result.program, "PolicySetWorkspaceExclusions", "baseline-workspace-exclusions")).toBe(
      `new PolicySetWorkspaceExclusions("baseline-workspace-exclusions", { policySetId: baselinePolicySet.id, workspaceIds: [${ident(EXCLUDED)}.id] });`,
    );
    expect(statementOf(result.program, "PolicySetProjectExclusions", "baseline-project-exclusions")).toBe(
      'new PolicySetProjectExclusions("baseline-project-exclusions", { policySetId: baselinePolicySet.id, projectIds: [edgeProject.id] });',
    );
    // No list is declared that the set does not have (an absent list is not managed).
    expect(result.program).not.toMatch(/new PolicySet(Workspace|Project)\w*\("(opa-guard|versioned)-/);
    // The lists come after the workspaces they name.
    expect(result.program.indexOf("new PolicySetWorkspaces(")).toBeGreaterThan(
      result.program.indexOf(`new Workspace("${workspaceName(LISTED[1])}"`),
    );
  });

  it("counts each kind, in the README too, and lists each record in the bulk import file", () => {
    expect(result.counts).toMatchObject({ policies: 3, policySets: 3, policySetParameters: 2, policySetLists: 4 });
    expect(result.readme).toContain(
      "- 3 policies, each with its code in a file under `policies/` (`codeFile`: edit the file to change the code), and 3 policy sets with 2 parameters and 4 lists",
    );
    const { resources } = JSON.parse(fs.readFileSync(result.importPath!, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const idOf = (name: string) => resources.find((r) => r.name === name)?.id;
    expect(idOf("deny-public-policy")).toBe(seededPolicies.policies.get("deny-public"));
    expect(idOf("baseline-policy-set")).toBe(seededPolicies.sets.get("baseline"));
    expect(idOf("baseline-workspaces")).toBe(seededPolicies.sets.get("baseline"));
    expect(idOf("versioned-region")).toBe(
      `${seededPolicies.sets.get("versioned")}/${seededPolicies.parameters.get("region")}`,
    );
  });

  it("reads the policies and sets in one list each, each policy's code and each set's parameters once, and writes nothing", () => {
    expect(Object.keys(reads).filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect(reads["GET /api/v2/organizations/:organization_name/policies"]).toBe(1);
    expect(reads["GET /api/v2/policies/:id/download"]).toBe(4);
    // The policy without code: its download answers 404, and a read tells that from a policy gone.
    expect(reads["GET /api/v2/policies/:id"]).toBe(1);
    expect(reads["GET /api/v2/organizations/:organization_name/policy-sets"]).toBe(1);
    expect(reads["GET /api/v2/policy-sets/:policy_set_id/parameters"]).toBe(3);
    expect(
      Object.keys(reads).filter((r) => r.startsWith("GET /api/v2/policy-sets/:") && !r.endsWith("/parameters")),
    ).toEqual([]);
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([result.programPath])).toEqual([]);
  }, 60_000);

  it("for one project, declares no policy nor set, and reads none", async () => {
    const before = server.stats().byRoute["GET /api/v2/organizations/:organization_name/policies"] ?? 0;
    const r = await generate({ client, projectId: seeded.projects[1], out: path.join(dir, "project", "index.ts") });
    expect(server.stats().byRoute["GET /api/v2/organizations/:organization_name/policies"] ?? 0).toBe(before);
    expect(r.program).not.toMatch(/new Policy/);
    expect(r.files).toEqual({});
    expect(fs.existsSync(path.join(dir, "project", "policies"))).toBe(false);
  });

  it("says on the command line where it wrote the policies' code", async () => {
    const out = path.join(dir, "cli", "index.ts");
    const r = await runCli(["generate", "--organization", server.organization, "--out", out], {
      WORKSPACES_ADDRESS: server.url,
      WORKSPACES_TOKEN: server.token,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `wrote the code of 3 policies in ${path.join(dir, "cli", "policies")} (each Policy's codeFile)`,
    );
    expect(fs.readFileSync(path.join(dir, "cli", "policies", "no-admins.rego"), "utf8")).toBe(CODE["no-admins"]);
  });

  it("refuses to overwrite a code file that exists, before writing anything, unless forced", async () => {
    const out = path.join(dir, "again", "index.ts");
    fs.mkdirSync(path.join(dir, "again", "policies"), { recursive: true });
    fs.writeFileSync(path.join(dir, "again", "policies", "no-admins.rego"), "mine");
    await expect(generate({ client, out })).rejects.toThrow(
      `${path.join(dir, "again", "policies", "no-admins.rego")} exists; choose another --out, or pass --force to replace it`,
    );
    expect(fs.existsSync(out)).toBe(false);
    await generate({ client, out, force: true });
    expect(fs.readFileSync(path.join(dir, "again", "policies", "no-admins.rego"), "utf8")).toBe(CODE["no-admins"]);
  });
});

describe("generate --split-by project with the service's policies", () => {
  const file = (name: string) => fs.readFileSync(path.join(split.dir, name), "utf8");

  it("gives stack organization the policies, sets, parameters and lists; their code sits at the folder's root", () => {
    const organization = file(split.stacks.find((s) => s.name === ORGANIZATION_STACK)!.file);
    expect(names(organization, "Policy")).toHaveLength(3);
    expect(names(organization, "PolicySet")).toEqual([
      "baseline-policy-set",
      "opa-guard-policy-set",
      "versioned-policy-set",
    ]);
    expect(names(organization, "PolicySetParameter")).toEqual(["versioned-api_key", "versioned-region"]);
    // A list names the workspaces and projects of other stacks by id, each with the stack that owns it.
    expect(statementOf(organization, "PolicySetProjects", "baseline-projects")).toContain(
      `projectIds: ["${seeded.projects[1]}" /* project payments, stack payments */]`,
    );
    for (const s of split.stacks.filter((s) => s.projectId)) expect(file(s.file)).not.toMatch(/new Policy/);
    for (const [f, code] of Object.entries(result.files)) {
      expect(split.written).toContain(f);
      expect(file(f)).toBe(code);
    }
    expect(split.counts).toMatchObject({ policies: 3, policySets: 3, policySetParameters: 2, policySetLists: 4 });
    for (const f of split.written) expect(file(f)).not.toContain(SENSITIVE_VALUE);
    expect(split.secrets.map((s) => s.key)).toContain("polset-versioned-api-key");
  });

  it("type-checks, every stack file", () => {
    expect(typeErrors(split.stacks.map((s) => path.join(split.dir, s.file)))).toEqual([]);
  }, 60_000);
});

describe("generate on a server that offers no policies (as OTF answers)", () => {
  it("declares none and writes no code file, and still writes the rest", async () => {
    const otf = await startOtfLike();
    try {
      const otfClient = fakeClient(otf.service, { rateLimit: false });
      await otfClient.workspaces.create("acme", { name: "web" });
      const out = path.join(dir, "otf", "index.ts");
      const r = await generate({ client: otfClient, organization: "acme", out });
      expect(r.program).toContain('new Workspace("web"');
      expect(r.program).not.toMatch(/new Policy/);
      expect(r.counts).toMatchObject({ policies: 0, policySets: 0, policySetParameters: 0, policySetLists: 0 });
      expect(r.files).toEqual({});
      expect(fs.existsSync(path.join(dir, "otf", "policies"))).toBe(false);
    } finally {
      await otf.close();
    }
  });
});
