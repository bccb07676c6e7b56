import { describe, expect, it } from "vitest";
import { camel, kebab, toWire } from "../../src/client/wire";

describe("wire key spelling", () => {
  it("converts both ways, the same on every call (the conversions are remembered)", () => {
    for (let round = 0; round < 2; round++) {
      expect(kebab("queueAllRuns")).toBe("queue-all-runs");
      expect(camel("queue-all-runs")).toBe("queueAllRuns");
      expect(camel("setting-overwrites")).toBe("settingOverwrites");
      expect(kebab("tfVersion2")).toBe("tf-version2");
      expect(camel("x-1a")).toBe("x1a");
      expect(kebab("plain")).toBe("plain");
    }
  });

  it("round-trips every key shape the API uses", () => {
    for (const key of ["autoApply", "vcsRepoIdentifier", "globalRemoteState", "id", "sshKeyId"]) expect(camel(kebab(key))).toBe(key);
  });

  it("builds wire bodies from defined keys only", () => {
    expect(toWire({ autoApply: true, description: undefined, name: null } as Record<string, unknown>, ["autoApply", "description", "name"])).toEqual({
      "auto-apply": true,
      name: null,
    });
  });
});
