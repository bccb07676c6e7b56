// How the go-tfe compatibility run (./go-tfe.js) reads `go test -v` output and counts
// leaves against the pinned list (./expected-leaves.json): plain functions of text and
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

/** The pinned entry of one test function, from a run's output: the leaves that ran and those go-tfe skipped. */
function pinEntry(output) {
  const { results, leaves } = parseResults(output);
  return {
    leaves: leaves.filter((l) => results.get(l) !== "SKIP"),
    skipped: leaves.filter((l) => results.get(l) === "SKIP"),
  };
}

/**
 * Counts one test function's process against its pinned entry (`{ leaves, skipped }`, or
 * undefined when the function has none). Every pinned leaf that is in scope counts: one
 * that passed is a pass; one that failed, or that did not appear (its test failed or
 * crashed before reaching it), is a failure. A leaf in the output but not in the pin is
 * reported in `unexpected` and not counted; a parent of pinned leaves that shows up as a
 * leaf (its setup failed) lends its failure message to the leaves it hid.
 *
 * @param run `{ test, out, code, signal }`
 * @param tables `{ outOfScope, specDifferences }`
 */
function countRun(run, pinned, tables) {
  const { results, leaves } = parseResults(run.out);
  const expected = pinned ? pinned.leaves : [];
  const expectedSkipped = pinned ? pinned.skipped : [];
  const known = new Set([...expected, ...expectedSkipped]);
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
    const hides = [...known].some((k) => k.startsWith(leaf + "/"));
    if (!hides) record.unexpected.push({ leaf, status: results.get(leaf) });
  }
  for (const leaf of expectedSkipped) if (results.get(leaf) === "SKIP") record.skipped++;
  for (const leaf of expected) {
    if (reasonFor(tables.outOfScope, leaf)) {
      record.excluded++;
      continue;
    }
    const status = results.get(leaf);
    const bySpec = tables.specDifferences[leaf];
    if (status === "PASS") {
      record.pass++;
      if (bySpec) record.stale.push(leaf);
      continue;
    }
    let reason;
    if (bySpec) reason = `follows the spec: ${bySpec}`;
    else if (status === "FAIL") reason = failureReason(run.out, leaf);
    else {
      const parent = hidingParent(leaf, results);
      const why = parent ? failureReason(run.out, parent) : "";
      reason = `did not run: ${parent ? `${parent} ${results.get(parent) === "FAIL" ? "failed" : "ended"} before reaching it` : "not in the output"}${record.crashed ? " (the process crashed)" : ""}${why ? `: ${why}` : ""}`;
    }
    (bySpec ? record.bySpec : record.failed).push({ leaf, reason });
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
 * A setting's figures from its functions' records, and whether it meets the target: at
 * least `target` of the in-scope leaves pass, leaving out of that ratio (not out of the
 * figure) the leaves that fail because the server follows the spec; no process crashed;
 * no leaf outside the pinned list appeared.
 */
function judge(name, records, target) {
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
    s.fail += r.failed.length + r.bySpec.length;
    s.bySpec += r.bySpec.length;
    s.excluded += r.excluded;
    s.skipped += r.skipped;
    s.stale.push(...r.stale);
    s.failing.push(...r.failed.map((f) => f.leaf));
    s.unexpected.push(...r.unexpected.map((u) => u.leaf));
    if (r.crashed) s.crashed.push(r.test);
  }
  s.total = s.pass + s.fail;
  s.ratio = s.total === 0 ? 0 : s.pass / s.total;
  s.decidable = s.total - s.bySpec;
  s.decidableRatio = s.decidable === 0 ? 0 : s.pass / s.decidable;
  s.good = s.decidable > 0 && s.decidableRatio >= target && s.crashed.length === 0 && s.unexpected.length === 0;
  return s;
}

/** `func TestX(` declarations of a Go test file. */
function testFunctions(goSource) {
  return [...goSource.matchAll(/^func (Test\w+)\(t \*testing\.T\)/gm)].map((m) => m[1]);
}

module.exports = { parseResults, failureReason, reasonFor, pinEntry, countRun, judge, testFunctions };
