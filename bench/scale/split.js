#!/usr/bin/env node
// One stack against stacks split by project, at N workspaces in P projects, under one
// token's rate limit, in one run against one local server:
//
//   node bench/scale/split.js [--workspaces N] [--projects P] [--rate-limit R] [--peer] [--layouts single,single-skip,seq,par2]
//   (defaults: 2000 workspaces in 20 projects of 100, 30 requests/s, layouts single, seq
//   and par2; needs `npm run build`)
//
// Layouts: `single` (one stack owns every workspace), `single-skip` (the same with the
// engine's checkpoints skipped, PULUMI_SKIP_CHECKPOINTS=true: state written once, at the
// end of each command), `seq` (one stack per project, run one after another), `par2` (one
// stack per project, two at a time: two engines and two provider processes sharing the
// token's limit), `par2-skip` (the same, checkpoints skipped). Each layout goes through:
//   up (adopt)  every workspace exists already (created through the client beforehand, as
//               the program declares it) and the program declares them with `adopt: true`
//   preview     no-change preview
//   refresh     refresh --skip-preview
//   destroy     destroy --skip-preview
//   up (empty)  the same program with `adopt: false`, nothing on the server
//   destroy     again, to leave the server empty for the next layout
// With --peer, OpenTofu with terraform-provider-tfe (bench/peer) runs its four phases at
// the same N on the same server.
//
// Per row: requests the server counted, writes among them (not GET), 429s it answered,
// wall time, and wall / (requests answered without a 429 / limit): 1.0 is the limit itself.
// After the rows: the adopting up's requests against its stacks' listing pages (one per
// 100 workspaces of a stack's project), and each layout's up from empty and destroys
// against the limit.
"use strict";
const fs = require("fs");
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { programDir, pad, commandLine } = require("./run.js");

// Split stacks and the single stack run this one program; the stack's config names the
// projects it owns (`projects`: comma-separated "id:name"), and whether it adopts.
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const { Workspace } = require("pulumi-workspaces");
const config = new pulumi.Config();
const perProject = config.requireNumber("perProject");
const adopt = config.requireBoolean("adopt");
for (const entry of config.require("projects").split(",")) {
  const [projectId, projectName] = entry.split(":");
  for (let i = 0; i < perProject; i++) {
    const name = projectName + "-ws-" + i;
    new Workspace(name, { name, project: projectId, tagNames: ["bench"], adopt });
  }
}
`;

/** Counters of the server now: total requests, writes (not GET) and 429s. */
function counters(server) {
  const s = server.stats();
  const writes = Object.entries(s.byRoute)
    .filter(([route]) => !route.startsWith("GET "))
    .reduce((sum, [, count]) => sum + count, 0);
  return { requests: s.total, writes, rateLimited: s.byStatus["429"] ?? 0 };
}

/** Runs `fn` and returns its wall seconds and what the server counted meanwhile. */
async function measured(server, fn) {
  const before = counters(server);
  const t0 = process.hrtime.bigint();
  const failures = await fn();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const after = counters(server);
  return {
    seconds,
    requests: after.requests - before.requests,
    writes: after.writes - before.writes,
    rateLimited: after.rateLimited - before.rateLimited,
    failures,
  };
}

/** Runs `tasks` (functions returning promises) `width` at a time; resolves with their results in order. */
async function pool(tasks, width) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}

/** Creates `count` projects named split-<i> through the API; returns their ids and names. */
async function createProjects(server, count) {
  const projects = [];
  for (let i = 0; i < count; i++) {
    const name = `split-${i}`;
    const res = await fetch(`${server.url}/organizations/${server.organization}/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/vnd.api+json" },
      body: JSON.stringify({ data: { type: "projects", attributes: { name } } }),
    });
    if (res.status !== 201) throw new Error(`creating project ${name}: ${res.status} ${await res.text()}`);
    projects.push({ id: (await res.json()).data.id, name });
  }
  return projects;
}

/** Creates every workspace the program declares, as it declares it, through the client (paced under the limit). */
async function preCreate(client, server, projects, perProject) {
  const calls = [];
  for (const p of projects)
    for (let i = 0; i < perProject; i++)
      calls.push(() =>
        client.workspaces.create(server.organization, {
          name: `${p.name}-ws-${i}`,
          projectId: p.id,
          tagNames: ["bench"],
        }),
      );
  await pool(calls, 20);
}

/** The stacks of one layout in one program directory: `single` owns every project, the split ones one each. */
async function makeStacks(layout, server, bin, projects, perProject) {
  const { single, env } = LAYOUTS[layout];
  const program = programDir(`split-${layout}`, PROGRAM, server, bin, env);
  const groups = single ? [projects] : projects.map((p) => [p]);
  const stacks = [];
  for (const [i, group] of groups.entries()) {
    const stack = single ? "all" : `project-${i}`;
    const r = await engine.runPulumi(["stack", "init", stack, "--non-interactive"], {
      cwd: program.dir,
      env: program.env,
    });
    if (r.code !== 0) throw new Error(r.output);
    // The stack's config file, written directly: one engine start per stack instead of one per key.
    const configFile = path.join(program.dir, `Pulumi.${stack}.yaml`);
    // What `stack init` wrote (the secrets provider's salt) stays; only the config is ours.
    const written = fs.existsSync(configFile) ? fs.readFileSync(configFile, "utf8") : "";
    const kept = written
      .split("\n")
      .filter((l) => /^(encryptionsalt|secretsprovider|encryptedkey):/.test(l))
      .join("\n");
    const set = (adopt) => {
      const config = {
        projects: group.map((p) => `${p.id}:${p.name}`).join(","),
        perProject: String(perProject),
        adopt,
      };
      const lines = Object.entries(config).map(([k, v]) => `  scale-split-${layout}:${k}: "${v}"`);
      fs.writeFileSync(configFile, `${kept ? kept + "\n" : ""}config:\n${lines.join("\n")}\n`);
    };
    set("false");
    stacks.push({ name: stack, set, workspaces: group.length * perProject });
  }
  return { program, stacks };
}

/** Runs one engine command on every stack, `width` stacks at a time; returns the failures' output tails. */
async function onEveryStack({ program, stacks }, args, width) {
  const results = await pool(
    stacks.map(
      (s) => () =>
        engine.runPulumi([...args, "--stack", s.name, "--non-interactive"], {
          cwd: program.dir,
          env: program.env,
          timeoutMs: 120 * 60_000,
        }),
    ),
    width,
  );
  return results
    .map((r, i) =>
      r.code === 0 ? undefined : `${stacks[i].name}: exit ${r.code}\n${r.output.split("\n").slice(-15).join("\n")}`,
    )
    .filter(Boolean);
}

const SKIP = { PULUMI_SKIP_CHECKPOINTS: "true" };
const LAYOUTS = {
  single: { label: "single stack", width: 1, single: true, env: {} },
  "single-skip": { label: "single, skip ckpt", width: 1, single: true, env: SKIP },
  seq: { label: "split, sequential", width: 1, single: false, env: {} },
  par2: { label: "split, 2 at a time", width: 2, single: false, env: {} },
  "par2-skip": { label: "split 2, skip ckpt", width: 2, single: false, env: SKIP },
};

const STEPS = [
  {
    phase: "up (adopt)",
    adopt: "true",
    args: ["up", "--yes", "--skip-preview", "--suppress-outputs"],
    preCreate: true,
  },
  { phase: "preview", args: ["preview", "--expect-no-changes"] },
  { phase: "refresh", args: ["refresh", "--yes", "--skip-preview"] },
  { phase: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
  { phase: "up (empty)", adopt: "false", args: ["up", "--yes", "--skip-preview", "--suppress-outputs"] },
  { phase: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
];

async function main() {
  const { args, take } = commandLine();
  const n = Number(take("--workspaces") ?? 2000);
  const projectCount = Number(take("--projects") ?? 20);
  const limit = Number(take("--rate-limit") ?? 30);
  const layouts = (take("--layouts") ?? "single,seq,par2").split(",");
  const withPeer = args.includes("--peer");
  if (n % projectCount !== 0) throw new Error(`--workspaces ${n} is not a multiple of --projects ${projectCount}`);
  for (const l of layouts) if (!LAYOUTS[l]) throw new Error(`unknown layout ${l} (${Object.keys(LAYOUTS).join(", ")})`);
  const perProject = n / projectCount;
  const dist = path.join(engine.repoRoot, "dist");
  if (!fs.existsSync(path.join(dist, "server", "index.js")))
    throw new Error("dist/ is missing: run `npm run build` first");
  const { startServer } = require(path.join(dist, "server"));
  const { WorkspacesClient } = require(path.join(dist, "client"));
  const bin = engine.ensureEngine();
  const peer = withPeer ? require("../peer/run.js") : undefined;

  const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
  const rows = [];
  const print = (row) => {
    rows.push(row);
    const floor = (row.requests - row.rateLimited) / limit;
    console.log(
      [
        pad(row.layout, 20),
        pad(row.phase, 11),
        pad(row.requests, 9),
        pad(row.writes, 7),
        pad(row.rateLimited, 6),
        pad(row.seconds.toFixed(1), 8),
        pad(limit > 0 && floor > 0 ? (row.seconds / floor).toFixed(2) : "-", 9),
        row.failures.length ? `FAILED: ${row.failures.length}` : "",
      ].join(" "),
    );
    for (const f of row.failures) console.error(`[split] ${row.layout} ${row.phase}: ${f}`);
  };
  try {
    console.log(
      `# bench/scale/split: ${n} workspaces in ${projectCount} projects of ${perProject}, one token, ${limit > 0 ? `rate limit ${limit}/s` : "no rate limit"}, engine ${path.basename(path.dirname(bin))}`,
    );
    console.log(`# x limit: wall / (requests answered without a 429 / limit); writes: requests other than GET\n`);
    console.log(
      [
        pad("layout", 20),
        pad("phase", 11),
        pad("requests", 9),
        pad("writes", 7),
        pad("429s", 6),
        pad("wall s", 8),
        pad("x limit", 9),
      ].join(" "),
    );
    const projects = await createProjects(server, projectCount);
    const client = new WorkspacesClient({ address: server.url, token: server.token, env: {}, homeDir: "/nonexistent" });
    for (const layout of layouts) {
      const { label, width } = LAYOUTS[layout];
      const stacks = await makeStacks(layout, server, bin, projects, perProject);
      try {
        for (const step of STEPS) {
          if (step.preCreate) await preCreate(client, server, projects, perProject);
          if (step.adopt) for (const s of stacks.stacks) s.set(step.adopt);
          // A fresh window of the limit for every row.
          await new Promise((r) => setTimeout(r, 1100));
          const m = await measured(server, () => onEveryStack(stacks, step.args, width));
          // One listing page per 100 workspaces of each stack, and one /ping per provider process.
          const pages = stacks.stacks.reduce((sum, s) => sum + Math.ceil(s.workspaces / 100) + 1, 0);
          print({ layout: label, phase: step.phase, ...m, pages });
        }
      } finally {
        fs.rmSync(stacks.program.root, { recursive: true, force: true });
      }
    }
    if (peer) {
      if (!peer.peerBuilt()) console.log("# peer: building OpenTofu and terraform-provider-tfe (bench/peer/build.sh)");
      const binaries = peer.ensurePeer();
      await new Promise((r) => setTimeout(r, 1100));
      const before = counters(server);
      const phases = await peer.runPeer("split", n, server, binaries);
      // runPeer counts requests per phase; the 429s are the run's total, on the up row.
      const rateLimited = counters(server).rateLimited - before.rateLimited;
      for (const [phase, p] of Object.entries(phases))
        print({
          layout: "peer (OpenTofu)",
          phase,
          requests: p.requests,
          writes: "-",
          rateLimited: phase === "up" ? rateLimited : 0,
          seconds: p.seconds,
          failures: p.code === 0 ? [] : [`exit ${p.code}`],
        });
    }
  } finally {
    await server.close();
  }
  const adopts = rows.filter((r) => r.phase === "up (adopt)");
  if (adopts.length) {
    console.log(`\nadopting up: ${adopts.map((r) => `${r.layout} ${r.writes} writes`).join(", ")} (target: 0)`);
    for (const r of adopts)
      console.log(
        `adopting up, ${r.layout}: ${r.requests} requests for ${r.pages} listing pages and announcements, ${(r.requests / r.pages).toFixed(2)}x (target <= 2x)`,
      );
  }
  const xLimit = (r) => (r.seconds / ((r.requests - r.rateLimited) / limit)).toFixed(2);
  for (const layout of layouts) {
    const { label } = LAYOUTS[layout];
    const mine = rows.filter((r) => r.layout === label);
    const up = mine.find((r) => r.phase === "up (empty)");
    const destroys = mine.filter((r) => r.phase === "destroy");
    if (up && limit > 0)
      console.log(
        `${label}: up from empty ${xLimit(up)}x, destroy ${destroys.map(xLimit).join(" and ")}x requests / limit (target <= 1.3x with checkpoints skipped, 1.5x split)`,
      );
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[split] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}

// bench/scale/variables.js makes its workspaces with the same pool.
module.exports = { pool };
