#!/usr/bin/env node
/**
 * No-code benchmark: N workspaces created from one no-code module, then the latency of
 * creating from a module, of GET and of a list page of 100 for module-created
 * workspaces (their documents carry the no-code attributes), and the wall time of a
 * whole upgrade (initiate, poll, confirm, poll to applied) at a given run speed. The
 * server runs as its own process (the CLI, on a file database). Prints figures; never
 * fails on them.
 *
 *   npm run build && node bench/server/no-code.js [--workspaces 1000] [--run-speed 1000] [--dist DIR]
 */
const { mkdtempSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join, resolve } = require("node:path");
const { parseArgs } = require("node:util");
const { benchmark, call, fmt, quantiles, timed } = require("./harness");

const { values } = parseArgs({
  options: {
    workspaces: { type: "string", default: "1000" },
    "run-speed": { type: "string", default: "1000" },
    upgrades: { type: "string", default: "20" },
    dist: { type: "string", default: resolve(__dirname, "../../dist") },
  },
});
const COUNT = Number(values.workspaces);
const UPGRADES = Number(values.upgrades);
const ORG = "example-org";
const dir = mkdtempSync(join(tmpdir(), "nocode-bench-"));

async function pollUntil(url, path, statuses) {
  let polls = 0;
  for (;;) {
    polls++;
    const doc = await call(url, "GET", path);
    if (statuses.includes(doc.data.attributes.status)) return { status: doc.data.attributes.status, polls };
    await new Promise((r) => setTimeout(r, 1));
  }
}

benchmark(
  { db: join(dir, "bench.db"), dist: resolve(values.dist), args: ["--run-speed", values["run-speed"]] },
  dir,
  async ({ url }) => {
    const mod = await call(url, "POST", `/organizations/${ORG}/registry-modules`, {
      data: { type: "registry-modules", attributes: { name: "bench", provider: "aws" } },
    });
    for (const version of ["1.0.0", "1.1.0"]) {
      await call(url, "POST", `/registry-modules/${ORG}/bench/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version } },
      });
    }
    const nc = await call(url, "POST", `/organizations/${ORG}/no-code-modules`, {
      data: {
        type: "no-code-modules",
        attributes: { enabled: true, "version-pin": "1.0.0" },
        relationships: {
          "registry-module": { data: { type: "registry-module", id: mod.data.id } },
          "variable-options": {
            data: [
              {
                type: "variable-options",
                attributes: { "variable-name": "region", "variable-type": "string", options: ["eu", "us"] },
              },
            ],
          },
        },
      },
    });
    const ncId = nc.data.id;
    const ids = [];
    const create = await timed(COUNT, async (i) => {
      const body = {
        data: {
          type: "workspaces",
          attributes: { name: `nc-${String(i).padStart(5, "0")}` },
          relationships: {
            vars: {
              data: [{ type: "vars", attributes: { key: "region", value: i % 2 ? "eu" : "us", category: "engine" } }],
            },
          },
        },
      };
      ids.push((await call(url, "POST", `/no-code-modules/${ncId}/workspaces`, body)).data.id);
    });
    for (let i = 0; i < 100; i++) await call(url, "GET", `/workspaces/${ids[i]}`);
    const get = await timed(1000, (i) => call(url, "GET", `/workspaces/${ids[(i * 7919) % COUNT]}`));
    const pages = Math.max(1, Math.floor(COUNT / 100));
    const list = await timed(200, (i) =>
      call(url, "GET", `/organizations/${ORG}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${(i % pages) + 1}`),
    );

    await call(url, "PATCH", `/no-code-modules/${ncId}`, {
      data: { type: "no-code-modules", attributes: { "version-pin": "1.1.0" } },
    });
    const walls = [];
    let polls = 0;
    for (let i = 0; i < UPGRADES; i++) {
      const ws = ids[i];
      const t0 = process.hrtime.bigint();
      const up = await call(url, "POST", `/no-code-modules/${ncId}/workspaces/${ws}/upgrade`, {
        data: { type: "workspaces" },
      });
      const path = `/no-code-modules/${ncId}/workspaces/${ws}/upgrade/${up.data.id}`;
      const planned = await pollUntil(url, path, ["planned", "planned_and_finished", "errored"]);
      if (planned.status !== "planned") throw new Error(`upgrade ${up.data.id}: ${planned.status}`);
      await call(url, "POST", path);
      const applied = await pollUntil(url, path, ["applied", "errored"]);
      if (applied.status !== "applied") throw new Error(`upgrade ${up.data.id}: ${applied.status}`);
      polls += planned.polls + applied.polls;
      walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const upgrade = quantiles(walls);
    const after = await call(url, "GET", `/workspaces/${ids[0]}`);

    console.log(
      `no-code benchmark: ${COUNT} workspaces from one module (file database), run speed ${values["run-speed"]}`,
    );
    console.log(`  create from module             p50 ${fmt(create.p50)} ms  p95 ${fmt(create.p95)} ms`);
    console.log(`  GET /workspaces/:id (no-code)  p50 ${fmt(get.p50)} ms  p95 ${fmt(get.p95)} ms`);
    console.log(`  list page of 100 (no-code)     p50 ${fmt(list.p50)} ms  p95 ${fmt(list.p95)} ms`);
    console.log(
      `  upgrade, initiate to applied   p50 ${fmt(upgrade.p50)} ms  p95 ${fmt(upgrade.p95)} ms  (${UPGRADES} upgrades, ${(polls / UPGRADES).toFixed(1)} polls each; 6.5 s of simulated run time / run speed)`,
    );
    console.log(
      `  after upgrade: version ${after.data.attributes["source-module-version"]}, upgrade available ${after.data.attributes["no-code-upgrade-available"]}`,
    );
  },
);
