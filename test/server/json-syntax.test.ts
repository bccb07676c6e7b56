/**
 * The iterative JSON syntax check that tells a body nested past the depth bound apart
 * as well-formed (422) or not JSON (400): it agrees with JSON.parse on generated values
 * and on generated near-misses, and takes millions of levels without a stack.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tooDeep, wellFormedJson } from "../../src/server/http/json";

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** JSON text with an edit: a character removed, replaced or inserted (the usual ways a body is broken). */
const nearMiss = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 1)),
    fc.nat(),
    fc.constantFrom("drop", "replace", "insert"),
    fc.constantFrom(...'[]{}:,"\\ 0-.eE+tnu\u0001x'),
  )
  .map(([text, at, edit, c]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (edit === "drop") return text.slice(0, i) + text.slice(i + 1);
    if (edit === "replace") return text.slice(0, i) + c + text.slice(i + 1);
    return text.slice(0, i) + c + text.slice(i);
  });

describe("wellFormedJson", () => {
  it("accepts every generated JSON value, spaced or not", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, spaced) => {
        expect(wellFormedJson(JSON.stringify(v, null, spaced ? 2 : undefined))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with JSON.parse on generated near-misses and arbitrary text", () => {
    let refused = 0;
    fc.assert(
      fc.property(
        fc.oneof(nearMiss, fc.string({ maxLength: 30 }), fc.stringMatching(/^[[\]{}",:0-9a-z\\ ]{0,20}$/)),
        (text) => {
          const want = parses(text);
          if (!want) refused++;
          expect(wellFormedJson(text), JSON.stringify(text)).toBe(want);
        },
      ),
      { numRuns: 5000 },
    );
    expect(refused).toBeGreaterThan(1000);
  });

  it("takes 2,500,000 levels, closed or not, without a stack", () => {
    const n = 2_500_000;
    expect(wellFormedJson("[".repeat(n) + "]".repeat(n))).toBe(true);
    expect(wellFormedJson("[".repeat(n) + "]".repeat(n - 1))).toBe(false);
    expect(wellFormedJson('{"k":'.repeat(n / 5) + "1" + "}".repeat(n / 5))).toBe(true);
    expect(tooDeep("[".repeat(n))).toBe("/" + Array(64).fill("0").join("/"));
  });
});
