import { describe, it, expect, afterEach } from "vitest";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { workspaceTagsProvider } from "../../src/resources/providers/workspace-tags";
import { remoteStateConsumersProvider } from "../../src/resources/providers/remote-state-consumers";
import { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import { noCodeWorkspaceProvider } from "../../src/resources/providers/no-code-workspace";
import { workspaceLockProvider } from "../../src/resources/providers/workspace-lock";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { setConfiguredSettings } from "../../src/resources/provider-settings";
import { checkNew, optionSets, partialState, vcsRepoInput, type InputsOf, type OutputsOf } from "./provider-io";

type NoCodeVariableInput = NonNullable<InputsOf<typeof noCodeWorkspaceProvider>["variables"]>[number];

const props = (failures: { property: string }[]) => failures.map((f) => f.property).sort();

afterEach(() => setConfiguredSettings({}));

describe("Workspace check", () => {
  it("accepts typical inputs and fills the organization from the configuration", async () => {
    setConfiguredSettings({ organization: "acme" });
    const r = await checkNew(workspaceProvider, {
      name: "web-prod_1",
      executionMode: "agent",
      agentPoolId: "apool-1",
      autoDestroyActivityDuration: "14d",
      vcsRepo: { identifier: "acme/web", oauthTokenId: "ot-1", branch: "" },
      tags: { env: "prod" },
      tagNames: ["Team-A"],
      project: "prj-1",
    });
    expect(r.failures).toEqual([]);
    expect(r.inputs.organization).toBe("acme");
  });

  it("reports each rule with the input's property path", async () => {
    const r = await checkNew(workspaceProvider, {
      organization: "acme",
      name: "bad name!",
      executionMode: "remote",
      agentPoolId: "apool-1",
      operations: true,
      autoDestroyActivityDuration: "0d",
      vcsRepo: { branch: "main", oauthTokenId: "ot-1", vcsAppInstallationId: "ghain-1" },
      tagNames: ["ok", "no spaces"],
      project: "project-1",
      sshKeyId: "key",
    });
    const p = props(r.failures);
    expect(p).toContain("name");
    expect(p).toContain("agentPoolId");
    expect(p).toContain("operations");
    expect(p).toContain("autoDestroyActivityDuration");
    expect(p).toContain("vcsRepo.identifier");
    expect(p).toContain("vcsRepo.vcsAppInstallationId");
    expect(p).toContain("tagNames[1]");
    expect(p).toContain("project");
    expect(p).toContain("sshKeyId");
  });

  it("requires an agent pool for agent mode and an organization from somewhere", async () => {
    const prev = { ...process.env };
    delete process.env.WORKSPACES_ORGANIZATION;
    delete process.env.TFE_ORGANIZATION;
    try {
      const r = await checkNew(workspaceProvider, { name: "a", executionMode: "agent" });
      expect(props(r.failures)).toEqual(["agentPoolId", "organization"]);
      expect(r.failures.find((f) => f.property === "organization")!.reason).toMatch(/workspaces:organization/);
    } finally {
      process.env = prev;
    }
  });

  it("does not judge values that are unknown during preview", async () => {
    const r = await checkNew(workspaceProvider, {
      organization: "acme",
      name: UNKNOWN,
      executionMode: "agent",
      agentPoolId: UNKNOWN,
      project: UNKNOWN,
    });
    expect(r.failures).toEqual([]);
  });
});

describe("Workspace diff", () => {
  const olds: OutputsOf<typeof workspaceProvider> = {
    organization: "acme",
    name: "web",
    project: "prj-1",
    description: null,
    executionMode: "remote",
    autoApply: false,
    triggerPatterns: ["b/**", "a/**"],
    tagNames: ["team-a", "prod"],
    tags: { env: "prod", owner: "x" },
    vcsRepo: {
      identifier: "acme/web",
      branch: "",
      displayIdentifier: "acme/web",
      ingressSubmodules: false,
      oauthTokenId: "ot-1",
      vcsAppInstallationId: null,
      repositoryHttpUrl: null,
      serviceProvider: null,
      tagsRegex: null,
      webhookUrl: null,
    },
    forceDelete: false,
    speculativeEnabled: true,
  };

  it("is quiet about service defaults, list order and tag-name case", async () => {
    const d = await workspaceProvider.diff("ws-1", olds, {
      organization: "acme",
      name: "web",
      description: "",
      triggerPatterns: ["a/**", "b/**"],
      tagNames: ["PROD", "Team-A"],
      tags: { owner: "x", env: "prod" },
      vcsRepo: vcsRepoInput({ identifier: "acme/web", oauthTokenId: "ot-1" }),
    });
    expect(d).toMatchObject({ changes: false, replaces: [] });
  });

  it("reports real changes, replaces only on organization", async () => {
    expect(await workspaceProvider.diff("ws-1", olds, { organization: "acme", name: "web2" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(
      await workspaceProvider.diff("ws-1", olds, { organization: "acme", name: "web", tagNames: ["prod"] }),
    ).toMatchObject({ changes: true });
    expect(
      await workspaceProvider.diff("ws-1", olds, { organization: "acme", name: "web", vcsRepo: null }),
    ).toMatchObject({ changes: true });
    expect(
      await workspaceProvider.diff("ws-1", olds, { organization: "acme", name: "web", forceDelete: true }),
    ).toMatchObject({ changes: true });
    const moved = await workspaceProvider.diff("ws-1", olds, { organization: "other", name: "web" });
    expect(moved).toMatchObject({ changes: true, replaces: ["organization"], deleteBeforeReplace: true });
  });

  it("treats a value unknown until apply as a change", async () => {
    expect(await workspaceProvider.diff("ws-1", olds, { organization: "acme", name: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("WorkspaceTags, RemoteStateConsumers, WorkspaceLock check and diff", () => {
  it("checks tags and modes", async () => {
    const r = await checkNew(workspaceTagsProvider, {
      workspaceId: "nope",
      mode: "sometimes",
      tagNames: ["-bad"],
      tags: { "": "x" },
    });
    expect(props(r.failures)).toEqual(["mode", "tagNames[0]", "tags", "workspaceId"]);
    const ok = await checkNew(workspaceTagsProvider, { workspaceId: "ws-1", tagNames: ["a"] });
    expect(ok.failures).toEqual([]);
    expect(ok.inputs.mode).toBe("authoritative");
  });

  it("refuses a workspace consuming itself and malformed consumer lists", async () => {
    const r = await checkNew(remoteStateConsumersProvider, {
      workspaceId: "ws-1",
      consumerIds: ["ws-2", "ws-1", "x", "ws-2"],
    });
    expect(props(r.failures)).toEqual(["consumerIds[1]", "consumerIds[2]", "consumerIds[3]"]);
    expect(r.failures[0].reason).toMatch(/itself/);
    const missing = await checkNew(remoteStateConsumersProvider, { workspaceId: "ws-1" });
    expect(props(missing.failures)).toEqual(["consumerIds"]);
  });

  it("compares consumers as sets and replaces on another workspace", async () => {
    const olds = partialState(remoteStateConsumersProvider, {
      workspaceId: "ws-1",
      mode: "authoritative",
      consumerIds: ["ws-2", "ws-3"],
    });
    expect(
      await remoteStateConsumersProvider.diff("x", olds, { workspaceId: "ws-1", consumerIds: ["ws-3", "ws-2"] }),
    ).toMatchObject({ changes: false });
    expect(
      await remoteStateConsumersProvider.diff("x", olds, { workspaceId: "ws-9", consumerIds: ["ws-3", "ws-2"] }),
    ).toMatchObject({ replaces: ["workspaceId"] });
  });

  it("re-locks when the reason changes", async () => {
    const d = await workspaceLockProvider.diff(
      "ws-1/lock",
      partialState(workspaceLockProvider, { workspaceId: "ws-1", reason: "a", force: false }),
      { workspaceId: "ws-1", reason: "b" },
    );
    expect(d).toMatchObject({ changes: true, replaces: ["reason"], deleteBeforeReplace: true });
    const f = await workspaceLockProvider.diff(
      "ws-1/lock",
      partialState(workspaceLockProvider, { workspaceId: "ws-1", reason: "a", force: false }),
      {
        workspaceId: "ws-1",
        reason: "a",
        force: true,
      },
    );
    expect(f).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("NoCodeModule and NoCodeWorkspace check and diff", () => {
  it("checks module inputs and defaults enabled to true", async () => {
    const r = await checkNew(noCodeModuleProvider, {
      organization: "acme",
      registryModuleId: "nope",
      variableOptions: [
        { variableName: "size", variableType: "string", options: ["s"] },
        { variableName: "size", variableType: "string" },
      ],
    });
    expect(props(r.failures)).toEqual([
      "registryModuleId",
      "variableOptions[1].options",
      "variableOptions[1].variableName",
    ]);
    const ok = await checkNew(noCodeModuleProvider, { organization: "acme", registryModuleId: "mod-1" });
    expect(ok.failures).toEqual([]);
    expect(ok.inputs.enabled).toBe(true);
  });

  it("compares option sets regardless of order", async () => {
    const olds: OutputsOf<typeof noCodeModuleProvider> = {
      organization: "acme",
      registryModuleId: "mod-1",
      versionPin: "1.0.0",
      enabled: true,
      variableOptions: [{ id: "ncvaropt-1", variableName: "size", variableType: "string", options: ["s", "m"] }],
      selfLink: null,
    };
    const same = await noCodeModuleProvider.diff("nocode-1", olds, {
      organization: "acme",
      registryModuleId: "mod-1",
      variableOptions: optionSets([{ variableName: "size", variableType: "string", options: ["m", "s"] }]),
    });
    expect(same.changes).toBe(false);
    const changed = await noCodeModuleProvider.diff("nocode-1", olds, {
      organization: "acme",
      registryModuleId: "mod-1",
      variableOptions: optionSets([{ variableName: "size", variableType: "string", options: ["m", "l"] }]),
    });
    expect(changed).toMatchObject({ changes: true, replaces: [] });
  });

  it("checks workspace-from-module inputs: categories, agent pool, names", async () => {
    const r = await checkNew(noCodeWorkspaceProvider, {
      noCodeModuleId: "nocode-1",
      name: "web app",
      project: "prj-1",
      executionMode: "remote",
      agentPoolId: "apool-1",
      variables: [
        { key: "a", category: "engine" },
        { key: "b", category: "terraform" },
        { key: "c", category: "shell" },
        { key: "a", category: "env" },
      ],
    });
    expect(props(r.failures)).toEqual(["agentPoolId", "name", "variables[2].category", "variables[3].key"]);
  });

  it("upgrades in place on version or variable changes, replaces on another module", async () => {
    const olds = partialState(noCodeWorkspaceProvider, {
      noCodeModuleId: "nocode-1",
      organization: "acme",
      name: "w",
      project: "prj-1",
      moduleVersion: "1.0.0",
      variables: [
        { key: "size", value: "s", category: "engine", hcl: false, sensitive: false },
        { key: "pw", category: "env", hcl: false, sensitive: true },
      ],
      sensitiveValues: { pw: "hunter2" },
      autoConfirm: true,
      upgradeTimeoutSeconds: 1800,
    });
    const size: NoCodeVariableInput = { key: "size", value: "s", category: "terraform" };
    const news: InputsOf<typeof noCodeWorkspaceProvider> = {
      noCodeModuleId: "nocode-1",
      organization: "acme",
      name: "w",
      project: "prj-1",
      moduleVersion: "1.0.0",
      variables: [{ key: "pw", value: "hunter2", category: "env", sensitive: true }, size],
    };
    expect((await noCodeWorkspaceProvider.diff("ws-1", olds, news)).changes).toBe(false);
    expect(await noCodeWorkspaceProvider.diff("ws-1", olds, { ...news, moduleVersion: "1.1.0" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    const pw = await noCodeWorkspaceProvider.diff("ws-1", olds, {
      ...news,
      variables: [{ key: "pw", value: "changed", category: "env", sensitive: true }, size],
    });
    expect(pw).toMatchObject({ changes: true, replaces: [] });
    // No service to read the new module from: the replacement cannot be vouched for, so it creates first
    // (a refused create then deletes nothing; see mayDeleteFirst and test/resources/no-code-strategy.test.ts).
    expect(await noCodeWorkspaceProvider.diff("ws-1", olds, { ...news, noCodeModuleId: "nocode-2" })).toMatchObject({
      changes: true,
      replaces: ["noCodeModuleId"],
      deleteBeforeReplace: false,
    });
  });
});
