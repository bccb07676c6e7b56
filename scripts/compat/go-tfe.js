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
//   3. Checks leaves (tests and subtests without children) from `-test.v`
//      against the leaves expected for each setting in ./expected-leaves.json, exactly:
//      every leaf expected to pass must pass (one that does not appear, because its
//      test failed in setup or crashed before reaching it, fails, named in the output);
//      every leaf expected to fail must fail, and has its reason in ./scope.js
//      (SPEC_DIFFERENCES: the server follows the spec where go-tfe's test expects the
//      hosted service's behaviour); a leaf in neither list fails the setting until the
//      expectations are renewed (--update). Leaves go-tfe itself skips are not counted,
//      nor are the out-of-scope leaves listed with their reason in ./scope.js. Prints
//      per-test results and, last, the figures per setting; exits non-zero when any
//      expectation did not hold or a test process crashed.
//
// Usage: node scripts/compat/go-tfe.js [--setting hosted|beta|self-managed]...
//        [--only TestName]... [--jobs N] [--verbose] [--list-exclusions]
//        node scripts/compat/go-tfe.js --build-only   (fetches and compiles, runs nothing)
//        node scripts/compat/go-tfe.js --fetch-only   (fetches the sources into the module
//          cache, where test/client/go-tfe-wire.test.ts reads them; seconds)
//        node scripts/compat/go-tfe.js --update   (after a run: rewrites
//        ./expected-leaves.json from the logs of that run; refuses a failing leaf without
//        its reason in ./scope.js, a crash, and a reason for a leaf that no longer fails;
//        --pin is the same)
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
const { countRun, judge, pinEntry, testFunctions } = require("./leaves");
const { MODULE, VERSION, MODULE_SUM, cacheRoot: compatDir, download, goEnv } = require("./go-tfe-module");
const { NOT_RUN, OUT_OF_SCOPE, SETTINGS, SPEC_DIFFERENCES, TEST_FILES, WITHOUT_PLANS } = require("./scope");

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

/** An HTTP receiver on loopback that accepts every delivery with 200. */
function startReceiver() {
  const http = require("http");
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  });
  return new Promise((resolve, reject) => {
    receiver.once("error", reject);
    receiver.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${receiver.address().port}/notifications`,
        close: () => new Promise((done) => receiver.close(done)),
      }),
    );
  });
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
  // go-tfe's notification tests skip unless TFC_RUN_TASK_URL names a destination; the
  // local server delivers only to loopback, so a receiver on loopback answers them.
  const receiver = await startReceiver();
  // The token is the server's site administrator's: go-tfe's subscription updater moves a test's
  // organization to a plan through the admin routes with TFE_ADMIN_PROVISION_LICENSES_TOKEN
  // (withheld from the functions of WITHOUT_PLANS in ./scope.js).
  const env = goEnv({
    TFE_ADDRESS: address,
    TFE_TOKEN: token,
    TFE_ADMIN_PROVISION_LICENSES_TOKEN: token,
    TFC_RUN_TASK_URL: receiver.url,
    ...setting.env,
  });
  const tests = setting.tests.filter((t) => only.length === 0 || only.includes(t));
  log(`${name}: ${tests.length} test functions against ${address} (logs in ${logDir})`);

  let runs;
  try {
    const envOf = (t) => (WITHOUT_PLANS.includes(t) ? { ...env, TFE_ADMIN_PROVISION_LICENSES_TOKEN: "" } : env);
    runs = await pool(tests, jobs, (t) => runTest(bin, src, t, envOf(t), logDir));
  } finally {
    await server.close();
    await receiver.close();
  }

  const pinned = readPin().settings[name] || {};
  const tables = { outOfScope: OUT_OF_SCOPE, specDifferences: SPEC_DIFFERENCES };
  const records = [];
  for (const r of runs) {
    const record = countRun(r, pinned[r.test], tables);
    records.push(record);
    const counted = record.pass + record.failed.length + record.bySpec.length + record.stale.length;
    const good = record.failed.length === 0 && record.stale.length === 0;
    const mark = good && !record.crashed && record.unexpected.length === 0 ? "ok  " : "FAIL";
    console.log(
      `${name.padEnd(12)} ${mark} ${r.test.padEnd(48)} ${record.pass}/${counted} leaves pass  ${r.seconds.toFixed(1)}s`,
    );
    if (!pinned[r.test])
      console.log(`${"".padEnd(17)}! no leaves expected for ${r.test} in ${name}: run it, then --update`);
    if (record.crashed)
      console.log(`${"".padEnd(17)}! the process crashed (exit ${r.code}${r.signal ? `, ${r.signal}` : ""})`);
    for (const { leaf, reason } of record.failed)
      console.log(`${"".padEnd(17)}- ${leaf}${reason ? `\n${"".padEnd(19)}${reason}` : ""}`);
    for (const { leaf, reason } of record.bySpec)
      console.log(`${"".padEnd(17)}~ ${leaf} (fails as expected)\n${"".padEnd(19)}${reason}`);
    for (const leaf of record.stale)
      console.log(
        `${"".padEnd(17)}! ${leaf} is expected to fail but passes: take it off SPEC_DIFFERENCES, then --update`,
      );
    for (const { leaf, status } of record.unexpected)
      console.log(`${"".padEnd(17)}? ${leaf} (${status}) is in no list of expected leaves: run it, then --update`);
    if (verbose) process.stdout.write(r.out);
  }
  return judge(name, records);
}

function readPin() {
  const file = path.relative(root, PIN_FILE);
  if (!fs.existsSync(PIN_FILE)) {
    log(`${file} is missing: every leaf is reported as not expected; after a run, --update writes it`);
    return { version: VERSION, settings: {} };
  }
  const pin = JSON.parse(fs.readFileSync(PIN_FILE, "utf8"));
  if (pin.version !== VERSION)
    die(`${file} lists the leaves of go-tfe ${pin.version}, not ${VERSION}: run the tests, then --update`);
  for (const tests of Object.values(pin.settings))
    for (const [test, entry] of Object.entries(tests))
      if (!Array.isArray(entry.pass) || !Array.isArray(entry.fail) || !Array.isArray(entry.skipped))
        die(`${file}: ${test} has no pass, fail and skipped lists (an older format): run the tests, then --update`);
  return pin;
}

/**
 * Rewrites the expected leaves from the logs of the last run of every setting. Refuses logs
 * where a test crashed or failed before its subtests, a failing leaf that has no reason in
 * SPEC_DIFFERENCES, and a reason there for a leaf that fails nowhere.
 */
async function writePin() {
  const pin = { version: VERSION, settings: {} };
  const tables = { outOfScope: OUT_OF_SCOPE, specDifferences: SPEC_DIFFERENCES };
  const problems = [];
  const failing = new Set();
  for (const [name, setting] of Object.entries(SETTINGS)) {
    pin.settings[name] = {};
    for (const test of setting.tests) {
      const file = path.join(cacheRoot, "logs", name, `${test}.log`);
      if (!fs.existsSync(file)) {
        problems.push(`${name}: no log for ${test}`);
        continue;
      }
      const out = fs.readFileSync(file, "utf8");
      const entry = pinEntry(out, tables);
      if (/^panic: /m.test(out)) problems.push(`${name}: ${test} crashed`);
      if (entry.fail.includes(test)) problems.push(`${name}: ${test} failed before its subtests`);
      for (const leaf of entry.fail) {
        failing.add(leaf);
        if (!SPEC_DIFFERENCES[leaf] && leaf !== test)
          problems.push(
            `${name}: ${leaf} fails and scripts/compat/scope.js gives no reason: fix the server, or give the reason in SPEC_DIFFERENCES`,
          );
      }
      pin.settings[name][test] = entry;
    }
  }
  for (const leaf of Object.keys(SPEC_DIFFERENCES))
    if (!failing.has(leaf)) problems.push(`${leaf} is in SPEC_DIFFERENCES but fails in no setting: take it off`);
  if (problems.length) die(`${path.relative(root, PIN_FILE)} not written:\n  ${problems.join("\n  ")}`);
  let text = JSON.stringify(pin, null, 2) + "\n";
  try {
    const prettier = require("prettier");
    text = await prettier.format(text, { ...(await prettier.resolveConfig(PIN_FILE)), filepath: PIN_FILE });
  } catch {
    // prettier is a development dependency; unformatted JSON reads the same.
  }
  fs.writeFileSync(PIN_FILE, text);
  const counts = Object.entries(pin.settings).map(([n, tests]) => {
    const sum = (k) => Object.values(tests).reduce((c, e) => c + e[k].length, 0);
    return `${n} ${sum("pass")} to pass, ${sum("fail")} to fail`;
  });
  log(`expected leaves of go-tfe ${VERSION} in ${path.relative(root, PIN_FILE)}: ${counts.join("; ")}`);
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
    else if (a === "--update" || a === "--pin") opts.pin = true;
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

  console.log(`\ngo-tfe ${VERSION} against the local server (every expectation must hold):`);
  let ok = true;
  for (const s of summaries) {
    ok &&= s.good;
    console.log(
      `  ${s.name.padEnd(12)} ${s.pass}/${s.pass + s.fail} leaves expected to pass pass` +
        `; ${s.bySpec} fail as expected (following the spec)` +
        `; ${s.excluded} out of scope, ${s.skipped} skipped by go-tfe` +
        (s.stale.length ? `; ${s.stale.length} expected to fail pass: ${s.stale.join(", ")}` : "") +
        (s.crashed.length ? `; crashed: ${s.crashed.join(", ")}` : "") +
        (s.unexpected.length ? `; ${s.unexpected.length} leaves in no list: ${s.unexpected.join(", ")}` : "") +
        (s.good ? "" : "  FAILED"),
    );
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`[compat] error: ${err && err.stack ? err.stack : err}\n`);
  process.exit(2);
});
