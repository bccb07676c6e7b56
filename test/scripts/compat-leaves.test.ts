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
      pinEntry(passing, noTables),
      noTables,
    );
    expect(r).toMatchObject({ pass: 3, failed: [], unexpected: [], crashed: false });
    expect(judge("hosted", [r]).good).toBe(true);
  });

  it("names a failed leaf with testify's message, and leaves out what is out of scope", () => {
    // Every leaf expected to pass, as a good run would have written it.
    const ran = pinEntry(failedLeaf, noTables);
    const pin = { pass: [...ran.pass, ...ran.fail], fail: [], skipped: ran.skipped };
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
    // One leaf expected to pass that fails is enough to fail the setting.
    expect(judge("hosted", [r])).toMatchObject({ good: false, fail: 2 });

    const scoped = countRun(run, pin, {
      outOfScope: {
        "TestWorkspacesProjectRemoteState/with_invalid_options": "x",
        "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list": "y",
      },
      specDifferences: {},
    });
    expect(scoped).toMatchObject({ pass: 1, excluded: 2, failed: [] });
    // Out-of-scope leaves are in no list: neither expected to pass nor to fail.
    const outOfScope = {
      "TestWorkspacesProjectRemoteState/with_invalid_options": "x",
      "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list": "y",
    };
    const written = pinEntry(failedLeaf, { outOfScope, specDifferences: {} });
    expect(written.fail).toEqual([]);
    expect(countRun(run, written, { outOfScope, specDifferences: {} })).toMatchObject({
      pass: 1,
      excluded: 2,
      failed: [],
      unexpected: [],
    });
  });

  it("counts a leaf expected to be skipped that now fails or passes as a mismatch, with testify's message", () => {
    const ran = pinEntry(failedLeaf, noTables);
    const [failing, passing] = [ran.fail[0], ran.pass[0]];
    const pin = { pass: ran.pass.slice(1), fail: [], skipped: [failing, passing, ...ran.skipped] };
    const run = { test: "TestWorkspacesProjectRemoteState", out: failedLeaf, code: 1, signal: null };
    const r = countRun(run, pin, { outOfScope: {}, specDifferences: {} });
    expect(r.failed.filter((f) => f.leaf === failing || f.leaf === passing)).toEqual([
      { leaf: failing, reason: `expected to be skipped, but ran and failed: ${failureReason(failedLeaf, failing)}` },
      { leaf: passing, reason: "expected to be skipped, but ran and passed: run it, then --update" },
    ]);
    expect(r.skipped).toBe(ran.skipped.length);
    expect(judge("hosted", [r]).good).toBe(false);
  });

  it("counts every pinned leaf a setup failure hid as failing, with the setup's message", () => {
    const pin = {
      fail: [],
      pass: [
        "TestWorkspacesUpdate/when_updating_a_subset_of_values",
        "TestWorkspacesUpdate/with_valid_options",
        "TestWorkspacesUpdate/when_options_has_an_invalid_name",
      ],
      skipped: ["TestWorkspacesUpdate/update_hyok_enabled_of_a_workspace_from_false_to_true"],
    };
    const r = countRun({ test: "TestWorkspacesUpdate", out: setupFailure, code: 1, signal: null }, pin, noTables);
    expect(r.pass).toBe(0);
    expect(r.failed.map((f) => f.leaf)).toEqual(pin.pass);
    for (const f of r.failed)
      expect(f.reason).toBe(
        "did not run: TestWorkspacesUpdate failed before reaching it: missing API token for admin role provision-licenses",
      );
    expect(r.unexpected).toEqual([]);
    expect(r.skipped).toBe(0);
  });

  it("counts the leaves a panic took down, and marks the process as crashed", () => {
    const pin = {
      fail: [],
      pass: [
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

  it("reports a leaf that is in no list without counting it, and fails the setting", () => {
    const pin = {
      pass: ["TestWorkspacesLock/with_valid_options", "TestWorkspacesLock/without_a_valid_workspace_ID"],
      fail: [],
      skipped: [],
    };
    const r = countRun({ test: "TestWorkspacesLock", out: passing, code: 0, signal: null }, pin, noTables);
    expect(r.pass).toBe(2);
    expect(r.unexpected).toEqual([{ leaf: "TestWorkspacesLock/when_workspace_is_already_locked", status: "PASS" }]);
    expect(judge("hosted", [r])).toMatchObject({
      pass: 2,
      fail: 0,
      good: false,
      unexpected: ["TestWorkspacesLock/when_workspace_is_already_locked"],
    });
  });

  it("counts a leaf expected to fail with its reason, and fails the setting when it passes", () => {
    const leaf = "TestWorkspacesLock/with_valid_options";
    const pin = pinEntry(passing, noTables);
    const expectFail = { ...pin, pass: pin.pass.filter((l) => l !== leaf), fail: [leaf] };
    const r = countRun({ test: "TestWorkspacesLock", out: passing, code: 0, signal: null }, expectFail, {
      outOfScope: {},
      specDifferences: { [leaf]: "spec" },
    });
    expect(r.stale).toEqual([leaf]);
    expect(judge("beta", [r])).toMatchObject({ good: false, stale: [leaf] });

    const invalid = "TestWorkspacesProjectRemoteState/with_invalid_options";
    const tables = { outOfScope: {}, specDifferences: { [invalid]: "the spec says otherwise" } };
    const run = { test: "TestWorkspacesProjectRemoteState", out: failedLeaf, code: 1, signal: null };
    const written = pinEntry(failedLeaf, tables);
    expect(written.fail).toEqual([
      "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list",
      invalid,
    ]);
    const failing = countRun(run, { ...written, fail: [invalid] }, tables);
    expect(failing.bySpec).toEqual([{ leaf: invalid, reason: "follows the spec: the spec says otherwise" }]);
    // The other failing leaf is in no list: a leaf that newly fails is never taken as expected.
    expect(failing.unexpected.map((u) => u.leaf)).toEqual([
      "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list",
    ]);
    expect(judge("beta", [failing]).good).toBe(false);
    // Expected to fail but with no reason in SPEC_DIFFERENCES: a failure of the setting.
    const unreasoned = countRun(run, written, tables);
    expect(unreasoned.failed.map((f) => f.leaf)).toEqual([
      "TestWorkspacesProjectRemoteState/successfully_returns_remote_state_consumer_list",
    ]);
    expect(unreasoned.failed[0].reason).toMatch(/^expected to fail, but scripts\/compat\/scope\.js gives no reason/);
    expect(judge("beta", [unreasoned]).good).toBe(false);
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

  it("holds only when every leaf expected to pass passes: one failure of hundreds fails it", () => {
    expect(judge("s", [record(30, 0), record(19, 0)])).toMatchObject({ pass: 49, fail: 0, good: true });
    expect(judge("s", [record(499, 1)])).toMatchObject({ pass: 499, fail: 1, good: false });
  });

  it("counts the leaves that fail as expected, with their reasons, apart", () => {
    const s = judge("beta", [record(161, 0, 8)]);
    expect(s).toMatchObject({ pass: 161, fail: 0, bySpec: 8, good: true });
    expect(judge("beta", [record(160, 1, 8)]).good).toBe(false);
  });

  it("fails a setting with a crash or nothing counted", () => {
    expect(judge("s", [record(50, 0, 0, true)])).toMatchObject({ good: false, crashed: ["T"] });
    expect(judge("s", []).good).toBe(false);
  });
});

describe("the pinned leaves and the lists of scripts/compat/scope.js", () => {
  const pin = JSON.parse(
    fs.readFileSync(path.join(__dirname, "..", "..", "scripts", "compat", "expected-leaves.json"), "utf8"),
  ) as {
    settings: Record<string, Record<string, { pass: string[]; fail: string[]; skipped: string[] }>>;
  };
  const entries = Object.values(pin.settings).flatMap((tests) => Object.values(tests));
  const expectedToFail = entries.flatMap((e) => e.fail);

  it("pins every test function each setting runs", () => {
    for (const [name, setting] of Object.entries(SETTINGS))
      expect(Object.keys(pin.settings[name]).sort()).toEqual([...setting.tests].sort());
  });

  it("expects to fail exactly the leaves SPEC_DIFFERENCES gives a reason for, and nothing out of scope", () => {
    expect(expectedToFail.filter((l) => !SPEC_DIFFERENCES[l])).toEqual([]);
    expect(Object.keys(SPEC_DIFFERENCES).filter((k) => !expectedToFail.includes(k))).toEqual([]);
    const listed = entries.flatMap((e) => [...e.pass, ...e.fail]);
    expect(listed.filter((l) => reasonFor(OUT_OF_SCOPE, l))).toEqual([]);
    expect(reasonFor(OUT_OF_SCOPE, "TestWorkspacesUnlock_RunDependent/when_a_workspace_is_locked_by_a_run")).toMatch(
      /runs/,
    );
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
