#!/usr/bin/env node
/**
 * Server benchmark: 10,000 workspaces in one organization, then the latency of
 * GET /workspaces/:id and of a filtered list page of 100, and the server's peak
 * resident memory. The server runs as its own process (the CLI, on a file database,
 * the default) so its memory is measured alone. Prints figures against the targets;
 * never fails on them.
 *
 *   npm run build && node bench/server/workspaces.js [--workspaces 10000] [--db :memory:]
 */
const { mkdtempSync, readFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { parseArgs } = require("node:util");
const { benchmark, call, fmt, timed } = require("./harness");

const { values } = parseArgs({
  options: {
    workspaces: { type: "string", default: "10000" },
    db: { type: "string" },
    samples: { type: "string", default: "2000" },
  },
});
const COUNT = Number(values.workspaces);
const SAMPLES = Number(values.samples);

const dir = mkdtempSync(join(tmpdir(), "ws-bench-"));
const dbFile = values.db ?? join(dir, "bench.db");

/** CPU time (user + system) the process has used so far, in ms, from /proc (Linux; 10 ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Peak and current resident set of a process, from /proc (Linux). */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)[1]);
  return { peakMB: kb("VmHWM") / 1024, currentMB: kb("VmRSS") / 1024 };
}

const verdict = (ok) => (ok ? "meets target" : "MISSES target");

benchmark({ db: dbFile }, dir, async ({ child, url }) => {
  const org = "example-org";
  const project = await call(url, "POST", `/organizations/${org}/projects`, {
    data: {
      type: "projects",
      attributes: { name: "bench" },
      relationships: {
        "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "cost-center", value: "42" } }] },
      },
    },
  });
  const ids = [];
  const began = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < COUNT) {
      const i = next++;
      const bindings = [{ type: "tag-bindings", attributes: { key: "env", value: i % 2 ? "prod" : "dev" } }];
      const body = {
        data: {
          type: "workspaces",
          attributes: {
            name: `ws-${String(i).padStart(5, "0")}`,
            description: `workspace ${i}`,
            "auto-apply": i % 3 === 0,
          },
          relationships: {
            "tag-bindings": { data: bindings },
            ...(i % 4 === 0 ? { project: { data: { type: "projects", id: project.data.id } } } : {}),
          },
        },
      };
      const ws = await call(url, "POST", `/organizations/${org}/workspaces`, body);
      ids[i] = ws.data.id;
      if (i % 5 === 0)
        await call(url, "POST", `/workspaces/${ws.data.id}/relationships/tags`, {
          data: [{ type: "tags", attributes: { name: i % 10 === 0 ? "blue" : "green" } }],
        });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const seedSeconds = (Date.now() - began) / 1000;

  // Warm up the connection pool and SQLite's page cache before measuring.
  for (let i = 0; i < 200; i++) await call(url, "GET", `/workspaces/${ids[i]}`);
  const cpuBeforeGet = cpuMs(child.pid);
  const get = await timed(SAMPLES, (i) => call(url, "GET", `/workspaces/${ids[(i * 7919) % COUNT]}`));
  const listQuery = `/organizations/${org}/workspaces?page%5Bsize%5D=100&search%5Bname%5D=ws-&filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod`;
  const pages = Math.floor(COUNT / 2 / 100);
  const cpuGet = (cpuMs(child.pid) - cpuBeforeGet) / SAMPLES;
  const listSamples = Math.min(300, SAMPLES);
  const cpuBeforeList = cpuMs(child.pid);
  const list = await timed(listSamples, (i) => call(url, "GET", `${listQuery}&page%5Bnumber%5D=${(i % pages) + 1}`));
  const cpuList = (cpuMs(child.pid) - cpuBeforeList) / listSamples;
  // Totals are remembered between writes; measure the page that follows a write too, which counts afresh.
  let extra = 0;
  const afterWrite = { p50: 0, p95: 0 };
  {
    const ms = [];
    for (let i = 0; i < 30; i++) {
      await call(url, "POST", `/organizations/${org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: `extra-${extra++}` } },
      });
      const t0 = process.hrtime.bigint();
      await call(url, "GET", `${listQuery}&page%5Bnumber%5D=${(i % pages) + 1}`);
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    ms.sort((a, b) => a - b);
    afterWrite.p50 = ms[Math.floor(ms.length / 2)];
    afterWrite.p95 = ms[Math.floor(ms.length * 0.95)];
  }
  const tagged = await timed(100, (i) =>
    call(
      url,
      "GET",
      `/organizations/${org}/workspaces?page%5Bsize%5D=100&search%5Btags%5D=blue&sort=-latest-change-at&page%5Bnumber%5D=${(i % 10) + 1}`,
    ),
  );
  const mem = memory(child.pid);
  const stats = await call(url, "GET", `/_stats`);

  console.log(
    `server benchmark: ${COUNT} workspaces in one organization (${dbFile === ":memory:" ? "in-memory database" : "file database, WAL, synchronous=FULL"})`,
  );
  console.log(
    `  seeding: ${seedSeconds.toFixed(1)} s (${(COUNT / seedSeconds).toFixed(0)} creates/s with 16 concurrent clients)`,
  );
  console.log(
    `  GET /workspaces/:id           p50 ${fmt(get.p50)} ms  p95 ${fmt(get.p95)} ms  p99 ${fmt(get.p99)} ms   target p50 < 2 ms: ${verdict(get.p50 < 2)}`,
  );
  console.log(
    `  list page of 100 (name+tagged) p50 ${fmt(list.p50)} ms  p95 ${fmt(list.p95)} ms  p99 ${fmt(list.p99)} ms   target < 20 ms: ${verdict(list.p50 < 20)}`,
  );
  console.log(
    `  same, first page after a write p50 ${fmt(afterWrite.p50)} ms  p95 ${fmt(afterWrite.p95)} ms   (total counted afresh)`,
  );
  console.log(`  list page of 100 (tags, sort)  p50 ${fmt(tagged.p50)} ms  p95 ${fmt(tagged.p95)} ms`);
  console.log(
    `  server resident memory: peak ${mem.peakMB.toFixed(0)} MB, now ${mem.currentMB.toFixed(0)} MB   target < 300 MB: ${verdict(mem.peakMB < 300)}`,
  );
  const listKey = "GET /api/v2/organizations/:organization_name/workspaces";
  const getKey = "GET /api/v2/workspaces/:workspace_id";
  console.log(
    `  inside the server (arrival to response sent): GET p50 ${fmt(stats.serverMs[getKey].p50)} ms, list page p50 ${fmt(stats.serverMs[listKey].p50)} ms p95 ${fmt(stats.serverMs[listKey].p95)} ms`,
  );
  console.log(
    `  server CPU time per request (insensitive to other load): GET ${fmt(cpuGet)} ms, list page ${fmt(cpuList)} ms`,
  );
  console.log(
    `  machine: ${require("node:os").cpus().length} CPUs, load average ${require("node:os")
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} (figures are only comparable on a quiet machine)`,
  );
  console.log(
    `  requests served: ${stats.total} (${Object.entries(stats.byRoute)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")})`,
  );
});
