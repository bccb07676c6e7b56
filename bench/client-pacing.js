#!/usr/bin/env node
/**
 * How the client behaves when a large update touches many workspaces at once: N reads
 * fired together against the local server with its default per-user limit, with the
 * client's pacing on (the default) and off. Prints wall time, requests sent, 429s and
 * retries for each; the figures to watch are the 429 count with pacing (expected 0) and
 * the ratio of wall times (pacing should cost little or nothing over the limit itself).
 *
 * Usage: npm run build && node bench/client-pacing.js [N=500] [limit=30]
 */
const { startServer } = require("../dist/server");
const { WorkspacesClient, resetLimiters } = require("../dist/client");

async function run(label, server, workspaceIds, options) {
  resetLimiters();
  const client = new WorkspacesClient({
    address: server.url,
    token: server.token,
    env: {},
    homeDir: "/nonexistent",
    ...options,
  });
  const before = server.stats();
  const started = Date.now();
  const results = await Promise.allSettled(workspaceIds.map((id) => client.workspaces.read(id)));
  const wall = Date.now() - started;
  const after = server.stats();
  const failed = results.filter((r) => r.status === "rejected").length;
  const served429 = (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0);
  console.log(
    `${label.padEnd(22)} wall ${String(wall).padStart(6)} ms  requests ${String(client.stats.requests).padStart(5)}  429s ${String(served429).padStart(5)}  retries ${String(client.stats.retries).padStart(5)}  failed ${failed}`,
  );
  return { wall, served429, failed };
}

(async () => {
  const n = Number(process.argv[2] ?? 500);
  const limit = Number(process.argv[3] ?? 30);
  const limited = await startServer({ port: 0, db: ":memory:", rateLimit: limit });
  const setup = new WorkspacesClient({ address: limited.url, token: limited.token, env: {}, homeDir: "/nonexistent" });
  const live = [];
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        setup.workspaces.create(limited.organization, { name: `bench-${i + j}` }),
      ),
    );
    live.push(...batch.map((w) => w.id));
  }
  await new Promise((r) => setTimeout(r, 1100));

  console.log(`${n} concurrent workspace reads, server limit ${limit} req/s per user`);
  console.log(`floor: ${n} requests at ${limit}/s = ${Math.round((n / limit) * 1000)} ms`);
  const paced = await run("paced (default)", limited, live, {});
  await new Promise((r) => setTimeout(r, 1100));
  const unpaced = await run("unpaced, 429 retries", limited, live, {
    rateLimit: false,
    retry: { maxAttempts: 100, maxElapsedMs: 600_000 },
  });
  console.log(
    `wall ratio paced/unpaced: ${(paced.wall / unpaced.wall).toFixed(2)}; 429s paced/unpaced: ${paced.served429}/${unpaced.served429}`,
  );
  await limited.close();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
