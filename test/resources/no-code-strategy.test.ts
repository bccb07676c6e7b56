/**
 * `NoCodeWorkspace` upgrade strategies and upgrade failures against the real server:
 * `upgradeStrategy` is checked with its property path, `replace` turns version and
 * variable changes into delete-first replacements (and nothing else), and a failed
 * upgrade carries the service's reason.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import { noCodeWorkspaceProvider } from "../../src/resources/providers/no-code-workspace";
import { createProject, provision, registryModuleWith, startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
let project: string;
beforeAll(async () => {
  h = await startHarness();
  project = await createProject(h, uniqueName("strategy"));
});
afterAll(async () => {
  await h.close();
});

const regionOptions = [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }];

async function workspaceFrom(extra: Record<string, unknown> = {}) {
  const registryModuleId = await registryModuleWith(h, ["1.0.0", "1.1.0"]);
  const mod = await provision(noCodeModuleProvider, { registryModuleId, versionPin: "1.0.0", variableOptions: regionOptions });
  return provision(noCodeWorkspaceProvider, {
    noCodeModuleId: mod.id,
    name: uniqueName("net"),
    project,
    moduleVersion: "1.0.0",
    variables: [{ key: "region", value: "eu-west-1", category: "engine" }],
    ...extra,
  });
}

describe("upgradeStrategy", () => {
  it("accepts in-place and replace, and reports anything else on its property", async () => {
    const base = { noCodeModuleId: "nocode-abc", name: "n", project: "prj-abc" };
    for (const upgradeStrategy of ["in-place", "replace", undefined]) {
      expect((await noCodeWorkspaceProvider.check({}, { ...base, upgradeStrategy })).failures).toEqual([]);
    }
    const { failures } = await noCodeWorkspaceProvider.check({}, { ...base, upgradeStrategy: "recreate" });
    expect(failures).toEqual([{ property: "upgradeStrategy", reason: 'upgradeStrategy must be "in-place" or "replace", not "recreate"' }]);
  });

  it("in-place (default): version and variable changes are updates; replace: delete-first replacements", async () => {
    const { id, outs, inputs } = await workspaceFrom();
    expect(outs.upgradeStrategy).toBe("in-place");
    const bumped = { ...inputs, moduleVersion: "1.1.0" };
    const revalued = { ...inputs, variables: [{ key: "region", value: "us-east-1", category: "engine" }] };
    expect(await noCodeWorkspaceProvider.diff(id, outs, bumped)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(await noCodeWorkspaceProvider.diff(id, outs, revalued)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });

    const replace = (p: Record<string, unknown>) => ({ ...p, upgradeStrategy: "replace" });
    expect(await noCodeWorkspaceProvider.diff(id, outs, replace(bumped))).toEqual({ changes: true, replaces: ["moduleVersion"], deleteBeforeReplace: true });
    expect(await noCodeWorkspaceProvider.diff(id, outs, replace(revalued))).toEqual({ changes: true, replaces: ["variables"], deleteBeforeReplace: true });
    // Other settings stay in place under replace.
    expect(await noCodeWorkspaceProvider.diff(id, outs, replace({ ...inputs, description: "x" }))).toMatchObject({ replaces: [] });
  });

  it("switching the strategy alone is a state-only update that leaves the workspace as it is", async () => {
    const { id, outs, inputs } = await workspaceFrom();
    const news = { ...inputs, upgradeStrategy: "replace" };
    expect(await noCodeWorkspaceProvider.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const updated = await noCodeWorkspaceProvider.update(id, outs, news);
    expect(updated.outs.upgradeStrategy).toBe("replace");
    expect(updated.outs.lastUpgrade).toBeNull();
    expect(updated.outs.moduleVersion).toBe("1.0.0");
    expect((await noCodeWorkspaceProvider.diff(id, updated.outs, news)).changes).toBe(false);
  });
});

describe("a failed upgrade", () => {
  it("carries the service's reason, names the workspace and the run, and keeps the old value", async () => {
    const { id, outs, inputs } = await workspaceFrom();
    const news = { ...inputs, variables: [{ key: "region", value: "ap-south-1", category: "engine" }] };
    const err = await noCodeWorkspaceProvider.update(id, outs, news).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`upgrade of workspace "${String(inputs.name)}" (${id}) failed while planning: value of variable "region" is not one of the allowed options: `);
    expect(err?.message).toMatch(/eu-west-1.*us-east-1/);
    expect(err?.message).toMatch(/\(run run-\S+, status errored, plan http\S+\); the workspace keeps its previous version/);
    const vars = await h.client.variables.list(id);
    expect(vars.find((v) => v.key === "region")?.value).toBe("eu-west-1");
  });
});
