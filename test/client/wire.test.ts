import { describe, expect, it } from "vitest";
import { camelKeys, toWire } from "../../src/client/wire";

describe("wire key spelling", () => {
  it("converts both ways, the same on every call (the conversions are remembered)", () => {
    for (let round = 0; round < 2; round++) {
      expect(camelKeys({ "queue-all-runs": 1, "setting-overwrites": 2, "x-1a": 3, plain: 4 })).toEqual({
        queueAllRuns: 1,
        settingOverwrites: 2,
        x1a: 3,
        plain: 4,
      });
      expect(
        toWire<Record<string, unknown>>({ queueAllRuns: true, tfVersion2: "1", plain: 0 }, [
          "queueAllRuns",
          "tfVersion2",
          "plain",
        ]),
      ).toEqual({
        "queue-all-runs": true,
        "tf-version2": "1",
        plain: 0,
      });
    }
  });

  it("round-trips every key shape the API uses", () => {
    const keys = ["autoApply", "vcsRepoIdentifier", "globalRemoteState", "id", "sshKeyId"];
    const options = Object.fromEntries(keys.map((k) => [k, k]));
    expect(camelKeys(toWire<Record<string, unknown>>(options, keys))).toEqual(options);
  });

  it("builds wire bodies from defined keys only, null kept", () => {
    expect(
      toWire<Record<string, unknown>>({ autoApply: true, description: undefined, name: null }, [
        "autoApply",
        "description",
        "name",
      ]),
    ).toEqual({
      "auto-apply": true,
      name: null,
    });
  });
});
