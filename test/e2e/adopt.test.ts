/**
 * Bringing an existing organization under management, through the real engine and the
 * real server under its default rate limit: 200 workspaces seeded over the API (mixed
 * execution modes with an agent pool, several projects, key-value and flat tags, SSH
 * keys, consumers, two no-code modules with workspaces made from them, and the service's
 * policies: Sentinel and OPA policies with their code, sets with their lists and parameters, and
 * people and tokens: memberships invited and active, teams' people, team and organization tokens), then
 * `pulumi-workspaces generate` -> `pulumi preview` (says what each resource adopts) ->
 * `pulumi up` (adopts everything without one write) -> `pulumi preview` (no change) ->
 * one tag edited in the generated program -> `pulumi up` (one update of that workspace)
 * -> `retainOnDelete` set on that workspace and `pulumi destroy` (it stays, the rest go).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import type { RunningServer } from "../../src/server";
import { seedOrganization, workspaceName, type Seeded } from "../generate/seed";
import { CODE, SENSITIVE_VALUE, seedPolicies, type SeededPolicies } from "../generate/seed-policies";
import { EMAILS, seedMembers, type SeededMembers } from "../generate/seed-members";
import { generateWithCli } from "./generate-cli";
import { api, serverEnv, startTestServer, TestStack } from "./harness";
import { tagBindings, workspaceByName } from "./server-helpers";

const COUNT = 200;
const NO_CODE = 10;

type ByMethod = Record<string, number>;

function byMethod(server: RunningServer, since: Record<string, number>): ByMethod {
  const out: ByMethod = {};
  for (const [route, n] of Object.entries(server.stats().byRoute)) {
    if (route.includes("/_stats")) continue;
    const d = n - (since[route] ?? 0);
    if (d > 0) out[route.split(" ")[0]] = (out[route.split(" ")[0]] ?? 0) + d;
  }
  return out;
}

function writesOf(m: ByMethod): number {
  return (m.POST ?? 0) + (m.PATCH ?? 0) + (m.PUT ?? 0) + (m.DELETE ?? 0);
}

function routesSince(server: RunningServer, since: Record<string, number>, method: string): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => route.startsWith(`${method} `) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

const figures: string[] = [];
function figure(line: string): void {
  figures.push(line);
  console.log(`[adopt figures] ${line}`);
}

describe(`adopting an organization of ${COUNT} workspaces`, () => {
  let server: RunningServer;
  let seeded: Seeded;
  let policies: SeededPolicies;
  let members: SeededMembers;
  let stack: TestStack;

  beforeAll(async () => {
    // The default rate limit (30 requests per second per user) stays on.
    server = await startTestServer();
    const t0 = Date.now();
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    figure(
      `seeded ${COUNT} workspaces (${NO_CODE} from no-code modules) in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${seeded.requests} client requests`,
    );
    const client = new WorkspacesClient({
      address: server.url,
      token: server.token,
      organization: server.organization,
    });
    policies = await seedPolicies(client, seeded);
    members = await seedMembers(server, client);
    stack = await TestStack.create({
      project: "adopt-e2e",
      files: { "index.ts": "// replaced by the generator\n" },
      env: serverEnv(server),
    });
  });

  afterAll(async () => {
    if (figures.length) console.log(`\nadopt round trip figures:\n  ${figures.join("\n  ")}`);
    stack?.dispose();
    await server?.close();
  });

  it("generates the program with the packaged command, reading only", async () => {
    const before = server.stats().byRoute;
    const t0 = Date.now();
    const r = await generateWithCli(server, path.join(stack.dir, "index.ts"));
    expect(r.code, r.stderr).toBe(0);
    const m = byMethod(server, before);
    expect(writesOf(m)).toBe(0);
    expect(r.stderr).toContain(
      `reading tags, consumers, variables, access, triggers and notifications: ${COUNT} of ${COUNT}`,
    );
    figure(`generate: ${((Date.now() - t0) / 1000).toFixed(1)} s, requests ${JSON.stringify(m)}`);

    const program = fs.readFileSync(path.join(stack.dir, "index.ts"), "utf8");
    expect(program).not.toContain(server.token);
    // Tokens are declared to adopt, never with their secrets.
    for (const secret of members.secrets) expect(program).not.toContain(secret);
    // The sensitive values the service never shows come from secret stack config.
    for (const [name, password] of seeded.passwords) {
      expect(program).toContain(`config.requireSecret("${name}-password")`);
      await stack.ok(["config", "set", "--secret", `${name}-password`, password]);
    }
    // So does a sensitive policy set parameter's; each policy's code is a file beside the program.
    expect(program).toContain('config.requireSecret("polset-versioned-api-key")');
    expect(program).not.toContain(SENSITIVE_VALUE);
    await stack.ok(["config", "set", "--secret", "polset-versioned-api-key", SENSITIVE_VALUE]);
    for (const [name, code] of Object.entries(CODE)) {
      const file = path.join(stack.dir, "policies", `${name}.${name === "no-admins" ? "rego" : "sentinel"}`);
      expect(fs.readFileSync(file, "utf8"), name).toBe(code);
    }
  });

  it("previews what each resource adopts, with no write", async () => {
    // One workspace edited before adoption: its line names the properties up would change.
    const edited = workspaceName(13);
    const file = path.join(stack.dir, "index.ts");
    const generated = fs.readFileSync(file, "utf8");
    const nameLine = `  name: ${JSON.stringify(edited)},\n`;
    const start = generated.indexOf(`new Workspace(${JSON.stringify(edited)}, {\n${nameLine}`);
    expect(start).toBeGreaterThanOrEqual(0);
    const end = generated.indexOf(");", start);
    const statement = generated
      .slice(start, end)
      .replace(nameLine, `${nameLine}  description: "edited",\n`)
      .replace('team: "team-6"', 'team: "team-y"');
    fs.writeFileSync(file, generated.slice(0, start) + statement + generated.slice(end));

    const before = server.stats().byRoute;
    const t0 = Date.now();
    const r = await stack.pulumi(["preview", "--non-interactive"]);
    fs.writeFileSync(file, generated);
    expect(r.code, r.output).toBe(0);
    const m = byMethod(server, before);
    expect(routesSince(server, before, "POST").concat(routesSince(server, before, "PATCH"))).toEqual([]);
    expect(writesOf(m)).toBe(0);
    const adopts = r.output.split("\n").filter((l) => /^\s+adopt: pulumi up adopts the existing/.test(l));
    // Each workspace, each no-code module, each project other than the default, each agent
    // pool, each policy and each policy set, each team, membership and organization token,
    // listed once in the diagnostics.
    const count = (kind: string) => generated.split(`new ${kind}(`).length - 1;
    const projects = count("Project");
    const pools = count("AgentPool");
    const policyRecords = count("Policy") + count("PolicySet");
    const people = count("Team") + count("OrganizationMembership") + count("OrganizationToken");
    expect(projects).toBeGreaterThan(0);
    expect(pools).toBe(1);
    expect(policyRecords).toBe(6);
    expect(people).toBe(2 + EMAILS.length + 2);
    expect(adopts).toHaveLength(COUNT + 2 + projects + pools + policyRecords + people);
    // A team token names its team by the adopted Team's id, known only during up: it is found then.
    expect(
      r.output
        .split("\n")
        .filter((l) => /^\s+adopt: the team token is identified by values known only during pulumi up/.test(l)),
    ).toHaveLength(count("TeamToken"));
    expect(count("TeamToken")).toBe(members.teamTokens.size);
    // A module-made workspace refers to its module's id, a workspace in a declared project to
    // that project's id, one on the pool to the pool's id, and a set to its policies' ids,
    // which are known only during up.
    expect(
      adopts
        .filter(
          (l) =>
            !/; no property changes( \(((agentPoolId|noCodeModuleId|project|policyIds)(, |(?= known)))+ known only during pulumi up\))?$/.test(
              l,
            ),
        )
        .map((l) => l.trim()),
    ).toEqual([
      `adopt: pulumi up adopts the existing workspace "${edited}" (${seeded.ids.get(edited)}) in organization "${server.organization}"; changes description, tags (project known only during pulumi up)`,
    ]);
    figure(`preview before adoption: ${((Date.now() - t0) / 1000).toFixed(1)} s, requests ${JSON.stringify(m)}`);
  });

  it("pulumi up adopts every record and sends no write", async () => {
    const before = server.stats().byRoute;
    const t0 = Date.now();
    const r = await stack.up();
    const seconds = (Date.now() - t0) / 1000;
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const m = byMethod(server, before);
    expect(
      routesSince(server, before, "POST").concat(
        routesSince(server, before, "PATCH"),
        routesSince(server, before, "DELETE"),
      ),
    ).toEqual([]);
    figure(`pulumi up (adopt ${COUNT} workspaces): ${seconds.toFixed(1)} s, requests ${JSON.stringify(m)}`);

    // The stack now holds every record under its real id.
    const held = new Map<string, string>();
    for (const res of [...stack.resources("workspaces:Workspace"), ...stack.resources("workspaces:NoCodeWorkspace")]) {
      held.set(String(res.outputs?.name), String(res.id));
    }
    expect(held.size).toBe(COUNT);
    for (const [name, id] of seeded.ids) expect(held.get(name), name).toBe(id);
    expect(
      stack
        .resources("workspaces:NoCodeModule")
        .map((res) => res.id)
        .sort(),
    ).toEqual(seeded.modules.map((mod) => mod.id).sort());
    expect(stack.resources("workspaces:RemoteStateConsumers")).toHaveLength(seeded.consumers.size);
    // The policies (but the one without code, which is not declared) and the sets, under their ids.
    const heldIds = (type: string) =>
      stack
        .resources(`workspaces:${type}`)
        .map((res) => res.id)
        .sort();
    expect(heldIds("Policy")).toEqual(
      [...policies.policies]
        .filter(([name]) => name !== "draft")
        .map(([, id]) => id)
        .sort(),
    );
    expect(heldIds("PolicySet")).toEqual([...policies.sets.values()].sort());
    expect(heldIds("PolicySetParameter")).toHaveLength(policies.parameters.size);
    // People and tokens, adopted under the ids they had: no invitation sent, no token made.
    expect(heldIds("OrganizationMembership")).toEqual([...members.memberships.values()].sort());
    expect(heldIds("TeamToken")).toEqual([...members.teamTokens.values()].sort());
    expect(heldIds("OrganizationToken")).toHaveLength(2);
    expect(heldIds("TeamMembers")).toEqual([members.teams.get("developers"), members.teams.get("operators")].sort());
    // The tags of module-made workspaces, declared beside them, were already so: applied without a write.
    expect(
      stack
        .resources("workspaces:WorkspaceTags")
        .map((res) => res.id)
        .sort(),
    ).toEqual([...seeded.noCodeTags.keys()].map((n) => `${seeded.ids.get(n)}/tags`).sort());
    // Sensitive values are in state only as secrets.
    const text = stack.stateText();
    for (const password of [...seeded.passwords.values(), SENSITIVE_VALUE, ...members.secrets])
      expect(text).not.toContain(password);
    await stack.expectEncryptedOnly([...seeded.passwords.values(), SENSITIVE_VALUE]);
  });

  it("a following preview shows no change", async () => {
    const before = server.stats().byRoute;
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writesOf(byMethod(server, before))).toBe(0);
    figure(`preview after adoption: requests ${JSON.stringify(byMethod(server, before))}`);
  });

  it("editing one tag in the generated program updates exactly that workspace", async () => {
    const name = workspaceName(13);
    const file = path.join(stack.dir, "index.ts");
    const program = fs.readFileSync(file, "utf8");
    const start = program.indexOf(`new Workspace(${JSON.stringify(name)},`);
    const end = program.indexOf(");", start);
    const statement = program.slice(start, end);
    expect(statement).toContain('team: "team-6"');
    fs.writeFileSync(
      file,
      program.slice(0, start) + statement.replace('team: "team-6"', 'team: "team-x"') + program.slice(end),
    );
    const other = await tagBindings(server, seeded.ids.get(workspaceName(14))!);

    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(r.output).toMatch(/1 updated/);
    const m = byMethod(server, before);
    expect(routesSince(server, before, "PATCH")).toEqual(["PATCH /api/v2/workspaces/:workspace_id x1"]);
    expect(writesOf(m)).toBe(1);
    figure(`edit one tag: requests ${JSON.stringify(m)}`);

    const ws = await workspaceByName(server, name);
    expect(await tagBindings(server, ws.id)).toEqual({ env: "staging", team: "team-x" });
    expect(await tagBindings(server, seeded.ids.get(workspaceName(14))!)).toEqual(other);
  });

  it("destroy deletes every adopted record but those given retainOnDelete (a workspace, the projects), which stay", async () => {
    const kept = workspaceName(13);
    const file = path.join(stack.dir, "index.ts");
    const program = fs.readFileSync(file, "utf8");
    const start = program.indexOf(`new Workspace(${JSON.stringify(kept)},`);
    const end = program.indexOf(");", start);
    // Its project stays too: a project that still holds a workspace is never deleted.
    const withRetained = `${program.slice(0, end)}, { retainOnDelete: true }${program.slice(end)}`;
    const statements = withRetained.split("new Project(");
    const retained = statements
      .map((part, i) => {
        if (i === 0) return part;
        const close = part.indexOf(");");
        return `${part.slice(0, close)}, { retainOnDelete: true }${part.slice(close)}`;
      })
      .join("new Project(");
    expect(statements.length).toBeGreaterThan(1);
    fs.writeFileSync(file, retained);

    // The option goes into state with an up that sends nothing to the service.
    let before = server.stats().byRoute;
    const up = await stack.up();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(writesOf(byMethod(server, before))).toBe(0);

    before = server.stats().byRoute;
    const t0 = Date.now();
    const r = await stack.destroy();
    const seconds = (Date.now() - t0) / 1000;
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const m = byMethod(server, before);
    figure(
      `pulumi destroy (${COUNT - 1} workspaces deleted, 1 retained): ${seconds.toFixed(1)} s, requests ${JSON.stringify(m)}`,
    );
    expect(stack.resources().filter((res) => res.custom)).toEqual([]);

    // Only the retained workspace is left, under its id, with the tags the stack last gave it.
    const list = await api<any>(server, `/organizations/${server.organization}/workspaces?page%5Bsize%5D=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: any) => [w.attributes.name, w.id])).toEqual([[kept, seeded.ids.get(kept)]]);
    expect(await tagBindings(server, seeded.ids.get(kept)!)).toEqual({ env: "staging", team: "team-x" });
    // The service has no delete for no-code settings: destroying the NoCodeModule disables it.
    for (const mod of seeded.modules) {
      const res = await api<any>(server, `/no-code-modules/${mod.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.enabled, mod.name).toBe(false);
    }
  });
});

describe("declaring an existing workspace without adopt", () => {
  let server: RunningServer;
  let stack: TestStack;
  let id: string;

  beforeAll(async () => {
    server = await startTestServer();
    id = (await seedOne(server, "billing")).id;
    stack = await TestStack.create({
      project: "adopt-missing-e2e",
      files: {
        "index.ts": `import { Workspace } from "pulumi-workspaces";\nnew Workspace("billing", { name: "billing", description: "declared" });\n`,
      },
      env: serverEnv(server),
    });
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("fails once, naming the workspace and adopt: true, without a stack trace, and changes nothing", async () => {
    const r = await stack.up();
    expect(r.code).not.toBe(0);
    const message = `workspace "billing" (${id}) in organization "${server.organization}" already exists`;
    // The progress lines echo it as it happens; the diagnostics report it once.
    const diagnostics = r.output.slice(r.output.indexOf("Diagnostics:"));
    expect(diagnostics.split(message).length - 1, r.output).toBe(1);
    expect(r.output).toContain("set adopt: true on this resource");
    expect(r.output).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    expect((await workspaceByName(server, "billing")).attributes.description).toBe("made by hand");
    expect(stack.resources("workspaces:Workspace")).toEqual([]);
  });
});

async function seedOne(server: RunningServer, name: string): Promise<{ id: string }> {
  const r = await api<any>(server, `/organizations/${server.organization}/workspaces`, {
    method: "POST",
    body: { data: { type: "workspaces", attributes: { name, description: "made by hand" } } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.data.id };
}
