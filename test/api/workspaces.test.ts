import { describe, expect, it } from "vitest";
import {
  issuesToErrors,
  isValidAutoDestroyDuration,
  workspaceCreateRequestSchema,
  workspaceSettingsProblems,
  workspaceUpdateRequestSchema,
  workspaceAttributesSchema,
} from "../../src/api";

describe("workspace request schemas", () => {
  it("reports one error per bad attribute with its JSON pointer", () => {
    const result = workspaceCreateRequestSchema.safeParse({
      data: { type: "workspaces", attributes: { name: "bad name!", "auto-apply": "yes", "execution-mode": "cloud" } },
    });
    expect(result.success).toBe(false);
    const pointers = issuesToErrors(result.error!.issues)
      .map((e) => e.source?.pointer)
      .sort();
    expect(pointers).toEqual([
      "/data/attributes/auto-apply",
      "/data/attributes/execution-mode",
      "/data/attributes/name",
    ]);
  });

  it("requires a name on create but not on update", () => {
    expect(workspaceCreateRequestSchema.safeParse({ data: { type: "workspaces", attributes: {} } }).success).toBe(
      false,
    );
    expect(
      workspaceUpdateRequestSchema.safeParse({ data: { type: "workspaces", attributes: { description: "x" } } })
        .success,
    ).toBe(true);
  });

  it("validates the auto-destroy duration format", () => {
    expect(["1d", "14d", "9999h"].every(isValidAutoDestroyDuration)).toBe(true);
    expect(["0d", "10000d", "5m", "d", "1.5d", ""].some(isValidAutoDestroyDuration)).toBe(false);
  });

  it("keeps attributes a newer service adds", () => {
    const parsed = workspaceAttributesSchema.parse({
      name: "a",
      "created-at": "t",
      "execution-mode": "remote",
      locked: false,
      "new-thing": 1,
    });
    expect(parsed["new-thing"]).toBe(1);
  });
});

describe("workspaceSettingsProblems", () => {
  const pointers = (...args: Parameters<typeof workspaceSettingsProblems>) =>
    workspaceSettingsProblems(...args).map((p) => p.pointer);

  it("requires an agent pool in agent mode and forbids it otherwise", () => {
    expect(pointers({ "execution-mode": "agent" })).toEqual(["/data/attributes/agent-pool-id"]);
    expect(pointers({ "execution-mode": "agent", "agent-pool-id": "apool-1" })).toEqual([]);
    expect(pointers({ "execution-mode": "local", "agent-pool-id": "apool-1" })).toEqual([
      "/data/attributes/agent-pool-id",
    ]);
    expect(pointers({ operations: true, "agent-pool-id": "apool-1" })).toEqual(["/data/attributes/agent-pool-id"]);
  });

  it("uses the stored pool on update", () => {
    expect(pointers({ "execution-mode": "agent" }, { "execution-mode": "remote", "agent-pool-id": null })).toEqual([
      "/data/attributes/agent-pool-id",
    ]);
    expect(pointers({ description: "x" }, { "execution-mode": "agent", "agent-pool-id": "apool-1" })).toEqual([]);
  });

  it("refuses operations together with execution-mode", () => {
    expect(pointers({ operations: true, "execution-mode": "remote" })).toContain("/data/attributes/operations");
  });

  it("checks the VCS repository keys", () => {
    expect(pointers({ "vcs-repo": { branch: "main" } }).sort()).toEqual([
      "/data/attributes/vcs-repo/identifier",
      "/data/attributes/vcs-repo/oauth-token-id",
    ]);
    expect(
      pointers({ "vcs-repo": { identifier: "o/r", "oauth-token-id": "ot-1", "vcs-app-installation-id": "ghain-1" } }),
    ).toEqual(["/data/attributes/vcs-repo/vcs-app-installation-id"]);
    // Changing the branch of an existing repository needs no other key.
    expect(
      pointers({ "vcs-repo": { branch: "dev" } }, { "vcs-repo": { identifier: "o/r", "oauth-token-id": "ot-1" } }),
    ).toEqual([]);
  });
});
