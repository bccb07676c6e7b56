/**
 * `Project` and `Team` through the real engine, from the TypeScript door: up, a no-change
 * preview, an edit in place, drift made over HTTP that refresh shows and up restores,
 * `pulumi import` of a project and a team by their documented ids (through the provider
 * plugin, as its programs import), a destroy that leaves alone what the stack did not
 * create, and `adopt: true` taking records over with no write (the server's request
 * counter).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { NotFoundError, WorkspacesClient } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as { pluginLauncher(dir: string): string };

const program = (o: { description: string; visibility: string; modules?: boolean; adopt?: boolean }) => `
import { Project, Team } from "pulumi-workspaces";

const platform = new Project("platform", {
  name: "e2e-platform",
  description: "${o.description}",${o.adopt ? "\n  adopt: true," : ""}
});
const admins = new Team("admins", {
  name: "e2e-admins",
  visibility: "${o.visibility}",
  organizationAccess: { manageWorkspaces: true${o.modules ? ", manageModules: true" : ""} },${o.adopt ? "\n  adopt: true," : ""}
});
export const projectId = platform.id;
export const teamId = admins.id;
`;

/** Write requests (POST, PATCH, PUT, DELETE) by route since `since`. */
function writesSince(server: RunningServer, since: Record<string, number>): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

describe("projects and teams through the engine (TypeScript)", () => {
  let server: RunningServer;
  let client: WorkspacesClient;
  let stack: TestStack;
  let theirProject: string;
  let theirWorkspace: string;

  beforeAll(async () => {
    server = await startTestServer();
    client = new WorkspacesClient({ address: server.url, token: server.token, organization: server.organization });
    // Records the stack never declares: a destroy leaves them.
    theirProject = (await client.projects.create(server.organization, { name: "theirs" })).id;
    theirWorkspace = (
      await client.workspaces.create(server.organization, { name: "their-ws", projectId: theirProject })
    ).id;
    stack = await TestStack.create({
      project: "prj-teams-e2e",
      files: { "index.ts": program({ description: "shared networking", visibility: "secret" }) },
      env: serverEnv(server),
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  const ids = async () => (await stack.outputs()) as { projectId: string; teamId: string };

  it("up creates both; a preview shows no change", async () => {
    await stack.ok(["up", "--yes", "--non-interactive"]);
    const { projectId, teamId } = await ids();
    expect(await client.projects.read(projectId)).toMatchObject({
      name: "e2e-platform",
      description: "shared networking",
    });
    const team = await client.teams.read(teamId);
    expect(team).toMatchObject({ name: "e2e-admins", visibility: "secret" });
    expect(team.organizationAccess).toMatchObject({ manageWorkspaces: true, manageModules: false });
    await stack.expectNoChanges();
  });

  it("an edit of the description and the visibility is an update in place of each", async () => {
    stack.writeFiles({ "index.ts": program({ description: "networking and DNS", visibility: "organization" }) });
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(2);
    expect(preview.changeSummary).not.toHaveProperty("replace");
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const { projectId, teamId } = await ids();
    expect((await client.projects.read(projectId)).description).toBe("networking and DNS");
    expect((await client.teams.read(teamId)).visibility).toBe("organization");
    await stack.expectNoChanges();
  });

  it("drift: changes made over HTTP show in refresh and preview, and up restores them", async () => {
    const { projectId, teamId } = await ids();
    await client.projects.update(projectId, { description: "edited by hand" });
    await client.teams.update(teamId, { organizationAccess: { manageModules: true } });
    const refresh = await stack.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect(refresh.output).toMatch(/^\s+~ 2 updated$/m);
    const preview = await stack.previewJson();
    expect(preview.changeSummary.update).toBe(2);
    await stack.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await client.projects.read(projectId)).description).toBe("networking and DNS");
    expect((await client.teams.read(teamId)).organizationAccess.manageModules).toBe(false);
    await stack.expectNoChanges();
  });

  it("pulumi import takes a project and a team over by their prj- and team- ids", async () => {
    const p = await client.projects.create(server.organization, { name: "imported", description: "d" });
    const t = await client.teams.create(server.organization, { name: "imported-team" });
    // Dynamic resources cannot be imported (pulumi/pulumi#16175): the provider plugin imports them.
    const plugins = engine.pluginLauncher(path.join(stack.root, "plugins"));
    const env = {
      PATH: [String(stack.env.PATH).split(path.delimiter)[0], plugins, stack.env.PATH].join(path.delimiter),
    };
    for (const [type, name, id] of [
      ["Project", "imported", p.id],
      ["Team", "imported-team", t.id],
    ]) {
      await stack.ok(
        [
          "import",
          `workspaces:index:${type}`,
          name,
          id,
          "--generate-code=false",
          "--protect=false",
          "--yes",
          "--non-interactive",
        ],
        env,
      );
      const [imported] = stack.resources(`workspaces:index:${type}`).filter((r) => r.id === id);
      expect(imported?.outputs).toMatchObject({ name, organization: server.organization });
      // The program does not declare it: it leaves the stack again, and stays on the server.
      await stack.ok(["state", "delete", imported.urn, "--yes"], env);
    }
    expect((await client.projects.read(p.id)).name).toBe("imported");
    expect((await client.teams.read(t.id)).name).toBe("imported-team");
  });

  it("destroy removes what the stack made and leaves the project and workspace it did not create", async () => {
    const { projectId, teamId } = await ids();
    await stack.ok(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    await expect(client.projects.read(projectId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.teams.read(teamId)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.projects.read(theirProject)).name).toBe("theirs");
    expect((await client.workspaces.read(theirWorkspace)).projectId).toBe(theirProject);
  });

  it("adopt: true takes an existing project and team over with no write; then no change", async () => {
    const p = await client.projects.create(server.organization, { name: "e2e-platform", description: "kept" });
    const t = await client.teams.create(server.organization, {
      name: "e2e-admins",
      visibility: "organization",
      organizationAccess: { manageWorkspaces: true },
    });
    stack.writeFiles({ "index.ts": program({ description: "kept", visibility: "organization", adopt: true }) });
    const before = server.stats().byRoute;
    await stack.ok(["up", "--yes", "--non-interactive"]);
    expect(writesSince(server, before)).toEqual([]);
    expect(await ids()).toEqual({ projectId: p.id, teamId: t.id });
    await stack.expectNoChanges();
  });
});
