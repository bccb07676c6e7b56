#!/usr/bin/env node
/**
 * One process of several sharing one token: reads workspaces through one client with its
 * default options, `concurrency` calls at a time, starting at an agreed moment, and prints
 * one JSON line with what it met. Run by bench/client-shared-limit.js and by
 * test/client/shared-limit.test.ts; not meant to be run by hand.
 *
 * Input (environment): SHARED_LIMIT_JOB, JSON of
 * { dist, url, token, ids, requests, concurrency, startAt }.
 */
const path = require("node:path");

(async () => {
  const job = JSON.parse(process.env.SHARED_LIMIT_JOB ?? "{}");
  const { WorkspacesClient } = require(path.join(job.dist, "client"));
  const client = new WorkspacesClient({ address: job.url, token: job.token, env: {}, homeDir: "/nonexistent" });
  await new Promise((r) => setTimeout(r, Math.max(0, job.startAt - Date.now())));
  const started = Date.now();
  let next = 0;
  let failed = 0;
  const errors = [];
  const worker = async () => {
    while (next < job.requests) {
      const i = next++;
      try {
        await client.workspaces.read(job.ids[i % job.ids.length]);
      } catch (err) {
        failed++;
        if (errors.length < 3) errors.push(String(err.message ?? err));
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const { requests, retries, rateLimited } = client.stats;
  process.stdout.write(
    JSON.stringify({ requests, retries, rateLimited, failed, errors, started, ended: Date.now() }) + "\n",
  );
})().catch((err) => {
  process.stderr.write(String(err.stack ?? err) + "\n");
  process.exit(1);
});
