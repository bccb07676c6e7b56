/**
 * The go-tfe compatibility run's leaf counting (scripts/compat/leaves.js) on saved `go test -v`
 * output, no Go needed: a passing run, a failed leaf, a test that fails in setup and hides its
 * subtests, and a panic (Go's own output for a nil-pointer dereference in a subtest). The
 * first three are logs of go-tfe v1.111.2 against the local server.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  countRun,
  failureReason,
  judge,
  parseResults,
  pinEntry,
  reasonFor,
  testFunctions,
} from "../../scripts/compat/leaves.js";
import { NOT_RUN, OUT_OF_SCOPE, SETTINGS, SPEC_DIFFERENCES } from "../../scripts/compat/scope.js";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", "go-tfe", name), "utf8");
const passing = fixture("passing.log");
const failedLeaf = fixture("failed-leaf.log");
const setupFailure = fixture("setup-failure.log");
const panic = fixture("panic.log");
const noTables = { outOfScope: {}, specDifferences: {} };

describe("parseResults", () => {
  it("reads every test's result and keeps the leaves, not their parents", () => {
    const { results, leaves } = parseResults(passing);
    expect(results.get("TestWorkspacesLock")).toBe("PASS");
    expect(leaves).toEqual([
      "TestWorkspacesLock/with_valid_options",
      "TestWorkspacesLock/when_workspace_is_already_locked",
      "TestWorkspacesLock/without_a_valid_workspace_ID",
    ]);
  });

  it("sees a function that failed in setup as one leaf, which is why leaves are pinned", () => {
    expect(parseResults(setupFailure).leaves).toEqual(["TestWorkspacesUpdate"]);
  });
});

describe("countRun", () => {
  it("counts a passing run's pinned leaves", () => {
    const r = countRun(
      { test: "TestWorkspacesLock", out: passing, code: 0, signal: null },
      pinEntry(passing),
      noTables,
    );
    expect(r).toMatchObject({ pass: 3, failed: [], unexpected: [], crashed: false });
  });

  it("names a failed leaf with testify's message, and leaves out what is out of scope", () => {
    const pin = pinEntry(failedLeaf);
    const run = { test: "TestWorkspacesProjectRemoteState", out: failedLeaf, code: 1, signal: null };
    const r = countRun(run, pin, noTables);
    expect(r.pass).toBe(1);
    expect(r.failed.map((f) => f.leaf)).toEqual([
      "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list",
      "TestWorkspacesProjectRemoteState/with_invalid_options",
    ]);
    expect(r.failed[0].reason).toMatch(/^Not equal: expected: 1 actual\s*: 2/);
    expect(r.failed[1].reason).toBe("An error is expected but got nil.");
    expect(r.crashed).toBe(false);

    const scoped = countRun(run, pin, {
      outOfScope: {
        "TestWorkspacesProjectRemoteState/with_invalid_options": "x",
        "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list": "y",
      },
      specDifferences: {},
    });
    expect(scoped).toMatchObject({ pass: 1, excluded: 2, failed: [] });
  });

  it("counts every pinned leaf a setup failure hid as failing, with the setup's message", () => {
    const pin = {
      leaves: [
        "TestWorkspacesUpdate/when_updating_a_subset_of_values",
        "TestWorkspacesUpdate/with_valid_options",
        "TestWorkspacesUpdate/when_options_has_an_invalid_name",
      ],
      skipped: ["TestWorkspacesUpdate/update_hyok_enabled_of_a_workspace_from_false_to_true"],
    };
    const r = countRun({ test: "TestWorkspacesUpdate", out: setupFailure, code: 1, signal: null }, pin, noTables);
    expect(r.pass).toBe(0);
    expect(r.failed.map((f) => f.leaf)).toEqual(pin.leaves);
    for (const f of r.failed)
      expect(f.reason).toBe(
        "did not run: TestWorkspacesUpdate failed before reaching it: missing API token for admin role provision-licenses",
      );
    expect(r.unexpected).toEqual([]);
    expect(r.skipped).toBe(0);
  });

  it("counts the leaves a panic took down, and marks the process as crashed", () => {
    const pin = {
      leaves: [
        "TestWorkspacesUnlock_RunDependent/with_valid_options",
        "TestWorkspacesUnlock_RunDependent/when_a_workspace_is_locked_by_a_team",
        "TestWorkspacesUnlock_RunDependent/without_a_valid_workspace_ID",
      ],
      skipped: [],
    };
    const r = countRun({ test: "TestWorkspacesUnlock_RunDependent", out: panic, code: 2, signal: null }, pin, noTables);
    expect(r.crashed).toBe(true);
    expect(r.pass).toBe(1);
    expect(r.failed).toEqual([
      {
        leaf: "TestWorkspacesUnlock_RunDependent/when_a_workspace_is_locked_by_a_team",
        reason: "panic: runtime error: invalid memory address or nil pointer dereference [recovered, repanicked]",
      },
      {
        leaf: "TestWorkspacesUnlock_RunDependent/without_a_valid_workspace_ID",
        reason:
          "did not run: TestWorkspacesUnlock_RunDependent failed before reaching it (the process crashed): panic: runtime error: invalid memory address or nil pointer dereference [recovered, repanicked]",
      },
    ]);
  });

  it("reports a leaf that is not pinned without counting it", () => {
    const pin = {
      leaves: ["TestWorkspacesLock/with_valid_options", "TestWorkspacesLock/without_a_valid_workspace_ID"],
      skipped: [],
    };
    const r = countRun({ test: "TestWorkspacesLock", out: passing, code: 0, signal: null }, pin, noTables);
    expect(r.pass).toBe(2);
    expect(r.unexpected).toEqual([{ leaf: "TestWorkspacesLock/when_workspace_is_already_locked", status: "PASS" }]);
    expect(judge("hosted", [r], 0.98)).toMatchObject({
      pass: 2,
      total: 2,
      good: false,
      unexpected: ["TestWorkspacesLock/when_workspace_is_already_locked"],
    });
  });

  it("counts a spec difference in the figure, and reports one that passes", () => {
    const leaf = "TestWorkspacesLock/with_valid_options";
    const r = countRun({ test: "TestWorkspacesLock", out: passing, code: 0, signal: null }, pinEntry(passing), {
      outOfScope: {},
      specDifferences: { [leaf]: "spec" },
    });
    expect(r.stale).toEqual([leaf]);
    const failing = countRun(
      { test: "TestWorkspacesProjectRemoteState", out: failedLeaf, code: 1, signal: null },
      pinEntry(failedLeaf),
      {
        outOfScope: {},
        specDifferences: { "TestWorkspacesProjectRemoteState/with_invalid_options": "the spec says otherwise" },
      },
    );
    expect(failing.bySpec).toEqual([
      {
        leaf: "TestWorkspacesProjectRemoteState/with_invalid_options",
        reason: "follows the spec: the spec says otherwise",
      },
    ]);
    expect(failing.failed.map((f) => f.leaf)).toEqual([
      "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list",
    ]);
  });
});

describe("judge", () => {
  const record = (pass: number, failed: number, bySpec = 0, crashed = false) => ({
    test: "T",
    pass,
    excluded: 0,
    skipped: 0,
    failed: Array.from({ length: failed }, (_, i) => ({ leaf: `T/f${i}`, reason: "" })),
    bySpec: Array.from({ length: bySpec }, (_, i) => ({ leaf: `T/s${i}`, reason: "" })),
    stale: [],
    unexpected: [],
    crashed,
  });

  it("meets the target at 98% of the leaves the spec does not decide against", () => {
    expect(judge("s", [record(30, 1), record(19, 0)], 0.98)).toMatchObject({ pass: 49, total: 50, good: true });
    expect(judge("s", [record(48, 2)], 0.98)).toMatchObject({ pass: 48, total: 50, good: false });
  });

  it("counts spec differences in the figure but not in the target", () => {
    const s = judge("beta", [record(161, 0, 8)], 0.98);
    expect(s).toMatchObject({ pass: 161, total: 169, bySpec: 8, decidable: 161, good: true });
    expect(s.ratio).toBeCloseTo(161 / 169);
    expect(judge("beta", [record(157, 4, 8)], 0.98).good).toBe(false);
  });

  it("fails a setting with a crash or nothing counted", () => {
    expect(judge("s", [record(50, 0, 0, true)], 0.98)).toMatchObject({ good: false, crashed: ["T"] });
    expect(judge("s", [], 0.98).good).toBe(false);
  });
});

describe("the pinned leaves and the lists of scripts/compat/scope.js", () => {
  const pin = JSON.parse(
    fs.readFileSync(path.join(__dirname, "..", "..", "scripts", "compat", "expected-leaves.json"), "utf8"),
  ) as {
    settings: Record<string, Record<string, { leaves: string[]; skipped: string[] }>>;
  };
  const pinned = Object.values(pin.settings).flatMap((tests) =>
    Object.values(tests).flatMap((e) => [...e.leaves, ...e.skipped]),
  );

  it("pins every test function each setting runs", () => {
    for (const [name, setting] of Object.entries(SETTINGS))
      expect(Object.keys(pin.settings[name]).sort()).toEqual([...setting.tests].sort());
  });

  it("names only pinned leaves as out of scope or failing by the spec", () => {
    expect(
      Object.keys(OUT_OF_SCOPE).filter((k) => !pinned.some((l) => (k.endsWith("/") ? l.startsWith(k) : l === k))),
    ).toEqual([]);
    expect(Object.keys(SPEC_DIFFERENCES).filter((k) => !pinned.includes(k))).toEqual([]);
    expect(reasonFor(OUT_OF_SCOPE, "TestWorkspacesUpdate")).toMatch(/billing/);
  });

  it("runs no function it lists as not run", () => {
    const run = Object.values(SETTINGS).flatMap((s) => s.tests);
    expect(Object.keys(NOT_RUN).filter((t) => run.includes(t))).toEqual([]);
  });
});

describe("testFunctions and failureReason", () => {
  it("reads the test functions a Go file declares", () => {
    expect(
      testFunctions(
        "func TestA(t *testing.T) {\n}\nfunc helper(t *testing.T) {}\nfunc TestB_RunDependent(t *testing.T) {\n",
      ),
    ).toEqual(["TestA", "TestB_RunDependent"]);
  });

  it("gives nothing for a leaf the output does not explain", () => {
    expect(failureReason(passing, "TestWorkspacesLock/with_valid_options")).toBe("");
  });
});
