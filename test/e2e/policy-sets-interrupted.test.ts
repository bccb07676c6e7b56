/**
 * A CI runner killed in the middle of `pulumi up` of policy sets, their parameters and
 * policies (SIGKILL to the CLI's process group, against the local server with its rate
 * limit, once parameter creates and policy creates are both under way), then the documented
 * recovery: `pulumi cancel --yes`, one `pulumi up`, `pulumi refresh --clear-pending-creates`.
 * A parameter has no name unique in the organization and a policy's code is a second request
 * after its create; whatever the killed run left on the server and out of the state, the
 * next `up` converges: no set, policy or parameter on the server twice, each policy with its
 * declared code, the state holding exactly the server's records, and a preview that changes
 * nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { settledList } from "./engine-steps";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { upInterrupted } from "./interrupt";
import { parametersOnServer, policiesOnServer, policyCode, policySetsOnServer } from "./policy-steps";

const SETS = 4;
const PER_SET = 8;
const POLICIES = 16;
const PARAMETERS = SETS * PER_SET;

// The parameters of a set are created one after another (a killed run leaves some never
// sent), and policy p waits for parameter p / SETS of set p % SETS, so that policy creates (a
// create, then the code's upload) go on while parameters are created.
const program = `
import { Policy, PolicySet, PolicySetParameter } from "pulumi-workspaces";
const params: PolicySetParameter[][] = [];
for (let s = 0; s < ${SETS}; s++) {
  const set = new PolicySet(\`set-\${s}\`, { name: \`crash-set-\${s}\` });
  params.push([]);
  for (let k = 0; k < ${PER_SET}; k++) {
    const previous = params[s][k - 1];
    params[s].push(
      new PolicySetParameter(
        \`param-\${s}-\${k}\`,
        { policySetId: set.id, key: \`key_\${k}\`, value: \`value \${s}-\${k}\`, sensitive: k % 2 === 1 },
        previous ? { dependsOn: [previous] } : {},
      ),
    );
  }
}
for (let p = 0; p < ${POLICIES}; p++)
  new Policy(
    \`policy-\${p}\`,
    { name: \`crash-policy-\${p}\`, code: \`main = rule { \${p} >= 0 }\\n\`, enforcementLevel: "advisory" },
    { dependsOn: [params[p % ${SETS}][Math.floor(p / ${SETS})]] },
  );
`;

describe(`pulumi up of ${SETS} policy sets, ${PARAMETERS} parameters and ${POLICIES} policies, killed`, () => {
  let server: RunningServer;
  let stack: TestStack;

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("converges with one more up: no set, policy or parameter twice, the state equal to the server", async () => {
    server = await startTestServer();
    stack = await TestStack.create({
      project: "crash-policy-sets",
      files: { "index.ts": program },
      env: serverEnv(server),
    });
    const posts = (route: RegExp) =>
      Object.entries(server.stats().byRoute)
        .filter(([r]) => route.test(r))
        .reduce((n, [, c]) => n + c, 0);
    const parameterCreates = () => posts(/^POST .*\/policy-sets\/:\w+\/parameters$/);
    const policyCreates = () => posts(/^POST .*\/organizations\/:\w+\/policies$/);

    const stopped = await upInterrupted(stack, "SIGKILL", () => parameterCreates() >= 2 * SETS && policyCreates() >= 2);
    expect(stopped.code, stopped.output).not.toBe(0);

    /** Every parameter on the server, with its set's name. */
    const parameters = async () => {
      const all: Array<{ id: string; key: string; set: string }> = [];
      for (const set of await policySetsOnServer(server))
        for (const p of await parametersOnServer(server, set.id)) all.push({ id: p.id, key: p.key, set: set.name });
      return all;
    };
    // Creates in flight when the CLI died still land: wait until the server settles.
    const paramsBefore = await settledList(parameters, "the sets' parameters");
    const policiesBefore = await settledList(() => policiesOnServer(server), "the organization's policies");
    expect(paramsBefore.length).toBeLessThan(PARAMETERS);
    expect(policiesBefore.length).toBeGreaterThan(0);
    expect(policiesBefore.length).toBeLessThan(POLICIES);

    const cancel = await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    if (cancel.code !== 0) expect(cancel.output).toMatch(/not.*(locked|in progress)|no .*update|nothing/i);
    const up = await stack.upWithEvents();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.diagnostics.filter((d) => d.severity === "error")).toEqual([]);

    const setsAfter = await policySetsOnServer(server);
    expect(setsAfter.map((s) => s.name)).toEqual(Array.from({ length: SETS }, (_, s) => `crash-set-${s}`));
    const policiesAfter = await policiesOnServer(server);
    expect(policiesAfter.map((p) => p.name)).toEqual(
      Array.from({ length: POLICIES }, (_, p) => `crash-policy-${p}`).sort(),
    );
    for (const p of policiesAfter)
      expect(await policyCode(server, p.id), p.name).toBe(`main = rule { ${p.name.split("-").pop()} >= 0 }\n`);
    const paramsAfter = await settledList(parameters, "the sets' parameters");
    for (let s = 0; s < SETS; s++)
      expect(
        paramsAfter
          .filter((p) => p.set === `crash-set-${s}`)
          .map((p) => p.key)
          .sort(),
      ).toEqual(Array.from({ length: PER_SET }, (_, k) => `key_${k}`));

    const inState = (type: string) =>
      stack
        .resources(`dynamic/workspaces:${type}`)
        .map((r) => r.id)
        .sort();
    expect(inState("PolicySet")).toEqual(setsAfter.map((s) => s.id).sort());
    expect(inState("Policy")).toEqual(policiesAfter.map((p) => p.id).sort());
    // A parameter's id in the state may carry its set's (`polset-.../var-...`).
    expect(
      inState("PolicySetParameter")
        .map((id) => id!.split("/").pop())
        .sort(),
    ).toEqual(paramsAfter.map((p) => p.id).sort());

    await stack.ok(["refresh", "--clear-pending-creates", "--yes", "--non-interactive", "--skip-preview"]);
    const preview = await stack.previewJson(["--expect-no-changes"]);
    expect(preview.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual([]);
    expect(preview.code, preview.raw.output.slice(-4000)).toBe(0);
    expect(preview.raw.output).not.toMatch(/pending operations/);
  });
});
