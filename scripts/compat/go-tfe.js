#!/usr/bin/env node
// `npm run test:compat`: runs the official Go client's own integration tests
// (github.com/hashicorp/go-tfe) against a freshly started local server.
//
//   1. Fetches the go-tfe module at one pinned version through the Go module
//      proxy (its zip ships the *_integration_test.go files and helpers) into a
//      cache outside the repository, checks its checksum, copies it to a
//      writable directory and compiles its test binary once (`go test -c`).
//   2. For each setting (hosted, hosted with ENABLE_BETA=1, self-managed with
//      ENABLE_TFE=1), starts a fresh in-memory server and runs every test
//      function of the allowlist in its own process (`-test.run '^TestX$'`), so
//      a panic in one cannot take the others down.
//   3. Counts leaves (tests and subtests without children) from `-test.v`
//      against the leaves pinned for each setting in ./expected-leaves.json: a
//      pinned leaf that does not appear (its test failed in setup or crashed
//      before reaching it) counts as failing, named in the output; a leaf that
//      appears but is not pinned is reported and fails the setting until the pin
//      is renewed (--pin). Leaves go-tfe itself skips are not counted, nor are the
//      out-of-scope leaves listed with their reason in ./scope.js. Leaves whose
//      expectation contradicts the spec (the server follows the spec) are listed
//      there too: they count as failures in the figure, and the target applies to
//      the other leaves. Prints per-test results and, last, the pass count per
//      setting; exits non-zero when a setting is below the target, a test process
//      crashed or an unpinned leaf appeared.
//
// Usage: node scripts/compat/go-tfe.js [--setting hosted|beta|self-managed]...
//        [--only TestName]... [--jobs N] [--verbose] [--list-exclusions]
//        node scripts/compat/go-tfe.js --build-only   (fetches and compiles, runs nothing)
//        node scripts/compat/go-tfe.js --fetch-only   (fetches the sources into the module
//          cache, where test/client/go-tfe-wire.test.ts reads them; seconds)
//        node scripts/compat/go-tfe.js --pin   (after a good run: writes
//        ./expected-leaves.json from the logs of that run)
// Environment: PULUMI_WORKSPACES_COMPAT_DIR (cache, default
// $XDG_CACHE_HOME/pulumi-workspaces/compat, else ~/.cache/pulumi-workspaces/compat;
// ./go-tfe-module.js). Nothing but the Go module proxy is
// contacted; the tests only ever see the local server's address and token.
"use strict";
const { spawn, execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { countRun, judge, pinEntry, reasonFor, testFunctions } = require("./leaves");
const { MODULE, VERSION, MODULE_SUM, cacheRoot: compatDir, download, goEnv } = require("./go-tfe-module");
const { NOT_RUN, OUT_OF_SCOPE, SETTINGS, SPEC_DIFFERENCES, TEST_FILES } = require("./scope");

const TARGET = 0.98;
const TEST_TIMEOUT = "4m";

const root = path.resolve(__dirname, "..", "..");
const PIN_FILE = path.join(__dirname, "expected-leaves.json");
const cacheRoot = compatDir();

function log(msg) {
  process.stderr.write(`[compat] ${msg}\n`);
}

function die(msg) {
  process.stderr.write(`[compat] error: ${msg}\n`);
  process.exit(2);
}

/** Fetches, verifies, copies and compiles go-tfe once; returns the test binary and its source directory. */
function ensureTestBinary() {
  requireGo();
  const work = path.join(cacheRoot, `go-tfe-${VERSION}`);
  const src = path.join(work, "src");
  const bin = path.join(work, "go-tfe.test");
  const stamp = path.join(work, ".stamp");
  if (fs.existsSync(bin) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === MODULE_SUM) return { bin, src };

  log(`fetching ${MODULE}@${VERSION} through the Go module proxy`);
  const dir = fetchSources();
  fs.rmSync(src, { recursive: true, force: true });
  fs.cpSync(dir, src, { recursive: true });
  chmodWritable(src);
  log("compiling the test binary (once; about a minute)");
  execFileSync("go", ["test", "-c", "-o", bin, "."], {
    cwd: src,
    env: goEnv(),
    stdio: ["ignore", "inherit", "inherit"],
  });
  fs.writeFileSync(stamp, MODULE_SUM);
  return { bin, src };
}

function requireGo() {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    die("`go` is not on PATH; the compatibility run compiles go-tfe's tests (Go 1.25 or newer)");
  }
}

/** The module's sources in the module cache, fetched when missing. */
function fetchSources() {
  try {
    return download();
  } catch (err) {
    return die(err.message);
  }
}

function chmodWritable(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    fs.chmodSync(p, entry.isDirectory() ? 0o755 : 0o644);
    if (entry.isDirectory()) chmodWritable(p);
  }
}

function runTest(bin, src, test, env, logDir) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(bin, ["-test.run", `^${test}$`, "-test.v", "-test.count=1", "-test.timeout", TEST_TIMEOUT], {
      cwd: src,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code, signal) => {
      fs.writeFileSync(path.join(logDir, `${test}.log`), out);
      resolve({ test, code, signal, out, seconds: (Date.now() - started) / 1000 });
    });
  });
}

async function pool(items, jobs, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

async function runSetting(name, setting, { bin, src }, { only, jobs, verbose }) {
  const dist = path.join(root, "dist", "server", "index.js");
  if (!fs.existsSync(dist)) die("dist/ is missing: run `npm run build` first (npm run test:compat does)");
  const { startServer } = require(dist);
  const token = crypto.randomBytes(24).toString("hex");
  // The rate limit is off so parallel test processes sharing one token do not
  // pace each other; simulated runs move fast enough for go-tfe's polling.
  const server = await startServer({
    port: 0,
    db: ":memory:",
    token,
    rateLimit: false,
    runSpeed: 50,
    selfManaged: setting.selfManaged,
  });
  const address = server.url.replace(/\/api\/v2\/?$/, "");
  const logDir = path.join(cacheRoot, "logs", name);
  fs.rmSync(logDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });
  const env = goEnv({ TFE_ADDRESS: address, TFE_TOKEN: token, ...setting.env });
  const tests = setting.tests.filter((t) => only.length === 0 || only.includes(t));
  log(`${name}: ${tests.length} test functions against ${address} (logs in ${logDir})`);

  let runs;
  try {
    runs = await pool(tests, jobs, (t) => runTest(bin, src, t, env, logDir));
  } finally {
    await server.close();
  }

  const pinned = readPin().settings[name] || {};
  const tables = { outOfScope: OUT_OF_SCOPE, specDifferences: SPEC_DIFFERENCES };
  const records = [];
  for (const r of runs) {
    const record = countRun(r, pinned[r.test], tables);
    records.push(record);
    const failed = [...record.failed, ...record.bySpec];
    const counted = record.pass + failed.length;
    const mark = failed.length === 0 && !record.crashed && record.unexpected.length === 0 ? "ok  " : "FAIL";
    console.log(
      `${name.padEnd(12)} ${mark} ${r.test.padEnd(48)} ${record.pass}/${counted} leaves  ${r.seconds.toFixed(1)}s`,
    );
    if (!pinned[r.test])
      console.log(`${"".padEnd(17)}! no leaves pinned for ${r.test} in ${name}: run a good run, then --pin`);
    if (record.crashed)
      console.log(`${"".padEnd(17)}! the process crashed (exit ${r.code}${r.signal ? `, ${r.signal}` : ""})`);
    for (const { leaf, reason } of failed)
      console.log(`${"".padEnd(17)}- ${leaf}${reason ? `\n${"".padEnd(19)}${reason}` : ""}`);
    for (const { leaf, status } of record.unexpected)
      console.log(`${"".padEnd(17)}? ${leaf} (${status}) is not in the pinned leaves; not counted`);
    if (verbose) process.stdout.write(r.out);
  }
  return judge(name, records, TARGET);
}

function readPin() {
  if (!fs.existsSync(PIN_FILE)) {
    log(
      `${path.relative(root, PIN_FILE)} is missing: every leaf is reported as not pinned; after a good run, --pin writes it`,
    );
    return { version: VERSION, settings: {} };
  }
  const pin = JSON.parse(fs.readFileSync(PIN_FILE, "utf8"));
  if (pin.version !== VERSION)
    die(
      `${path.relative(root, PIN_FILE)} pins the leaves of go-tfe ${pin.version}, not ${VERSION}: run a good run, then --pin`,
    );
  return pin;
}

/** Writes the pin file from the logs of the last run of every setting; refuses logs where a counted test failed before its subtests or crashed. */
async function writePin() {
  const pin = { version: VERSION, settings: {} };
  const problems = [];
  for (const [name, setting] of Object.entries(SETTINGS)) {
    pin.settings[name] = {};
    for (const test of setting.tests) {
      const file = path.join(cacheRoot, "logs", name, `${test}.log`);
      if (!fs.existsSync(file)) {
        problems.push(`${name}: no log for ${test}`);
        continue;
      }
      const out = fs.readFileSync(file, "utf8");
      const entry = pinEntry(out);
      if (/^panic: /m.test(out)) problems.push(`${name}: ${test} crashed`);
      if (entry.leaves.includes(test) && /^\s*--- FAIL: /m.test(out) && !reasonFor(OUT_OF_SCOPE, test))
        problems.push(`${name}: ${test} failed before its subtests`);
      pin.settings[name][test] = entry;
    }
  }
  if (problems.length) die(`not pinned, the logs are not of a good run:\n  ${problems.join("\n  ")}`);
  let text = JSON.stringify(pin, null, 2) + "\n";
  try {
    const prettier = require("prettier");
    text = await prettier.format(text, { ...(await prettier.resolveConfig(PIN_FILE)), filepath: PIN_FILE });
  } catch {
    // prettier is a development dependency; unformatted JSON reads the same.
  }
  fs.writeFileSync(PIN_FILE, text);
  const counts = Object.entries(pin.settings).map(
    ([n, tests]) => `${n} ${Object.values(tests).reduce((k, e) => k + e.leaves.length, 0)}`,
  );
  log(`pinned leaves of go-tfe ${VERSION} in ${path.relative(root, PIN_FILE)}: ${counts.join(", ")}`);
}

/** Every test function of go-tfe's workspace, tag, project and no-code test files is run in some setting or listed in NOT_RUN. */
function checkAccounted(src) {
  const run = new Set(Object.values(SETTINGS).flatMap((s) => s.tests));
  const declared = TEST_FILES.flatMap((f) => testFunctions(fs.readFileSync(path.join(src, f), "utf8")));
  const missing = declared.filter((t) => !run.has(t) && !NOT_RUN[t]);
  const gone = [...run, ...Object.keys(NOT_RUN)].filter((t) => !declared.includes(t));
  if (missing.length)
    die(`go-tfe test functions neither run nor listed in NOT_RUN (scripts/compat/scope.js): ${missing.join(", ")}`);
  if (gone.length)
    die(`scripts/compat/scope.js names test functions go-tfe ${VERSION} does not declare: ${gone.join(", ")}`);
}

function parseArgs(argv) {
  const opts = { settings: [], only: [], jobs: Math.max(2, Math.min(4, os.cpus().length + 1)), verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--setting") opts.settings.push(argv[++i]);
    else if (a === "--only") opts.only.push(argv[++i]);
    else if (a === "--jobs") opts.jobs = Number(argv[++i]);
    else if (a === "--verbose") opts.verbose = true;
    else if (a === "--list-exclusions") opts.listExclusions = true;
    else if (a === "--pin") opts.pin = true;
    else if (a === "--build-only") opts.buildOnly = true;
    else if (a === "--fetch-only") opts.fetchOnly = true;
    else die(`unknown argument ${a}`);
  }
  for (const s of opts.settings)
    if (!SETTINGS[s]) die(`unknown setting ${s} (one of ${Object.keys(SETTINGS).join(", ")})`);
  if (opts.settings.length === 0) opts.settings = Object.keys(SETTINGS);
  if (!(opts.jobs >= 1)) die("--jobs must be a positive number");
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.listExclusions) {
    for (const [test, reason] of Object.entries(NOT_RUN)) console.log(`not run\t${test}\t${reason}`);
    for (const [leaf, reason] of Object.entries(OUT_OF_SCOPE)) console.log(`out of scope\t${leaf}\t${reason}`);
    for (const [leaf, reason] of Object.entries(SPEC_DIFFERENCES)) console.log(`by the spec\t${leaf}\t${reason}`);
    return;
  }
  if (opts.pin) return writePin();
  if (opts.fetchOnly) {
    requireGo();
    return log(`sources ready: ${fetchSources()}`);
  }
  const binary = ensureTestBinary();
  if (opts.buildOnly) return log(`test binary ready: ${binary.bin}`);
  checkAccounted(binary.src);
  const summaries = [];
  for (const name of opts.settings) summaries.push(await runSetting(name, SETTINGS[name], binary, opts));

  console.log(`\ngo-tfe ${VERSION} against the local server (in-scope leaves; target ${TARGET * 100}%):`);
  let ok = true;
  for (const s of summaries) {
    ok &&= s.good;
    console.log(
      `  ${s.name.padEnd(12)} ${s.pass}/${s.total} in-scope leaves pass (${(s.ratio * 100).toFixed(1)}%)` +
        (s.bySpec
          ? `; ${s.bySpec} fail by following the spec, ${s.pass}/${s.decidable} of the rest (${(s.decidableRatio * 100).toFixed(1)}%)`
          : "") +
        `; ${s.excluded} out of scope, ${s.skipped} skipped by go-tfe` +
        (s.crashed.length ? `; crashed: ${s.crashed.join(", ")}` : "") +
        (s.unexpected.length ? `; ${s.unexpected.length} leaves not pinned: ${s.unexpected.join(", ")}` : "") +
        (s.good ? "" : "  BELOW TARGET"),
    );
    for (const leaf of s.stale)
      console.log(`    note: ${leaf} is listed as failing by the spec but passes; take it off SPEC_DIFFERENCES`);
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`[compat] error: ${err && err.stack ? err.stack : err}\n`);
  process.exit(2);
});
