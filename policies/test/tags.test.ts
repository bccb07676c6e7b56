import { describe, expect, it } from "vitest";
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
import { remediate, secret, stackResource, unknown, validate, validateStack } from "./harness";

describe("workspace-flat-tag-lowercase", () => {
  it("passes lower-case flat tag names", async () => {
    const out = await validate(flatTagLowercase, Workspace, { name: "app", tagNames: ["prod", "team-a"] });
    expect(out.violations).toEqual([]);
  });

  it("reports an upper-case name with the resource, property, value and fix", async () => {
    const out = await validate(flatTagLowercase, WorkspaceTags, { workspaceId: "ws-1", tagNames: ["Prod", "ok"] }, { name: "extra" });
    expect(out.violations).toHaveLength(1);
    expect(out.violations[0]).toContain('WorkspaceTags "extra"');
    expect(out.violations[0]).toContain("tagNames");
    expect(out.violations[0]).toContain('"Prod"');
    expect(out.violations[0]).toContain('Fix: write "prod"');
  });

  it("checks no-code workspaces too and skips other resource types", async () => {
    expect((await validate(flatTagLowercase, NoCodeWorkspace, { tagNames: ["A"] })).violations).toHaveLength(1);
    const other = await validate(flatTagLowercase, RemoteStateConsumers, { tagNames: ["A"] });
    expect(other.violations).toEqual([]);
    expect(other.notApplicable).toMatch(/only applies to Workspace, WorkspaceTags, NoCodeWorkspace/);
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
    expect((await validate(flatTagLowercase, Workspace, { tagNames: [unknown.string, "Prod"] })).violations).toHaveLength(1);
  });
});
