#!/usr/bin/env node
/**
 * Runs the reliability suites and prints the figures they measured as a Markdown table,
 * also written to test/reliability/FIGURES.md for the README.
 *
 *   node bench/reliability/figures.js          unit suites (fuzz, concurrency, durability, security, client)
 *   node bench/reliability/figures.js --e2e    also the fault run under the real engine
 *
 * The tests record their figures only when RELIABILITY_FIGURES_DIR is set; this script
 * sets it to a fresh directory, runs vitest, and reads the records back.
 */
const { spawnSync } = require("node:child_process");
const { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join, resolve } = require("node:path");

const root = resolve(__dirname, "../..");
const withE2e = process.argv.includes("--e2e");
const dir = mkdtempSync(join(tmpdir(), "reliability-figures-"));
const env = { ...process.env, RELIABILITY_FIGURES_DIR: dir };
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");

/** The commit measured, marked when the tree differs from it. */
function commit() {
  const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
  const head = git("rev-parse", "--short", "HEAD").stdout.trim() || "an unknown commit";
  return git("status", "--porcelain").stdout.trim() ? `${head} with local changes` : head;
}

function run(args) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [vitest, "run", ...args], { cwd: root, env, stdio: "inherit" });
  return { ok: r.status === 0, seconds: Math.round((Date.now() - started) / 1000) };
}

const build = spawnSync(
  process.execPath,
  [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
  { cwd: root, stdio: "inherit" },
);
// tsc still emits on type errors; the suites judge what was built.
if (build.status !== 0)
  process.stderr.write("figures: the build reported type errors; running the suites on what it emitted\n");
const results = [["unit suites (test/reliability)", run(["--project", "unit", "test/reliability/"])]];
if (withE2e)
  results.push([
    "fault run under the real engine (test/e2e/faults.test.ts)",
    run(["--project", "e2e", "test/e2e/faults.test.ts"]),
  ]);

const TITLES = {
  fuzz: "Bad input (fast-check, every route)",
  "wrong-tokens": "Wrong tokens with the rate limit on (fast-check, every route)",
  depth: "Bodies nested past the depth bound (fast-check, every route)",
  concurrency: "Concurrency (two server processes, one database file)",
  durability: "Durability (kill -9 mid write load)",
  security: "Security",
  client: "Client against a hostile service (fast-check)",
  "faults-e2e": "Faults under the real engine (100 workspaces, 10% failures, latency)",
};
const records = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]),
);
rmSync(dir, { recursive: true, force: true });

const lines = [
  "# Reliability figures",
  "",
  `Measured on ${new Date().toISOString().slice(0, 10)} at ${commit()} by \`node bench/reliability/figures.js${withE2e ? " --e2e" : ""}\` (Node ${process.version}, ${require("node:os").cpus().length} CPUs); the suites assert what the figures count on every CI run, the counts themselves are those of this run.`,
  "",
  "| area | figure | value |",
  "|---|---|---|",
];
for (const [name, title] of Object.entries(TITLES)) {
  const rec = records[name];
  if (!rec) continue;
  for (const [k, v] of Object.entries(rec)) lines.push(`| ${title} | ${k} | ${String(v).replace(/\|/g, "\\|")} |`);
}
lines.push("", "| run | result | seconds |", "|---|---|---|");
for (const [what, r] of results) lines.push(`| ${what} | ${r.ok ? "passed" : "FAILED"} | ${r.seconds} |`);
lines.push("");
const text = lines.join("\n");
writeFileSync(join(root, "test", "reliability", "FIGURES.md"), text);
process.stdout.write(`\n${text}`);
process.exit(results.every(([, r]) => r.ok) ? 0 : 1);
