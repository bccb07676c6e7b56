/**
 * Property: whatever valid inputs a program gives, after create (and after a refresh)
 * diff reports nothing, also when lists come in another order and flat tag names in
 * another case. Runs against the real local server.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fc from "fast-check";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { startHarness, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const tagName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/);
let n = 0;

const inputs = fc.record(
  {
    description: fc.string({ maxLength: 30 }),
    autoApply: fc.boolean(),
    allowDestroyPlan: fc.boolean(),
    fileTriggersEnabled: fc.boolean(),
    queueAllRuns: fc.boolean(),
    speculativeEnabled: fc.boolean(),
    globalRemoteState: fc.boolean(),
    executionMode: fc.constantFrom("remote", "local"),
    workingDirectory: fc.constantFrom("", "infra", "stacks/app"),
    triggerPatterns: fc.uniqueArray(
      word.map((w) => `${w}/**`),
      { maxLength: 4 },
    ),
    triggerPrefixes: fc.uniqueArray(
      word.map((w) => `${w}/`),
      { maxLength: 4 },
    ),
    autoDestroyActivityDuration: fc
      .tuple(fc.integer({ min: 1, max: 9999 }), fc.constantFrom("d", "h"))
      .map(([v, u]) => `${v}${u}`),
    tags: fc.dictionary(word, fc.string({ maxLength: 10 }), { maxKeys: 4 }),
    tagNames: fc.uniqueArray(tagName, { maxLength: 4, selector: (t) => t.toLowerCase() }),
  },
  { requiredKeys: [] },
);

function shuffled<T>(xs: T[]): T[] {
  return [...xs].reverse();
}

describe("no change after create, whatever the inputs", () => {
  it("diff is empty after create and after refresh, with lists reordered and tag case changed", async () => {
    await fc.assert(
      fc.asyncProperty(inputs, async (given) => {
        n += 1;
        const checked = await workspaceProvider.check({}, { ...given, name: `prop-${n}` });
        expect(checked.failures).toEqual([]);
        const { id, outs } = await workspaceProvider.create(checked.inputs);
        const variant = {
          ...checked.inputs,
          ...(given.triggerPatterns ? { triggerPatterns: shuffled(given.triggerPatterns) } : {}),
          ...(given.tagNames ? { tagNames: shuffled(given.tagNames).map((t) => t.toUpperCase()) } : {}),
        };
        expect((await workspaceProvider.diff(id, outs, checked.inputs)).changes).toBe(false);
        const read = await workspaceProvider.read(id, outs);
        expect((await workspaceProvider.diff(id, read.props!, checked.inputs)).changes).toBe(false);
        expect((await workspaceProvider.diff(id, read.props!, variant)).changes).toBe(false);
        await workspaceProvider.delete(id, read.props!);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it("diff is empty after an update from any inputs to any others, and the service holds the new values", async () => {
    await fc.assert(
      fc.asyncProperty(inputs, inputs, async (first, second) => {
        n += 1;
        const a = await workspaceProvider.check({}, { ...first, name: `upd-${n}` });
        const { id, outs } = await workspaceProvider.create(a.inputs);
        const b = await workspaceProvider.check({}, { ...second, name: `upd-${n}-b` });
        expect(b.failures).toEqual([]);
        const updated = await workspaceProvider.update(id, outs, b.inputs);
        expect((await workspaceProvider.diff(id, updated.outs, b.inputs)).changes).toBe(false);
        const read = await workspaceProvider.read(id, updated.outs);
        expect((await workspaceProvider.diff(id, read.props!, b.inputs)).changes).toBe(false);
        await workspaceProvider.delete(id, read.props!);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
