/**
 * A CI runner killed in the middle of `pulumi up` of notification configurations and run
 * triggers (SIGKILL to the CLI's process group once a third of the configuration creates
 * reached the local server, with its rate limit), then the documented recovery: `pulumi
 * cancel --yes` and one `pulumi up`. The service lets a workspace hold several
 * configurations of one name; each one the killed run created and left out of the state
 * carries the stack's origin in its URL's fragment and is taken over, with one info line,
 * and none is on the server twice. The triggers are made first (the configurations wait
 * for them): a trigger has no field to carry an origin, so one a kill leaves out of the
 * state gets the `adopt: true` message by design (docs/run-triggers-and-notifications.md),
 * and here they must converge with the rest. After `pulumi refresh --clear-pending-creates`,
 * a preview changes nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { WorkspacesClient, type NotificationConfiguration } from "../../src/client";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { upInterrupted } from "./interrupt";
import { settledList } from "./engine-steps";

const TARGETS = 3;
const PER_TARGET = 10;
const COUNT = TARGETS * PER_TARGET;
const HOOK = "https://hooks.example.test/runs";

const program = (targets: string[], sources: string[]) => `
import { NotificationConfiguration, RunTrigger } from "pulumi-workspaces";
const targets: string[] = ${JSON.stringify(targets)};
const sources: string[] = ${JSON.stringify(sources)};
const triggers = sources.map((source, i) =>
  new RunTrigger(\`rt-\${i}\`, { workspaceId: targets[i % targets.length], sourceWorkspaceId: source }),
);
targets.forEach((workspaceId, t) => {
  for (let i = 0; i < ${PER_TARGET}; i++)
    new NotificationConfiguration(
      \`nc-\${t}-\${i}\`,
      { workspaceId, name: \`hook \${i}\`, destinationType: "generic", url: "${HOOK}", triggers: ["run:errored"] },
      { dependsOn: triggers },
    );
});
`;

describe(`pulumi up of ${COUNT} notification configurations and run triggers, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges: the configurations it created are taken over by their origin, none twice", async () => {
    // The hooks name a destination off this machine, enabled: stored without delivering.
    server = await startTestServer({ storeRemoteNotifications: true });
    const client = new WorkspacesClient({
      address: server.url,
      token: server.token,
      organization: server.organization,
    });
    const targets: string[] = [];
    const sources: string[] = [];
    for (let i = 0; i < TARGETS; i++)
      targets.push((await client.workspaces.create(server.organization, { name: `crash-target-${i}` })).id);
    for (let i = 0; i < TARGETS; i++)
      sources.push((await client.workspaces.create(server.organization, { name: `crash-source-${i}` })).id);
    stack = await TestStack.create({
      project: "crash-wiring",
      files: { "index.ts": program(targets, sources) },
      env: serverEnv(server),
    });
    const creates = () =>
      Object.entries(server.stats().byRoute)
        .filter(([route]) => /^POST .*\/workspaces\/:\w+\/notification-configurations$/.test(route))
        .reduce((n, [, c]) => n + c, 0);

    const stopped = await upInterrupted(stack, "SIGKILL", () => creates() >= Math.ceil(COUNT / 3));
    expect(stopped.code, stopped.output).not.toBe(0);
    const list = async (): Promise<NotificationConfiguration[]> => {
      const all: NotificationConfiguration[] = [];
      for (const ws of targets) for await (const c of client.notificationConfigurations.list(ws)) all.push(c);
      return all;
    };
    const before = await settledList(list);
    const inState = stack.resources("dynamic/workspaces:NotificationConfiguration").map((r) => r.id);
    const orphans = before.filter((c) => !inState.includes(c.id));
    expect(before.length).toBeLessThan(COUNT);
    expect(orphans.length).toBeGreaterThan(0);
    for (const o of orphans) expect(o.url).toMatch(/^https:\/\/hooks\.example\.test\/runs#.*interrupted-updates\.md/);
    expect(stack.resources("dynamic/workspaces:RunTrigger")).toHaveLength(sources.length);

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    const up = await stack.upWithEvents();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(up.output).not.toMatch(/already exists/);
    const tookOver = up.diagnostics.filter((d) => /took over notification configuration/.test(d.message));
    // One info line for each configuration the killed run left out of the state, naming it.
    expect(tookOver).toHaveLength(orphans.length);
    for (const o of orphans)
      expect(
        tookOver.some((d) => d.message.includes(o.id)),
        o.id,
      ).toBe(true);

    const after = await settledList(list);
    const keys = after.map((c) => `${c.subscribable?.id}/${c.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      targets.flatMap((ws) => Array.from({ length: PER_TARGET }, (_, i) => `${ws}/hook ${i}`)).sort(),
    );
    const ids = stack.resources("dynamic/workspaces:NotificationConfiguration").map((r) => r.id);
    expect([...ids].sort()).toEqual(after.map((c) => c.id).sort());
    for (const o of orphans) expect(ids).toContain(o.id);
    const triggers = stack.resources("dynamic/workspaces:RunTrigger");
    expect(triggers.map((r) => r.outputs?.sourceWorkspaceId).sort()).toEqual([...sources].sort());
    for (const [i, ws] of targets.entries()) {
      const inbound = [];
      for await (const t of client.runTriggers.list(ws, "inbound")) inbound.push(t.sourceableId);
      expect(inbound).toEqual([sources[i]]);
    }

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.previewJson(["--expect-no-changes"]);
    expect(preview.code, preview.raw.output.slice(-4000)).toBe(0);
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
