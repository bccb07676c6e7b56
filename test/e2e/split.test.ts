/**
 * An organization split by project, through the real engine and the real server under its
 * default rate limit: three projects (a workspace of one read by workspaces of another and
 * of its own), a no-code module with a workspace made from it in a project, then
 * `pulumi-workspaces generate --split-by project` -> the generated driver's `up` over every
 * stack, two at a time (adopts everything without one write) -> its `preview` (no change)
 * -> the consumers across projects still there; and a stack whose config names no project
 * fails alone, named by the driver.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import type { RunningServer } from "../../src/server";
import { repoRoot, requireBuiltPackage, serverEnv, startTestServer } from "./harness";
import { consumerIds, createProject } from "./server-helpers";

// Plain CommonJS shared with the harness, the demo and the benchmark.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as {
  ensureEngine(): string;
  engineEnv(o: { bin: string; home: string; backendDir: string; extra?: Record<string, string> }): NodeJS.ProcessEnv;
  linkPackage(dir: string): void;
  tempDir(prefix: string): string;
  stateFile(backendDir: string, project: string, stack: string): string;
};

interface StackResult {
  stack: string;
  operation: string;
  ok: boolean;
  changes: Record<string, number>;
  startedAt: string;
  finishedAt: string;
  seconds: number;
  error?: string;
}

function run(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { ...options, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function writes(server: RunningServer, since: Record<string, number>): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

/** The most stacks that ran at the same moment. */
function mostAtOnce(results: StackResult[]): number {
  const edges = results.flatMap((r) => [
    { t: Date.parse(r.startedAt), d: 1 },
    { t: Date.parse(r.finishedAt), d: -1 },
  ]);
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.d));
  return most;
}

describe("an organization split by project, run by the generated driver", () => {
  let server: RunningServer;
  let root: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids = new Map<string, string>();
  const figures: string[] = [];
  const driver = (args: string[]) => run(path.join(dir, "run-stacks.js"), args, { cwd: dir, env });

  beforeAll(async () => {
    requireBuiltPackage();
    // The default rate limit (30 requests per second per user) stays on: the stacks share it.
    server = await startTestServer();
    const org = server.organization;
    const client = new WorkspacesClient({ address: server.url, token: server.token, organization: org, env: {} });
    const projects: Record<string, string> = {};
    for (const name of ["platform", "payments", "data"]) projects[name] = await createProject(server, name);
    for (const [name, project] of [
      ["network", "platform"],
      ["dns", "platform"],
      ["billing", "payments"],
      ["ledger", "payments"],
      ["warehouse", "data"],
    ]) {
      const ws = await client.workspaces.create(org, {
        name,
        projectId: projects[project],
        tagBindings: [{ key: "team", value: project }],
      });
      ids.set(name, ws.id);
    }
    // network's state is read by dns (same project) and billing (another project).
    await client.remoteStateConsumers.add(ids.get("network")!, [ids.get("dns")!, ids.get("billing")!]);
    const rm = await client.registryModules.create(org, { name: "bucket", provider: "aws", noCode: true });
    await client.registryModules.createVersion({ organization: org, name: "bucket", provider: "aws" }, "1.0.0");
    const module = await client.noCode.enable(org, { registryModuleId: rm.id, versionPin: "1.0.0", enabled: true });
    const made = await client.noCode.createWorkspace(module.id, {
      name: "reports-bucket",
      projectId: projects.data,
      variables: [{ key: "region", value: "eu-west-1", category: "engine" }],
    });
    ids.set("reports-bucket", made.id);

    root = engine.tempDir("pw-e2e-split-");
    dir = path.join(root, "program");
    const backendDir = path.join(root, "backend");
    const home = path.join(root, "pulumi-home");
    for (const d of [backendDir, home]) fs.mkdirSync(d, { recursive: true });
    env = engine.engineEnv({ bin: engine.ensureEngine(), home, backendDir, extra: serverEnv(server) });
  });

  afterAll(async () => {
    if (figures.length) console.log(`\nsplit figures:\n  ${figures.join("\n  ")}`);
    if (root) fs.rmSync(root, { recursive: true, force: true });
    await server?.close();
  });

  it("generates the folder with the packaged command, reading only", async () => {
    const before = server.stats().byRoute;
    const r = await run(
      path.join(repoRoot, "dist/generate/cli.js"),
      ["generate", "--split-by", "project", "--organization", server.organization, "--out", dir],
      { cwd: root, env: { ...process.env, ...serverEnv(server) } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(writes(server, before)).toEqual([]);
    expect(r.stderr).toContain("4 stacks (organization, data, payments, platform)");
    engine.linkPackage(dir);
  });

  it("adopts every stack with the driver's up, two at a time, without one write", async () => {
    const before = server.stats().byRoute;
    const { total, byStatus } = server.stats();
    const t0 = Date.now();
    const r = await driver(["up", "--concurrency", "2", "--json"]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const results = JSON.parse(r.stdout) as StackResult[];
    expect(results.map((x) => [x.stack, x.ok, x.error])).toEqual(
      expect.arrayContaining(
        ["organization", "data", "payments", "platform"].map(
          (s) => [s, true, undefined] as [string, boolean, undefined],
        ),
      ),
    );
    expect(results).toHaveLength(4);
    // organization first (the module), then the projects: at most two at once, and two did run at once.
    expect(results[0].stack).toBe("organization");
    expect(mostAtOnce(results)).toBe(2);
    expect(writes(server, before)).toEqual([]);
    expect(r.stderr).toContain("run-stacks: up ok in 4 stacks");
    figures.push(
      `up (adopt) of 4 stacks, concurrency 2: ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
        results.map((x) => `${x.stack} ${x.seconds} s`).join(", ") +
        `; ${server.stats().total - total} requests, ${(server.stats().byStatus["429"] ?? 0) - (byStatus["429"] ?? 0)} answered 429`,
    );

    // Each stack's state holds its own project's workspaces, and no other.
    const owned = (stack: string) =>
      (
        JSON.parse(
          fs.readFileSync(engine.stateFile(path.join(root, "backend"), "workspaces-example-org", stack), "utf8"),
        ).checkpoint.latest.resources as { type: string; outputs?: { name?: string } }[]
      )
        .filter((x) => /workspaces:(Workspace|NoCodeWorkspace|NoCodeModule)$/.test(x.type))
        .map((x) => x.outputs?.name ?? x.type)
        .sort();
    expect(owned("platform")).toEqual(["dns", "network"]);
    expect(owned("payments")).toEqual(["billing", "ledger"]);
    expect(owned("data")).toEqual(["reports-bucket", "warehouse"]);
    expect(owned("organization")).toHaveLength(1);
  });

  it("previews every stack with no change", async () => {
    const t0 = Date.now();
    const r = await driver(["preview", "--expect-no-changes", "--json"]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const results = JSON.parse(r.stdout) as StackResult[];
    expect(results.map((x) => [x.stack, x.ok, x.changes]).sort()).toEqual(
      ["data", "organization", "payments", "platform"].map((s) => [s, true, {}]),
    );
    figures.push(`preview of 4 stacks, concurrency 2: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });

  it("keeps the consumers across projects", async () => {
    expect((await consumerIds(server, ids.get("network")!)).sort()).toEqual(
      [ids.get("dns")!, ids.get("billing")!].sort(),
    );
  });

  it("fails a stack whose config names no project, naming it, and runs no other", async () => {
    fs.writeFileSync(path.join(dir, "Pulumi.retired.yaml"), "config:\n  pulumi-workspaces:project: prj-retired\n");
    const r = await driver(["preview", "--stack", "retired"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("retired: preview FAILED");
    expect(r.stdout).toContain('pulumi-workspaces:project is "prj-retired", which this program does not declare');
    expect(r.stdout).not.toMatch(/^(organization|data|payments|platform):/m);
    expect(r.stderr).toContain("run-stacks: preview failed in 1 of 1 stacks: retired");
  });
});
