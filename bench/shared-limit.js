/**
 * Runs P client processes with one token against a running local server
 * (bench/shared-limit-worker.js each) and gathers what they met. Shared by
 * bench/client-shared-limit.js and test/client/shared-limit.test.ts.
 */
const { spawn } = require("node:child_process");
const path = require("node:path");

const WORKER = path.join(__dirname, "shared-limit-worker.js");

/** Starts one worker; resolves with its JSON report, rejects with its output when it fails. */
function runWorker(job) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER], {
      env: { ...process.env, SHARED_LIMIT_JOB: JSON.stringify(job) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split("\n").pop()));
      else reject(new Error(`worker exited with ${code}: ${err || out}`));
    });
  });
}

/**
 * Creates `workspaces` workspaces on `server` (unpaced, retrying 429s), waits for a fresh
 * rate-limit window, then runs `processes` workers of `requests` reads each, all starting
 * at the same moment. Returns each worker's report, the server's 429s during the run, the
 * total requests the workers sent, their failures and the wall time from start to the last end.
 */
async function runSharedLimit({ dist, server, processes, requests, concurrency, workspaces = 20 }) {
  const { WorkspacesClient } = require(path.join(dist, "client"));
  const setup = new WorkspacesClient({
    address: server.url,
    token: server.token,
    env: {},
    homeDir: "/nonexistent",
    rateLimit: false,
    retry: { maxAttempts: 100, maxElapsedMs: 600_000 },
  });
  const stamp = Date.now().toString(36);
  const ids = [];
  for (let i = 0; i < workspaces; i++)
    ids.push((await setup.workspaces.create(server.organization, { name: `shared-${stamp}-${i}` })).id);
  const before = server.stats().byStatus["429"] ?? 0;
  // Node starts in a few hundred ms (more when many start on a busy machine); the workers
  // begin together once all are up, in a fresh window.
  const startAt = Date.now() + 1500 + 100 * processes;
  const job = { dist, url: server.url, token: server.token, ids, requests, concurrency, startAt };
  const workers = await Promise.all(Array.from({ length: processes }, () => runWorker(job)));
  const served429 = (server.stats().byStatus["429"] ?? 0) - before;
  const started = Math.min(...workers.map((w) => w.started));
  const ended = Math.max(...workers.map((w) => w.ended));
  return {
    workers,
    served429,
    requests: workers.reduce((s, w) => s + w.requests, 0),
    failed: workers.reduce((s, w) => s + w.failed, 0),
    wallMs: ended - started,
  };
}

module.exports = { runSharedLimit };
