/**
 * Adopting an organization's variables and variable sets, through the real engine and the
 * real server under its default rate limit: workspaces with their own variables (sensitive
 * ones too) and five variable sets (a credentials set applied to a project, a global one,
 * one across projects, a priority set, one applied nowhere), then `pulumi-workspaces
 * generate` -> the sensitive values set as secret stack config from the commands the
 * generated README names -> `pulumi up` (adopts everything without one write) -> `pulumi
 * preview` (no change) -> one variable's value edited in the program -> `pulumi up` (one
 * write, of that variable).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import type { RunningServer } from "../../src/server";
import { seedOrganization, workspaceName, type Seeded } from "../generate/seed";
import { seedVariables, type SeededVariables } from "../generate/seed-variables";
import { generateWithCli } from "./generate-cli";
import { serverEnv, startTestServer, TestStack } from "./harness";

const COUNT = 16;
const NO_CODE = 4;

/** Write requests (POST, PATCH, PUT, DELETE) by route since `since`. */
function writesSince(server: RunningServer, since: Record<string, number>): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

describe("adopting an organization's variables and variable sets", () => {
  let server: RunningServer;
  let seeded: Seeded;
  let vars: SeededVariables;
  let stack: TestStack;

  beforeAll(async () => {
    server = await startTestServer();
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    const client = new WorkspacesClient({
      address: server.url,
      token: server.token,
      organization: server.organization,
    });
    vars = await seedVariables(client, seeded);
    stack = await TestStack.create({
      project: "adopt-variables-e2e",
      files: { "index.ts": "// replaced by the generator\n" },
      env: serverEnv(server),
    });
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("generates the program, reading only, and sets each secret key its README names", async () => {
    const before = server.stats().byRoute;
    const r = await generateWithCli(server, path.join(stack.dir, "index.ts"));
    expect(r.code, r.stderr).toBe(0);
    expect(writesSince(server, before)).toEqual([]);
    expect(r.stderr).toContain("3 workspace variable lists, 5 variable sets");

    // The value of each sensitive variable, by the variable's key (the no-code ones by workspace).
    const valueOf = new Map<string, string>();
    for (const v of [...[...vars.own.values()].flat(), ...vars.sets.flatMap((s) => s.variables)])
      if (v.sensitive) valueOf.set(v.key, v.value!);
    const readme = fs.readFileSync(path.join(stack.dir, "README.md"), "utf8");
    const commands = [...readme.matchAll(/pulumi config set --secret (\S+) '<value of (\S+)>'/g)];
    expect(commands.length).toBe(valueOf.size + seeded.passwords.size);
    for (const [, key, variable] of commands) {
      const workspace = key.slice(0, -"-password".length);
      const value = variable === "password" ? seeded.passwords.get(workspace) : valueOf.get(variable);
      expect(value, key).toBeDefined();
      await stack.ok(["config", "set", "--secret", key, value!]);
    }
    const program = fs.readFileSync(path.join(stack.dir, "index.ts"), "utf8");
    for (const secret of vars.secretValues) expect(program).not.toContain(secret);
  });

  it("pulumi up adopts every variable, set and application and sends no write", async () => {
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual([]);

    expect(
      stack
        .resources("workspaces:WorkspaceVariables")
        .map((res) => res.id)
        .sort(),
    ).toEqual([...vars.own.keys()].map((n) => `${seeded.ids.get(n)}/variables`).sort());
    expect(
      stack
        .resources("workspaces:VariableSet")
        .map((res) => res.id)
        .sort(),
    ).toEqual(vars.sets.map((s) => s.id).sort());
    expect(stack.resources("workspaces:VariableSetApplication")).toHaveLength(5);
    // Sensitive values are in the state only as secrets.
    const text = stack.stateText();
    for (const secret of [...vars.secretValues, ...seeded.passwords.values()]) expect(text).not.toContain(secret);
    await stack.expectEncryptedOnly([...vars.secretValues, ...seeded.passwords.values()]);
  });

  it("a following preview shows no change and writes nothing", async () => {
    const before = server.stats().byRoute;
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writesSince(server, before)).toEqual([]);
  });

  it("a value edited in the program is one write, of that variable", async () => {
    const file = path.join(stack.dir, "index.ts");
    const program = fs.readFileSync(file, "utf8");
    const start = program.indexOf(`new WorkspaceVariables(${JSON.stringify(`${workspaceName(0)}-variables`)},`);
    const end = program.indexOf(");", start);
    const statement = program.slice(start, end);
    expect(statement).toContain('value: "eu-west-1"');
    fs.writeFileSync(
      file,
      program.slice(0, start) + statement.replace('value: "eu-west-1"', 'value: "eu-central-1"') + program.slice(end),
    );
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual(["PATCH /api/v2/workspaces/:workspace_id/vars/:variable_id x1"]);
  });
});
