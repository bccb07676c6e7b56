import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import { noCodeWorkspaceProvider } from "../../src/resources/providers/no-code-workspace";
import { workspaceProvider, workspaceReport } from "../../src/resources/providers/workspace";
import { getClient } from "../../src/resources/providers/client";
import {
  api,
  createProject,
  giveResources,
  provision as create,
  registryModuleWith,
  startHarness,
  uniqueName,
  type Harness,
} from "./helpers";
import { checkNew, optionSets, partialState, type InputsOf } from "./provider-io";

type NoCodeWorkspaceInputs = InputsOf<typeof noCodeWorkspaceProvider>;

let h: Harness;
let project: string;
beforeAll(async () => {
  h = await startHarness();
  project = await createProject(h, uniqueName("nocode"));
});
afterAll(async () => {
  await h.close();
});

const sizeOptions = [{ variableName: "size", variableType: "string", options: ["small", "medium", "large"] }];

describe("NoCodeModule", () => {
  it("enables, reads options back, sees drift in the options, updates, and delete disables", async () => {
    const registryModuleId = await registryModuleWith(h, ["1.0.0", "1.1.0"]);
    const { id, outs, inputs } = await create(noCodeModuleProvider, {
      registryModuleId,
      versionPin: "1.0.0",
      variableOptions: sizeOptions,
    });
    expect(id).toMatch(/^nocode-/);
    expect(outs).toMatchObject({ enabled: true, versionPin: "1.0.0", registryModuleId, organization: h.org });
    expect(outs.variableOptions).toHaveLength(1);
    expect(outs.variableOptions[0]).toMatchObject({ variableName: "size", options: ["small", "medium", "large"] });
    expect((await noCodeModuleProvider.diff(id, outs, inputs)).changes).toBe(false);

    // Someone narrows the options by hand.
    await h.client.noCode.update(id, {
      variableOptions: [
        { id: outs.variableOptions[0].id, variableName: "size", variableType: "string", options: ["small"] },
      ],
    });
    const drifted = await noCodeModuleProvider.read(id, outs);
    expect(drifted.props!.variableOptions[0].options).toEqual(["small"]);
    expect((await noCodeModuleProvider.diff(id, drifted.props!, inputs)).changes).toBe(true);

    const news = {
      ...inputs,
      versionPin: "1.1.0",
      variableOptions: optionSets([
        ...sizeOptions,
        { variableName: "region", variableType: "string", options: ["eu", "us"] },
      ]),
    };
    const updated = await noCodeModuleProvider.update(id, drifted.props!, news);
    expect(updated.outs.versionPin).toBe("1.1.0");
    expect(updated.outs.variableOptions.map((o: any) => o.variableName)).toEqual(["region", "size"]);
    expect(updated.outs.variableOptions.find((o: any) => o.variableName === "size")?.options).toEqual([
      "small",
      "medium",
      "large",
    ]);
    expect((await noCodeModuleProvider.diff(id, updated.outs, news)).changes).toBe(false);

    // The service cannot remove an option set: one left out of the program is left alone, and quietly.
    const fewer = { ...news, variableOptions: [news.variableOptions[1]] };
    expect((await noCodeModuleProvider.diff(id, updated.outs, fewer)).changes).toBe(false);

    await noCodeModuleProvider.delete(id, updated.outs);
    const after = await h.client.noCode.read(id);
    expect(after.enabled).toBe(false);
    // A module that no longer exists is done (the owners token could have seen it).
    const missing = partialState(noCodeModuleProvider, { organization: h.org });
    await expect(noCodeModuleProvider.delete("nocode-missing", missing)).resolves.toBeUndefined();
    expect(await noCodeModuleProvider.read("nocode-missing", missing)).toEqual({});
  });
});

describe("NoCodeWorkspace", () => {
  async function moduleAt(pin: string, versions = ["1.0.0", "1.1.0"]) {
    const registryModuleId = await registryModuleWith(h, versions);
    return await create(noCodeModuleProvider, { registryModuleId, versionPin: pin, variableOptions: sizeOptions });
  }

  it("creates from a module with secret variables, upgrades in place keeping its id, no-op diff after", async () => {
    const mod = await moduleAt("1.0.0");
    const variables: NonNullable<NoCodeWorkspaceInputs["variables"]> = [
      { key: "size", value: "small", category: "engine" },
      { key: "DB_PASSWORD", value: "hunter2", category: "env", sensitive: true },
    ];
    const { id, outs, inputs } = await create(noCodeWorkspaceProvider, {
      noCodeModuleId: mod.id,
      name: uniqueName("svc"),
      project,
      moduleVersion: "1.0.0",
      variables,
    });
    expect(id).toMatch(/^ws-/);
    expect(outs.moduleVersion).toBe("1.0.0");
    expect(outs.sourceModuleId).toBe(mod.outs.registryModuleId);
    expect(JSON.stringify(outs.variables)).not.toContain("hunter2");
    expect(outs.sensitiveValues).toEqual({ DB_PASSWORD: "hunter2" });
    const read = await noCodeWorkspaceProvider.read(id, outs);
    expect(read.props).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: false });
    expect((await noCodeWorkspaceProvider.diff(id, read.props!, inputs)).changes).toBe(false);

    // The module moves to 1.1.0; the workspace follows through an upgrade.
    const modNews = { ...mod.inputs, versionPin: "1.1.0" };
    await noCodeModuleProvider.update(mod.id, mod.outs, modNews);
    const pending = await noCodeWorkspaceProvider.read(id, read.props!);
    expect(pending.props).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: true });

    const news = { ...inputs, moduleVersion: "1.1.0", variables: [{ ...variables[0], value: "large" }, variables[1]] };
    const d = await noCodeWorkspaceProvider.diff(id, pending.props!, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const upgraded = await noCodeWorkspaceProvider.update(id, pending.props!, news);
    expect(upgraded.outs.moduleVersion).toBe("1.1.0");
    expect(upgraded.outs.lastUpgrade).toMatchObject({ status: "applied" });
    expect(upgraded.outs.lastUpgrade?.runId).toMatch(/^run-/);
    const after = await h.client.workspaces.read(id);
    expect(after.id).toBe(id);
    expect(after.attributes["source-module-version"] ?? "1.1.0").toBe("1.1.0");
    expect(after.noCodeUpgradeAvailable).toBe(false);
    const refreshed = await noCodeWorkspaceProvider.read(id, upgraded.outs);
    expect((await noCodeWorkspaceProvider.diff(id, refreshed.props!, news)).changes).toBe(false);
  });

  it("a failed upgrade fails the update with the run and plan URL, and the workspace keeps its version", async () => {
    const mod = await moduleAt("1.0.0");
    const { id, outs, inputs } = await create(noCodeWorkspaceProvider, {
      noCodeModuleId: mod.id,
      name: uniqueName("bad"),
      project,
      moduleVersion: "1.0.0",
      variables: [{ key: "size", value: "small", category: "engine" }],
    });
    // "huge" is not an allowed option: the plan errors.
    const news: NoCodeWorkspaceInputs = { ...inputs, variables: [{ key: "size", value: "huge", category: "engine" }] };
    const err = await noCodeWorkspaceProvider.update(id, outs, news).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/run run-\S+/);
    expect(err?.message).toMatch(/errored/);
    expect(err?.message).toMatch(/plan http/);
    expect(err?.message).toMatch(/keeps its previous version/);
    const read = await noCodeWorkspaceProvider.read(id, outs);
    expect(read.props!.moduleVersion).toBe("1.0.0");
  });

  it("without autoConfirm an upgrade that needs applying stops at the plan and says where to confirm it", async () => {
    const mod = await moduleAt("1.0.0");
    const { id, outs, inputs } = await create(noCodeWorkspaceProvider, {
      noCodeModuleId: mod.id,
      name: uniqueName("manual"),
      project,
      moduleVersion: "1.0.0",
      autoConfirm: false,
      variables: [{ key: "size", value: "small", category: "engine" }],
    });
    const news: NoCodeWorkspaceInputs = {
      ...inputs,
      variables: [{ key: "size", value: "medium", category: "engine" }],
    };
    await expect(noCodeWorkspaceProvider.update(id, outs, news)).rejects.toThrow(/autoConfirm is false.*plan/s);
  });

  it("refuses a moduleVersion the module does not provision, before creating anything", async () => {
    const mod = await moduleAt("1.0.0");
    const name = uniqueName("wrongver");
    const checked = await checkNew(noCodeWorkspaceProvider, {
      noCodeModuleId: mod.id,
      name,
      project,
      moduleVersion: "2.0.0",
    });
    await expect(noCodeWorkspaceProvider.create(checked.inputs)).rejects.toThrow(
      /provisions version 1\.0\.0.*versionPin/s,
    );
    expect((await api(h, "GET", `/organizations/${h.org}/workspaces/${name}`)).status).toBe(404);
  });

  it("renames in place, replaces on another module, deletes safely and by force", async () => {
    const mod = await moduleAt("1.0.0");
    const { id, outs, inputs } = await create(noCodeWorkspaceProvider, {
      noCodeModuleId: mod.id,
      name: uniqueName("life"),
      project,
    });
    const renamed = { ...inputs, name: uniqueName("life2"), description: "now described" };
    expect(await noCodeWorkspaceProvider.diff(id, outs, renamed)).toMatchObject({ changes: true, replaces: [] });
    const u = await noCodeWorkspaceProvider.update(id, outs, renamed);
    expect(u.outs).toMatchObject({ name: renamed.name, description: "now described" });
    // Another module that would provision the workspace: delete first (names are unique).
    const other = await moduleAt("1.0.0");
    expect(await noCodeWorkspaceProvider.diff(id, u.outs, { ...renamed, noCodeModuleId: other.id })).toMatchObject({
      replaces: ["noCodeModuleId"],
      deleteBeforeReplace: true,
    });
    // A module that does not exist would refuse the new workspace: create first, so that nothing is deleted.
    expect(
      await noCodeWorkspaceProvider.diff(id, u.outs, { ...renamed, noCodeModuleId: "nocode-other" }),
    ).toMatchObject({
      replaces: ["noCodeModuleId"],
      deleteBeforeReplace: false,
    });

    await giveResources(h, id, 2);
    await expect(noCodeWorkspaceProvider.delete(id, u.outs)).rejects.toThrow(/still manages resources.*forceDelete/s);
    await noCodeWorkspaceProvider.delete(id, { ...u.outs, forceDelete: true });
    expect(await noCodeWorkspaceProvider.read(id, u.outs)).toEqual({});
    await expect(noCodeWorkspaceProvider.delete(id, u.outs)).resolves.toBeUndefined();
  });

  it("a disabled module refuses new workspaces with the service's reason", async () => {
    const mod = await moduleAt("1.0.0");
    await noCodeModuleProvider.delete(mod.id, mod.outs);
    const checked = await checkNew(noCodeWorkspaceProvider, {
      noCodeModuleId: mod.id,
      name: uniqueName("off"),
      project,
    });
    await expect(noCodeWorkspaceProvider.create(checked.inputs)).rejects.toThrow(/not enabled/);
  });

  it("an adopted module workspace reads through the Workspace provider too", async () => {
    const mod = await moduleAt("1.0.0");
    const { id } = await create(noCodeWorkspaceProvider, { noCodeModuleId: mod.id, name: uniqueName("seen"), project });
    const asWorkspace = await workspaceProvider.read(id, {});
    expect(asWorkspace.id).toBe(id);
    // source-module-id names the registry module, as the hosted service fills it.
    const reported = workspaceReport(await getClient().workspaces.read(id));
    expect(reported.status.sourceModuleId).toBe(mod.outs.registryModuleId);
    // Adopted through `get`: read has no stored outputs.
    const adopted = await noCodeWorkspaceProvider.read(id, partialState(noCodeWorkspaceProvider, {}));
    expect(adopted.props).toMatchObject({ noCodeModuleId: mod.id, moduleVersion: "1.0.0" });
  });
});
