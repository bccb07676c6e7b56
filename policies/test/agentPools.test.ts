import { beforeEach, describe, expect, it } from "vitest";
import {
  AgentPool,
  AgentToken,
  NoCodeWorkspace,
  Project,
  RemoteStateConsumers,
  Workspace,
  WorkspaceSettings,
  WorkspaceTags,
  agentPoolOrganizationScoped,
  agentTokenRotation,
  executionModeAllowed,
  executionModeValid,
  globalRemoteState,
  productionAgentPool,
  singleOwner,
  tagSelectorSettings,
} from "../rules";
import { DOORS, LAYOUTS, through, unknown, validateStack } from "./harness";

const PROD_FIX = 'Fix: set executionMode "agent" and agentPoolId to its agent pool (an AgentPool\'s id, or apool-...)';

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("production-agent-pool", () => {
    it("reports a production workspace that runs remotely, and passes one on a pool", async () => {
      const remote = stackResource(Workspace, "billing", {
        name: "billing",
        tagNames: ["production"],
        executionMode: "remote",
      });
      const pool = stackResource(AgentPool, "private", { name: "private" });
      const onPool = stackResource(
        Workspace,
        "ledger",
        { name: "ledger", tags: { env: "production" }, executionMode: "agent", agentPoolId: unknown.string },
        { agentPoolId: [pool] },
      );
      const out = await validateStack(productionAgentPool, [remote, pool, onPool], {
        productionTags: ["production", "env=production"],
      });
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "billing" is production (tagged "production"), but executionMode is "remote"; production workspaces run on an agent pool. ' +
            `${PROD_FIX} on Workspace "billing", or on a WorkspaceSettings for it.`,
          urn: remote.urn,
        },
      ]);
    });

    it("takes the mode and the pool a WorkspaceSettings of the stack declares for the workspace", async () => {
      const pool = stackResource(AgentPool, "private", { name: "private" });
      // The workspace runs remotely, its settings move it onto the pool: in effect, on the pool.
      const moved = stackResource(Workspace, "billing", { name: "billing", tagNames: ["production"] });
      const movedSettings = stackResource(
        WorkspaceSettings,
        "billing-settings",
        { workspaceId: unknown.string, executionMode: "agent", agentPoolId: unknown.string },
        { workspaceId: [moved], agentPoolId: [pool] },
      );
      // The workspace declares a pool, its settings take it back to remote runs.
      const back = stackResource(Workspace, "ledger", {
        name: "ledger",
        tagNames: ["production"],
        executionMode: "agent",
        agentPoolId: "apool-1",
      });
      const backSettings = stackResource(
        WorkspaceSettings,
        "ledger-settings",
        { workspaceId: unknown.string, executionMode: "local" },
        { workspaceId: [back] },
      );
      const out = await validateStack(productionAgentPool, [pool, moved, movedSettings, back, backSettings]);
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "ledger" is production (tagged "production"), but WorkspaceSettings "ledger-settings" sets executionMode "local"; ' +
            `production workspaces run on an agent pool. ${PROD_FIX} on WorkspaceSettings "ledger-settings".`,
          urn: backSettings.urn,
        },
      ]);
    });

    it("finds a workspace's settings by its id, and reports agent mode without a pool on the settings", async () => {
      const ws = stackResource(
        Workspace,
        "billing",
        { name: "billing", tagNames: ["production"], executionMode: "remote" },
        {},
        { outputs: { id: "ws-billing", name: "billing", tagNames: ["production"], executionMode: "remote" } },
      );
      const settings = stackResource(WorkspaceSettings, "billing-settings", {
        workspaceId: "ws-billing",
        executionMode: "agent",
      });
      const out = await validateStack(productionAgentPool, [ws, settings]);
      expect(out.violations).toEqual([
        expect.objectContaining({
          message: expect.stringContaining(
            'Workspace "billing" is production (tagged "production"), but WorkspaceSettings "billing-settings" sets executionMode "agent" but no agentPoolId is declared;',
          ),
          urn: settings.urn,
        }),
      ]);
    });

    it("marks production by name pattern, by project (id or Project name) and by a WorkspaceTags", async () => {
      const payments = stackResource(Project, "payments", { name: "payments" });
      const byName = stackResource(Workspace, "api-prod", { name: "api-prod", executionMode: "remote" });
      const byProjectId = stackResource(Workspace, "etl", { name: "etl", project: "prj-data" });
      const byProjectName = stackResource(
        Workspace,
        "pay",
        { name: "pay", project: unknown.string, executionMode: "local" },
        { project: [payments] },
      );
      const tagged = stackResource(NoCodeWorkspace, "net", { name: "net", noCodeModuleId: "nocode-1" });
      const tags = stackResource(
        WorkspaceTags,
        "net-tags",
        { workspaceId: unknown.string, tagNames: ["production"] },
        { workspaceId: [tagged] },
      );
      const dev = stackResource(Workspace, "api-dev", { name: "api-dev", executionMode: "remote" });
      const resources = [payments, byName, byProjectId, byProjectName, tagged, tags, dev];
      const out = await validateStack(productionAgentPool, resources, {
        namePattern: "-prod$",
        projects: ["prj-data", "payments"],
      });
      expect(out.violations.map((v) => [v.urn, v.message.split(", but ")[0]])).toEqual([
        [byName.urn, 'Workspace "api-prod" is production (its name matches namePattern "-prod$")'],
        [byProjectId.urn, 'Workspace "etl" is production (in project "prj-data")'],
        [byProjectName.urn, 'Workspace "pay" is production (in project "payments")'],
        [tagged.urn, 'NoCodeWorkspace "net" is production (tagged "production")'],
      ]);
      expect(out.violations[1].message).toContain(
        "executionMode is not set, so the organization's default mode decides",
      );
      // A no-code workspace runs remotely unless told otherwise.
      expect(out.violations[3].message).toContain('executionMode is "remote" (the default)');
      // Without the configuration only the tag marks production.
      expect((await validateStack(productionAgentPool, resources)).violations.map((v) => v.urn)).toEqual([tagged.urn]);
    });

    it("judges the settings of a workspace the stack does not declare by the tags a WorkspaceTags gives it", async () => {
      const settings = stackResource(WorkspaceSettings, "legacy-settings", {
        workspaceId: "ws-legacy",
        executionMode: "remote",
      });
      const tags = stackResource(WorkspaceTags, "legacy-tags", {
        workspaceId: "ws-legacy",
        tags: { env: "production" },
      });
      const out = await validateStack(productionAgentPool, [settings, tags], { productionTags: ["env=production"] });
      expect(out.violations).toEqual([
        {
          message:
            'WorkspaceSettings "legacy-settings": workspace ws-legacy is production (tagged "env=production" by a WorkspaceTags of the stack), ' +
            `but it sets executionMode "remote"; production workspaces run on an agent pool. ${PROD_FIX} on WorkspaceSettings "legacy-settings".`,
          urn: settings.urn,
        },
      ]);
      // Untagged, or settings that leave the mode to the workspace: nothing to judge.
      expect((await validateStack(productionAgentPool, [settings])).violations).toEqual([]);
      const modeless = stackResource(WorkspaceSettings, "legacy-apply", { workspaceId: "ws-legacy", autoApply: false });
      expect(
        (await validateStack(productionAgentPool, [modeless, tags], { productionTags: ["env=production"] })).violations,
      ).toEqual([]);
    });

    it("does not judge a mode or tags the engine does not know yet", async () => {
      const unknownMode = stackResource(Workspace, "a", {
        name: "a",
        tagNames: ["production"],
        executionMode: unknown.string,
      });
      const unknownTags = stackResource(Workspace, "b", { name: "b", tagNames: unknown.array });
      const unknownSetting = stackResource(Workspace, "c", { name: "c", tagNames: ["production"] });
      const settings = stackResource(
        WorkspaceSettings,
        "c-settings",
        { workspaceId: unknown.string, executionMode: unknown.string },
        { workspaceId: [unknownSetting] },
      );
      expect(
        (await validateStack(productionAgentPool, [unknownMode, unknownTags, unknownSetting, settings])).violations,
      ).toEqual([]);
    });
  });

  describe("workspace-tag-selector-settings with WorkspaceSettings", () => {
    it("reads the mode and auto-apply a WorkspaceSettings declares, and reports on it", async () => {
      const ws = stackResource(Workspace, "web", { name: "web", tags: { env: "prod" }, executionMode: "remote" });
      const settings = stackResource(
        WorkspaceSettings,
        "web-settings",
        { workspaceId: unknown.string, executionMode: "agent", agentPoolId: "apool-1", autoApply: true },
        { workspaceId: [ws] },
      );
      const out = await validateStack(tagSelectorSettings, [ws, settings], { requiredExecutionMode: "agent" });
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "web" (selected by "env=prod"): autoApply is true (declared by WorkspaceSettings "web-settings"), so runs apply without review. ' +
            'Fix: remove autoApply or set it false on WorkspaceSettings "web-settings".',
          urn: settings.urn,
        },
      ]);
      // Without the settings, the workspace's own remote mode is reported on it.
      const alone = await validateStack(tagSelectorSettings, [ws], { requiredExecutionMode: "agent" });
      expect(alone.violations.map((v) => v.urn)).toEqual([ws.urn]);
    });
  });

  describe("workspace-single-owner with WorkspaceSettings", () => {
    it("reports consumers declared by a WorkspaceSettings and a RemoteStateConsumers of one workspace", async () => {
      const ws = stackResource(Workspace, "web", { name: "web" });
      const settings = stackResource(
        WorkspaceSettings,
        "web-settings",
        { workspaceId: unknown.string, remoteStateConsumerIds: ["ws-a"] },
        { workspaceId: [ws] },
      );
      const consumers = stackResource(
        RemoteStateConsumers,
        "web-readers",
        { workspaceId: unknown.string, consumerIds: ["ws-b"], mode: "additive" },
        { workspaceId: [ws] },
      );
      const out = await validateStack(singleOwner, [ws, settings, consumers]);
      expect(out.violations).toEqual([
        expect.objectContaining({
          message: expect.stringContaining(
            'RemoteStateConsumers "web-readers" and WorkspaceSettings "web-settings" both manage the remote state consumers (consumerIds) of Workspace "web"; WorkspaceSettings "web-settings" sets them authoritatively',
          ),
          urn: consumers.urn,
        }),
      ]);
      // Settings that leave the consumers alone share the workspace with the RemoteStateConsumers.
      const other = stackResource(
        WorkspaceSettings,
        "web-mode",
        { workspaceId: unknown.string, executionMode: "remote" },
        { workspaceId: [ws] },
      );
      expect((await validateStack(singleOwner, [ws, other, consumers])).violations).toEqual([]);
    });
  });
});

describe.each(DOORS)("the %s door", (door) => {
  const { validate } = through(door);

  describe("agent-pool-organization-scoped", () => {
    const forbid = { allowOrganizationScoped: false };

    it("reports a pool that is organization-scoped by the service's default, where the organization says so", async () => {
      const out = await validate(
        agentPoolOrganizationScoped,
        AgentPool,
        { name: "shared" },
        { name: "pool", config: forbid },
      );
      expect(out.violations).toEqual([
        'AgentPool "pool": organizationScoped is not set, and the service\'s default is true, so every workspace of the organization may run on pool "shared". ' +
          "Fix: set organizationScoped false and name who may use it with AgentPoolAllowedWorkspaces or AgentPoolAllowedProjects, or list the pool in allowedNames.",
      ]);
      const explicit = await validate(
        agentPoolOrganizationScoped,
        AgentPool,
        { name: "shared", organizationScoped: true },
        { config: forbid },
      );
      expect(explicit.violations).toEqual([expect.stringContaining("organizationScoped is true, so every workspace")]);
    });

    it("passes a scoped pool, an allowed name, an unknown flag, and any pool by default", async () => {
      for (const [props, config] of [
        [{ name: "private", organizationScoped: false }, forbid],
        [{ name: "shared" }, { ...forbid, allowedNames: ["shared"] }],
        [{ name: "x", organizationScoped: unknown.boolean }, forbid],
        [{ name: "x" }, {}],
      ] as const) {
        expect((await validate(agentPoolOrganizationScoped, AgentPool, props, { config })).violations).toEqual([]);
      }
      expect((await validate(agentPoolOrganizationScoped, Workspace, { name: "x" })).notApplicable).toBeDefined();
    });
  });

  describe("agent-token-rotation", () => {
    it("is off unless configured, and reports a token without rotation", async () => {
      expect(agentTokenRotation.enforcementLevel).toBe("disabled");
      const out = await validate(
        agentTokenRotation,
        AgentToken,
        { agentPoolId: "apool-1", description: "ci" },
        { name: "ci" },
      );
      expect(out.violations).toEqual([
        'AgentToken "ci": rotation is not set, so the token is never replaced and its agents keep it for as long as it exists. ' +
          'Fix: set rotation to a label of its period (for example "2026-12"), and change the label to rotate the token (the preview shows a replacement).',
      ]);
      for (const rotation of ["2026-12", unknown.string]) {
        expect(
          (await validate(agentTokenRotation, AgentToken, { agentPoolId: "apool-1", description: "ci", rotation }))
            .violations,
        ).toEqual([]);
      }
    });
  });

  describe("execution-mode rules on WorkspaceSettings", () => {
    it("reports only what the service refuses whatever the workspace runs on now", async () => {
      const out = await validate(
        executionModeValid,
        WorkspaceSettings,
        { workspaceId: "ws-1", executionMode: "remote", agentPoolId: "apool-1" },
        { name: "s" },
      );
      expect(out.violations).toEqual([
        'WorkspaceSettings "s": agentPoolId "apool-1" (agent-pool-id must not be given when execution-mode is remote). ' +
          'Fix: remove agentPoolId, or set executionMode "agent" to run on that pool.',
      ]);
      const bad = await validate(executionModeValid, WorkspaceSettings, { workspaceId: "ws-1", executionMode: "fast" });
      expect(bad.violations).toEqual([expect.stringContaining('executionMode "fast" is not accepted')]);
      // The workspace may be on a pool already, or in agent mode already: settings that
      // name only one of the two are for the provider to judge against the workspace.
      for (const props of [
        { workspaceId: "ws-1", executionMode: "agent" },
        { workspaceId: "ws-1", agentPoolId: "apool-1" },
        { workspaceId: "ws-1", executionMode: "local" },
        { workspaceId: "ws-1", autoApply: true },
      ]) {
        expect(
          (await validate(executionModeValid, WorkspaceSettings, props)).violations,
          JSON.stringify(props),
        ).toEqual([]);
      }
    });

    it("judges the mode a WorkspaceSettings declares against the allowed modes, and leaves an absent one alone", async () => {
      const config = { allowedModes: ["remote", "agent"] };
      const out = await validate(
        executionModeAllowed,
        WorkspaceSettings,
        { workspaceId: "ws-1", executionMode: "local" },
        { name: "s", config },
      );
      expect(out.violations).toEqual([
        'WorkspaceSettings "s": executionMode is "local", which this organization does not allow. Fix: set executionMode to one of "remote", "agent".',
      ]);
      expect(
        (await validate(executionModeAllowed, WorkspaceSettings, { workspaceId: "ws-1" }, { config })).violations,
      ).toEqual([]);
    });

    it("reports globalRemoteState true declared by a WorkspaceSettings", async () => {
      const out = await validate(
        globalRemoteState,
        WorkspaceSettings,
        { workspaceId: "ws-1", globalRemoteState: true },
        { name: "s" },
      );
      expect(out.violations).toEqual([
        'WorkspaceSettings "s": globalRemoteState true lets every workspace of the organization read its state. ' +
          "Fix: set globalRemoteState false and name the readers in its remoteStateConsumerIds.",
      ]);
      expect(
        (await validate(globalRemoteState, WorkspaceSettings, { workspaceId: "ws-1", globalRemoteState: false }))
          .violations,
      ).toEqual([]);
    });
  });
});
