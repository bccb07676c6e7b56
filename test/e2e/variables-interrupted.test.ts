/**
 * A CI runner killed in the middle of `pulumi up` of variables and a variable set's
 * applications (SIGKILL to the CLI's process group as soon as an application arrives at the
 * local server, which holds every request 300 ms before serving it, so the killed run never
 * hears that answer and always leaves an application out of its state), then the documented recovery:
 * `pulumi cancel --yes` and one `pulumi up`. Each variable the killed run created and
 * left out of the state carries the stack's origin in its description and is taken over,
 * with one info line; none is on the server twice. An application carries nothing that
 * could say whose it is, but the set does: one the killed run made and left out of the
 * state is of this stack's own set, and is taken over with one info line and no write.
 * The recovering up's writes are counted: only what the server lacked is created. After
 * `pulumi refresh --clear-pending-creates`, a preview changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient, type Variable } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { settledList, writesSince } from "./engine-steps";
import { upInterrupted } from "./interrupt";

const COUNT = 30;
const TARGETS = 6;
/** The route of an application of a set to workspaces. */
const APPLY_ROUTE = "/api/v2/varsets/:varset_id/relationships/workspaces";

const program = (workspaceId: string, targets: string[]) => `
import { VariableSet, VariableSetApplication, WorkspaceVariable } from "pulumi-workspaces";
// Half the variables wait for the set, so that its applications reach the server among them;
// the other half wait for the applications, so that the killed run cannot have made them all.
const set = new VariableSet("shared", { name: "crash-set", variables: [{ key: "S", value: "s", category: "env" }] });
const apps = ${JSON.stringify(targets)}.map((ws, i) =>
  new VariableSetApplication(\`app-\${i}\`, { variableSetId: set.id, workspaceId: ws }),
);
for (let i = 0; i < ${COUNT}; i++) {
  new WorkspaceVariable(\`v-\${i}\`, { workspaceId: "${workspaceId}", key: \`V\${i}\`, value: String(i), category: "env" }, { dependsOn: i < ${COUNT / 2} ? [set] : apps });
}
`;

describe(`pulumi up of ${COUNT} variables and ${TARGETS} applications of a set, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges: the variables and applications it made are taken over by their origin", async () => {
    // Every request waits 300 ms before it is served: the kill lands while an application is
    // still being served, so its answer never reaches the state.
    server = await startTestServer({ faults: { latencyMs: 300 } });
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
      files: { "index.ts": program(workspaceId, targets) },
      env: serverEnv(server),
    });
    const arrived = () => server.stats().arrivedByRoute;
    const creates = () =>
      Object.entries(arrived())
        .filter(([route]) => /^POST .*\/workspaces\/:workspace_id\/vars$/.test(route))
        .reduce((n, [, c]) => n + c, 0);
    const applications = () => arrived()[`POST ${APPLY_ROUTE}`] ?? 0;
    // Killed as soon as an application and a variable create have arrived: both are served
    // after the CLI died.
    const stopped = await upInterrupted(stack, "SIGKILL", () => applications() >= 1 && creates() >= 1);
    expect(stopped.code, stopped.output).not.toBe(0);
    server.setFaults({});
    const list = (): Promise<Variable[]> => settledList(() => client.variables.list(workspaceId), "the variables");
    // Creates in flight when the CLI died still land: wait until the server settles.
    const before = await list();
    const inState = stack.resources("dynamic/workspaces:WorkspaceVariable").map((r) => (r.id ?? "").split("/")[1]);
    const orphans = before.filter((v) => !inState.includes(v.id));
    expect(before.length).toBeLessThan(COUNT);
    expect(orphans.length).toBeGreaterThan(0);
    for (const o of orphans) expect(o.description).toContain("interrupted-updates.md");

    // Applications the killed run made that the state lacks.
    const madeSet = (await client.variableSets.list(server.organization).all()).find((x) => x.name === "crash-set");
    const inStateApps = stack.resources("dynamic/workspaces:VariableSetApplication").map((r) => r.id ?? "");
    const orphanApps = (madeSet?.workspaceIds ?? []).filter((ws) => !inStateApps.includes(`${madeSet?.id}/${ws}`));
    // The application that arrived as the CLI was killed was served after it died.
    expect(orphanApps.length).toBeGreaterThan(0);

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    const writesBefore = { ...server.stats().byRoute };
    const up = await stack.upWithEvents();
    const tookOver = up.diagnostics.filter((d) => /took over variable/.test(d.message));
    // Each variable the killed run left out of the state is taken over with an info line that names it.
    for (const o of orphans)
      expect(
        tookOver.some((d) => d.message.includes(o.id)),
        o.id,
      ).toBe(true);
    // So is each application of the stack's own set.
    const tookOverApps = up.diagnostics.filter((d) => /took over the application of variable set/.test(d.message));
    for (const ws of orphanApps)
      expect(
        tookOverApps.some((d) => d.message.includes(ws)),
        ws,
      ).toBe(true);
    expect(up.output).not.toMatch(/already exists|already applied/);
    expect(up.code, up.output).toBe(0);
    // Taken over with no write: the create of each variable the state lacks is sent once (the
    // orphans' are refused as taken, and they are taken over as they are), the set is applied
    // only where it was not, and nothing is changed or removed.
    const appsMade = madeSet?.workspaceIds.length ?? 0;
    expect(writesSince(server, writesBefore).sort()).toEqual(
      [
        `POST /api/v2/workspaces/:workspace_id/vars x${COUNT - (before.length - orphans.length)}`,
        ...(TARGETS > appsMade ? [`POST ${APPLY_ROUTE} x${TARGETS - appsMade}`] : []),
      ].sort(),
    );

    const after = await list();
    expect(after.map((v) => v.key).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `V${i}`).sort());
    expect(stack.resources("dynamic/workspaces:WorkspaceVariable")).toHaveLength(COUNT);
    const sets = await client.variableSets.list(server.organization).all();
    expect(sets.map((s) => s.name)).toEqual(["crash-set"]);
    expect(sets[0].workspaceIds.sort()).toEqual([...targets].sort());

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.expectNoChanges();
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
