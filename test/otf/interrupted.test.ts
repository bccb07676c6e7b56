/**
 * A `pulumi up` of 80 workspaces against OTF, killed (SIGKILL to the CLI's process group)
 * once a third exist on OTF; `pulumi cancel` and one `pulumi up` converge: OTF stores the
 * origin (`source-name`, `source-url`) on create and answers a taken name with a 409, and
 * each record the killed run left out of the state is taken over with one info line.
 * Every workspace is in the state once, none is duplicated, and a preview after shows no change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestStack } from "../e2e/harness";
import { upInterrupted } from "../e2e/interrupt";
import { createOrganization, otfApi, otfEnv, otfServer, runOrganization, type OtfServer } from "./otf";

const COUNT = 80;
const ORGANIZATION = runOrganization("crash");

const program = `
import { Workspace } from "pulumi-workspaces";
for (let i = 0; i < ${COUNT}; i++) {
  new Workspace(\`ws-\${i}\`, { name: \`crash-\${i}\`, description: "v1", tagNames: ["crash"], forceDelete: true });
}
`;

async function onOtf(
  otf: OtfServer,
): Promise<Array<{ id: string; name: string; sourceName: string; sourceUrl: string }>> {
  const r = await otfApi<any>(otf, `/organizations/${ORGANIZATION}/workspaces?page%5Bsize%5D=100`);
  expect(r.status).toBe(200);
  return r.body.data.map((w: any) => ({
    id: w.id,
    name: w.attributes.name,
    sourceName: w.attributes["source-name"],
    sourceUrl: w.attributes["source-url"],
  }));
}

describe(`pulumi up of ${COUNT} workspaces on OTF killed mid-way`, () => {
  let otf: OtfServer;
  let stack: TestStack;

  beforeAll(async () => {
    otf = otfServer();
    await createOrganization(otf, ORGANIZATION);
    stack = await TestStack.create({
      project: "crash-otf",
      files: { "index.ts": program },
      env: otfEnv(otf, ORGANIZATION),
    });
  });
  afterAll(async () => {
    await stack?.destroy();
    stack?.dispose();
  });

  it("converges with pulumi cancel and one pulumi up", async () => {
    const t0 = Date.now();
    const stopped = await upInterrupted(stack, "SIGKILL", async () => (await onOtf(otf)).length >= COUNT / 3);
    expect(stopped.code, stopped.output).not.toBe(0);
    // OTF may still finish requests the killed run had sent: wait until its listing is stable.
    let before = await onOtf(otf);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await onOtf(otf);
      if (now.length === before.length) break;
      before = now;
    }
    expect(before.length).toBeLessThan(COUNT);
    for (const w of before) expect(w.sourceName, w.name).toBe("pulumi-workspaces");
    const inState = stack.resources("dynamic/workspaces:Workspace").map((r) => r.id);
    const orphans = before.filter((w) => !inState.includes(w.id));

    await stack.pulumi(["cancel", "--yes", "--non-interactive"]);
    const up = await stack.upWithEvents();
    expect(up.code, up.output.slice(-4000)).toBe(0);
    const tookOver = up.diagnostics
      .filter((d) => /took over workspace "crash-\d+"/.test(d.message))
      .map((d) => /"(crash-\d+)"/.exec(d.message)![1]);
    expect(tookOver.sort()).toEqual(orphans.map((w) => w.name).sort());

    const after = await onOtf(otf);
    expect(after.map((w) => w.name).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `crash-${i}`).sort());
    const ids = stack.resources("dynamic/workspaces:Workspace").map((r) => r.id);
    expect(new Set(ids).size).toBe(COUNT);
    expect([...ids].sort()).toEqual(after.map((w) => w.id).sort());
    const p = await stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output).toBe(0);
    console.log(
      `\nOTF interrupted update: ${before.length} on OTF / ${inState.length} in state after the kill, ` +
        `${tookOver.length} taken over, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }, 300_000);
});
