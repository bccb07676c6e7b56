/**
 * What the server benchmarks share: the server started as its own process (the CLI, so
 * its memory and timing are its own), authenticated JSON:API calls, and latency
 * quantiles.
 */
const { spawn } = require("node:child_process");
const { rmSync } = require("node:fs");
const { join, resolve } = require("node:path");

const TOKEN = "bench-token";
const MEDIA = "application/vnd.api+json";

/** Starts `dist/server/cli.js` (or the one under `dist`) on a free port; resolves once it listens. */
function launch({ db, dist = resolve(__dirname, "../../dist"), args = [] }) {
  const cli = join(dist, "server/cli.js");
  const child = spawn(
    process.execPath,
    [cli, "--port", "0", "--db", db, "--token", TOKEN, "--rate-limit", "0", "--log-level", "warn", ...args],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((ok, fail) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m) ok({ child, url: m[1] });
    });
    child.on("exit", (code) => fail(new Error(`server exited ${code}`)));
  });
}

async function stop(child) {
  child.kill("SIGTERM");
  await new Promise((r) => child.on("exit", r));
}

async function call(url, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { "content-type": MEDIA } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

function quantiles(ms) {
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99) };
}

/** Runs `fn(i)` `n` times in sequence; quantiles of the wall time of each, in ms. */
async function timed(n, fn) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return quantiles(ms);
}

const fmt = (x) => x.toFixed(2);

/**
 * Runs a benchmark against a freshly launched server, stops the server and removes
 * `dir` however it ends, and exits non-zero on an error (never on a figure).
 */
function benchmark(launchOptions, dir, fn) {
  (async () => {
    const server = await launch(launchOptions);
    try {
      await fn(server);
    } finally {
      await stop(server.child);
      rmSync(dir, { recursive: true, force: true });
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

module.exports = { TOKEN, benchmark, launch, stop, call, quantiles, timed, fmt };
