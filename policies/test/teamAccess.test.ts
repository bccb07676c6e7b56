import { beforeEach, describe, expect, it } from "vitest";
import { Team, TeamProjectAccess, TeamWorkspaceAccess, Workspace, WorkspaceTags, teamAdminProduction } from "../rules";
import { LAYOUTS, through, unknown, validateStack } from "./harness";

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("team-admin-production", () => {
    it("reports admin access to a workspace tagged production, naming the team and the way out", async () => {
      const ws = stackResource(Workspace, "billing", { name: "billing", tagNames: ["Production"] });
      const team = stackResource(Team, "ops", { name: "ops" });
      const access = stackResource(
        TeamWorkspaceAccess,
        "ops-billing",
        { teamId: unknown.string, workspaceId: unknown.string, access: "admin" },
        { teamId: [team], workspaceId: [ws] },
      );
      const out = await validateStack(teamAdminProduction, [ws, team, access]);
      expect(out.violations).toEqual([
        {
          message:
            'TeamWorkspaceAccess "ops-billing": gives Team "ops" admin access to Workspace "billing", which is tagged "production". ' +
            'Fix: give Team "ops" a weaker level (write, or custom permissions), or list "ops" in allowedTeams.',
          urn: access.urn,
        },
      ]);
    });

    it("passes a weaker level, a workspace not tagged production, and an allowed team by name or id", async () => {
      const prod = stackResource(Workspace, "prod", { name: "prod", tags: { env: "production" } });
      const dev = stackResource(Workspace, "dev", { name: "dev", tagNames: ["dev"] });
      const team = stackResource(Team, "platform", { name: "platform" });
      const write = stackResource(
        TeamWorkspaceAccess,
        "write",
        { teamId: "team-1", workspaceId: unknown.string, access: "write" },
        { workspaceId: [prod] },
      );
      const devAdmin = stackResource(
        TeamWorkspaceAccess,
        "dev-admin",
        { teamId: "team-1", workspaceId: unknown.string, access: "admin" },
        { workspaceId: [dev] },
      );
      const byName = stackResource(
        TeamWorkspaceAccess,
        "platform-prod",
        { teamId: unknown.string, workspaceId: unknown.string, access: "admin" },
        { teamId: [team], workspaceId: [prod] },
      );
      const byId = stackResource(
        TeamWorkspaceAccess,
        "break-glass",
        { teamId: "team-breakglass", workspaceId: unknown.string, access: "admin" },
        { workspaceId: [prod] },
      );
      const all = [prod, dev, team, write, devAdmin, byName, byId];
      expect(
        (await validateStack(teamAdminProduction, all, { allowedTeams: ["platform", "team-breakglass"] })).violations,
      ).toEqual([]);
      // Without the allow list both admins are reported; the write access and the dev workspace never are.
      const out = await validateStack(teamAdminProduction, all);
      expect(out.violations.map((v) => v.urn)).toEqual([byName.urn, byId.urn]);
      expect(out.violations[1].message).toContain('gives team team-breakglass admin access to Workspace "prod"');
    });

    it("finds the tag on a WorkspaceTags and by a configured name, and a workspace by its known id", async () => {
      const tags = stackResource(WorkspaceTags, "live-tags", { workspaceId: "ws-live", tagNames: ["live"] });
      const access = stackResource(TeamWorkspaceAccess, "x", {
        teamId: "team-x",
        workspaceId: "ws-live",
        access: "admin",
      });
      expect((await validateStack(teamAdminProduction, [tags, access])).violations).toEqual([]);
      const out = await validateStack(teamAdminProduction, [tags, access], { tag: "LIVE" });
      expect(out.violations).toEqual([
        expect.objectContaining({
          urn: access.urn,
          message: expect.stringContaining('workspace ws-live, which is tagged "LIVE"'),
        }),
      ]);
    });

    it("reports admin or maintain on the project of a production workspace, and not read or write", async () => {
      const prod = stackResource(Workspace, "prod", { name: "prod", project: "prj-apps", tagNames: ["production"] });
      const grant = (name: string, access: string) =>
        stackResource(TeamProjectAccess, name, { teamId: `team-${name}`, projectId: "prj-apps", access });
      const [admin, maintain, write, other] = [
        grant("admin", "admin"),
        grant("maintain", "maintain"),
        grant("write", "write"),
        stackResource(TeamProjectAccess, "other", { teamId: "team-o", projectId: "prj-other", access: "admin" }),
      ];
      const out = await validateStack(teamAdminProduction, [prod, admin, maintain, write, other]);
      expect(out.violations.map((v) => v.urn)).toEqual([admin.urn, maintain.urn]);
      expect(out.violations[1].message).toBe(
        'TeamProjectAccess "maintain": gives team team-maintain "maintain" on project prj-apps, which makes it admin of Workspace "prod", tagged "production". ' +
          "Fix: give team team-maintain a weaker level (write, or custom permissions), or list the team in allowedTeams.",
      );
    });
  });
});
