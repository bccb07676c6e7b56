/**
 * `generate --split-by project` against the real server: one program whose stacks each own
 * one project's workspaces (every workspace in exactly one stack, named by the stack's
 * config), the no-code modules in stack `organization`, references across stacks by id,
 * the files beside it (stack config, driver, CI workflow, README), that it type-checks
 * against this package, that it is stable, and what the command line and the driver say
 * when they are misused.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import {
  generateSplit,
  ORGANIZATION_STACK,
  PROJECT_CONFIG_KEY,
  readOrganization,
  renderSplit,
  type SplitResult,
} from "../../src/generate";
import type { RunningServer } from "../../src/server";
import { runCli, seededServer, statementOf, typeErrors } from "./check";
import { workspaceName, type Seeded } from "./seed";
import { PROJECT_NAMES } from "./seed-access";

let server: RunningServer;
let seeded: Seeded;
let client: WorkspacesClient;
let dir: string;
let result: SplitResult;

const COUNT = 30;
const NO_CODE = 6;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(COUNT, NO_CODE));
  // app-4 is in app-0's project: a consumer within one stack.
  await client.remoteStateConsumers.add(seeded.ids.get(workspaceName(0))!, [seeded.ids.get(workspaceName(4))!]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-split-"));
  result = await generateSplit({ client, out: path.join(dir, "program") });
}, 60_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

const file = (name: string) => fs.readFileSync(path.join(result.dir, name), "utf8");
/** Names of the workspaces a program file declares (as a Workspace or a NoCodeWorkspace). */
const declared = (text: string) =>
  [...text.matchAll(/new (?:NoCode)?Workspace\("([^"]+)",/g)].map((m) => m[1]).filter((n) => seeded.ids.has(n));
describe("generate --split-by project", () => {
  it("makes a stack per project, named after it, and one for the organization, each named by its config", () => {
    expect(result.stacks.map((s) => s.name)).toEqual([ORGANIZATION_STACK, ...[...PROJECT_NAMES].sort()]);
    for (const s of result.stacks) {
      const expected = s.projectId ?? ORGANIZATION_STACK;
      if (s.projectId) expect(seeded.projects[PROJECT_NAMES.indexOf(s.name)]).toBe(s.projectId);
      expect(file(`Pulumi.${s.name}.yaml`)).toContain(`\n  ${PROJECT_CONFIG_KEY}: ${expected}\n`);
      // index.ts loads this stack's file for that value, and no other file.
      expect(file("index.ts")).toMatch(new RegExp(`\\n  "?${expected}"?: "${s.name}", // `));
    }
    expect(file("index.ts").match(/^ {2}"?[\w-]+"?: "[\w.-]+", \/\/ /gm)).toHaveLength(result.stacks.length);
  });

  it("declares every workspace in exactly one stack, the stack of its project", async () => {
    const seen = new Map<string, string[]>();
    for (const s of result.stacks) {
      for (const name of declared(file(s.file))) seen.set(name, [...(seen.get(name) ?? []), s.name]);
    }
    expect([...seen.keys()].sort()).toEqual([...seeded.ids.keys()].sort());
    for (const [name, stacks] of seen) expect(stacks, name).toHaveLength(1);
    // The project each is in on the service is the one its stack's config names.
    for (const [name, [stack]] of seen) {
      const projectId = (await client.workspaces.read(seeded.ids.get(name)!)).projectId;
      expect(result.stacks.find((s) => s.name === stack)!.projectId, name).toBe(projectId);
    }
    expect(result.counts).toEqual({
      workspaces: COUNT - NO_CODE,
      noCodeModules: 2,
      noCodeWorkspaces: NO_CODE,
      consumers: seeded.consumers.size,
      workspaceVariables: 0,
      variableSets: 0,
      variableSetApplications: 0,
      projects: 4,
      teams: 0,
      teamProjectAccess: 0,
      teamWorkspaceAccess: 0,
      runTriggers: 0,
      notificationConfigurations: 0,
      agentPools: 1,
      agentPoolLists: 0,
      agentTokens: 0,
      workspaceSettings: 1,
      policies: 0,
      policySets: 0,
      policySetParameters: 0,
      policySetLists: 0,
      organizationMemberships: 0,
      teamMembers: 0,
      teamTokens: 0,
      organizationTokens: 0,
    });
    // Each project in its own stack, declared once.
    for (const s of result.stacks.filter((s) => s.projectId))
      expect(file(s.file).match(/new Project\(/g), s.name).toHaveLength(1);
    expect(result.stacks.reduce((n, s) => n + s.workspaceIds.length, 0)).toBe(COUNT);
  });

  it("keeps the no-code modules in stack organization, and names a module of another stack by id", () => {
    const org = file(`stacks/${ORGANIZATION_STACK}.ts`);
    expect(org.match(/new NoCodeModule\(/g)).toHaveLength(2);
    for (const s of result.stacks.filter((s) => s.projectId)) expect(file(s.file)).not.toContain("new NoCodeModule(");
    const net = seeded.noCodeNames.find((n) => n.startsWith("net-"))!;
    const owner = result.stacks.find((s) => declared(file(s.file)).includes(net))!;
    expect(owner.projectId).toBeDefined();
    const network = seeded.modules.find((m) => m.name === "network")!;
    expect(statementOf(file(owner.file), "NoCodeWorkspace", net)).toContain(
      `noCodeModuleId: ${JSON.stringify(network.id)} /* network-aws, stack ${ORGANIZATION_STACK} */,`,
    );
  });

  it("names a consumer in another project by id with its stack, and one in the same project by reference", () => {
    // app-0 (platform) is read by app-4 (platform), app-1 (payments), app-2 (data) and a module-made workspace.
    const platform = file("stacks/platform.ts");
    const consumers = statementOf(platform, "RemoteStateConsumers", `${workspaceName(0)}-consumers`);
    expect(consumers).toContain("workspaceId: app0.id");
    expect(consumers).toMatch(/consumerIds: \[\s*app4\.id,/);
    expect(consumers).toContain(`${JSON.stringify(seeded.ids.get(workspaceName(1)))} /* app-1, stack payments */`);
    expect(consumers).toContain(`${JSON.stringify(seeded.ids.get(workspaceName(2)))} /* app-2, stack data */`);
    // No identifier of another stack's file is used: references stay within a stack.
    for (const s of result.stacks) {
      const text = file(s.file);
      const defined = new Set([...text.matchAll(/export const (\w+) = /g)].map((m) => m[1]));
      for (const m of text.matchAll(/\b(\w+)\.id\b/g)) expect(defined, `${m[1]} in ${s.file}`).toContain(m[1]);
    }
  });

  it("type-checks, every stack file and the index, against this package (as built in dist/)", () => {
    const roots = ["index.ts", ...result.stacks.map((s) => s.file)].map((f) => path.join(result.dir, f));
    expect(typeErrors(roots, (f) => f.startsWith(result.dir))).toEqual([]);
  }, 60_000);

  it("asks each stack for its own sensitive values, listed by stack in the README, and writes no secret", () => {
    expect(result.secrets.map((s) => s.key).sort()).toEqual(
      [...seeded.passwords.keys()].map((n) => `${n}-password`).sort(),
    );
    const readme = file("README.md");
    for (const s of result.stacks) {
      expect(readme).toContain(`| \`${s.name}\` |`);
      for (const k of s.secrets) {
        expect(file(s.file)).toContain(`config.requireSecret("${k.key}")`);
        expect(readme).toContain(`pulumi config set --secret --stack ${s.name} ${k.key}`);
      }
    }
    for (const f of result.written) {
      const text = file(f);
      expect(text, f).not.toContain(server.token);
      for (const pw of seeded.passwords.values()) expect(text, f).not.toContain(pw);
    }
  });

  it("writes a CI workflow: organization first, then a matrix of the project stacks at bounded parallelism", () => {
    const wf = file(".github/workflows/workspaces-stacks.yml");
    const matrix = wf.slice(wf.indexOf("        stack:\n"));
    const listed = [...matrix.matchAll(/^ {10}- ([\w.-]+) #/gm)].map((m) => m[1]);
    expect(listed).toEqual(result.stacks.filter((s) => s.projectId).map((s) => s.name));
    expect(wf).toMatch(/\n  organization:\n/);
    expect(wf).toContain("    needs: organization\n");
    expect(wf).toMatch(/rate limit[\s\S]*\n {6}max-parallel: 3\n/);
    expect(wf).toContain("WORKSPACES_TOKEN: ${{ secrets.WORKSPACES_TOKEN }}");
    expect(wf).toMatch(/pull_request[\s\S]*pulumi preview --stack[\s\S]*pulumi up --stack/);
    expect(wf).not.toMatch(/\t/);
  });

  it("names stacks validly and uniquely, and gives workspaces without a project to stack organization", async () => {
    const snapshot = await readOrganization(client, { organization: server.organization });
    const [first, second] = seeded.projects;
    const r = renderSplit(
      {
        ...snapshot,
        // A project named like the organization's stack, one whose name is not a stack name, and no module.
        projects: [
          { id: first, name: "Organization", description: null, isDefault: false, teamAccess: [] },
          { id: second, name: "Data Set / EU", description: null, isDefault: false, teamAccess: [] },
        ],
        modules: [],
        workspaces: snapshot.workspaces
          .filter((w) => !w.noCodeModuleId)
          .map((w) =>
            w.workspace.name === workspaceName(3) ? { ...w, workspace: { ...w.workspace, projectId: null } } : w,
          ),
      },
      { packageRange: "^0.0.0" },
    );
    const names = r.stacks.map((s) => s.name);
    expect(names.slice(0, 3)).toEqual(["organization", "data-set-eu", "organization-2"]);
    // The other two projects have no name in this snapshot: their stacks are named by id.
    expect(names.slice(3).sort()).toEqual(
      seeded.projects
        .slice(2)
        .map((p) => p.toLowerCase())
        .sort(),
    );
    const org = r.stacks[0];
    expect(org.projectId).toBeUndefined();
    expect(org.workspaceIds).toEqual([seeded.ids.get(workspaceName(3))]);
    expect(r.files["Pulumi.organization-2.yaml"]).toContain(`${PROJECT_CONFIG_KEY}: ${first}\n`);
    expect(r.files["Pulumi.organization.yaml"]).toContain(`${PROJECT_CONFIG_KEY}: organization\n`);
  });

  it("writes the same files for the same organization", async () => {
    const again = await generateSplit({ client, out: path.join(dir, "again") });
    expect(again.files).toEqual(result.files);
  });
});

describe("the command line and the driver, misused", () => {
  const run = (args: string[]) => runCli(args, { WORKSPACES_ADDRESS: server.url, WORKSPACES_TOKEN: server.token });

  it("refuses another split, --import-file, --project, and a folder in use, each in one line", async () => {
    const org = ["--organization", server.organization];
    const team = await run(["generate", "--split-by", "team", ...org]);
    expect([team.code, team.stderr]).toEqual([1, expect.stringContaining('--split-by takes project, not "team"')]);
    const imports = await run(["generate", "--split-by", "project", "--import-file", "x.json", ...org]);
    expect(imports.code).toBe(1);
    expect(imports.stderr).toContain("--import-file writes one stack's bulk import file");
    const project = await run(["generate", "--split-by", "project", "--project", seeded.projects[0], ...org]);
    expect(project.code).toBe(1);
    expect(project.stderr).toContain("--project limits generate to one");
    const used = await run(["generate", "--split-by", "project", "--out", result.dir, ...org]);
    expect(used.code).toBe(1);
    expect(used.stderr).toContain(`${path.join(result.dir, "index.ts")} exists`);
    for (const r of [team, imports, project, used]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("with --force rewrites the program and keeps each stack's config, which may hold secrets", async () => {
    const out = path.join(dir, "forced");
    expect(
      (await run(["generate", "--split-by", "project", "--organization", server.organization, "--out", out])).code,
    ).toBe(0);
    const config = path.join(out, "Pulumi.platform.yaml");
    fs.appendFileSync(config, "  e2e-split:db-1-password:\n    secure: v1:kept\n");
    fs.writeFileSync(path.join(out, "index.ts"), "// edited\n");
    const r = await run([
      "generate",
      "--split-by",
      "project",
      "--organization",
      server.organization,
      "--out",
      out,
      "--force",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^wrote \d+ files in .*: 5 stacks \(organization, data, edge, payments, platform\)/m);
    expect(r.stderr).toContain("kept Pulumi.organization.yaml, Pulumi.data.yaml");
    expect(fs.readFileSync(config, "utf8")).toContain("secure: v1:kept");
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toBe(result.files["index.ts"]);
  });

  function driver(args: string[]): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [path.join(result.dir, "run-stacks.js"), ...args], (err, _out, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
  }

  it("the driver names the stacks it has when asked for another, and refuses a concurrency below 1", async () => {
    const none = await driver([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("run-stacks: which operation?");
    const unknown = await driver(["up", "--stack", "billing"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'no stack "billing" here (no Pulumi.billing.yaml); the stacks: data, edge, organization, payments, platform',
    );
    const zero = await driver(["preview", "--concurrency", "0"]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--concurrency takes a whole number of 1 or more, not "0"');
  });
});
