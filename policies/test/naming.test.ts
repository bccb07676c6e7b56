import { describe, expect, it } from "vitest";
import { NoCodeWorkspace, Workspace, forceDelete, globalRemoteState, namePattern } from "../rules";
import { DOORS, through, unknown } from "./harness";

describe.each(DOORS)("the %s door", (door) => {
  const { validate } = through(door);
  describe("workspace-name-pattern", () => {
    it("accepts the spec's characters by default", async () => {
      for (const name of ["app", "App_2", "team-a-prod", "X"]) {
        expect((await validate(namePattern, Workspace, { name })).violations, name).toEqual([]);
      }
    });

    it("reports other characters with a corrected example", async () => {
      const out = await validate(namePattern, Workspace, { name: "my app.prod" }, { name: "app" });
      expect(out.violations).toEqual([
        'Workspace "app": name "my app.prod" does not match ^[A-Za-z0-9_-]+$ (the service accepts letters, digits, "-" and "_"). ' +
          'Fix: rename the workspace, for example "my-app-prod".',
      ]);
      expect((await validate(namePattern, NoCodeWorkspace, { name: "" })).violations).toHaveLength(1);
    });

    it("follows a configured convention and offers no example that would not match it", async () => {
      const config = { pattern: "^[a-z]+-(dev|prod)$" };
      expect((await validate(namePattern, Workspace, { name: "billing-prod" }, { config })).violations).toEqual([]);
      const out = await validate(namePattern, Workspace, { name: "Billing" }, { config });
      expect(out.violations).toEqual([
        'Workspace "subject": name "Billing" does not match ^[a-z]+-(dev|prod)$. Fix: rename the workspace.',
      ]);
    });

    it("skips unknown and absent names", async () => {
      expect((await validate(namePattern, Workspace, { name: unknown.string })).violations).toEqual([]);
      expect((await validate(namePattern, Workspace, {})).violations).toEqual([]);
    });
  });

  describe("safety advisories", () => {
    it("reports forceDelete true on workspaces and no-code workspaces", async () => {
      expect((await validate(forceDelete, Workspace, { forceDelete: false })).violations).toEqual([]);
      expect((await validate(forceDelete, Workspace, { forceDelete: unknown.boolean })).violations).toEqual([]);
      const out = await validate(forceDelete, NoCodeWorkspace, { forceDelete: true }, { name: "nc" });
      expect(out.violations).toHaveLength(1);
      expect(out.violations[0]).toMatch(
        /^NoCodeWorkspace "nc": forceDelete true deletes the workspace even while it manages resources.*Fix: remove forceDelete/,
      );
    });

    it("reports globalRemoteState true", async () => {
      expect((await validate(globalRemoteState, Workspace, {})).violations).toEqual([]);
      expect((await validate(globalRemoteState, Workspace, { globalRemoteState: unknown.boolean })).violations).toEqual(
        [],
      );
      const out = await validate(globalRemoteState, Workspace, { globalRemoteState: true }, { name: "app" });
      expect(out.violations).toEqual([
        'Workspace "app": globalRemoteState true lets every workspace of the organization read its state. ' +
          "Fix: set globalRemoteState false and name the readers in a RemoteStateConsumers resource.",
      ]);
      expect(
        (await validate(globalRemoteState, NoCodeWorkspace, { globalRemoteState: true })).notApplicable,
      ).toBeDefined();
    });
  });
});
