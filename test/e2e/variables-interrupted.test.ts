/**
 * A CI runner killed in the middle of `pulumi up` of variables and a variable set's
 * applications (SIGKILL to the CLI's process group once a third of the variable creates
 * reached the local server, with its rate limit), then the documented recovery:
 * `pulumi cancel --yes` and one `pulumi up`. Each variable the killed run created and
 * left out of the state carries the stack's origin in its description and is taken over,
 * with one info line; none is on the server twice. An application carries nothing that
 * could say whose it is: one the killed run made and left out of the state gets the
 * `adopt: true` error, which `adopt: true` for one `up` resolves. After
 * `pulumi refresh --clear-pending-creates`, a preview changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient, type Variable } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { upInterrupted } from "./interrupt";

const COUNT = 30;
const TARGETS = 6;

const program = (workspaceId: string, targets: string[], adopt: boolean) => `
import { VariableSet, VariableSetApplication, WorkspaceVariable } from "pulumi-workspaces";
for (let i = 0; i < ${COUNT}; i++) {
  new WorkspaceVariable(\`v-\${i}\`, { workspaceId: "${workspaceId}", key: \`V\${i}\`, value: String(i), category: "env" });
}
const set = new VariableSet("shared", { name: "crash-set", variables: [{ key: "S", value: "s", category: "env" }] });
${JSON.stringify(targets)}.forEach((ws, i) =>
  new VariableSetApplication(\`app-\${i}\`, { variableSetId: set.id, workspaceId: ws${adopt ? ", adopt: true" : ""} }),
);
`;

describe(`pulumi up of ${COUNT} variables and ${TARGETS} applications of a set, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges: the variables it created are taken over by their origin, applications with adopt", async () => {
    server = await startTestServer();
    const client = new WorkspacesClient({
      address: server.url,
      token: server.token,
      organization: server.organization,
    });
    const workspaceId = (await client.workspaces.create(server.organization, { name: "crash-vars" })).id;
    const targets: string[] = [];
    for (let i = 0; i < TARGETS; i++)
      targets.push((await client.workspaces.create(server.organization, { name: `crash-target-${i}` })).id);
    stack = await TestStack.create({
      project: "crash-vars",
      files: { "index.ts": program(workspaceId, targets, false) },
      env: serverEnv(server),
    });
    const creates = () =>
      Object.entries(server.stats().byRoute)
        .filter(([route]) => /^POST .*\/workspaces\/:workspace_id\/vars$/.test(route))
        .reduce((n, [, c]) => n + c, 0);

    const stopped = await upInterrupted(stack, "SIGKILL", () => creates() >= Math.ceil(COUNT / 3));
    expect(stopped.code, stopped.output).not.toBe(0);
    const list = async (): Promise<Variable[]> => {
      for (;;) {
        try {
          return await client.variables.list(workspaceId);
        } catch {
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    };
    // Creates in flight when the CLI died still land: wait until the server settles.
    let before = await list();
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const now = await list();
      if (now.length === before.length) break;
      before = now;
    }
    const inState = stack.resources("dynamic/workspaces:WorkspaceVariable").map((r) => (r.id ?? "").split("/")[1]);
    const orphans = before.filter((v) => !inState.includes(v.id));
    expect(before.length).toBeLessThan(COUNT);
    expect(orphans.length).toBeGreaterThan(0);
    for (const o of orphans) expect(o.description).toContain("interrupted-updates.md");

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    let up = await stack.upWithEvents();
    const tookOver = up.diagnostics.filter((d) => /took over variable/.test(d.message));
    // Each variable the killed run left out of the state is taken over with an info line that names it.
    for (const o of orphans)
      expect(
        tookOver.some((d) => d.message.includes(o.id)),
        o.id,
      ).toBe(true);
    expect(up.output).not.toMatch(/already exists/);
    if (up.code !== 0) {
      // Only an application the killed run made and left out of the state stops it, with the adopt error.
      const errors = up.diagnostics.filter((d) => d.severity === "error" && !/update failed/.test(d.message));
      for (const e of errors) expect(e.message).toMatch(/is already applied to workspace .*adopt: true/s);
      stack.writeFiles({ "index.ts": program(workspaceId, targets, true) });
      up = await stack.upWithEvents();
    }
    expect(up.code, up.output).toBe(0);

    const after = await list();
    expect(after.map((v) => v.key).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `V${i}`).sort());
    expect(stack.resources("dynamic/workspaces:WorkspaceVariable")).toHaveLength(COUNT);
    const sets = await client.variableSets.list(server.organization).all();
    expect(sets.map((s) => s.name)).toEqual(["crash-set"]);
    expect(sets[0].workspaceIds.sort()).toEqual([...targets].sort());

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.previewJson();
    expect(preview.code, preview.raw.output).toBe(0);
    expect(preview.changeSummary).not.toHaveProperty("create");
    expect(preview.changeSummary).not.toHaveProperty("update");
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
