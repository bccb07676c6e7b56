/**
 * Every program under examples/ run through the real engine against one local
 * server, the way its README tells a user to run it, with assertions on what
 * the server then holds. An example that no longer compiles, deploys or does
 * what its README says fails here.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { api, repoRoot, serverEnv, startTestServer, TestStack, type PulumiResult } from "./harness";
import { policyCode } from "./policy-steps";
import {
  consumerIds,
  createProject,
  createWorkspace,
  createRegistryModule,
  tagBindings,
  workspaceByName,
  workspaceVars,
} from "./server-helpers";

const examplesDir = path.join(repoRoot, "examples");
const policyPackDir = path.join(repoRoot, "policies");
/** Example folders this file runs; a new folder must be added here (checked below). */
const PROGRAMS = [
  "quickstart",
  "remote-state-graph",
  "tags-for-existing",
  "adopt-existing",
  "no-code",
  "maintenance-window",
  "variables",
  "organization",
  "agent-pools",
  "service-policies",
  "ci-tokens",
  "policy",
];

function projectName(example: string): string {
  const yaml = fs.readFileSync(path.join(examplesDir, example, "Pulumi.yaml"), "utf8");
  const m = /^name:\s*(\S+)\s*$/m.exec(yaml);
  if (!m) throw new Error(`examples/${example}/Pulumi.yaml has no name`);
  return m[1];
}

/** Keys of the `config:` block of the example's Pulumi.yaml. */
function configKeys(example: string): string[] {
  const yaml = fs.readFileSync(path.join(examplesDir, example, "Pulumi.yaml"), "utf8");
  const block = /^config:\n((?: {2,}.*\n?)*)/m.exec(yaml)?.[1] ?? "";
  return [...block.matchAll(/^ {2}([A-Za-z][\w-]*):\s*$/gm)].map((m) => m[1]);
}

/**
 * The example's own files (program, Pulumi.yaml, package.json, tsconfig, config files, and
 * the files of its folders that the program reads, such as a policies folder), not its
 * README, nor a folder that is a package of its own (a policy pack, installed apart).
 */
function exampleFiles(example: string, sub = ""): Record<string, string> {
  const dir = path.join(examplesDir, example, sub);
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(dir)) {
    if (name === "README.md" || name === "node_modules" || /^Pulumi\..+\.yaml$/.test(name)) continue;
    const rel = path.posix.join(sub, name);
    if (fs.statSync(path.join(dir, name)).isDirectory()) {
      const own = fs.existsSync(path.join(dir, name, "package.json"));
      if (!name.startsWith(".") && !own) Object.assign(files, exampleFiles(example, rel));
    } else files[rel] = fs.readFileSync(path.join(dir, name), "utf8");
  }
  return files;
}

/**
 * A stack of the example in a temporary directory. Stack config goes into
 * `Pulumi.dev.yaml` (JSON is YAML) rather than one `pulumi config set` per key.
 */
async function exampleStack(
  server: RunningServer,
  example: string,
  config: Record<string, unknown> = {},
): Promise<TestStack> {
  const project = projectName(example);
  const stackConfig = Object.fromEntries(Object.entries(config).map(([k, v]) => [`${project}:${k}`, v]));
  return TestStack.create({
    project,
    files: { ...exampleFiles(example), "Pulumi.dev.yaml": JSON.stringify({ config: stackConfig }, null, 2) + "\n" },
    env: serverEnv(server),
  });
}

function opsByName(steps: Array<{ op: string; urn: string }>): Record<string, string> {
  return Object.fromEntries(steps.map((s) => [s.urn.split("::").pop() as string, s.op]));
}

describe("examples/", () => {
  it("has a README, a program and a package.json on the current SDK in every folder, and every program is run below", () => {
    const folders = fs
      .readdirSync(examplesDir)
      .filter((n) => fs.statSync(path.join(examplesDir, n)).isDirectory())
      .sort();
    expect(folders).toEqual([...PROGRAMS, "ci"].sort());
    for (const example of PROGRAMS) {
      const dir = path.join(examplesDir, example);
      for (const f of ["README.md", "Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]) {
        expect(fs.existsSync(path.join(dir, f)), `examples/${example}/${f}`).toBe(true);
      }
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
      // What a user copies names the newest SDK the package is tested with (README, Install).
      expect(pkg.dependencies["@pulumi/pulumi"], example).toMatch(/^\^3\.270\./);
      expect(pkg.dependencies["pulumi-workspaces"], example).toBeDefined();
      const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
      expect(program).toContain('from "pulumi-workspaces"');
      // Every stack config key the program declares is explained in its README.
      const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
      for (const key of configKeys(example)) {
        expect(program, `${example} reads ${key}`).toContain(`"${key}"`);
        expect(readme, `examples/${example}/README.md explains ${key}`).toContain(`\`${key}\``);
      }
    }
  });

  it("has a CI workflow that previews with the policy pack on pull requests and updates on main with the token as a secret", () => {
    const workflow = fs.readFileSync(path.join(examplesDir, "ci", "github-actions.yml"), "utf8");
    expect(workflow).toMatch(/^on:\n\s+pull_request:/m);
    expect(workflow).toMatch(/push:\n\s+branches: \[main\]/);
    expect(workflow).toMatch(/pulumi preview [^\n]*\n?[^\n]*--policy-pack/);
    expect(workflow).toMatch(/pulumi up [^\n]*--yes/);
    expect(workflow).toContain("WORKSPACES_TOKEN: ${{ secrets.WORKSPACES_TOKEN }}");
    // The token comes only from the secret store, never written in the file.
    expect(workflow.match(/WORKSPACES_TOKEN:/g)?.length).toBe(3);
    expect(workflow).not.toMatch(/\t/);
    for (const f of ["pulumi-ci.sh", "README.md"]) expect(fs.existsSync(path.join(examplesDir, "ci", f)), f).toBe(true);
  });

  it("runs the same pulumi commands with the same flags in the workflow and in the shell script", () => {
    const workflow = fs.readFileSync(path.join(examplesDir, "ci", "github-actions.yml"), "utf8");
    const script = fs.readFileSync(path.join(examplesDir, "ci", "pulumi-ci.sh"), "utf8");
    const flags = (text: string) => [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();
    // The folded `run: >-` block holding the command, up to the next step or job.
    const inWorkflow = (cmd: string) =>
      flags(new RegExp(`pulumi ${cmd} [\\s\\S]*?(?=\\n\\s*(?:- |\\w+:\\n)|$)`).exec(workflow)?.[0] ?? "");
    const policyFlags = flags((script.match(/^\s*policy_args(?:\+)?=.*$/gm) ?? []).join("\n"));
    const inScript = (cmd: string) => {
      const line = new RegExp(`^\\s*pulumi ${cmd} .*$`, "m").exec(script)?.[0] ?? "";
      return [...new Set([...flags(line), ...(line.includes("policy_args") ? policyFlags : [])])].sort();
    };
    for (const cmd of ["preview", "up"]) {
      expect(inWorkflow(cmd), cmd).toContain("--policy-pack");
      expect(inScript(cmd), cmd).toEqual(inWorkflow(cmd));
    }
    // Refresh skips its preview, which would read every record a second time.
    expect(inWorkflow("refresh")).toContain("--skip-preview");
    expect(inScript("refresh")).toEqual(inWorkflow("refresh"));
  });
});

describe("examples through the engine", () => {
  let server: RunningServer;
  const stacks: TestStack[] = [];
  const track = (s: TestStack) => (stacks.push(s), s);

  beforeAll(async () => {
    // Upgrades of no-code workspaces are simulated runs; 50x keeps them to a fraction of a second.
    server = await startTestServer({ runSpeed: 50 });
  });
  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await server?.close();
  });

  describe("quickstart", () => {
    let stack: TestStack;
    let projectId: string;

    beforeAll(async () => {
      projectId = await createProject(server, "quickstart");
      stack = track(await exampleStack(server, "quickstart", { project: projectId }));
    });

    it("creates three workspaces in the project with their tags", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      expect(out.workspaceNames).toEqual(["payments-dev", "payments-staging", "payments-prod"]);
      expect(out.projectId).toBe(projectId);
      for (const env of ["dev", "staging", "prod"]) {
        const ws = await workspaceByName(server, `payments-${env}`);
        expect(ws.id).toBe(out.workspaceIds[env]);
        expect(ws.relationships.project.data.id).toBe(projectId);
        expect(ws.attributes["auto-apply"]).toBe(env === "dev");
        expect([...ws.attributes["tag-names"]].sort()).toEqual(["payments", "quickstart"]);
        expect(await tagBindings(server, ws.id)).toEqual({ team: "payments", env, "managed-by": "pulumi" });
      }
      // The service finds them by tag, which is what the tags are for.
      const found = await api<any>(
        server,
        `/organizations/${server.organization}/workspaces?search%5Btags%5D=quickstart`,
      );
      expect(found.body.data.map((w: any) => w.attributes.name).sort()).toEqual([
        "payments-dev",
        "payments-prod",
        "payments-staging",
      ]);
    });

    it("previews no change afterwards without a request to the server (as its README says)", async () => {
      const before = server.stats().total;
      const p = await stack.previewJson(["--expect-no-changes"]);
      expect(p.code, p.raw.output).toBe(0);
      expect(server.stats().total - before).toBe(0);
    });

    it("destroys them with safe-delete", async () => {
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      for (const env of ["dev", "staging", "prod"]) {
        expect((await api(server, `/organizations/${server.organization}/workspaces/payments-${env}`)).status).toBe(
          404,
        );
      }
    });
  });

  describe("remote-state-graph", () => {
    it("lets exactly the declared workspaces read the network's and the database's state", async () => {
      const stack = track(await exampleStack(server, "remote-state-graph", { env: "qa" }));
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const { ids } = await stack.outputs();
      const network = await workspaceByName(server, "network-qa");
      expect(network.id).toBe(ids.network);
      expect(network.attributes["global-remote-state"]).toBe(false);
      expect(await consumerIds(server, ids.network)).toEqual([ids.database, ids.api, ids.web, ids.worker].sort());
      expect(await consumerIds(server, ids.database)).toEqual([ids.api, ids.worker].sort());
      // Apps read state; nobody reads theirs.
      expect(await consumerIds(server, ids.web)).toEqual([]);
    });
  });

  describe("tags-for-existing", () => {
    const owned = ["search-prod", "search-staging"];
    let stack: TestStack;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      // Workspaces another team created, with tags of its own.
      for (const name of owned) {
        const r = await api<any>(server, `/organizations/${server.organization}/workspaces`, {
          method: "POST",
          body: {
            data: {
              type: "workspaces",
              attributes: { name },
              relationships: {
                "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "search" } }] },
              },
            },
          },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        ids[name] = r.body.data.id;
        const flat = await api(server, `/workspaces/${ids[name]}/relationships/tags`, {
          method: "POST",
          body: { data: [{ type: "tags", attributes: { name: "search" } }] },
        });
        expect(flat.status).toBe(204);
      }
      stack = track(
        // The lookup finds them by their team tag; nothing names them one by one.
        await exampleStack(server, "tags-for-existing", { team: "search", costCenter: "cc-4242" }),
      );
    });

    it("adds its tags and keeps the owners'", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      for (const name of owned) {
        expect(await tagBindings(server, ids[name])).toEqual({ team: "search", "cost-center": "cc-4242" });
        const ws = await workspaceByName(server, name);
        expect([...ws.attributes["tag-names"]].sort()).toEqual(["finops", "search"]);
      }
      const out = await stack.outputs();
      expect(out.workspaces["search-prod"].id).toBe(ids["search-prod"]);
      expect(out.workspaces["search-prod"].addedTags).toEqual({ "cost-center": "cc-4242" });
      expect(out.workspaces["search-staging"].addedTagNames).toEqual(["finops"]);
      // The lookup is in no resource: only the stack and the tag sets are in the state.
      expect(
        stack
          .resources()
          .map((r) => r.type)
          .filter((t) => t.startsWith("pulumi-nodejs:dynamic/")),
      ).toEqual(["pulumi-nodejs:dynamic/workspaces:WorkspaceTags", "pulumi-nodejs:dynamic/workspaces:WorkspaceTags"]);
    });

    it("removes only what it added on destroy, and never the workspaces", async () => {
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      for (const name of owned) {
        const ws = await workspaceByName(server, name);
        expect(ws.id).toBe(ids[name]);
        expect(ws.attributes["tag-names"]).toEqual(["search"]);
        expect(await tagBindings(server, ids[name])).toEqual({ team: "search" });
      }
    });
  });

  describe("adopt-existing", () => {
    let stack: TestStack;
    const ids: Record<string, string> = {};
    const writesSince = (before: Record<string, number>) =>
      Object.entries(server.stats().byRoute)
        .filter(([route, n]) => /^(POST|PATCH|DELETE) /.test(route) && n > (before[route] ?? 0))
        .map(([route]) => route);

    beforeAll(async () => {
      // What the README's curl lines make "by hand" before the stack exists.
      const tags = {
        "tag-bindings": {
          data: [
            { type: "tag-bindings", attributes: { key: "env", value: "prod" } },
            { type: "tag-bindings", attributes: { key: "team", value: "billing" } },
          ],
        },
      };
      for (const [name, attributes] of [
        ["billing-api", { name: "billing-api", description: "billing HTTP API", "auto-apply": true }],
        ["billing-db", { name: "billing-db", "execution-mode": "local" }],
      ] as const) {
        const r = await api<any>(server, `/organizations/${server.organization}/workspaces`, {
          method: "POST",
          body: { data: { type: "workspaces", attributes, relationships: tags } },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        ids[name] = r.body.data.id;
      }
      const flat = await api(server, `/workspaces/${ids["billing-api"]}/relationships/tags`, {
        method: "POST",
        body: { data: [{ type: "tags", attributes: { name: "billing" } }] },
      });
      expect(flat.status).toBe(204);
      const consumers = await api(server, `/workspaces/${ids["billing-db"]}/relationships/remote-state-consumers`, {
        method: "POST",
        body: { data: [{ type: "workspaces", id: ids["billing-api"] }] },
      });
      expect(consumers.status).toBe(204);
      stack = track(await exampleStack(server, "adopt-existing"));
    });

    it("previews which workspace each resource adopts and that nothing changes", async () => {
      const r = await stack.pulumi(["preview", "--non-interactive"]);
      expect(r.code, r.output).toBe(0);
      for (const name of ["billing-api", "billing-db"]) {
        expect(r.output).toContain(
          `adopt: pulumi up adopts the existing workspace "${name}" (${ids[name]}) in organization "${server.organization}"; no property changes`,
        );
      }
    });

    it("adopts both workspaces and their consumer without a write, then previews no change", async () => {
      const before = server.stats().byRoute;
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      expect(writesSince(before)).toEqual([]);
      expect((await stack.outputs()).ids).toEqual({ billingApi: ids["billing-api"], billingDb: ids["billing-db"] });
      const p = await stack.previewJson(["--expect-no-changes"]);
      expect(p.code, p.raw.output).toBe(0);
      expect(await consumerIds(server, ids["billing-db"])).toEqual([ids["billing-api"]]);
    });
  });

  describe("no-code", () => {
    let stack: TestStack;
    let registryModuleId: string;
    let first: Record<string, any>;

    beforeAll(async () => {
      registryModuleId = await createRegistryModule(server, "bucket", "aws", ["1.0.0", "1.1.0"]);
      const project = await createProject(server, "storage");
      stack = track(await exampleStack(server, "no-code", { registryModuleId, project }));
    });

    it("enables the module with its variable options and creates two workspaces from it", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      first = await stack.outputs();
      const mod = await api<any>(server, `/no-code-modules/${first.noCodeModuleId}?include=variable_options`);
      expect(mod.body.data.attributes.enabled).toBe(true);
      expect(mod.body.data.attributes["version-pin"]).toBe("1.0.0");
      expect(mod.body.data.relationships["registry-module"].data.id).toBe(registryModuleId);
      const options = Object.fromEntries(
        (mod.body.included ?? []).map((o: any) => [o.attributes["variable-name"], o.attributes.options]),
      );
      expect(options).toEqual({
        region: ["eu-west-1", "eu-central-1", "us-east-1"],
        storage_class: ["STANDARD", "INFREQUENT_ACCESS"],
      });
      for (const [team, region] of [
        ["analytics", "eu-west-1"],
        ["archive", "eu-central-1"],
      ]) {
        const ws = await workspaceByName(server, `${team}-bucket`);
        expect(ws.id).toBe(first.workspaces[team].id);
        expect(ws.attributes["source-module-version"] ?? first.workspaces[team].moduleVersion).toBe("1.0.0");
        const vars = await workspaceVars(server, ws.id);
        expect(vars.region.value).toBe(region);
        expect(vars.bucket_name.value).toBe(`${team}-data`);
      }
    });

    it("upgrades both workspaces in place when the version in stack config is bumped", async () => {
      await stack.ok(["config", "set", "moduleVersion", "1.1.0"]);
      const p = await stack.previewJson();
      expect(p.code, p.raw.output).toBe(0);
      const ops = opsByName(p.steps);
      expect(ops.bucket).toBe("update");
      expect(ops["analytics-bucket"]).toBe("update");
      expect(ops["archive-bucket"]).toBe("update");

      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      expect(out.pinnedVersion).toBe("1.1.0");
      for (const team of ["analytics", "archive"]) {
        // Same workspace (id kept), new version, through an applied upgrade run.
        expect(out.workspaces[team].id).toBe(first.workspaces[team].id);
        expect(out.workspaces[team].moduleVersion).toBe("1.1.0");
        expect(out.workspaces[team].lastUpgrade.status).toBe("applied");
        const upgrade = await api<any>(
          server,
          `/no-code-modules/${out.noCodeModuleId}/workspaces/${out.workspaces[team].id}/upgrade/${out.workspaces[team].lastUpgrade.runId}`,
        );
        expect(upgrade.body.data.attributes.status).toBe("applied");
        const ws = await workspaceByName(server, `${team}-bucket`);
        expect(ws.attributes["no-code-upgrade-available"]).toBe(false);
      }
    });
  });

  describe("maintenance-window", () => {
    let stack: TestStack;
    let workspaceId: string;

    beforeAll(async () => {
      stack = track(await exampleStack(server, "maintenance-window"));
    });

    it("creates the workspace unlocked", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      workspaceId = (await stack.outputs()).workspaceId;
      const ws = await workspaceByName(server, "orders-prod");
      expect(ws.attributes.locked).toBe(false);
      expect(ws.attributes["engine-version"]).toBe("1.8.0");
    });

    it("opens the window: the lock is held, with its reason, and nobody else can take it", async () => {
      await stack.ok(["config", "set", "maintenance", "true"]);
      await stack.ok(["config", "set", "reason", "engine upgrade, ticket OPS-7"]);
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const ws = await workspaceByName(server, "orders-prod");
      expect(ws.attributes.locked).toBe(true);
      expect(ws.attributes["locked-reason"]).toBe("engine upgrade, ticket OPS-7");
      expect(
        (await api(server, `/workspaces/${workspaceId}/actions/lock`, { method: "POST", body: { reason: "x" } }))
          .status,
      ).toBe(409);
    });

    it("makes the change while the lock is held", async () => {
      await stack.ok(["config", "set", "engineVersion", "1.9.0"]);
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const ws = await workspaceByName(server, "orders-prod");
      expect(ws.attributes["engine-version"]).toBe("1.9.0");
      expect(ws.attributes.locked).toBe(true);
    });

    it("closes the window: the lock is released, the change stays", async () => {
      await stack.ok(["config", "set", "maintenance", "false"]);
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const ws = await workspaceByName(server, "orders-prod");
      expect(ws.id).toBe(workspaceId);
      expect(ws.attributes.locked).toBe(false);
      expect(ws.attributes["engine-version"]).toBe("1.9.0");
    });
  });

  describe("variables", () => {
    let stack: TestStack;
    let projectId: string;
    const secret = "wJalrXUtnFEMI-example-not-shown";

    beforeAll(async () => {
      projectId = await createProject(server, "billing");
      stack = track(await exampleStack(server, "variables", { project: projectId, awsAccessKeyId: "AKIAEXAMPLE" }));
      await stack.ok(["config", "set", "--secret", "awsSecretAccessKey", secret]);
    });

    it("applies the credentials set to the project and each workspace's region wins over the set's", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      expect(out.effectiveRegion).toEqual({
        "billing-eu": { value: "eu-west-1", from: "workspace", overrides: ["set aws-credentials"] },
        "billing-us": { value: "us-west-2", from: "workspace", overrides: ["set aws-credentials"] },
      });
      const set = await api<any>(server, `/varsets/${out.variableSetId}?include=vars`);
      expect(set.body.data.relationships.projects.data.map((p: any) => p.id)).toEqual([projectId]);
      const vars = await api<any>(server, `/varsets/${out.variableSetId}/relationships/vars`);
      const secretVar = vars.body.data.find((v: any) => v.attributes.key === "AWS_SECRET_ACCESS_KEY");
      expect(secretVar.attributes).toMatchObject({ sensitive: true, value: null, category: "env" });
      const eu = await workspaceByName(server, "billing-eu");
      expect((await workspaceVars(server, eu.id)).AWS_REGION.value).toBe("eu-west-1");
      // The secret is in the state only encrypted.
      expect(stack.stateText()).not.toContain(secret);
      await stack.expectEncryptedOnly([secret]);
    });

    it("previews no change afterwards", async () => {
      const p = await stack.previewJson(["--expect-no-changes"]);
      expect(p.code, p.raw.output).toBe(0);
    });

    it("destroys the application, the set and the workspaces", async () => {
      const { variableSetId } = await stack.outputs();
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      expect((await api(server, `/varsets/${variableSetId}`)).status).toBe(404);
      expect((await api(server, `/organizations/${server.organization}/workspaces/billing-eu`)).status).toBe(404);
    });
  });

  describe("organization", () => {
    let stack: TestStack;
    let receiver: http.Server;
    const token = "signing-token-not-shown";

    beforeAll(async () => {
      receiver = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end()));
      await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
      const port = (receiver.address() as { port: number }).port;
      stack = track(await exampleStack(server, "organization", { notifyUrl: `http://127.0.0.1:${port}/failed-runs` }));
      await stack.ok(["config", "set", "--secret", "notifyToken", token]);
    });
    afterAll(() => receiver?.close());

    it("lays out the project, its team's access, the run trigger and the notification", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      const team = (await api<any>(server, `/teams/${out.teamId}`)).body.data;
      expect(team.attributes).toMatchObject({ name: "payments", visibility: "organization" });
      const projectGrants = (await api<any>(server, `/team-projects?filter[project][id]=${out.projectId}`)).body.data;
      expect(projectGrants.map((g: any) => [g.relationships.team.data.id, g.attributes.access])).toEqual([
        [out.teamId, "write"],
      ]);
      const network = await workspaceByName(server, "payments-network");
      const grants = (await api<any>(server, `/team-workspaces?filter[workspace][id]=${network.id}`)).body.data;
      expect(grants).toHaveLength(1);
      expect(grants[0].attributes).toMatchObject({ access: "custom", runs: "plan", "workspace-locking": false });
      const triggers = (
        await api<any>(server, `/workspaces/${out.appId}/run-triggers?filter[run-trigger][type]=inbound`)
      ).body.data;
      expect(triggers.map((t: any) => t.relationships.sourceable.data.id)).toEqual([network.id]);
      const notes = (await api<any>(server, `/workspaces/${out.appId}/notification-configurations`)).body.data;
      expect(notes.map((n: any) => [n.attributes.name, n.attributes.triggers])).toEqual([
        ["failed runs", ["run:errored"]],
      ]);
      expect(out.networkAccessByTeam).toEqual({ access: "write", from: ["project write", "workspace custom"] });
      // The token is in the state only encrypted.
      expect(stack.stateText()).not.toContain(token);
      await stack.expectEncryptedOnly([token]);
    });

    it("previews no change afterwards", async () => {
      const p = await stack.previewJson(["--expect-no-changes"]);
      expect(p.code, p.raw.output).toBe(0);
    });

    it("destroys everything, the project last", async () => {
      const { projectId, teamId } = await stack.outputs();
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      expect((await api(server, `/projects/${projectId}`)).status).toBe(404);
      expect((await api(server, `/teams/${teamId}`)).status).toBe(404);
    });
  });

  describe("agent-pools", () => {
    let stack: TestStack;
    let reportsId: string;
    const pool = async (id: string) => (await api<any>(server, `/agent-pools/${id}`)).body.data;
    const ids = (pool: any, list: string) => pool.relationships[list].data.map((d: any) => d.id).sort();
    const onPool = async (workspaceId: string) => {
      const ws = (await api<any>(server, `/workspaces/${workspaceId}`)).body.data;
      return [ws.attributes["execution-mode"], ws.relationships["agent-pool"]?.data?.id ?? null];
    };

    beforeAll(async () => {
      // The other team's workspace, made before the stack exists.
      reportsId = await createWorkspace(server, "reports");
      stack = track(await exampleStack(server, "agent-pools", { reportsWorkspaceId: reportsId }));
    });

    it("allows the project but its sandbox, and the other team's workspace, and puts both on the pool in one up", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      const p = await pool(out.poolId);
      expect(p.attributes).toMatchObject({ name: "private-net", "organization-scoped": false });
      expect(ids(p, "allowed-projects")).toEqual([out.projectId]);
      expect(ids(p, "excluded-workspaces")).toEqual([out.sandboxId]);
      expect(ids(p, "allowed-workspaces")).toEqual([reportsId]);
      expect(await onPool(out.appId)).toEqual(["agent", out.poolId]);
      expect(await onPool(reportsId)).toEqual(["agent", out.poolId]);
      expect(await onPool(out.sandboxId)).toEqual(["remote", null]);
      // The agents' secret: an output, in the state only encrypted.
      expect(out.agentToken).toMatch(/\S{20,}/);
      await stack.expectEncryptedOnly([out.agentToken]);
    });

    it("previews no change, then rotates the token by its config key alone", async () => {
      await stack.expectNoChanges();
      const before = await stack.outputs();
      await stack.ok(["config", "set", "tokenRotation", "2027-06"]);
      const p = await stack.previewJson();
      expect(p.code, p.raw.output).toBe(0);
      // The token alone is replaced, with rotation as its reason; nothing else changes.
      expect(p.changeSummary).toMatchObject({ replace: 1 });
      expect(Object.keys(p.changeSummary).sort()).toEqual(["replace", "same"]);
      expect(opsByName(p.steps.filter((s) => s.op === "replace"))).toEqual({ "private-net-agents": "replace" });
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const after = await stack.outputs();
      expect(after.agentTokenId).not.toBe(before.agentTokenId);
      expect(after.agentToken).not.toBe(before.agentToken);
      expect((await api(server, `/authentication-tokens/${before.agentTokenId}`)).status).toBe(404);
    });

    it("destroys the pool, and leaves the other team's workspace as it was", async () => {
      const { poolId } = await stack.outputs();
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      expect((await api(server, `/agent-pools/${poolId}`)).status).toBe(404);
      expect(await onPool(reportsId)).toEqual(["remote", null]);
    });
  });

  describe("service-policies", () => {
    let stack: TestStack;
    const token = "cost-api-token-4f9d2c7a1e";
    const set = async (id: string) => (await api<any>(server, `/policy-sets/${id}`)).body.data;
    const ids = (record: any, list: string) => (record.relationships[list]?.data ?? []).map((d: any) => d.id).sort();
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    const policyFile = path.join(examplesDir, "service-policies", "policies", "require-tags.sentinel");

    beforeAll(async () => {
      stack = track(await exampleStack(server, "service-policies"));
      // As its README says: the key is secret, so the engine takes it only encrypted.
      await stack.ok(["config", "set", "--secret", "costApiToken", token]);
    });

    it("declares a policy from its file, a set from its folder with parameters, on the project but its sandbox", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      expect(out.requireTagsSha256).toBe(sha256(fs.readFileSync(policyFile, "utf8")));
      const guardrails = await set(out.guardrailsId);
      expect(ids(guardrails, "policies")).toEqual([out.requireTagsId]);
      const costs = await set(out.costsId);
      expect(costs.relationships["current-version"].data.id).toBe(out.costsVersionId);
      expect((await api<any>(server, `/policy-set-versions/${out.costsVersionId}`)).body.data.attributes.status).toBe(
        "ready",
      );
      for (const s of [guardrails, costs]) {
        expect(ids(s, "projects")).toEqual([out.projectId]);
        expect(ids(s, "workspace-exclusions")).toEqual([out.sandboxId]);
      }
      const params = (await api<any>(server, `/policy-sets/${out.costsId}/parameters`)).body.data;
      expect(
        Object.fromEntries(params.map((p: any) => [p.attributes.key, [p.attributes.value, p.attributes.sensitive]])),
      ).toEqual({ monthly_limit: ["500", false], cost_api_token: [null, true] });
      await stack.expectEncryptedOnly([token]);
    });

    it("previews no change, then uploads an edited policy file in place", async () => {
      await stack.expectNoChanges();
      const before = await stack.outputs();
      const edited = fs.readFileSync(policyFile, "utf8").replace('["team", "env"]', '["team", "env", "owner"]');
      stack.writeFiles({ "policies/require-tags.sentinel": edited });
      const p = await stack.previewJson();
      expect(p.code, p.raw.output).toBe(0);
      expect(opsByName(p.steps.filter((s) => s.op !== "same"))).toEqual({ "require-tags": "update" });
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const after = await stack.outputs();
      expect(after.requireTagsId).toBe(before.requireTagsId);
      expect(after.requireTagsSha256).toBe(sha256(edited));
      expect(await policyCode(server, after.requireTagsId)).toBe(edited);
    });

    it("destroys the sets and the policy, and leaves no parameter behind", async () => {
      const { guardrailsId, costsId, requireTagsId } = await stack.outputs();
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      for (const at of [`/policy-sets/${guardrailsId}`, `/policy-sets/${costsId}`, `/policies/${requireTagsId}`])
        expect((await api(server, at)).status, at).toBe(404);
    });
  });

  describe("ci-tokens", () => {
    let stack: TestStack;
    /** What the first step read, for the later ones. */
    let first: { token: string; tokenId: string; workspaceId: string };
    /**
     * The team token's secret and id, read from the checkpoint with its secrets shown, after
     * checking that the checkpoint without them holds the secret nowhere.
     */
    const checkpoint = async (): Promise<{ token: string; tokenId: string }> => {
      const plain = (await stack.ok(["stack", "export"])).stdout;
      const shown = JSON.parse((await stack.ok(["stack", "export", "--show-secrets"])).stdout);
      const r = shown.deployment.resources.find((x: any) => x.type.endsWith(":TeamToken"));
      const token = typeof r.outputs.token === "string" ? r.outputs.token : JSON.parse(r.outputs.token.plaintext);
      expect(token).toMatch(/\S{20,}/);
      expect(plain, "the token in plain text in the checkpoint").not.toContain(token);
      return { token, tokenId: r.id };
    };

    beforeAll(async () => {
      stack = track(await exampleStack(server, "ci-tokens"));
    });

    it("hands the CI workspace a team token that works, as a sensitive variable, never shown", async () => {
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const out = await stack.outputs();
      const { token, tokenId } = await checkpoint();
      first = { token, tokenId, workspaceId: out.workspaceId };
      expect(out.tokenId).toBe(tokenId);
      expect(r.output + JSON.stringify(out)).not.toContain(token);
      // The service keeps it write-only: the variable is sensitive and answers no value.
      const vars = await api<any>(server, `/workspaces/${out.workspaceId}/vars`);
      expect(JSON.stringify(vars.body)).not.toContain(token);
      expect(vars.body.data.find((v: any) => v.attributes.key === "WORKSPACES_TOKEN").attributes).toMatchObject({
        category: "env",
        sensitive: true,
        value: null,
      });
      // Expiry: 30 days from the create.
      const days = (Date.parse(out.tokenExpiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29);
      expect(days).toBeLessThanOrEqual(30);
      // The token acts with the team's rights: the CI workspace, and not another one.
      expect((await api(server, `/workspaces/${out.workspaceId}`, { token })).status).toBe(200);
      const other = await createWorkspace(server, "not-for-ci");
      expect((await api(server, `/workspaces/${other}`, { token })).status).toBe(404);
    });

    it("previews no change, then rotates the token by its config key and updates the variable", async () => {
      await stack.expectNoChanges();
      await stack.ok(["config", "set", "tokenRotation", "2"]);
      const p = await stack.previewJson();
      expect(p.code, p.raw.output).toBe(0);
      const changed = p.steps
        .filter((s) => s.op !== "same")
        .map((s) => ({ ...s, op: s.op.replace(/.*replace.*/, "replace") }));
      expect(opsByName(changed)).toEqual({ "releasers-ci-token": "replace", "ci-token-variable": "update" });
      // The preview says why in one line.
      const lines = (JSON.parse(p.raw.stdout).diagnostics ?? []).map((d: { message: string }) => d.message);
      expect(lines.filter((l: string) => l.includes("rotation requested"))).toHaveLength(1);
      const r = await stack.up();
      expect(r.code, r.output).toBe(0);
      const after = await checkpoint();
      expect(after.token).not.toBe(first.token);
      expect(after.tokenId).not.toBe(first.tokenId);
      for (const t of [first.token, after.token]) expect(r.output + p.raw.output).not.toContain(t);
      // The old secret is revoked, the new one works.
      expect((await api(server, `/workspaces/${first.workspaceId}`, { token: first.token })).status).toBe(401);
      expect((await api(server, `/workspaces/${first.workspaceId}`, { token: after.token })).status).toBe(200);
      first = { ...first, ...after };
    });

    it("destroys the token with the rest: its secret no longer works", async () => {
      const r = await stack.destroy();
      expect(r.code, r.output).toBe(0);
      expect((await api(server, `/workspaces/${first.workspaceId}`, { token: first.token })).status).toBe(401);
    });
  });

  describe("policy, through examples/ci/pulumi-ci.sh", () => {
    let stack: TestStack;
    const script = path.join(examplesDir, "ci", "pulumi-ci.sh");
    let runScript: (mode: string) => Promise<PulumiResult>;

    beforeAll(async () => {
      stack = track(await exampleStack(server, "policy"));
      // Run from the folder above the program with relative paths, as the workflow runs
      // from the repository root.
      const programDir = path.relative(stack.root, stack.dir);
      runScript = (mode) =>
        runCommand("bash", [script, mode], {
          cwd: stack.root,
          env: {
            ...stack.env,
            PULUMI_STACK: stack.stack,
            PROGRAM_DIR: programDir,
            POLICY_PACK: policyPackDir,
            POLICY_CONFIG: path.join(programDir, "policy-config.json"),
          },
        });
    });

    it("passes the pack on preview and deploys on up", async () => {
      const p = await runScript("preview");
      expect(p.code, p.output).toBe(0);
      // `--diff` lists the packs that ran instead of the summary with a check mark.
      expect(p.output).toMatch(/Policy Packs run:\s*\n.*\n\s*pulumi-workspaces\|local\|/);
      expect(p.output).not.toContain("mandatory");
      const r = await runScript("up");
      expect(r.code, r.output).toBe(0);
      const prod = await workspaceByName(server, "billing-prod");
      const dev = await workspaceByName(server, "billing-dev");
      expect(prod.attributes["auto-apply"]).toBe(false);
      expect(await consumerIds(server, prod.id)).toEqual([dev.id]);
    });

    it("stops a change that breaks a mandatory rule before it reaches the service", async () => {
      await stack.ok(["config", "set", "prodAutoApply", "true"]);
      const p = await runScript("preview");
      expect(p.code).not.toBe(0);
      expect(p.output).toMatch(/\[mandatory\]\s+workspace-tag-selector-settings/);
      expect(p.output).toContain('Workspace "billing-prod"');
      const r = await runScript("up");
      expect(r.code).not.toBe(0);
      expect(r.output).toContain("workspace-tag-selector-settings");
      expect((await workspaceByName(server, "billing-prod")).attributes["auto-apply"]).toBe(false);
    });

    /** The script's preview with no token in the environment or a credentials file. */
    const previewWithoutEnvToken = () => {
      const env = { ...stack.env };
      delete env.WORKSPACES_TOKEN;
      return runCommand("bash", [script, "preview"], {
        cwd: stack.dir,
        env: {
          ...env,
          HOME: stack.root,
          PULUMI_STACK: stack.stack,
          PROGRAM_DIR: stack.dir,
          POLICY_PACK: policyPackDir,
        },
      });
    };

    it("refuses to run without a token, naming the variable to set", async () => {
      const r = await previewWithoutEnvToken();
      expect(r.code).toBe(2);
      expect(r.output).toContain("set WORKSPACES_TOKEN");
    });

    it("takes the token from the stack's secret config, as its README allows", async () => {
      const token = stack.env.WORKSPACES_TOKEN!;
      await stack.ok(["config", "set", "prodAutoApply", "false"]);
      await stack.ok(["config", "set", "--secret", "workspaces:token", token]);
      try {
        const r = await previewWithoutEnvToken();
        expect(r.code, r.output).toBe(0);
        expect(r.output).not.toContain("no API token");
        expect(r.output).not.toContain(token);
      } finally {
        await stack.ok(["config", "rm", "workspaces:token"]);
      }
    });
  });
});

function runCommand(cmd: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }): Promise<PulumiResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, output: stdout + stderr }));
  });
}
