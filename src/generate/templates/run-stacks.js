#!/usr/bin/env node
// Runs one operation over every stack of this program from one machine, a few stacks at a
// time, on Pulumi's Automation API (the same engine `pulumi up` runs):
//
//   node run-stacks.js preview|up|refresh|destroy [--concurrency N] [--stack NAME]... [--expect-no-changes] [--json]
//
// The stacks are the Pulumi.<stack>.yaml files beside this file. Stack `organization`
// (the no-code modules) runs before the others, and after them for destroy: workspaces
// made from a module name it. Each stack prints one line: its result, its changes and how
// long it took; a failed stack also prints the engine's error. The exit code is 1 when a
// stack failed (they are named at the end), 2 for a mistake in the arguments.
//
// Address and token come from the environment, as for `pulumi up`: WORKSPACES_ADDRESS and
// WORKSPACES_TOKEN (or the stack config workspaces:address and workspaces:token). All stacks
// share the token's rate limit: every provider paces itself under it and backs off when
// the service says so, so more stacks at once do not send faster; they overlap the engine's
// own work. The default of 2 suits a machine of two cores.
"use strict";
const fs = require("fs");

const OPERATIONS = ["preview", "up", "refresh", "destroy"];
/** The stack that holds what belongs to the organization rather than to a project. */
const ORGANIZATION_STACK = "organization";
const USAGE = `usage: node run-stacks.js preview|up|refresh|destroy [--concurrency N] [--stack NAME]... [--expect-no-changes] [--json]

  --concurrency N       stacks running at once (default 2)
  --stack NAME          only this stack (repeat for more); default every Pulumi.<stack>.yaml here
  --expect-no-changes   fail a stack whose preview or update would change anything
  --json                print the results as one JSON array instead of lines`;

class UsageError extends Error {}

/** The stacks of the program in `dir`: one per Pulumi.<stack>.yaml, sorted. */
function stacksIn(dir) {
  return fs
    .readdirSync(dir)
    .map((f) => /^Pulumi\.(.+)\.ya?ml$/.exec(f))
    .filter((m) => m !== null)
    .map((m) => m[1])
    .sort();
}

function parseArgs(argv, known) {
  const [operation, ...rest] = argv;
  if (!OPERATIONS.includes(operation)) {
    throw new UsageError(
      operation === undefined ? "which operation?" : `unknown operation ${JSON.stringify(operation)}`,
    );
  }
  const options = { operation, concurrency: 2, stacks: [], expectNoChanges: false, json: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--concurrency") {
      const v = value();
      options.concurrency = Number(v);
      if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
        throw new UsageError(`--concurrency takes a whole number of 1 or more, not ${JSON.stringify(v)}`);
      }
    } else if (arg === "--stack") {
      const v = value();
      if (!known.includes(v)) {
        throw new UsageError(
          `no stack ${JSON.stringify(v)} here (no Pulumi.${v}.yaml); the stacks: ${known.join(", ")}`,
        );
      }
      if (!options.stacks.includes(v)) options.stacks.push(v);
    } else if (arg === "--expect-no-changes") {
      options.expectNoChanges = true;
    } else if (arg === "--json") {
      options.json = true;
    } else {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  if (options.stacks.length === 0) options.stacks = known;
  return options;
}

/** Changes by kind, without the resources that stay the same. */
function changesOf(opMap) {
  const changes = {};
  for (const [op, n] of Object.entries(opMap ?? {})) if (op !== "same" && n > 0) changes[op] = n;
  return changes;
}

/** The engine's error lines from a failed command (its whole output is long). */
function errorOf(err) {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split("\n").map((l) => l.trimEnd());
  const errors = lines.filter((l) => /\berror: /.test(l) && !/^\s*code:/.test(l));
  const picked = errors.length ? [...new Set(errors.map((l) => l.trim()))] : lines.filter((l) => l.trim()).slice(-5);
  return picked.join("\n");
}

async function runOne(automation, dir, stackName, options) {
  const started = Date.now();
  const result = {
    stack: stackName,
    operation: options.operation,
    ok: false,
    changes: {},
    startedAt: new Date(started).toISOString(),
    seconds: 0,
  };
  try {
    const stack = await automation.LocalWorkspace.createOrSelectStack({ stackName, workDir: dir });
    const flags = options.expectNoChanges ? { expectNoChanges: true } : {};
    if (options.operation === "preview") {
      const r = await stack.preview(flags);
      result.changes = changesOf(r.changeSummary);
      if (options.expectNoChanges && Object.keys(result.changes).length) {
        throw new Error("error: the preview shows changes (--expect-no-changes)");
      }
    } else {
      const r = await stack[options.operation](flags);
      result.changes = changesOf(r.summary.resourceChanges);
    }
    result.ok = true;
  } catch (err) {
    result.error = errorOf(err);
  }
  const finished = Date.now();
  result.finishedAt = new Date(finished).toISOString();
  result.seconds = Math.round((finished - started) / 100) / 10;
  return result;
}

function line(r) {
  const changes = Object.entries(r.changes)
    .map(([op, n]) => `${op} ${n}`)
    .join(", ");
  const head = `${r.stack}: ${r.operation} ${r.ok ? "ok" : "FAILED"}, ${changes || "no changes"}, ${r.seconds.toFixed(1)} s`;
  return r.ok ? head : `${head}\n${r.error.replace(/^/gm, "    ")}`;
}

/** Runs `options.operation` over the stacks, `options.concurrency` at a time; resolves with one result per stack. */
async function runStacks(dir, options, report) {
  const automation = require("@pulumi/pulumi/automation");
  const org = options.stacks.filter((s) => s === ORGANIZATION_STACK);
  const rest = options.stacks.filter((s) => s !== ORGANIZATION_STACK);
  const results = [];
  const runAll = async (names) => {
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const r = await runOne(automation, dir, names[next++], options);
        results.push(r);
        report(r);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, names.length) }, worker));
  };
  const phases = options.operation === "destroy" ? [rest, org] : [org, rest];
  for (const names of phases) await runAll(names);
  return results;
}

async function main(argv, dir) {
  let options;
  try {
    options = parseArgs(argv, stacksIn(dir));
    if (options.stacks.length === 0) throw new UsageError(`no Pulumi.<stack>.yaml in ${dir}`);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`run-stacks: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  const started = Date.now();
  const results = await runStacks(dir, options, (r) => {
    if (!options.json) console.log(line(r));
  });
  const failed = results.filter((r) => !r.ok).map((r) => r.stack);
  if (options.json) console.log(JSON.stringify(results, null, 2));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failed.length) {
    console.error(
      `run-stacks: ${options.operation} failed in ${failed.length} of ${results.length} stacks: ${failed.join(", ")} (${seconds} s)`,
    );
    return 1;
  }
  console.error(`run-stacks: ${options.operation} ok in ${results.length} stacks (${seconds} s)`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2), __dirname).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(`run-stacks: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}

module.exports = { main, runStacks };
