/**
 * `NoCodeWorkspace` upgrade strategies and upgrade failures against the real server:
 * `upgradeStrategy` is checked with its property path, `replace` turns version and
 * variable changes into replacements (and nothing else), delete-first when the service
 * would accept the new workspace; one it would refuse creates first, so that the refused
 * create deletes nothing; and a failed upgrade carries the service's reason.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import { noCodeWorkspaceProvider } from "../../src/resources/providers/no-code-workspace";
import { api, createProject, provision, registryModuleWith, startHarness, uniqueName, type Harness } from "./helpers";
import { checkNew, type InputsOf, type OutputsOf } from "./provider-io";

type Inputs = InputsOf<typeof noCodeWorkspaceProvider>;
type Outputs = OutputsOf<typeof noCodeWorkspaceProvider>;

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
  const mod = await provision(noCodeModuleProvider, {
    registryModuleId,
    versionPin: "1.0.0",
    variableOptions: regionOptions,
  });
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
      expect((await checkNew(noCodeWorkspaceProvider, { ...base, upgradeStrategy })).failures).toEqual([]);
    }
    const { failures } = await checkNew(noCodeWorkspaceProvider, { ...base, upgradeStrategy: "recreate" });
    expect(failures).toEqual([
      { property: "upgradeStrategy", reason: 'upgradeStrategy must be "in-place" or "replace", not "recreate"' },
    ]);
  });

  it("in-place (default): version and variable changes are updates; replace: replacements", async () => {
    const { id, outs, inputs } = await workspaceFrom();
    expect(outs.upgradeStrategy).toBe("in-place");
    const bumped: Inputs = { ...inputs, moduleVersion: "1.1.0" };
    const revalued: Inputs = { ...inputs, variables: [{ key: "region", value: "us-east-1", category: "engine" }] };
    expect(await noCodeWorkspaceProvider.diff(id, outs, bumped)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await noCodeWorkspaceProvider.diff(id, outs, revalued)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });

    const replace = (p: Inputs): Inputs => ({ ...p, upgradeStrategy: "replace" });
    // The module provisions 1.0.0, so a workspace at 1.1.0 would be refused: create first, deleting nothing.
    expect(await noCodeWorkspaceProvider.diff(id, outs, replace(bumped))).toEqual({
      changes: true,
      replaces: ["moduleVersion"],
      deleteBeforeReplace: false,
    });
    expect(await noCodeWorkspaceProvider.diff(id, outs, replace(revalued))).toEqual({
      changes: true,
      replaces: ["variables"],
      deleteBeforeReplace: true,
    });
    // Other settings stay in place under replace.
    expect(await noCodeWorkspaceProvider.diff(id, outs, replace({ ...inputs, description: "x" }))).toMatchObject({
      replaces: [],
    });
  });

  it("switching the strategy alone is a state-only update that leaves the workspace as it is", async () => {
    const { id, outs, inputs } = await workspaceFrom();
    const news: Inputs = { ...inputs, upgradeStrategy: "replace" };
    expect(await noCodeWorkspaceProvider.diff(id, outs, news)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const updated = await noCodeWorkspaceProvider.update(id, outs, news);
    expect(updated.outs.upgradeStrategy).toBe("replace");
    expect(updated.outs.lastUpgrade).toBeNull();
    expect(updated.outs.moduleVersion).toBe("1.0.0");
    expect((await noCodeWorkspaceProvider.diff(id, updated.outs, news)).changes).toBe(false);
  });
});

describe("a replacement the service would refuse", () => {
  /**
   * The engine's order for a replacement: check the new inputs, diff, then delete the old
   * workspace and create the new one (delete first) or the other way round (create first).
   */
  async function replace(id: string, outs: Outputs, inputs: Inputs, news: Inputs) {
    const checked = await noCodeWorkspaceProvider.check(inputs, news);
    expect(checked.failures).toEqual([]);
    const diff = await noCodeWorkspaceProvider.diff(id, outs, checked.inputs);
    expect(diff.replaces.length).toBeGreaterThan(0);
    const steps = diff.deleteBeforeReplace
      ? [() => noCodeWorkspaceProvider.delete(id, outs), () => noCodeWorkspaceProvider.create(checked.inputs)]
      : [() => noCodeWorkspaceProvider.create(checked.inputs), () => noCodeWorkspaceProvider.delete(id, outs)];
    let failed: Error | null = null;
    for (const step of steps) {
      failed = await step().then(
        () => null,
        (e: Error) => e,
      );
      if (failed) break;
    }
    return { deleteFirst: diff.deleteBeforeReplace, failed };
  }

  it("creates first, so the refused create deletes nothing, and the workspace keeps its values", async () => {
    const { id, outs, inputs } = await workspaceFrom({ upgradeStrategy: "replace" });
    const news: Inputs = {
      ...inputs,
      moduleVersion: "1.1.0",
      variables: [{ key: "region", value: "ap-south-1", category: "engine" }],
    };
    const { deleteFirst, failed } = await replace(id, outs, inputs, news);
    expect(deleteFirst).toBe(false);
    expect(failed?.message).toContain(
      `no-code module ${String(inputs.noCodeModuleId)} provisions version 1.0.0, but moduleVersion is 1.1.0: set the module's versionPin to 1.1.0 first, or drop moduleVersion`,
    );
    expect((await h.client.workspaces.read(id)).name).toBe(inputs.name);
    expect((await h.client.variables.list(id)).find((v) => v.key === "region")?.value).toBe("eu-west-1");
  });

  it("a variable outside the module's options: the service's reason, and the workspace is kept", async () => {
    const { id, outs, inputs } = await workspaceFrom({ upgradeStrategy: "replace" });
    const news: Inputs = { ...inputs, variables: [{ key: "region", value: "ap-south-1", category: "engine" }] };
    const { deleteFirst, failed } = await replace(id, outs, inputs, news);
    expect(deleteFirst).toBe(false);
    expect(failed?.message).toContain('value of variable "region" is not one of the allowed options');
    expect((await h.client.variables.list(id)).find((v) => v.key === "region")?.value).toBe("eu-west-1");
  });

  it("a new name that belongs to another workspace: created first, refused, and the workspace is kept", async () => {
    const other = await workspaceFrom();
    const { id, outs, inputs } = await workspaceFrom({ upgradeStrategy: "replace" });
    const news: Inputs = {
      ...inputs,
      name: other.outs.name,
      variables: [{ key: "region", value: "us-east-1", category: "engine" }],
    };
    const { deleteFirst, failed } = await replace(id, outs, inputs, news);
    expect(deleteFirst).toBe(false);
    expect(failed).not.toBeNull();
    expect((await h.client.workspaces.read(id)).id).toBe(id);
  });

  it("that the service would accept deletes the old workspace first, and the new one is created", async () => {
    const { id, outs, inputs } = await workspaceFrom({ upgradeStrategy: "replace" });
    const news: Inputs = { ...inputs, variables: [{ key: "region", value: "us-east-1", category: "engine" }] };
    const { deleteFirst, failed } = await replace(id, outs, inputs, news);
    expect(deleteFirst).toBe(true);
    expect(failed).toBeNull();
    expect((await api(h, "GET", `/workspaces/${id}`)).status).toBe(404);
    const created = await h.client.workspaces.readByName(h.org, String(inputs.name));
    expect((await h.client.variables.list(created.id)).find((v) => v.key === "region")?.value).toBe("us-east-1");
  });

  it("a delete (destroy, removal, or a vouched replacement) is a plain delete that reads no module", async () => {
    const { id, outs, inputs } = await workspaceFrom({ upgradeStrategy: "replace" });
    // The module is gone: a delete that read it would be refused.
    expect((await api(h, "DELETE", `/no-code-modules/${String(inputs.noCodeModuleId)}`)).status).toBe(204);
    await noCodeWorkspaceProvider.delete(id, outs);
    expect((await api(h, "GET", `/workspaces/${id}`)).status).toBe(404);
  });
});

describe("a failed upgrade", () => {
  it("carries the service's reason, names the workspace and the run, and keeps the old value", async () => {
    const { id, outs, inputs } = await workspaceFrom();
    const news: Inputs = { ...inputs, variables: [{ key: "region", value: "ap-south-1", category: "engine" }] };
    const err = await noCodeWorkspaceProvider.update(id, outs, news).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(
      `upgrade of workspace "${String(inputs.name)}" (${id}) failed while planning: value of variable "region" is not one of the allowed options: `,
    );
    expect(err?.message).toMatch(/eu-west-1.*us-east-1/);
    expect(err?.message).toMatch(
      /\(run run-\S+, status errored, plan http\S+\); the workspace keeps its previous version/,
    );
    const vars = await h.client.variables.list(id);
    expect(vars.find((v) => v.key === "region")?.value).toBe("eu-west-1");
  });
});
