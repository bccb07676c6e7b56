#!/usr/bin/env node
/**
 * Several processes with the same token against one service: P separate Node processes,
 * each with its own client (default options), each reading N workspaces `concurrency` at a
 * time, all starting together, against the local server at `limit` requests per second
 * per user. The case of a CI matrix or an Automation API driver running stacks in
 * parallel. Prints, per process and in total: requests, 429s met, retries, failures and
 * wall time, with the ratio of the wall time to the requests answered without a 429 over
 * the limit (1.0 is the limit itself), each beside its target: under 2% of the requests
 * meet a 429, and the wall time is under 1.25 times requests / limit. (The test of the same
 * run, test/client/shared-limit.test.ts, checks what load cannot change: every read
 * succeeds, the 429s add up, the run is never faster than the limit.)
 *
 * `processes` may list several counts (`3,8,20`, the default): one run each, on a fresh
 * server, then one summary line per count.
 *
 * Usage: npm run build && node bench/client-shared-limit.js [processes=3,8,20] [N=150] [limit=30] [concurrency=10] [--dist <dir>]
 */
const path = require("node:path");
const { runSharedLimit } = require("./shared-limit");

/** The targets: the share of requests that meet a 429, and the wall time over requests / limit. */
const TARGET_429 = 0.02;
const TARGET_RATIO = 1.25;

const args = process.argv.slice(2);
const distAt = args.indexOf("--dist");
const dist = distAt >= 0 ? path.resolve(args.splice(distAt, 2)[1]) : path.join(__dirname, "..", "dist");

(async () => {
  const counts = String(args[0] ?? "3,8,20")
    .split(",")
    .map(Number);
  const requests = Number(args[1] ?? 150);
  const limit = Number(args[2] ?? 30);
  const concurrency = Number(args[3] ?? 10);
  const { startServer } = require(path.join(dist, "server"));
  const summary = [];
  for (const processes of counts) {
    const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit });
    try {
      console.log(
        `${processes} processes x ${requests} reads, ${concurrency} at a time each, one token, server limit ${limit}/s (${path.relative(process.cwd(), dist) || "."})`,
      );
      const r = await runSharedLimit({ dist, server, processes, requests, concurrency });
      r.workers.forEach((w, i) =>
        console.log(
          `process ${i + 1}: requests ${String(w.requests).padStart(4)}  429s ${String(w.rateLimited).padStart(4)}  retries ${String(w.retries).padStart(4)}  failed ${w.failed}  wall ${((w.ended - w.started) / 1000).toFixed(2)} s`,
        ),
      );
      // The 429s are not spent from the budget: the floor is the requests answered otherwise.
      const floor = (r.requests - r.served429) / limit;
      const share = r.served429 / r.requests;
      const ratio = r.wallMs / 1000 / floor;
      const line = `requests ${String(r.requests).padStart(5)}  429s ${String(r.served429).padStart(4)} (${(100 * share).toFixed(1)}%${share < TARGET_429 ? "" : ", over the 2% target"})  failed ${r.failed}  wall ${(r.wallMs / 1000).toFixed(2)} s  wall / (answered / limit) ${ratio.toFixed(2)}${ratio < TARGET_RATIO ? "" : " (over the 1.25 target)"}`;
      console.log(`total:     ${line}`);
      summary.push(`${String(processes).padStart(3)} processes: ${line}`);
    } finally {
      await server.close();
    }
  }
  if (counts.length > 1) console.log(["", ...summary].join("\n"));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
