/**
 * Adopting how an organization is laid out and who hears of what, through the real engine
 * and the real server under its default rate limit: projects (one without workspaces),
 * teams, the teams' access to projects (the default project's too) and to workspaces
 * (preset and custom), run triggers within a project and across projects, and notification
 * configurations (a generic one with a token, a disabled Slack one, an email one), then
 * `pulumi-workspaces generate` -> the secrets its README names set as stack config ->
 * `pulumi up` (adopts everything without one write) -> `pulumi preview` (no change) -> one
 * access level edited in the program -> `pulumi up` (one write, of that grant).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import type { RunningServer } from "../../src/server";
import { seedOrganization, workspaceName, type Seeded } from "../generate/seed";
import { seedAccess, type SeededAccess } from "../generate/seed-access";
import { writesSince } from "./doc-steps";
import { generateWithCli } from "./generate-cli";
import { serverEnv, startTestServer, TestStack } from "./harness";

const COUNT = 12;
const NO_CODE = 2;

describe("adopting an organization's projects, teams, access, run triggers and notifications", () => {
  let server: RunningServer;
  let seeded: Seeded;
  let access: SeededAccess;
  let stack: TestStack;

  beforeAll(async () => {
    // seed-access names a notification destination off this machine, enabled: stored without delivering.
    server = await startTestServer({ storeRemoteNotifications: true });
    seeded = await seedOrganization(server, COUNT, NO_CODE);
    const client = new WorkspacesClient({
      address: server.url,
      token: server.token,
      organization: server.organization,
    });
    access = await seedAccess(client, seeded);
    stack = await TestStack.create({
      project: "adopt-access-e2e",
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
    expect(r.stderr).toContain("5 projects, 2 teams, 6 access grants, 2 run triggers, 3 notification configurations");

    const readme = fs.readFileSync(path.join(stack.dir, "README.md"), "utf8");
    const commands = [
      ...readme.matchAll(/pulumi config set --secret (\S+) '<(value|url|token) of (?:notification )?(\S+)>'/g),
    ];
    // The module-made workspaces' passwords, the Slack webhook and the generic destination's token.
    expect(commands.length).toBe(seeded.passwords.size + 2);
    for (const [, key, what] of commands) {
      const value =
        what === "url"
          ? access.secretValues.slackUrl
          : what === "token"
            ? access.secretValues.token
            : seeded.passwords.get(key.slice(0, -"-password".length));
      expect(value, key).toBeDefined();
      await stack.ok(["config", "set", "--secret", key, value!]);
    }
    const program = fs.readFileSync(path.join(stack.dir, "index.ts"), "utf8");
    for (const secret of Object.values(access.secretValues)) expect(program).not.toContain(secret);
  });

  it("pulumi up adopts every project, team, grant, trigger and notification and sends no write", async () => {
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual([]);

    const ids = (kind: string) =>
      stack
        .resources(`workspaces:${kind}`)
        .map((res) => res.id)
        .sort();
    expect(ids("Project")).toHaveLength(5);
    expect(ids("Project")).toContain(access.sandbox);
    expect(ids("Project")).not.toContain(access.defaultProject);
    expect(ids("Team")).toEqual([access.teams.get("auditors"), access.teams.get("developers")].sort());
    expect(ids("TeamProjectAccess")).toEqual([...access.projectAccess.values()].sort());
    expect(ids("TeamWorkspaceAccess")).toEqual([...access.workspaceAccess.values()].sort());
    expect(ids("RunTrigger")).toEqual([...access.runTriggers.values()].sort());
    expect(ids("NotificationConfiguration")).toEqual([...access.notifications.values()].sort());
    // The token and the webhook are in the state only as secrets.
    const text = stack.stateText();
    for (const secret of Object.values(access.secretValues)) expect(text).not.toContain(secret);
    await stack.expectEncryptedOnly(Object.values(access.secretValues));
  });

  it("a following preview shows no change and writes nothing", async () => {
    const before = server.stats().byRoute;
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writesSince(server, before)).toEqual([]);
  });

  it("an access level edited in the program is one write, of that grant", async () => {
    const file = path.join(stack.dir, "index.ts");
    const program = fs.readFileSync(file, "utf8");
    const start = program.indexOf(`new TeamWorkspaceAccess("developers-${workspaceName(0)}-access",`);
    const end = program.indexOf(");", start);
    const statement = program.slice(start, end);
    expect(statement).toContain('access: "admin"');
    fs.writeFileSync(
      file,
      program.slice(0, start) + statement.replace('access: "admin"', 'access: "write"') + program.slice(end),
    );
    const before = server.stats().byRoute;
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual(["PATCH /api/v2/team-workspaces/:id x1"]);
  });
});
