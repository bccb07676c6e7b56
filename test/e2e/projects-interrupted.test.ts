/**
 * A CI runner killed in the middle of `pulumi up` of projects (SIGKILL to the CLI's process
 * group once a third of the project creates reached the local server, with its rate
 * limit), then the documented recovery: `pulumi cancel --yes` and one `pulumi up`. Each
 * project the killed run created and left out of the state carries the stack's origin in
 * its description and is taken over, with one info line; none is on the server twice.
 * After `pulumi refresh --clear-pending-creates`, a preview changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient, type Project } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { settledList } from "./engine-steps";
import { upInterrupted } from "./interrupt";

const COUNT = 24;

const program = `
import { Project } from "pulumi-workspaces";
for (let i = 0; i < ${COUNT}; i++) new Project(\`p-\${i}\`, { name: \`crash-p-\${i}\` });
`;

describe(`pulumi up of ${COUNT} projects, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges: the projects it created are taken over by their origin, none twice", async () => {
    server = await startTestServer();
    const client = new WorkspacesClient({
      address: server.url,
      token: server.token,
      organization: server.organization,
    });
    stack = await TestStack.create({
      project: "crash-projects",
      files: { "index.ts": program },
      env: serverEnv(server),
    });
    const creates = () =>
      Object.entries(server.stats().byRoute)
        .filter(([route]) => /^POST .*\/organizations\/:organization_name\/projects$/.test(route))
        .reduce((n, [, c]) => n + c, 0);

    const stopped = await upInterrupted(stack, "SIGKILL", () => creates() >= Math.ceil(COUNT / 3));
    expect(stopped.code, stopped.output).not.toBe(0);
    const list = (): Promise<Project[]> =>
      settledList(
        async () =>
          (await client.projects.list(server.organization).all()).filter((p) => p.name.startsWith("crash-p-")),
        "the projects",
      );
    // Creates in flight when the CLI died still land: wait until the server settles.
    const before = await list();
    const inState = stack.resources("dynamic/workspaces:Project").map((r) => r.id);
    const orphans = before.filter((p) => !inState.includes(p.id));
    expect(before.length).toBeLessThan(COUNT);
    expect(orphans.length).toBeGreaterThan(0);
    for (const o of orphans) expect(o.description).toContain("interrupted-updates.md");

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    const up = await stack.upWithEvents();
    expect(up.code, up.output).toBe(0);
    const tookOver = up.diagnostics.filter((d) => /took over project/.test(d.message));
    for (const o of orphans)
      expect(
        tookOver.some((d) => d.message.includes(o.id)),
        o.id,
      ).toBe(true);
    expect(up.output).not.toMatch(/already exists/);

    const after = await list();
    expect(after.map((p) => p.name).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `crash-p-${i}`).sort());
    expect(stack.resources("dynamic/workspaces:Project")).toHaveLength(COUNT);

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.expectNoChanges();
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
