import { beforeEach, describe, expect, it } from "vitest";
import {
  NoCodeWorkspace,
  Workspace,
  WorkspaceTags,
  executionModeAllowed,
  executionModeValid,
  operationsDeprecated,
  tagSelectorSettings,
} from "../rules";
import { DOORS, LAYOUTS, secret, through, unknown, validateStack } from "./harness";

describe.each(DOORS)("the %s door", (door) => {
  const { validate, remediate } = through(door);
  describe("workspace-execution-mode-valid", () => {
    it("passes every valid combination", async () => {
      for (const props of [
        { executionMode: "remote" },
        { executionMode: "local" },
        { executionMode: "agent", agentPoolId: "apool-1" },
        { operations: true },
        { operations: false },
        {},
        { settingOverwrites: { executionMode: true }, executionMode: "remote" },
        { settingOverwrites: { executionMode: false } },
      ]) {
        expect((await validate(executionModeValid, Workspace, props)).violations, JSON.stringify(props)).toEqual([]);
      }
      for (const props of [{}, { executionMode: "remote" }, { executionMode: "agent", agentPoolId: "apool-1" }]) {
        expect((await validate(executionModeValid, NoCodeWorkspace, props)).violations, JSON.stringify(props)).toEqual(
          [],
        );
      }
    });

    it("reports agent without a pool, quoting the service's rule", async () => {
      const out = await validate(executionModeValid, Workspace, { executionMode: "agent" }, { name: "app" });
      expect(out.violations).toEqual([
        'Workspace "app": agentPoolId is not set (agent-pool-id is required when execution-mode is agent). ' +
          'Fix: set agentPoolId to the agent pool (apool-...) that runs it, or use executionMode "remote".',
      ]);
      const nc = await validate(executionModeValid, NoCodeWorkspace, { executionMode: "agent" }, { name: "nc" });
      expect(nc.violations).toEqual([
        'NoCodeWorkspace "nc": agentPoolId is not set (it is required when executionMode is "agent"). ' +
          'Fix: set agentPoolId to the agent pool (apool-...) that runs it, or use executionMode "remote".',
      ]);
    });

    it("reports a pool with remote or local, without a mode, and with the no-code default", async () => {
      for (const mode of ["remote", "local"]) {
        const out = await validate(
          executionModeValid,
          Workspace,
          { executionMode: mode, agentPoolId: "apool-1" },
          { name: "app" },
        );
        expect(out.violations).toEqual([
          `Workspace "app": agentPoolId "apool-1" (agent-pool-id must not be given when execution-mode is ${mode}). ` +
            'Fix: remove agentPoolId, or set executionMode "agent" to run on that pool.',
        ]);
      }
      expect((await validate(executionModeValid, Workspace, { agentPoolId: "apool-1" })).violations).toHaveLength(1);
      const nc = await validate(executionModeValid, NoCodeWorkspace, { agentPoolId: "apool-1" });
      expect(nc.violations).toEqual([
        'NoCodeWorkspace "subject": agentPoolId "apool-1" (it must not be given when executionMode is "remote", the default). ' +
          'Fix: remove agentPoolId, or set executionMode "agent" to run on that pool.',
      ]);
    });

    it("reports a mode the service does not accept; local is not accepted for no-code workspaces", async () => {
      const ws = await validate(executionModeValid, Workspace, { executionMode: "hybrid" });
      expect(ws.violations).toEqual([
        'Workspace "subject": executionMode "hybrid" is not accepted. Fix: use one of "remote", "local", "agent".',
      ]);
      const nc = await validate(executionModeValid, NoCodeWorkspace, { executionMode: "local" });
      expect(nc.violations).toEqual([
        'NoCodeWorkspace "subject": executionMode "local" is not accepted for a workspace created from a no-code module. Fix: use one of "remote", "agent".',
      ]);
    });

    it("reports operations given with executionMode, operations true with a pool, and a required mode left out", async () => {
      const both = await validate(executionModeValid, Workspace, { operations: true, executionMode: "remote" });
      expect(both.violations).toEqual([
        'Workspace "subject": operations true (operations is deprecated and must not be given together with execution-mode; use execution-mode only). ' +
          "Fix: remove operations (deprecated); executionMode alone decides.",
      ]);
      const pool = await validate(executionModeValid, Workspace, { operations: true, agentPoolId: "apool-1" });
      expect(pool.violations).toEqual([
        'Workspace "subject": agentPoolId "apool-1" (agent-pool-id must not be given when operations is true). ' +
          'Fix: remove agentPoolId, or replace operations with executionMode "agent" to run on that pool.',
      ]);
      const overwrite = await validate(executionModeValid, Workspace, { settingOverwrites: { executionMode: true } });
      expect(overwrite.violations).toEqual([
        'Workspace "subject": executionMode is not set (execution-mode must be given when setting-overwrites.execution-mode is true). ' +
          "Fix: set executionMode, or set settingOverwrites.executionMode false to follow the organization default.",
      ]);
    });

    it("never flags unknown values", async () => {
      for (const props of [
        { executionMode: "agent", agentPoolId: unknown.string },
        { executionMode: unknown.string, agentPoolId: "apool-1" },
        { executionMode: "remote", agentPoolId: unknown.string },
        { operations: unknown.boolean, agentPoolId: "apool-1" },
        { executionMode: "agent", settingOverwrites: { executionMode: unknown.boolean } },
        { settingOverwrites: unknown.object },
        { settingOverwrites: { executionMode: true }, executionMode: unknown.string },
      ]) {
        expect((await validate(executionModeValid, Workspace, props)).violations, JSON.stringify(props)).toEqual([]);
      }
    });

    it("does not apply to other resource types", async () => {
      const out = await validate(executionModeValid, WorkspaceTags, { executionMode: "agent" });
      expect(out.notApplicable).toBeDefined();
      expect(out.violations).toEqual([]);
    });
  });

  describe("workspace-operations-deprecated", () => {
    it("passes a workspace without operations", async () => {
      expect((await validate(operationsDeprecated, Workspace, { executionMode: "remote" })).violations).toEqual([]);
    });

    it("reports operations with the replacement", async () => {
      expect(
        (await validate(operationsDeprecated, Workspace, { operations: false }, { name: "app" })).violations,
      ).toEqual([
        'Workspace "app": operations false is deprecated. Fix: remove operations and set executionMode "local".',
      ]);
      expect(
        (await validate(operationsDeprecated, Workspace, { operations: true, executionMode: "remote" })).violations,
      ).toEqual(['Workspace "subject": operations true is deprecated. Fix: remove operations.']);
    });

    it("remediates operations into executionMode, keeping the rest", async () => {
      const result = await remediate(operationsDeprecated, Workspace, {
        name: "app",
        operations: true,
        __provider: secret("p"),
      });
      expect(result).toEqual({ name: "app", executionMode: "remote", __provider: secret("p") });
      expect(await remediate(operationsDeprecated, Workspace, { operations: false })).toEqual({
        executionMode: "local",
      });
    });

    it("does not remediate when executionMode is also given or operations is unknown", async () => {
      expect(
        await remediate(operationsDeprecated, Workspace, { operations: true, executionMode: "agent" }),
      ).toBeUndefined();
      expect(
        await remediate(operationsDeprecated, Workspace, { operations: true, executionMode: unknown.string }),
      ).toBeUndefined();
      expect(await remediate(operationsDeprecated, Workspace, { operations: unknown.boolean })).toBeUndefined();
      expect(await remediate(operationsDeprecated, NoCodeWorkspace, { operations: true })).toBeUndefined();
    });
  });

  describe("workspace-execution-mode-allowed", () => {
    const config = { allowedModes: ["agent"] };

    it("allows every mode by default", async () => {
      for (const executionMode of ["remote", "local", "agent"]) {
        expect((await validate(executionModeAllowed, Workspace, { executionMode })).violations).toEqual([]);
      }
    });

    it("reports a mode outside the configured list, including what operations or the no-code default mean", async () => {
      expect(
        (await validate(executionModeAllowed, Workspace, { executionMode: "agent" }, { config })).violations,
      ).toEqual([]);
      expect(
        (await validate(executionModeAllowed, Workspace, { executionMode: "remote" }, { config, name: "app" }))
          .violations,
      ).toEqual([
        'Workspace "app": executionMode is "remote", which this organization does not allow. Fix: set executionMode to one of "agent".',
      ]);
      const ops = await validate(executionModeAllowed, Workspace, { operations: false }, { config });
      expect(ops.violations[0]).toContain('operations (deprecated) means "local"');
      const nc = await validate(executionModeAllowed, NoCodeWorkspace, {}, { config });
      expect(nc.violations[0]).toContain('the default executionMode is "remote"');
    });

    it("leaves a workspace on the organization default or an unknown mode alone", async () => {
      expect((await validate(executionModeAllowed, Workspace, {}, { config })).violations).toEqual([]);
      expect(
        (await validate(executionModeAllowed, Workspace, { executionMode: unknown.string }, { config })).violations,
      ).toEqual([]);
    });
  });
});

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("workspace-tag-selector-settings", () => {
    const run = (resources: Parameters<typeof validateStack>[1], config?: Record<string, unknown>) =>
      validateStack(tagSelectorSettings, resources, config).then((o) => o.violations);

    it("bans auto-apply on env=prod workspaces by default", async () => {
      const ws = stackResource(Workspace, "app", { tags: { env: "prod" }, autoApply: true, autoApplyRunTrigger: true });
      expect(await run([ws])).toEqual([
        {
          message:
            'Workspace "app" (selected by "env=prod"): autoApply is true, so runs apply without review. Fix: remove autoApply or set it false.',
          urn: ws.urn,
        },
        {
          message:
            'Workspace "app" (selected by "env=prod"): autoApplyRunTrigger is true, so runs apply without review. Fix: remove autoApplyRunTrigger or set it false.',
          urn: ws.urn,
        },
      ]);
    });

    it("passes unselected workspaces and selected ones without auto-apply", async () => {
      expect(await run([stackResource(Workspace, "a", { tags: { env: "dev" }, autoApply: true })])).toEqual([]);
      expect(await run([stackResource(Workspace, "b", { tags: { env: "prod" }, autoApply: false })])).toEqual([]);
    });

    it("selects by tags a WorkspaceTags adds, so no-code workspaces are covered too", async () => {
      const nc = stackResource(NoCodeWorkspace, "nc", { name: "nc", autoApply: true });
      const tags = stackResource(
        WorkspaceTags,
        "nc-tags",
        { workspaceId: unknown.string, tags: { env: "prod" } },
        { workspaceId: [nc] },
      );
      const out = await run([nc, tags]);
      expect(out.map((v) => v.urn)).toEqual([nc.urn]);
    });

    it("selects by the tags a deployed workspace reports, project-inherited ones included", async () => {
      const ws = stackResource(
        Workspace,
        "app",
        { autoApply: true },
        {},
        { outputs: { autoApply: true, effectiveTags: { env: "prod" } } },
      );
      expect(await run([ws])).toHaveLength(1);
    });

    it("matches flat tags without regard to case and key=* on any value", async () => {
      const config = { selectors: ["Critical", "tier=*"] };
      expect(
        await run([stackResource(Workspace, "a", { tagNames: ["CRITICAL"], autoApply: true })], config),
      ).toHaveLength(1);
      expect(await run([stackResource(Workspace, "b", { tags: { tier: "1" }, autoApply: true })], config)).toHaveLength(
        1,
      );
      expect(await run([stackResource(Workspace, "c", { tags: { env: "prod" }, autoApply: true })], config)).toEqual(
        [],
      );
    });

    it("requires the configured execution mode, explicitly set", async () => {
      const config = { requiredExecutionMode: "agent", forbidAutoApply: false };
      const selected = { tags: { env: "prod" }, autoApply: true };
      expect(
        await run(
          [stackResource(Workspace, "ok", { ...selected, executionMode: "agent", agentPoolId: "apool-1" })],
          config,
        ),
      ).toEqual([]);
      const remote = stackResource(Workspace, "remote", { ...selected, executionMode: "remote" });
      expect(await run([remote], config)).toEqual([
        {
          message:
            'Workspace "remote" (selected by "env=prod"): executionMode is "remote", but selected workspaces run in "agent". Fix: set executionMode "agent".',
          urn: remote.urn,
        },
      ]);
      const unset = await run([stackResource(Workspace, "unset", selected)], config);
      expect(unset).toHaveLength(1);
      expect(unset[0].message).toContain("executionMode is not set, so the organization default applies");
      const nc = stackResource(NoCodeWorkspace, "nc", {});
      const ncTags = stackResource(
        WorkspaceTags,
        "t",
        { workspaceId: unknown.string, tags: { env: "prod" } },
        { workspaceId: [nc] },
      );
      expect(await run([nc, ncTags], { requiredExecutionMode: "remote" })).toEqual([]);
    });

    it("does not judge workspaces whose tags or settings are unknown", async () => {
      const config = { requiredExecutionMode: "agent" };
      expect(await run([stackResource(Workspace, "a", { tags: unknown.object, autoApply: true })], config)).toEqual([]);
      expect(await run([stackResource(Workspace, "b", { tags: { env: unknown.string }, autoApply: true })])).toEqual(
        [],
      );
      const c = stackResource(Workspace, "c", {
        tags: { env: "prod" },
        autoApply: unknown.boolean,
        executionMode: unknown.string,
      });
      expect(await run([c], config)).toEqual([]);
    });
  });
});
