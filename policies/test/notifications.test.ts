import { beforeEach, describe, expect, it } from "vitest";
import {
  NotificationConfiguration,
  RunTrigger,
  Workspace,
  productionNotified,
  runTriggerWithinProject,
} from "../rules";
import { LAYOUTS, through, validateStack } from "./harness";

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("production-notified", () => {
    it("reports a production workspace without an enabled run:errored notification, and only that one", async () => {
      const prod = stackResource(Workspace, "prod", { name: "prod", tagNames: ["Production"] });
      const kvProd = stackResource(Workspace, "kv", { name: "kv", tags: { env: "production" } });
      const dev = stackResource(Workspace, "dev", { name: "dev", tagNames: ["dev"] });
      const off = stackResource(
        NotificationConfiguration,
        "off",
        { workspaceId: "ws-x", name: "off", destinationType: "email", enabled: false, triggers: ["run:errored"] },
        { workspaceId: [prod] },
      );
      const out = await validateStack(productionNotified, [prod, kvProd, dev, off]);
      expect(out.violations).toEqual([
        {
          urn: prod.urn,
          message: expect.stringContaining("is tagged production and no enabled NotificationConfiguration"),
        },
      ]);
      const configured = await validateStack(productionNotified, [prod, kvProd, dev, off], {
        productionTags: ["production", "env=production"],
      });
      expect(configured.violations.map((v) => v.urn)).toEqual([prod.urn, kvProd.urn]);
    });

    it("passes a production workspace notified of failed runs", async () => {
      const prod = stackResource(Workspace, "prod", { name: "prod", tagNames: ["production"] });
      const alerts = stackResource(
        NotificationConfiguration,
        "alerts",
        { workspaceId: "ws-x", name: "alerts", destinationType: "email", triggers: ["run:completed", "run:errored"] },
        { workspaceId: [prod] },
      );
      expect((await validateStack(productionNotified, [prod, alerts])).violations).toEqual([]);
    });
  });

  describe("run-trigger-within-project", () => {
    it("reports a trigger across projects, within the configured projects only", async () => {
      const a = stackResource(Workspace, "a", { name: "a", project: "prj-1" });
      const b = stackResource(Workspace, "b", { name: "b", project: "prj-2" });
      const c = stackResource(Workspace, "c", { name: "c", project: "prj-1" });
      const across = stackResource(
        RunTrigger,
        "across",
        { workspaceId: "ws-b", sourceWorkspaceId: "ws-a" },
        { workspaceId: [b], sourceWorkspaceId: [a] },
      );
      const within = stackResource(
        RunTrigger,
        "within",
        { workspaceId: "ws-c", sourceWorkspaceId: "ws-a" },
        { workspaceId: [c], sourceWorkspaceId: [a] },
      );
      const out = await validateStack(runTriggerWithinProject, [a, b, c, across, within]);
      expect(out.violations).toEqual([
        {
          urn: across.urn,
          message: expect.stringContaining('(project "prj-1") queue runs of Workspace "b" (project "prj-2")'),
        },
      ]);
      const elsewhere = await validateStack(runTriggerWithinProject, [a, b, c, across, within], {
        projects: ["prj-1"],
      });
      expect(elsewhere.violations).toEqual([]);
    });
  });
});
