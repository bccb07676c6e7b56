import { beforeEach, describe, expect, it } from "vitest";
import {
  NoCodeModule,
  NoCodeWorkspace,
  RemoteStateConsumers,
  Workspace,
  WorkspaceTags,
  nameUnique,
  remoteStateConsumersValid,
  singleOwner,
} from "../rules";
import { LAYOUTS, through, unknown, validateStack } from "./harness";

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("workspace-name-unique", () => {
    it("passes distinct names, and one name in different organizations", async () => {
      const a = stackResource(Workspace, "a", { name: "app", organization: "acme" });
      const b = stackResource(Workspace, "b", { name: "app", organization: "other" });
      const c = stackResource(Workspace, "c", { name: "api", organization: "acme" });
      expect((await validateStack(nameUnique, [a, b, c])).violations).toEqual([]);
    });

    it("reports every workspace of a clash, naming the others", async () => {
      const a = stackResource(Workspace, "a", { name: "app", organization: "acme" });
      const b = stackResource(Workspace, "b", { name: "app", organization: "acme" });
      const out = await validateStack(nameUnique, [a, b]);
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "a": name "app" in organization "acme" is also the name of Workspace "b"; workspace names are unique in an organization, regardless of case. ' +
            "Fix: give each workspace its own name.",
          urn: a.urn,
        },
        expect.objectContaining({ urn: b.urn, message: expect.stringContaining('is also the name of Workspace "a"') }),
      ]);
    });

    it("compares names without regard to case, as the service does", async () => {
      const a = stackResource(Workspace, "a", { name: "Billing", organization: "acme" });
      const b = stackResource(Workspace, "b", { name: "billing", organization: "acme" });
      const out = await validateStack(nameUnique, [a, b]);
      expect(out.violations.map((v) => v.message.split(" in ")[0])).toEqual([
        'Workspace "a": name "Billing"',
        'Workspace "b": name "billing"',
      ]);
    });

    it("treats an omitted organization as the provider's default one", async () => {
      const a = stackResource(Workspace, "a", { name: "app" });
      const b = stackResource(Workspace, "b", { name: "app" });
      const out = await validateStack(nameUnique, [a, b]);
      expect(out.violations).toHaveLength(2);
      expect(out.violations[0].message).toContain("in the default organization");
    });

    it("finds the organization of a no-code workspace through its module", async () => {
      const mod = stackResource(NoCodeModule, "mod", { organization: "acme", registryModuleId: "mod-1" });
      const nc = stackResource(
        NoCodeWorkspace,
        "nc",
        { name: "app", noCodeModuleId: unknown.string },
        { noCodeModuleId: [mod] },
      );
      const ws = stackResource(Workspace, "ws", { name: "app", organization: "acme" });
      const other = stackResource(Workspace, "other", { name: "app", organization: "elsewhere" });
      const out = await validateStack(nameUnique, [mod, nc, ws, other]);
      expect(out.violations.map((v) => v.urn)).toEqual([nc.urn, ws.urn]);
    });

    it("falls back to outputs for workspaces the engine did not analyze", async () => {
      const a = stackResource(
        Workspace,
        "a",
        {},
        {},
        { analyzed: false, outputs: { name: "app", organization: "acme" } },
      );
      const b = stackResource(Workspace, "b", { name: "app", organization: "acme" });
      expect((await validateStack(nameUnique, [a, b])).violations.map((v) => v.urn)).toEqual([a.urn, b.urn]);
    });

    it("does not judge unknown names or organizations", async () => {
      const a = stackResource(Workspace, "a", { name: unknown.string, organization: "acme" });
      const b = stackResource(Workspace, "b", { name: "app", organization: unknown.string });
      const c = stackResource(Workspace, "c", { name: "app", organization: "acme" });
      const nc = stackResource(NoCodeWorkspace, "nc", { name: "app", noCodeModuleId: "nocode-elsewhere" });
      expect((await validateStack(nameUnique, [a, b, c, nc])).violations).toEqual([]);
    });
  });

  describe("workspace-single-owner", () => {
    it("passes tags kept in one place, and additive resources that name different items", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", tagNames: ["a"] });
      const kv = stackResource(
        WorkspaceTags,
        "kv",
        { workspaceId: unknown.string, tags: { env: "prod" } },
        { workspaceId: [ws] },
      );
      const other = stackResource(Workspace, "other", { name: "other" });
      const add1 = stackResource(
        WorkspaceTags,
        "add1",
        { workspaceId: unknown.string, mode: "additive", tagNames: ["x"] },
        { workspaceId: [other] },
      );
      const add2 = stackResource(
        WorkspaceTags,
        "add2",
        { workspaceId: unknown.string, mode: "additive", tagNames: ["y"] },
        { workspaceId: [other] },
      );
      const c1 = stackResource(RemoteStateConsumers, "c1", {
        workspaceId: "ws-1",
        mode: "additive",
        consumerIds: ["ws-2"],
      });
      const c2 = stackResource(RemoteStateConsumers, "c2", {
        workspaceId: "ws-1",
        mode: "additive",
        consumerIds: ["ws-3"],
      });
      expect((await validateStack(singleOwner, [ws, kv, other, add1, add2, c1, c2])).violations).toEqual([]);
    });

    it("reports a WorkspaceTags managing tags the Workspace already owns", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", tagNames: ["a"] });
      const tags = stackResource(
        WorkspaceTags,
        "extra",
        { workspaceId: unknown.string, mode: "additive", tagNames: ["b"] },
        { workspaceId: [ws] },
      );
      const out = await validateStack(singleOwner, [ws, tags]);
      expect(out.violations).toEqual([
        {
          message:
            'WorkspaceTags "extra" and Workspace "app" both manage the flat tags (tagNames) of Workspace "app"; Workspace "app" sets them authoritatively, ' +
            'so each removes what the other writes and they never settle. Fix: manage the flat tags (tagNames) of Workspace "app" in one resource only.',
          urn: tags.urn,
        },
      ]);
    });

    it("judges a workspace's ownership by its inputs: its outputs report the service's tags in any case", async () => {
      const serviceView = { outputs: { name: "app", tagNames: ["a", "b"], tags: { env: "prod" } } };
      const ws = stackResource(Workspace, "app", { name: "app" }, {}, serviceView);
      const tags = stackResource(
        WorkspaceTags,
        "extra",
        { workspaceId: "ws-1", tagNames: ["b"], tags: { env: "prod" } },
        { workspaceId: [ws] },
      );
      expect((await validateStack(singleOwner, [ws, tags])).violations).toEqual([]);
      // Not analyzed in this run (say, outside --target): nothing is known about what it owns.
      const notAnalyzed = stackResource(
        Workspace,
        "app",
        { name: "app", tagNames: ["a"] },
        {},
        { ...serviceView, analyzed: false },
      );
      expect((await validateStack(singleOwner, [notAnalyzed, tags])).violations).toEqual([]);
    });

    it("reads a deployed WorkspaceTags from its outputs, where what it leaves alone is null", async () => {
      const t1 = stackResource(
        WorkspaceTags,
        "t1",
        {},
        {},
        { analyzed: false, outputs: { workspaceId: "ws-1", mode: "authoritative", tagNames: ["a"], tags: null } },
      );
      const t2 = stackResource(WorkspaceTags, "t2", { workspaceId: "ws-1", tags: { env: "prod" } });
      expect((await validateStack(singleOwner, [t1, t2])).violations).toEqual([]);
      const t3 = stackResource(WorkspaceTags, "t3", { workspaceId: "ws-1", mode: "additive", tagNames: ["b"] });
      expect((await validateStack(singleOwner, [t1, t3])).violations.map((v) => v.urn)).toEqual([t3.urn]);
    });

    it("reports two WorkspaceTags or two RemoteStateConsumers on one workspace id when one is authoritative", async () => {
      const t1 = stackResource(WorkspaceTags, "t1", { workspaceId: "ws-1", tags: { env: "prod" } });
      const t2 = stackResource(WorkspaceTags, "t2", { workspaceId: "ws-1", mode: "additive", tags: { owner: "x" } });
      const c1 = stackResource(RemoteStateConsumers, "c1", { workspaceId: "ws-1", consumerIds: ["ws-2"] });
      const c2 = stackResource(RemoteStateConsumers, "c2", { workspaceId: "ws-1", consumerIds: ["ws-3"] });
      const out = await validateStack(singleOwner, [t1, t2, c1, c2]);
      expect(out.violations.map((v) => v.urn)).toEqual([t2.urn, c2.urn]);
      expect(out.violations[0].message).toContain("the key-value tags (tags) of workspace ws-1");
      expect(out.violations[1].message).toContain("the remote state consumers (consumerIds) of workspace ws-1");
    });

    it("reports additive resources that add the same item", async () => {
      const t1 = stackResource(WorkspaceTags, "t1", {
        workspaceId: "ws-1",
        mode: "additive",
        tagNames: ["Shared", "a"],
      });
      const t2 = stackResource(WorkspaceTags, "t2", { workspaceId: "ws-1", mode: "additive", tagNames: ["shared"] });
      const out = await validateStack(singleOwner, [t1, t2]);
      expect(out.violations).toEqual([
        {
          message:
            'WorkspaceTags "t2": the flat tags (tagNames) "shared" of workspace ws-1 are also added by WorkspaceTags "t1"; ' +
            "deleting either resource removes them for both. Fix: name each item in one resource only.",
          urn: t2.urn,
        },
      ]);
    });

    it("does not judge unknown targets, modes or properties", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", tagNames: unknown.array });
      const t1 = stackResource(
        WorkspaceTags,
        "t1",
        { workspaceId: unknown.string, tagNames: ["a"] },
        { workspaceId: [ws] },
      );
      const t2 = stackResource(WorkspaceTags, "t2", { workspaceId: unknown.string, tagNames: ["a"] });
      const t3 = stackResource(WorkspaceTags, "t3", { workspaceId: "ws-9", mode: unknown.string, tagNames: ["a"] });
      const t4 = stackResource(WorkspaceTags, "t4", { workspaceId: "ws-9", tagNames: ["b"] });
      expect((await validateStack(singleOwner, [ws, t1, t2, t3, t4])).violations).toEqual([]);
    });
  });

  describe("remote-state-consumers-valid", () => {
    it("passes consumers other than the workspace itself", async () => {
      const ws = stackResource(Workspace, "app", { name: "app" });
      const reader = stackResource(Workspace, "reader", { name: "reader" });
      const rsc = stackResource(
        RemoteStateConsumers,
        "readers",
        { workspaceId: unknown.string, consumerIds: [unknown.string] },
        { workspaceId: [ws], consumerIds: [reader] },
      );
      const byId = stackResource(RemoteStateConsumers, "by-id", { workspaceId: "ws-1", consumerIds: ["ws-2"] });
      expect((await validateStack(remoteStateConsumersValid, [ws, reader, rsc, byId])).violations).toEqual([]);
    });

    it("reports a workspace named as its own consumer, by id", async () => {
      const rsc = stackResource(RemoteStateConsumers, "readers", {
        workspaceId: "ws-1",
        consumerIds: ["ws-2", "ws-1"],
      });
      const out = await validateStack(remoteStateConsumersValid, [rsc]);
      expect(out.violations).toEqual([
        {
          message:
            'RemoteStateConsumers "readers": consumerIds has "ws-1", the id of the workspace whose consumers it manages; ' +
            'a workspace cannot be its own consumer. Fix: remove "ws-1" from consumerIds.',
          urn: rsc.urn,
        },
      ]);
    });

    it("reports it in a preview, when consumerIds is computed from the target workspace", async () => {
      const ws = stackResource(Workspace, "app", { name: "app" });
      const rsc = stackResource(
        RemoteStateConsumers,
        "readers",
        { workspaceId: unknown.string, consumerIds: [unknown.string] },
        { workspaceId: [ws], consumerIds: [ws] },
      );
      const out = await validateStack(remoteStateConsumersValid, [ws, rsc]);
      expect(out.violations).toHaveLength(1);
      expect(out.violations[0].message).toBe(
        'RemoteStateConsumers "readers": consumerIds is computed from Workspace "app", the workspace whose consumers it manages; ' +
          'a workspace cannot be its own consumer. Fix: remove the id of Workspace "app" from consumerIds.',
      );
    });

    it("reports consumers on a workspace with global remote state", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", globalRemoteState: true });
      const rsc = stackResource(
        RemoteStateConsumers,
        "readers",
        { workspaceId: unknown.string, consumerIds: ["ws-2"] },
        { workspaceId: [ws] },
      );
      const out = await validateStack(remoteStateConsumersValid, [ws, rsc]);
      expect(out.violations).toEqual([
        {
          message:
            'RemoteStateConsumers "readers": Workspace "app" has globalRemoteState true, and the service changes consumers only of workspaces whose global remote state is off. ' +
            'Fix: set globalRemoteState false on Workspace "app", or delete RemoteStateConsumers "readers".',
          urn: rsc.urn,
        },
      ]);
      const unknownGlobal = stackResource(Workspace, "u", { name: "u", globalRemoteState: unknown.boolean });
      const rsc2 = stackResource(
        RemoteStateConsumers,
        "r2",
        { workspaceId: unknown.string, consumerIds: ["ws-2"] },
        { workspaceId: [unknownGlobal] },
      );
      expect((await validateStack(remoteStateConsumersValid, [unknownGlobal, rsc2])).violations).toEqual([]);
    });
  });
});
