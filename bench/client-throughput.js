#!/usr/bin/env node
/**
 * Requests per second one client process reaches with its default options, against the
 * local server with the rate limit off (the service announces no limit, so nothing
 * should hold the client back) and with the hosted limit of 30 per second (announced:
 * the client should pace just under it, without a 429).
 *
 * N workspace reads are issued in waves of `concurrency` at a time, as the engine's
 * parallel steps issue them. Prints requests, wall time, requests per second and 429s.
 *
 * Usage: npm run build && node bench/client-throughput.js [N=1000] [concurrency=20] [--dist <dir>]
 */
const path = require("node:path");

const args = process.argv.slice(2);
const distAt = args.indexOf("--dist");
const dist = distAt >= 0 ? path.resolve(args.splice(distAt, 2)[1]) : path.join(__dirname, "..", "dist");
const { startServer } = require(path.join(dist, "server"));
const { WorkspacesClient, resetLimiters } = require(path.join(dist, "client"));

async function measure(label, rateLimit, n, concurrency) {
  resetLimiters();
  const server = await startServer({ port: 0, db: ":memory:", rateLimit });
  const options = { address: server.url, token: server.token, env: {}, homeDir: "/nonexistent" };
  const setup = new WorkspacesClient({
    ...options,
    rateLimit: false,
    retry: { maxAttempts: 100, maxElapsedMs: 600_000 },
  });
  const ids = [];
  for (let i = 0; i < 50; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) => setup.workspaces.create(server.organization, { name: `tp-${i + j}` })),
    );
    ids.push(...batch.map((w) => w.id));
  }
  await new Promise((r) => setTimeout(r, 1100));
  resetLimiters();
  // The client under measurement: default options, as the resources use it.
  const client = new WorkspacesClient(options);
  const before = server.stats();
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await client.workspaces.read(ids[i % ids.length]);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = (Date.now() - started) / 1000;
  const after = server.stats();
  const served429 = (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0);
  await server.close();
  const rps = client.stats.requests / wall;
  console.log(
    `${label.padEnd(28)} requests ${String(client.stats.requests).padStart(5)}  wall ${wall.toFixed(2).padStart(6)} s  ${rps.toFixed(0).padStart(5)} req/s  429s ${served429}`,
  );
  return rps;
}

(async () => {
  const n = Number(args[0] ?? 1000);
  const concurrency = Number(args[1] ?? 20);
  console.log(
    `${n} workspace reads, ${concurrency} at a time, one client with default options (${path.relative(process.cwd(), dist) || "."})`,
  );
  await measure("server limit off", false, n, concurrency);
  await measure("server limit 30/s (hosted)", 30, Math.min(n, 300), concurrency);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
