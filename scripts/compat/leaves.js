// How the go-tfe compatibility run (./go-tfe.js) reads `go test -v` output and checks
// leaves against the expected ones (./expected-leaves.json): plain functions of text and
// tables, no processes, so test/scripts/compat-leaves.test.ts checks them on saved logs.
"use strict";

/**
 * Reads `go test -v` output: the result of every test and subtest, and the leaves among
 * them (those without children in this output).
 */
function parseResults(output) {
  const results = new Map();
  for (const m of output.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+) \(/gm)) results.set(m[2], m[1]);
  const names = [...results.keys()];
  const leaves = names.filter((n) => !names.some((o) => o.startsWith(n + "/")));
  return { results, leaves };
}

/** Whether the output shows a crash: a panic, a kill, or a non-zero exit without a failing test. */
function crashedRun(output, test, code, signal) {
  const { results } = parseResults(output);
  return /^panic: /m.test(output) || (code !== 0 && results.get(test) !== "FAIL") || signal != null;
}

/** The first assertion message testify printed for a failing leaf (its `Test:` line names the leaf), on one line. */
function failureReason(output, leaf) {
  const lines = output.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s+Test:\s+(\S+)\s*$/.exec(lines[i]);
    if (!m || m[1] !== leaf) continue;
    let j = i;
    while (j > 0 && !/^\s+Error:/.test(lines[j]) && !/Error Trace:/.test(lines[j])) j--;
    if (!/^\s+Error:/.test(lines[j])) continue;
    const text = lines
      .slice(j, i)
      .filter((l) => !/^\s+(Diff:|---|\+\+\+|@@)/.test(l))
      .map((l) => l.trim())
      .filter(Boolean)
      .join(" ")
      .replace(/^Error:\s*/, "");
    return text.slice(0, 220);
  }
  const panic = output.match(/^panic: (.*)$/m);
  if (panic) return `panic: ${panic[1]}`;
  // t.Fatal and t.Error lines; go-tfe's cleanup warnings ("Warning: failed to list stacks ...") explain nothing.
  const fatal = [...output.matchAll(/^\s+\S+\.go:\d+: (.*)$/gm)].find((m) => !m[1].startsWith("Warning:"));
  return fatal ? fatal[1].slice(0, 220) : "";
}

/** The reason a leaf is not counted, when a key of `table` names it exactly or ends in "/" and prefixes it. */
function reasonFor(table, leaf) {
  for (const [key, reason] of Object.entries(table)) {
    if (key.endsWith("/") ? leaf.startsWith(key) : leaf === key) return reason;
  }
  return undefined;
}

/**
 * The expected entry of one test function, from a good run's output: the leaves that passed,
 * those that failed (each must have its reason in `tables.specDifferences`: the run refuses
 * to write one that has none), and those go-tfe skipped. Out-of-scope leaves are in none of
 * the lists: they are neither expected to pass nor to fail.
 */
function pinEntry(output, tables) {
  const { results, leaves } = parseResults(output);
  const inScope = leaves.filter((l) => !reasonFor(tables.outOfScope, l));
  return {
    pass: inScope.filter((l) => results.get(l) === "PASS"),
    fail: inScope.filter((l) => results.get(l) === "FAIL"),
    skipped: leaves.filter((l) => results.get(l) === "SKIP"),
  };
}

/**
 * Counts one test function's process against its expected entry (`{ pass, fail, skipped }`,
 * or undefined when the function has none). A leaf expected to pass that failed, or that did
 * not appear (its test failed or crashed before reaching it), is a failure; a leaf expected
 * to fail that failed is counted with its reason (`bySpec`), one that passed is `stale` (the
 * expectation is no longer exact). A leaf expected to be skipped that failed or passed is a
 * failure too: go-tfe no longer skips it. A leaf in the output that is in no list and not out of
 * scope is reported in `unexpected`; a parent of expected leaves that shows up as a leaf (its
 * setup failed) lends its failure message to the leaves it hid.
 *
 * @param run `{ test, out, code, signal }`
 * @param tables `{ outOfScope, specDifferences }`
 */
function countRun(run, pinned, tables) {
  const { results, leaves } = parseResults(run.out);
  const expectPass = pinned ? pinned.pass : [];
  const expectFail = pinned ? pinned.fail : [];
  const expectedSkipped = pinned ? pinned.skipped : [];
  const known = new Set([...expectPass, ...expectFail, ...expectedSkipped]);
  const record = {
    test: run.test,
    pass: 0,
    excluded: 0,
    skipped: 0,
    failed: [],
    bySpec: [],
    stale: [],
    unexpected: [],
    crashed: crashedRun(run.out, run.test, run.code, run.signal),
  };

  for (const leaf of leaves) {
    if (known.has(leaf)) continue;
    if (reasonFor(tables.outOfScope, leaf)) {
      record.excluded++;
      continue;
    }
    const hides = [...known].some((k) => k.startsWith(leaf + "/"));
    if (!hides) record.unexpected.push({ leaf, status: results.get(leaf) });
  }
  /** Why a leaf that did not pass failed, as the output tells. */
  const failure = (leaf) => {
    if (results.get(leaf) === "FAIL") return failureReason(run.out, leaf);
    const parent = hidingParent(leaf, results);
    const why = parent ? failureReason(run.out, parent) : "";
    return `did not run: ${parent ? `${parent} ${results.get(parent) === "FAIL" ? "failed" : "ended"} before reaching it` : "not in the output"}${record.crashed ? " (the process crashed)" : ""}${why ? `: ${why}` : ""}`;
  };
  // A leaf go-tfe skipped when the expectations were written that now runs is a mismatch
  // like any other: its outcome is no longer the expected one. (One its test's failure hid
  // is told by the leaves expected to pass.)
  for (const leaf of expectedSkipped) {
    const status = results.get(leaf);
    if (status === "SKIP") record.skipped++;
    else if (status === "FAIL")
      record.failed.push({ leaf, reason: `expected to be skipped, but ran and failed: ${failure(leaf)}` });
    else if (status === "PASS")
      record.failed.push({ leaf, reason: "expected to be skipped, but ran and passed: run it, then --update" });
  }
  for (const leaf of expectPass) {
    // Taken out of scope since the expectations were written: no longer counted.
    if (reasonFor(tables.outOfScope, leaf)) record.excluded++;
    else if (results.get(leaf) === "PASS") record.pass++;
    else record.failed.push({ leaf, reason: failure(leaf) });
  }
  for (const leaf of expectFail) {
    const reason = tables.specDifferences[leaf];
    if (results.get(leaf) === "PASS") record.stale.push(leaf);
    else if (reason) record.bySpec.push({ leaf, reason: `follows the spec: ${reason}` });
    else
      record.failed.push({
        leaf,
        reason: `expected to fail, but scripts/compat/scope.js gives no reason (SPEC_DIFFERENCES); ${failure(leaf)}`,
      });
  }
  return record;
}

/** The deepest test of the output that is an ancestor of a leaf missing from it. */
function hidingParent(leaf, results) {
  const parts = leaf.split("/");
  for (let n = parts.length - 1; n > 0; n--) {
    const name = parts.slice(0, n).join("/");
    if (results.has(name)) return name;
  }
  return undefined;
}

/**
 * A setting's figures from its functions' records, and whether its expectations held
 * exactly: every leaf expected to pass passed, every leaf expected to fail failed (with its
 * reason), no process crashed, no leaf outside the lists appeared, and something was counted.
 */
function judge(name, records) {
  const s = {
    name,
    pass: 0,
    fail: 0,
    bySpec: 0,
    excluded: 0,
    skipped: 0,
    stale: [],
    crashed: [],
    failing: [],
    unexpected: [],
  };
  for (const r of records) {
    s.pass += r.pass;
    s.fail += r.failed.length;
    s.bySpec += r.bySpec.length;
    s.excluded += r.excluded;
    s.skipped += r.skipped;
    s.stale.push(...r.stale);
    s.failing.push(...r.failed.map((f) => f.leaf));
    s.unexpected.push(...r.unexpected.map((u) => u.leaf));
    if (r.crashed) s.crashed.push(r.test);
  }
  s.good =
    s.pass + s.bySpec > 0 &&
    s.failing.length === 0 &&
    s.stale.length === 0 &&
    s.crashed.length === 0 &&
    s.unexpected.length === 0;
  return s;
}

/** `func TestX(` declarations of a Go test file. */
function testFunctions(goSource) {
  return [...goSource.matchAll(/^func (Test\w+)\(t \*testing\.T\)/gm)].map((m) => m[1]);
}

module.exports = { parseResults, failureReason, reasonFor, pinEntry, countRun, judge, testFunctions };
