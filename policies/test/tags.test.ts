import { beforeEach, describe, expect, it } from "vitest";
import {
  NoCodeWorkspace,
  Workspace,
  WorkspaceTags,
  RemoteStateConsumers,
  flatTagLowercase,
  requiredTags,
  tagAllowedValues,
  tagFormat,
} from "../rules";
import { DOORS, LAYOUTS, secret, through, unknown, validateStack } from "./harness";

describe.each(DOORS)("the %s door", (door) => {
  const { validate, remediate } = through(door);
  describe("workspace-flat-tag-lowercase", () => {
    it("passes lower-case flat tag names", async () => {
      const out = await validate(flatTagLowercase, Workspace, { name: "app", tagNames: ["prod", "team-a"] });
      expect(out.violations).toEqual([]);
    });

    it("reports an upper-case name with the resource, property, value and fix", async () => {
      const out = await validate(
        flatTagLowercase,
        WorkspaceTags,
        { workspaceId: "ws-1", tagNames: ["Prod", "ok"] },
        { name: "extra" },
      );
      expect(out.violations).toHaveLength(1);
      expect(out.violations[0]).toContain('WorkspaceTags "extra"');
      expect(out.violations[0]).toContain("tagNames");
      expect(out.violations[0]).toContain('"Prod"');
      expect(out.violations[0]).toContain('Fix: write "prod"');
    });

    it("skips resources that write no tags", async () => {
      for (const cls of [RemoteStateConsumers, NoCodeWorkspace]) {
        const other = await validate(flatTagLowercase, cls, { tagNames: ["A"] });
        expect(other.violations).toEqual([]);
        expect(other.notApplicable).toBe("Policy only applies to Workspace, WorkspaceTags resources");
      }
    });

    it("remediates to lower case, removes duplicates and keeps every other property, secrets included", async () => {
      const result = await remediate(flatTagLowercase, Workspace, {
        name: "app",
        tagNames: ["Prod", "prod", "Team-A"],
        __provider: secret("serialized provider"),
        description: "d",
      });
      expect(result).toBeDefined();
      expect(result!.tagNames).toEqual(["prod", "team-a"]);
      expect(result!.name).toBe("app");
      expect(result!.description).toBe("d");
      expect(result!.__provider).toEqual(secret("serialized provider"));
    });

    it("changes nothing when the names are already lower case, unknown, or hold an unknown element", async () => {
      expect(await remediate(flatTagLowercase, Workspace, { tagNames: ["prod"] })).toBeUndefined();
      expect(await remediate(flatTagLowercase, Workspace, { tagNames: unknown.array })).toBeUndefined();
      expect(await remediate(flatTagLowercase, Workspace, { tagNames: ["Prod", unknown.string] })).toBeUndefined();
      expect(await remediate(flatTagLowercase, WorkspaceTags, { workspaceId: "ws-1" })).toBeUndefined();
    });

    it("does not flag unknown values", async () => {
      expect((await validate(flatTagLowercase, Workspace, { tagNames: unknown.array })).violations).toEqual([]);
      expect(
        (await validate(flatTagLowercase, Workspace, { tagNames: [unknown.string, "Prod"] })).violations,
      ).toHaveLength(1);
    });
  });

  describe("workspace-tag-format", () => {
    it("passes lower-case keys, values and flat names", async () => {
      const out = await validate(tagFormat, Workspace, {
        tags: { env: "prod", "cost-center": "r-and-d" },
        tagNames: ["team:a", "svc_x"],
      });
      expect(out.violations).toEqual([]);
    });

    it("reports a key, a value and a flat name that do not match, suggesting a match", async () => {
      const out = await validate(
        tagFormat,
        Workspace,
        { tags: { Env: "Prod West" }, tagNames: ["bad name!"] },
        { name: "app" },
      );
      expect(out.violations).toHaveLength(3);
      expect(out.violations[0]).toBe(
        'Workspace "app": tags key "Env" does not match keyPattern ^[a-z0-9][a-z0-9._:/-]*$. Fix: rename the key, for example "env".',
      );
      expect(out.violations[1]).toContain('tags["Env"] value "Prod West" does not match valuePattern');
      expect(out.violations[1]).toContain('for example "prod-west"');
      expect(out.violations[2]).toContain('tagNames has "bad name!", which does not match flatTagPattern');
    });

    it("leaves the case of flat names to workspace-flat-tag-lowercase", async () => {
      expect((await validate(tagFormat, Workspace, { tagNames: ["Prod"] })).violations).toEqual([]);
    });

    it("follows configured patterns", async () => {
      const config = { keyPattern: "^[A-Z]+$", valuePattern: "^.*$", flatTagPattern: "^x-" };
      expect(
        (await validate(tagFormat, WorkspaceTags, { tags: { ENV: "Anything" }, tagNames: ["x-a"] }, { config }))
          .violations,
      ).toEqual([]);
      const out = await validate(tagFormat, WorkspaceTags, { tags: { env: "a" }, tagNames: ["y"] }, { config });
      expect(out.violations).toHaveLength(2);
      expect(out.violations[0]).toContain("keyPattern ^[A-Z]+$");
    });

    it("names the policy and key of a broken configured pattern", async () => {
      await expect(
        validate(tagFormat, Workspace, { tags: { a: "b" } }, { config: { keyPattern: "([" } }),
      ).rejects.toThrow(/policy workspace-tag-format: config keyPattern "\(\[" is not a valid regular expression/);
    });

    it("skips unknown tags and unknown values", async () => {
      expect(
        (await validate(tagFormat, Workspace, { tags: unknown.object, tagNames: unknown.array })).violations,
      ).toEqual([]);
      expect((await validate(tagFormat, WorkspaceTags, { tags: { env: unknown.string } })).violations).toEqual([]);
    });
  });

  describe("workspace-tag-allowed-values", () => {
    const config = { allowedValues: { env: ["dev", "staging", "prod"] } };

    it("allows anything without config", async () => {
      expect((await validate(tagAllowedValues, Workspace, { tags: { env: "qa" } })).violations).toEqual([]);
    });

    it("passes allowed values and keys without a list", async () => {
      expect(
        (await validate(tagAllowedValues, Workspace, { tags: { env: "prod", owner: "x" } }, { config })).violations,
      ).toEqual([]);
    });

    it("reports a value outside the list with the fix", async () => {
      const out = await validate(tagAllowedValues, Workspace, { tags: { env: "qa" } }, { config, name: "nc" });
      expect(out.violations).toEqual([
        'Workspace "nc": tags["env"] is "qa", not one of the allowed values "dev", "staging", "prod". ' +
          'Fix: set tags["env"] to one of them, or add "qa" to allowedValues.env in the policy config.',
      ]);
    });

    it("checks WorkspaceTags and skips unknown values", async () => {
      expect(
        (await validate(tagAllowedValues, WorkspaceTags, { tags: { env: "qa" } }, { config })).violations,
      ).toHaveLength(1);
      expect(
        (await validate(tagAllowedValues, WorkspaceTags, { tags: { env: unknown.string } }, { config })).violations,
      ).toEqual([]);
    });
  });
});

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  describe("workspace-required-tags", () => {
    const config = { requiredKeys: ["owner", "env"] };

    it("requires nothing by default", async () => {
      const ws = stackResource(Workspace, "app", { name: "app" });
      expect((await validateStack(requiredTags, [ws])).violations).toEqual([]);
    });

    it("reports the missing keys on the workspace", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", tags: { env: "prod" } });
      const out = await validateStack(requiredTags, [ws], config);
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "app": tags {"env":"prod"} lack the required key "owner". ' +
            'Fix: add owner: "<value>" to its tags or to a WorkspaceTags resource that targets it.',
          urn: ws.urn,
        },
      ]);
    });

    it("counts tags a WorkspaceTags adds to the workspace, linked by dependency or by id", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", tags: { env: "prod" } });
      const extra = stackResource(
        WorkspaceTags,
        "extra",
        { workspaceId: unknown.string, tags: { owner: "team-a" } },
        { workspaceId: [ws] },
      );
      expect((await validateStack(requiredTags, [ws, extra], config)).violations).toEqual([]);

      const nc = stackResource(NoCodeWorkspace, "nc", { name: "nc" });
      const byId = stackResource(WorkspaceTags, "by-id", { workspaceId: "ws-other", tags: { owner: "x", env: "dev" } });
      const out = await validateStack(requiredTags, [nc, byId], config);
      expect(out.violations.map((v) => v.urn)).toEqual([nc.urn]);
      expect(out.violations[0].message).toContain('lack the required keys "owner", "env"');
    });

    it("counts the tags a deployed workspace reports in effect, project-inherited ones included", async () => {
      const ws = stackResource(
        Workspace,
        "app",
        { name: "app", tags: { env: "prod" } },
        {},
        {
          outputs: { name: "app", tags: { env: "prod" }, effectiveTags: { env: "prod", owner: "platform" } },
        },
      );
      expect((await validateStack(requiredTags, [ws], config)).violations).toEqual([]);
    });

    it("does not judge a workspace whose tags are not known yet", async () => {
      const ws = stackResource(Workspace, "app", { name: "app", tags: unknown.object });
      const partly = stackResource(Workspace, "b", { name: "b", tags: { env: unknown.string } });
      const viaUnknown = stackResource(Workspace, "c", { name: "c" });
      const tagsOfC = stackResource(
        WorkspaceTags,
        "t",
        { workspaceId: unknown.string, tags: unknown.object },
        { workspaceId: [viaUnknown] },
      );
      expect((await validateStack(requiredTags, [ws, partly, viaUnknown, tagsOfC], config)).violations).toEqual([]);
    });
  });
});
