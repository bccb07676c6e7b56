/**
 * `TeamWorkspaceAccess` and `TeamProjectAccess` through the real engine, from the
 * TypeScript door: up, a no-change preview, an edit of the level in place, drift made over
 * HTTP that refresh shows and up restores, `pulumi import` by `<team-id>/<ws-id>` (through
 * the provider plugin, as its programs import), a destroy that leaves alone access the stack
 * did not grant, and `adopt: true` taking access the team already has over with no write
 * (the server's request counter).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { NotFoundError, WorkspacesClient } from "../../src/client";
import { writesSince } from "./doc-steps";
import { serverEnv, startTestServer, TestStack } from "./harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as { pluginLauncher(dir: string): string };

const program = (o: { level: string; adopt?: boolean }) => `
import { TeamProjectAccess, TeamWorkspaceAccess } from "pulumi-workspaces";
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const web = new TeamWorkspaceAccess("ops-web", {
  teamId: config.require("teamId"),
  workspaceId: config.require("workspaceId"),
  access: "${o.level}",${o.adopt ? "\n  adopt: true," : ""}
});
const apps = new TeamProjectAccess("ops-apps", {
  teamId: config.require("teamId"),
  projectId: config.require("projectId"),
  access: "custom",
  workspacePermissions: { runs: "plan", stateVersions: "read" },${o.adopt ? "\n  adopt: true," : ""}
});
export const webId = web.id;
export const appsId = apps.id;
`;

describe("team access through the engine (TypeScript)", () => {
  let server: RunningServer;
  let client: WorkspacesClient;
  let stack: TestStack;
  let teamId: string;
  let workspaceId: string;
  let projectId: string;
  let theirs: string;

  beforeAll(async () => {
    server = await startTestServer();
    client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
    const org = server.organization;
    teamId = (await client.teams.create(org, { name: "ops" })).id;
    projectId = (await client.projects.create(org, { name: "apps" })).id;
    workspaceId = (await client.workspaces.create(org, { name: "web", projectId })).id;
    // Access the stack never declares: a destroy leaves it.
    const other = (await client.teams.create(org, { name: "auditors" })).id;
    theirs = (await client.teamAccess.add(other, workspaceId, { access: "read" })).id;
    stack = await TestStack.create({
      project: "team-access-e2e",
      files: { "index.ts": program({ level: "write" }) },
      env: serverEnv(server),
      config: { teamId, workspaceId, projectId },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const ids = async () => (await stack.outputs()) as { webId: string; appsId: string };

  it("up grants both; a preview shows no change", async () => {
    await stack.ok(["up", "--yes", "--non-interactive"]);
    const { webId, appsId } = await ids();
    expect(await client.teamAccess.read(webId)).toMatchObject({ access: "write", teamId, workspaceId });
    expect(await client.teamProjectAccess.read(appsId)).toMatchObject({
      access: "custom",
      workspacePermissions: { runs: "plan", stateVersions: "read", variables: "none" },
    });
    await stack.expectNoChanges();
  });

  it("an edit of the level is one update in place; then no change", async () => {
    const { webId } = await ids();
    stack.writeFiles({ "index.ts": program({ level: "admin" }) });
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(1);
    expect(preview.changeSummary).not.toHaveProperty("replace");
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await client.teamAccess.read(webId)).access).toBe("admin");
    expect((await ids()).webId).toBe(webId);
    await stack.expectNoChanges();
  });

  it("drift made over HTTP shows in refresh and preview, and up restores it", async () => {
    const { webId, appsId } = await ids();
    await client.teamAccess.update(webId, { access: "read" });
    await client.teamProjectAccess.update(appsId, { access: "custom", workspacePermissions: { runs: "apply" } });
    const refresh = await stack.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect(refresh.output).toMatch(/^\s+~ 2 updated$/m);
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(2);
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await client.teamAccess.read(webId)).access).toBe("admin");
    expect((await client.teamProjectAccess.read(appsId)).workspacePermissions.runs).toBe("plan");
    await stack.expectNoChanges();
  });

  it("pulumi import takes access over by <team-id>/<ws-id>, its id then the tws- id", async () => {
    const team = (await client.teams.create(server.organization, { name: "imported" })).id;
    const granted = await client.teamAccess.add(team, workspaceId, { access: "plan" });
    // Dynamic resources cannot be imported (pulumi/pulumi#16175): the provider plugin imports them.
    const plugins = engine.pluginLauncher(path.join(stack.root, "plugins"));
    const env = {
      PATH: [String(stack.env.PATH).split(path.delimiter)[0], plugins, stack.env.PATH].join(path.delimiter),
    };
    const type = "workspaces:index:TeamWorkspaceAccess";
    const args = ["import", type, "imported", `${team}/${workspaceId}`, "--generate-code=false", "--protect=false"];
    await stack.ok([...args, "--yes", "--non-interactive"], env);
    const [imported] = stack.resources(type).filter((r) => r.id === granted.id);
    expect(imported?.outputs).toMatchObject({ teamId: team, workspaceId, access: "plan" });
    // The program does not declare it: it leaves the stack again, and stays on the server.
    await stack.ok(["state", "delete", imported.urn, "--yes"], env);
    expect((await client.teamAccess.read(granted.id)).access).toBe("plan");
  });

  it("destroy removes the access it granted and leaves the access it did not", async () => {
    const { webId, appsId } = await ids();
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    await expect(client.teamAccess.read(webId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.teamProjectAccess.read(appsId)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.teamAccess.read(theirs)).access).toBe("read");
  });

  it("adopt: true takes access the team already has over with no write; then no change", async () => {
    const web = await client.teamAccess.add(teamId, workspaceId, { access: "admin" });
    const apps = await client.teamProjectAccess.add(teamId, projectId, {
      access: "custom",
      workspacePermissions: { runs: "plan", stateVersions: "read" },
    });
    // Without adopt: one message naming the import id, and nothing written.
    stack.writeFiles({ "index.ts": program({ level: "admin" }) });
    const before = server.stats().byRoute;
    const refused = await stack.pulumi(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`already has access to workspace ${workspaceId} (${web.id}`);
    expect(refused.output).toContain("set adopt: true");
    expect(refused.output).not.toContain("has already been taken");
    // Each create was tried once and refused: the team still has one access to each.
    expect(writesSince(server, before).sort()).toEqual([
      "POST /api/v2/team-projects x1",
      "POST /api/v2/team-workspaces x1",
    ]);
    const teamIds = async (list: AsyncIterable<{ teamId: string | null }>) => {
      const out: (string | null)[] = [];
      for await (const a of list) out.push(a.teamId);
      return out.filter((id) => id === teamId);
    };
    expect(await teamIds(client.teamAccess.list(workspaceId))).toHaveLength(1);
    expect(await teamIds(client.teamProjectAccess.list(projectId))).toHaveLength(1);

    stack.writeFiles({ "index.ts": program({ level: "admin", adopt: true }) });
    const since = server.stats().byRoute;
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(writesSince(server, since), "adopting writes").toEqual([]);
    expect(await ids()).toEqual({ webId: web.id, appsId: apps.id });
    await stack.expectNoChanges();
  });
});
