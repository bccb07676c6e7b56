import { describe, expect, it } from "vitest";
import { ORIGIN_KEY_INPUT, checkConfig } from "../../src/plugin/provider";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });

describe("the provider's origin key (checkConfig)", () => {
  it("adds a new random key, as a secret, to a configuration that has none", () => {
    const a = checkConfig({}, { address: "http://127.0.0.1:1" });
    const b = checkConfig({}, { address: "http://127.0.0.1:1" });
    expect(a.address).toBe("http://127.0.0.1:1");
    expect(a[ORIGIN_KEY_INPUT]).toEqual(secret(expect.stringMatching(/^[0-9a-f]{32}$/)));
    expect(b[ORIGIN_KEY_INPUT]).not.toEqual(a[ORIGIN_KEY_INPUT]);
  });

  it("keeps the key the recorded configuration holds, through any change of the program's", () => {
    const key = "0123456789abcdef0123456789abcdef";
    expect(checkConfig({ [ORIGIN_KEY_INPUT]: key, organization: "a" }, { organization: "b" })).toEqual({
      organization: "b",
      [ORIGIN_KEY_INPUT]: secret(key),
    });
    expect(checkConfig({ [ORIGIN_KEY_INPUT]: secret(key) }, {})[ORIGIN_KEY_INPUT]).toEqual(secret(key));
  });

  it("never takes a key from the program, nor a recorded value that is no key", () => {
    const given = "ffffffffffffffffffffffffffffffff";
    const fromProgram = checkConfig({}, { [ORIGIN_KEY_INPUT]: given });
    expect((fromProgram[ORIGIN_KEY_INPUT] as { value: string }).value).not.toBe(given);
    const invalid = checkConfig({ [ORIGIN_KEY_INPUT]: "not-a-key" }, {});
    expect((invalid[ORIGIN_KEY_INPUT] as { value: string }).value).toMatch(/^[0-9a-f]{32}$/);
  });
});
