/**
 * The generator and variables against the real server: each plain workspace's own
 * variables as one additive `WorkspaceVariables`, every variable set with its variables and
 * an application per place it applies, a secret stack config key (named in the README with
 * its command) for each sensitive value it cannot read, the bulk import file's ids, one
 * project's program, and which stack of a split program owns each set.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import { generate, generateSplit, ORGANIZATION_STACK, type GenerateResult, type SplitResult } from "../../src/generate";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import type { RunningServer } from "../../src/server";
import { seededServer, statementOf as declaredBy, typeErrors } from "./check";
import { workspaceName, type Seeded } from "./seed";
import { seedVariables, type SeededVariables } from "./seed-variables";

let server: RunningServer;
let seeded: Seeded;
let vars: SeededVariables;
let client: WorkspacesClient;
let dir: string;
let result: GenerateResult;
let split: SplitResult;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(16, 4));
  vars = await seedVariables(client, seeded);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-generate-vars-"));
  result = await generate({
    client,
    out: path.join(dir, "one", "index.ts"),
    importFile: path.join(dir, "one", "import.json"),
  });
  split = await generateSplit({ client, out: path.join(dir, "split") });
}, 90_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

/** The statement that declares the resource named `name`, on one line. */
const statementOf = (program: string, kind: string, name: string) =>
  declaredBy(program, kind, name).replace(/\s+/g, " ");

const setOf = (name: string) => vars.sets.find((s) => s.name === name)!;
const idOf = (name: string) => seeded.ids.get(name)!;

describe("generate with variables and variable sets", () => {
  it("declares each plain workspace's own variables as one WorkspaceVariables with adopt: true", () => {
    expect(result.counts).toMatchObject({ workspaceVariables: 3, variableSets: 5, variableSetApplications: 5 });
    const first = statementOf(result.program, "WorkspaceVariables", `${workspaceName(0)}-variables`);
    expect(first).toContain("workspaceId: app0.id");
    expect(first).toContain('{ key: "AWS_REGION", value: "eu-west-1", category: "env" }');
    expect(first).toContain('{ key: "instance_count", value: "3", category: "engine", description: "how many", }');
    expect(first).toContain('{ key: "labels", value: "{ team = \\"a\\" }", category: "engine", hcl: true }');
    expect(first).toContain("adopt: true");
    const second = statementOf(result.program, "WorkspaceVariables", `${workspaceName(1)}-variables`);
    // One key in both categories: two variables, engine first.
    expect(second).toMatch(
      /key: "region", value: "us-east-1", category: "engine".*key: "region", value: "us-east-1-env", category: "env"/,
    );
    expect(second).toContain(
      `{ key: "DB_PASSWORD", value: config.requireSecret("${workspaceName(1)}-DB-PASSWORD"), category: "env", sensitive: true, }`,
    );
    // A module-made workspace's variables stay its NoCodeWorkspace's.
    for (const name of seeded.noCodeNames) expect(result.program).not.toContain(`"${name}-variables"`);
    const withLists = [...result.program.matchAll(/new WorkspaceVariables\("([^"]+)"/g)].map((m) => m[1]);
    expect(withLists.sort()).toEqual([...vars.own.keys()].map((n) => `${n}-variables`).sort());
  });

  it("declares every variable set with its variables and flags, and an application per place it applies", () => {
    const creds = statementOf(result.program, "VariableSet", "aws-credentials");
    expect(creds).toMatch(
      /^new VariableSet\("aws-credentials", \{ name: "aws-credentials", organization, variables: \[/,
    );
    expect(creds).toContain('{ key: "AWS_ACCESS_KEY_ID", value: "AKIAEXAMPLE", category: "env" }');
    expect(creds).toContain(
      'value: config.requireSecret("varset-aws-credentials-AWS-SECRET-ACCESS-KEY"), category: "env", sensitive: true,',
    );
    expect(result.program).toContain("export const awsCredentialsVarset = new VariableSet(");
    expect(statementOf(result.program, "VariableSet", "org-defaults")).toContain("global: true");
    expect(statementOf(result.program, "VariableSet", "payments-priority")).toContain("priority: true");
    const unused = statementOf(result.program, "VariableSet", "unused");
    expect(unused).toContain('description: "kept for later"');
    expect(unused).not.toContain("variables:");

    // A project the program declares, by reference; applications are named by the project's name.
    expect(statementOf(result.program, "VariableSetApplication", "aws-credentials-platform")).toBe(
      `new VariableSetApplication("aws-credentials-platform", { variableSetId: awsCredentialsVarset.id, projectId: platformProject.id, adopt: true, });`,
    );
    expect(statementOf(result.program, "VariableSetApplication", `shared-tools-${workspaceName(2)}`)).toContain(
      "workspaceId: app2.id",
    );
    const applications = [...result.program.matchAll(/new VariableSetApplication\("([^"]+)"/g)].map((m) => m[1]);
    expect(applications.sort()).toEqual(
      [
        "aws-credentials-platform",
        "payments-priority-payments",
        `payments-priority-${workspaceName(5)}`,
        `shared-tools-${workspaceName(1)}`,
        `shared-tools-${workspaceName(2)}`,
      ].sort(),
    );
  });

  it("asks for every sensitive value as a secret config key, each named in the README with its command", () => {
    expect(result.secrets.filter((s) => s.variableSet || vars.own.has(s.workspace!))).toEqual([
      { key: `${workspaceName(1)}-DB-PASSWORD`, workspace: workspaceName(1), variable: "DB_PASSWORD" },
      { key: `${workspaceName(2)}-api-token`, workspace: workspaceName(2), variable: "api_token" },
      {
        key: "varset-aws-credentials-AWS-SECRET-ACCESS-KEY",
        variableSet: "aws-credentials",
        variable: "AWS_SECRET_ACCESS_KEY",
      },
    ]);
    for (const s of result.secrets) {
      expect(result.program).toContain(`config.requireSecret(${JSON.stringify(s.key)})`);
      expect(result.readme).toContain(`pulumi config set --secret ${s.key} '<value of ${s.variable}>'`);
    }
    expect(result.readme).toContain(
      "| `varset-aws-credentials-AWS-SECRET-ACCESS-KEY` | variable set aws-credentials | AWS_SECRET_ACCESS_KEY |",
    );
    const imports = fs.readFileSync(result.importPath!, "utf8");
    for (const text of [result.program, result.readme, imports]) {
      for (const secret of vars.secretValues) expect(text).not.toContain(secret);
      expect(text).not.toContain(server.token);
    }
  });

  it("lists the new resources in the bulk import file by their documented import ids", () => {
    const { resources } = JSON.parse(fs.readFileSync(result.importPath!, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const of = (kind: string) => resources.filter((r) => r.type === `workspaces:index:${kind}`);
    expect(of("WorkspaceVariables")).toContainEqual({
      type: "workspaces:index:WorkspaceVariables",
      name: `${workspaceName(0)}-variables`,
      id: `${idOf(workspaceName(0))}/variables`,
    });
    expect(of("VariableSet").map((r) => [r.name, r.id])).toContainEqual([
      "aws-credentials",
      setOf("aws-credentials").id,
    ]);
    expect(
      of("VariableSetApplication")
        .map((r) => r.id)
        .sort(),
    ).toEqual(
      [
        `${setOf("aws-credentials").id}/${seeded.projects[0]}`,
        `${setOf("payments-priority").id}/${seeded.projects[1]}`,
        `${setOf("payments-priority").id}/${idOf(workspaceName(5))}`,
        `${setOf("shared-tools").id}/${idOf(workspaceName(1))}`,
        `${setOf("shared-tools").id}/${idOf(workspaceName(2))}`,
      ].sort(),
    );
    // Each id has a form the import-id table documents for its resource.
    const shapes: Record<string, RegExp> = {
      "ws-<id>/variables": /^ws-[^/]+\/variables$/,
      "varset-<id>": /^varset-[^/]+$/,
      "varset-<id>/ws-<id>": /^varset-[^/]+\/ws-[^/]+$/,
      "varset-<id>/prj-<id>": /^varset-[^/]+\/prj-[^/]+$/,
    };
    for (const kind of ["WorkspaceVariables", "VariableSet", "VariableSetApplication"]) {
      const forms = IMPORT_IDS[kind].forms.map((f) => f.form).filter((f) => f in shapes);
      for (const r of of(kind))
        expect(
          forms.some((f) => shapes[f].test(r.id)),
          `${kind} ${r.id}`,
        ).toBe(true);
    }
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([result.programPath])).toEqual([]);
  }, 60_000);

  it("for one project, writes only the sets that apply within it", async () => {
    const r = await generate({ client, projectId: seeded.projects[0], out: path.join(dir, "project", "index.ts") });
    const sets = [...r.program.matchAll(/new VariableSet\("([^"]+)"/g)].map((m) => m[1]);
    expect(sets).toEqual(["aws-credentials"]);
    expect(r.program).toContain(`"${workspaceName(0)}-variables"`);
  });
});

describe("generate --split-by project with variable sets", () => {
  const file = (name: string) => fs.readFileSync(path.join(split.dir, name), "utf8");
  const stack = (name: string) => split.stacks.find((s) => s.name === name)!;

  it("gives a set applied within one project to that project's stack, and the others to stack organization", () => {
    const owner = (set: string) =>
      split.stacks.filter((s) => s.variableSetIds.includes(setOf(set).id)).map((s) => s.name);
    expect(owner("aws-credentials")).toEqual(["platform"]);
    expect(owner("payments-priority")).toEqual(["payments"]);
    for (const set of ["org-defaults", "shared-tools", "unused"]) expect(owner(set), set).toEqual([ORGANIZATION_STACK]);
    expect(file(stack("platform").file)).toContain('new VariableSet("aws-credentials",');
    // Its application to a workspace of its own stack by reference, to one of another stack by id.
    const payments = file(stack("payments").file);
    expect(statementOf(payments, "VariableSetApplication", `payments-priority-${workspaceName(5)}`)).toContain(
      "workspaceId: app5.id",
    );
    const organization = file(stack(ORGANIZATION_STACK).file);
    expect(statementOf(organization, "VariableSetApplication", `shared-tools-${workspaceName(1)}`)).toContain(
      `workspaceId: "${idOf(workspaceName(1))}" /* ${workspaceName(1)}, stack payments */`,
    );
    // Project applications name the project, by its name.
    expect(organization).not.toContain("new WorkspaceVariables(");
    expect(file(stack("platform").file)).toContain(`new VariableSetApplication("aws-credentials-platform",`);
  });

  it("owns each workspace's variables in the workspace's stack, and lists each stack's secrets in the README", () => {
    expect(file(stack("platform").file)).toContain(`new WorkspaceVariables("${workspaceName(0)}-variables",`);
    expect(file(stack("payments").file)).toContain(`new WorkspaceVariables("${workspaceName(1)}-variables",`);
    const readme = file("README.md");
    expect(readme).toContain(
      "| `platform` | `varset-aws-credentials-AWS-SECRET-ACCESS-KEY` | variable set aws-credentials | AWS_SECRET_ACCESS_KEY |",
    );
    expect(readme).toContain(
      `pulumi config set --secret --stack payments ${workspaceName(1)}-DB-PASSWORD '<value of DB_PASSWORD>'`,
    );
    for (const f of split.written) for (const secret of vars.secretValues) expect(file(f)).not.toContain(secret);
  });

  it("type-checks, every stack file", () => {
    expect(typeErrors(split.stacks.map((s) => path.join(split.dir, s.file)))).toEqual([]);
  }, 60_000);
});
