/**
 * The generator against the real server: what it writes for a seeded organization
 * (settings only where they differ from the defaults, references instead of ids, valid
 * and unique identifiers, secret config keys for sensitive values, `adopt: true`), that
 * the program type-checks against this package, that the output is stable, and what the
 * command line says when it is misused.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import { generate, readOrganization, renderProgram, type GenerateResult } from "../../src/generate";
import type { RunningServer } from "../../src/server";
import { runCli, seededServer, statementOf, typeErrors } from "./check";
import { workspaceName, type Seeded } from "./seed";
import { PROJECT_NAMES } from "./seed-access";

let server: RunningServer;
let seeded: Seeded;
let client: WorkspacesClient;
let dir: string;
let result: GenerateResult;
const progress: string[] = [];

const COUNT = 30;
const NO_CODE = 6;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(COUNT, NO_CODE));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-generate-"));
  result = await generate({ client, out: path.join(dir, "index.ts"), progress: (l) => progress.push(l) });
}, 60_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

describe("generate", () => {
  it("declares every workspace once, as a Workspace or a NoCodeWorkspace, each with adopt: true", () => {
    const p = result.program;
    for (const name of seeded.ids.keys()) {
      const kind = seeded.noCodeNames.includes(name) ? "NoCodeWorkspace" : "Workspace";
      expect(p.split(`new ${kind}(${JSON.stringify(name)},`).length - 1, name).toBe(1);
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
    expect(p.split("  adopt: true,\n").length - 1).toBe(COUNT + 2);
    // Every workspace is in the program, so no literal workspace id is needed anywhere.
    expect(p).not.toMatch(/"ws-/);
  });

  it("writes only the settings that differ from the service's defaults", () => {
    // app-13: remote, no description, no auto-apply, default engine version, no flat tags.
    const plain = statementOf(result.program, "Workspace", workspaceName(13));
    for (const absent of [
      "description",
      "executionMode",
      "autoApply",
      "engineVersion",
      "tagNames",
      "sshKeyId",
      "allowDestroyPlan",
    ]) {
      expect(plain).not.toContain(`${absent}:`);
    }
    // The project, declared in the program, by reference.
    expect(plain).toContain(`project: ${PROJECT_NAMES[13 % 4]}Project.id`);
    expect(plain).toContain('tags: { env: "staging", team: "team-6" }');

    const busy = statementOf(result.program, "Workspace", workspaceName(0));
    expect(busy).toContain('executionMode: "agent"');
    // The pool, declared in the program, by reference.
    expect(busy).toContain("agentPoolId: onPremPool.id");
    expect(busy).toContain('description: "service 0"');
    expect(busy).toContain("autoApply: true");
    expect(busy).toContain('engineVersion: "1.5.7"');
    expect(busy).toContain('tagNames: ["critical", "web"]');
    expect(busy).toContain(`sshKeyId: ${JSON.stringify(seeded.sshKeys[0])}`);
    expect(busy).toContain('triggerPrefixes: ["envs/", "modules/"]');
    expect(statementOf(result.program, "Workspace", workspaceName(1))).toContain('executionMode: "local"');
  });

  it("leaves an execution mode inherited from the organization to it, and writes the pool with an own agent mode", async () => {
    const snapshot = await readOrganization(client, { organization: server.organization });
    const agent = snapshot.workspaces.find((r) => r.workspace.name === workspaceName(0))!;
    const withOverwrites = (executionMode: boolean) =>
      renderProgram({
        ...snapshot,
        modules: [],
        workspaces: [
          {
            ...agent,
            consumerIds: [],
            workspace: { ...agent.workspace, settingOverwrites: { executionMode, agentPool: false } },
          },
        ],
      }).program;
    expect(withOverwrites(false)).not.toMatch(/executionMode|agentPoolId/);
    expect(withOverwrites(true)).toContain('executionMode: "agent"');
    expect(withOverwrites(true)).toContain("agentPoolId: onPremPool.id");
  });

  it("carries over what NoCodeWorkspace takes, declares module-made workspaces' tags and other settings beside them, and lists what neither can state", () => {
    const portal = statementOf(result.program, "NoCodeWorkspace", "net-0");
    expect(portal).toContain('sourceName: "portal"');
    expect(portal).toContain('sourceUrl: "https://portal.example.com"');
    // net-2 runs locally and has an SSH key: NoCodeWorkspace has no input for either; a
    // WorkspaceSettings beside it states the mode, nothing states the key.
    const local = statementOf(result.program, "NoCodeWorkspace", "net-2");
    expect(local).not.toMatch(/executionMode|sshKeyId|agentPoolId/);
    expect(statementOf(result.program, "WorkspaceSettings", "net-2-settings")).toBe(
      'new WorkspaceSettings("net-2-settings", { workspaceId: net2.id, executionMode: "local", adopt: true });',
    );
    expect(result.notCarried).toEqual([{ workspace: "net-2", setting: "sshKeyId", value: seeded.sshKeys[1] }]);
    expect(result.readme).toContain("## Settings not carried");
    expect(result.readme).not.toContain("| net-2 | `executionMode`");
    expect(result.readme).toContain(`| net-2 | \`sshKeyId\` | \`${JSON.stringify(seeded.sshKeys[1])}\` |`);
    expect(seeded.noCodeTags.size).toBeGreaterThan(0);
    for (const [name, tags] of seeded.noCodeTags) {
      const t = statementOf(result.program, "WorkspaceTags", `${name}-tags`).replace(/\s+/g, " ");
      expect(t).toMatch(/workspaceId: \w+\.id/);
      expect(t).toContain(`tags: { env: ${JSON.stringify(tags.env)}, team: "self-service" }`);
      expect(t).toContain('tagNames: ["no-code"]');
    }
  });

  it("leaves a module-made workspace's agent mode inherited from the organization to it, and states an own one with its pool", async () => {
    const snapshot = await readOrganization(client, { organization: server.organization });
    const made = snapshot.workspaces.find((r) => r.workspace.name === "net-4")!;
    const render = (own: boolean) => {
      const workspace = {
        ...made.workspace,
        executionMode: "agent",
        agentPoolId: seeded.agentPoolId,
        settingOverwrites: { executionMode: own, agentPool: own },
      };
      const r = renderProgram({ ...snapshot, workspaces: [{ ...made, consumerIds: [], workspace }] });
      return { text: statementOf(r.program, "NoCodeWorkspace", "net-4"), notCarried: r.notCarried, readme: r.readme };
    };
    const inherited = render(false);
    expect(inherited.text).not.toMatch(/executionMode|agentPoolId/);
    expect(inherited.notCarried).toEqual([]);
    expect(inherited.readme).not.toContain("Settings not carried");
    const own = render(true);
    expect(own.text).toContain('executionMode: "agent"');
    expect(own.text).toContain("agentPoolId: onPremPool.id");
    expect(own.notCarried).toEqual([]);
  });

  it("refers to generated resources instead of literal ids, with unique valid identifiers", () => {
    const consumers = statementOf(result.program, "RemoteStateConsumers", `${workspaceName(0)}-consumers`);
    expect(consumers).toMatch(/workspaceId: app0\.id/);
    expect(consumers).toMatch(/consumerIds: \[app1\.id, app2\.id, (net|db)\d+\.id\]/);
    // "7-batch" starts with a digit; "app-8" and "app_8" differ only in the separator.
    expect(result.program).toContain('export const ws7Batch = new Workspace("7-batch",');
    expect(result.program).toContain('export const app8 = new Workspace("app-8",');
    expect(result.program).toMatch(/export const app8Ws = new Workspace\("app_8",/);
    const net = statementOf(result.program, "NoCodeWorkspace", "net-0");
    expect(net).toContain("noCodeModuleId: networkModule.id");
    expect(net).toContain('moduleVersion: "1.1.0"');
    const module = statementOf(result.program, "NoCodeModule", "network-aws");
    expect(module).toContain(`registryModuleId: ${JSON.stringify(seeded.modules[0].registryModuleId)}`);
    expect(module.replace(/\s+/g, " ")).toContain(
      'variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"], },',
    );
  });

  it("asks for each sensitive value as a required secret config key, listed in the README, and writes no secret", () => {
    const db = seeded.noCodeNames.find((n) => n.startsWith("db-"))!;
    expect(statementOf(result.program, "NoCodeWorkspace", db)).toContain(
      `value: config.requireSecret("${db}-password")`,
    );
    expect(result.secrets.map((s) => s.key).sort()).toEqual(
      [...seeded.passwords.keys()].map((n) => `${n}-password`).sort(),
    );
    for (const s of result.secrets) expect(result.readme).toContain(`pulumi config set --secret ${s.key}`);
    for (const text of [result.program, result.readme, fs.readFileSync(result.programPath, "utf8")]) {
      expect(text).not.toContain(server.token);
      for (const pw of seeded.passwords.values()) expect(text).not.toContain(pw);
    }
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([result.programPath])).toEqual([]);
  }, 60_000);

  it("writes the same program for the same organization", async () => {
    const again = await generate({ client, out: path.join(dir, "again", "index.ts") });
    expect(again.program).toBe(result.program);
    expect(again.readme).toBe(result.readme);
  });

  it("reads one project only when asked, and names what lies outside by id", async () => {
    const project = seeded.projects[0];
    const r = await generate({ client, projectId: project, out: path.join(dir, "project", "index.ts") });
    const inProject = [...seeded.ids.keys()].filter((n) => r.program.includes(`(${JSON.stringify(n)},`));
    expect(inProject.length).toBeGreaterThan(0);
    for (const n of inProject) expect((await client.workspaces.read(seeded.ids.get(n)!)).projectId).toBe(project);
    // app-0's state is read by app-1 and app-2, which are in other projects: named by id.
    expect(r.program).toMatch(/consumerIds: \[[^\]]*"ws-/);
  });

  it("shows progress while it reads", () => {
    expect(progress).toContain(`listed ${COUNT} workspaces of ${server.organization}`);
    expect(progress).toContain(
      `reading tags, consumers, variables, access, triggers and notifications: ${COUNT} of ${COUNT}`,
    );
  });
});

describe("the command line", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { WORKSPACES_ADDRESS: server.url, WORKSPACES_TOKEN: server.token, ...env });

  it("generates with the token from the environment and reports what it wrote", async () => {
    const out = path.join(dir, "cli", "index.ts");
    const r = await run(["generate", "--organization", server.organization, "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `wrote ${out} (${COUNT - NO_CODE} workspaces, 2 no-code modules, ${NO_CODE} no-code workspaces`,
    );
    expect(r.stderr).toContain("secret stack config keys");
    expect(r.stderr).toContain(
      "1 setting of workspaces made from no-code modules is left out (neither NoCodeWorkspace nor WorkspaceSettings has an input for it;",
    );
    expect(fs.readFileSync(out, "utf8")).toContain("adopt: true");
  });

  it("refuses to overwrite, a bad project id and an unknown argument, with one line each", async () => {
    const out = path.join(dir, "cli", "index.ts");
    const exists = await run(["generate", "--organization", server.organization, "--out", out]);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toMatch(/exists; choose another --out, or pass --force/);
    const bad = await run(["generate", "--project", "payments"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--project takes a project id (prj-...)");
    const unknown = await run(["generate", "--org", "x"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown argument "--org"');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });

  it("without a token says which settings to set, and writes nothing", async () => {
    const out = path.join(dir, "no-token", "index.ts");
    const r = await run(["generate", "--organization", server.organization, "--out", out], {
      WORKSPACES_TOKEN: "",
      TFE_TOKEN: "",
      HOME: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no API token");
    expect(r.stderr).toContain("set WORKSPACES_TOKEN (or TFE_TOKEN) for this command");
    expect(fs.existsSync(out)).toBe(false);
  });
});
