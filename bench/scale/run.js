#!/usr/bin/env node
// Scale benchmark: `pulumi up` of N Workspaces with tags against the local
// server, then a no-change preview and a refresh; the same program on a no-op
// dynamic provider runs beside it as the engine's own floor.
//
//   node bench/scale/run.js [N ...] [--rate-limit R] [--cpu-prof DIR] [--engine-prof DIR]   (default 50 200 500 and the
//   server's default 30 requests/s; R = 0 turns the limit off; needs `npm run build`)
//
// Prints, per N and phase: wall time, HTTP requests per resource, the ratio of
// wall time to the floor, and the largest serialized provider. Figures, not
// pass/fail: the targets are printed beside them.
"use strict";
const fs = require("fs");
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { sampleTree } = require("./cpu.js");

const TARGETS = {
  up: "<= 2 requests per workspace",
  preview: "0 requests",
  refresh: "<= N/100 + 5 requests (one listing page per 100 workspaces)",
  wall: "<= 1.3x the floor",
  provider: "< 4096 bytes",
};

const workspacesProgram = (n) => `
const { Workspace } = require("pulumi-workspaces");
for (let i = 0; i < ${n}; i++) {
  new Workspace("ws-" + i, {
    name: "scale-" + i,
    tags: { env: "bench", shard: String(i % 10) },
    tagNames: ["bench", "shard-" + (i % 10)],
  });
}
`;

// The floor: the same resources and inputs on a provider that does nothing.
const floorProgram = (n) => `
const pulumi = require("@pulumi/pulumi");
const provider = {
  async create(inputs) { return { id: "noop-" + inputs.name, outs: inputs }; },
  async diff() { return { changes: false }; },
  async read(id, props) { return { id, props }; },
  async update(_id, _olds, news) { return { outs: news }; },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name, args) { super(provider, name, args, undefined, "bench", "Noop"); }
}
for (let i = 0; i < ${n}; i++) {
  new Noop("ws-" + i, {
    name: "scale-" + i,
    tags: { env: "bench", shard: String(i % 10) },
    tagNames: ["bench", "shard-" + (i % 10)],
  });
}
`;

// The sized floor: a no-op provider that stores, besides its inputs, the outputs a real
// Workspace stored (taken from the real run's state), registered the way this package
// registers its resources (a one-line provider text naming a module, not a serialized
// closure). The engine's checkpoint and the SDK's property marshalling cost in proportion
// to what each resource stores, so this is the least any provider storing those outputs
// can take: the gap between it and the real run is this package's own cost.
const NOOP_MODULE = `
module.exports = {
  async create(inputs) { return { id: "noop-" + inputs.name, outs: { ...outputs, ...inputs } }; },
  async diff() { return { changes: false }; },
  async read(id, props) { return { id, props }; },
  async update(_id, _olds, news) { return { outs: news }; },
};
`;
const sizedFloorProgram = (n, outputs) => `
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");
fs.writeFileSync(__dirname + "/noop-provider.js", "const outputs = " + ${JSON.stringify(JSON.stringify(outputs))} + ";" + ${JSON.stringify(NOOP_MODULE)});
const text = 'exports.handler = () => require(process.cwd() + "/noop-provider.js");';
class Noop extends pulumi.CustomResource {
  constructor(name, args) { super("pulumi-nodejs:dynamic/bench:Noop", name, { __provider: text, ...args }); }
}
for (let i = 0; i < ${n}; i++) {
  new Noop("ws-" + i, {
    name: "scale-" + i,
    tags: { env: "bench", shard: String(i % 10) },
    tagNames: ["bench", "shard-" + (i % 10)],
  });
}
`;

const PARTS = ["engine", "program", "provider", "language host"];

/**
 * A temporary program directory holding `source` as a Node.js Pulumi project named
 * `scale-<label>`, with its own file backend, and the engine's environment for it (aimed
 * at `server` when given). Remove `root` when done.
 */
function programDir(label, source, server, bin, extraEnv = {}) {
  const root = engine.tempDir(`pw-bench-${label}-`);
  const dir = path.join(root, "program");
  const backendDir = path.join(root, "backend");
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(backendDir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: scale-${label}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`,
  );
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `scale-${label}`, private: true }));
  fs.writeFileSync(path.join(dir, "index.js"), source);
  engine.linkPackage(dir);
  const env = engine.engineEnv({
    bin,
    home: path.join(root, "home"),
    backendDir,
    extra: server
      ? { WORKSPACES_ADDRESS: server.url, WORKSPACES_TOKEN: server.token, WORKSPACES_ORGANIZATION: server.organization }
      : {},
  });
  Object.assign(env, extraEnv);
  return { root, dir, backendDir, env };
}

async function runProgram(label, source, n, server, bin, { cpuProfDir, engineProfDir, extraEnv = {} } = {}) {
  const { root, dir, backendDir, env } = programDir(label, source, server, bin, extraEnv);
  const run = async (args, phase) => {
    const requestsBefore = server ? server.stats().total : 0;
    if (cpuProfDir) {
      const to = path.join(cpuProfDir, `${label}-${n}-${phase}`);
      fs.mkdirSync(to, { recursive: true });
      env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(__dirname, "cpu-profile.js")}`.trim();
      env.BENCH_CPU_PROF_DIR = to;
    }
    // The CLI is this process's only child while it runs: every process under this
    // one is the engine's. The server runs in this process, measured apart.
    // The CLI's own Go profiler (`--profiling PREFIX` writes PREFIX.<pid>.cpu).
    const cliArgs =
      engineProfDir && phase !== "init"
        ? [...args, "--profiling", path.join(engineProfDir, `${label}-${n}-${phase}`)]
        : args;
    const sampler = sampleTree(process.pid);
    const serverCpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const r = await engine.runPulumi(cliArgs, { cwd: dir, env, timeoutMs: 30 * 60_000 });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = sampler.stop();
    delete cpu.other;
    const u = process.cpuUsage(serverCpu0);
    if (server) cpu.server = (u.user + u.system) / 1e6;
    const requests = server ? server.stats().total - requestsBefore : 0;
    return { ...r, seconds, requests, cpu };
  };
  try {
    const init = await run(["stack", "init", "bench", "--non-interactive"], "init");
    if (init.code !== 0) throw new Error(init.output);
    const phases = {};
    phases.up = await run(["up", "--yes", "--non-interactive", "--skip-preview", "--suppress-outputs"], "up");
    const stateText = fs.readFileSync(engine.stateFile(backendDir, `scale-${label}`, "bench"), "utf8");
    const state = JSON.parse(stateText);
    // The program's own resources (Workspace, WorkspaceVariables, Noop, ...), not the stack's origin key beside them.
    const resources = (state.checkpoint.latest?.resources ?? []).filter(
      (r) => r.custom && /^pulumi-nodejs:dynamic\/[^:]+:(?!StackOrigin$)\w+$/.test(r.type),
    );
    const created = resources.length;
    const providerBytes = Math.max(0, ...resources.map((r) => Buffer.byteLength(String(r.outputs?.__provider ?? ""))));
    // Property values one resource stores (inputs and outputs, every leaf and empty object or list counted once).
    const values = resources[0] ? leafCount(resources[0].inputs) + leafCount(resources[0].outputs) : 0;
    // One resource's stored outputs without the provider's bookkeeping, for the sized floor.
    const { __provider, __inputNames, ...sampleOutputs } = resources[0]?.outputs ?? {};
    phases.preview = await run(["preview", "--non-interactive", "--expect-no-changes"], "preview");
    // --skip-preview: `refresh --yes` alone previews first and so reads every record twice.
    phases.refresh = await run(["refresh", "--yes", "--non-interactive", "--skip-preview"], "refresh");
    phases.destroy = await run(["destroy", "--yes", "--non-interactive", "--skip-preview"], "destroy");
    for (const [name, p] of Object.entries(phases)) {
      if (p.code !== 0) {
        const tail = p.output.split("\n").slice(-25).join("\n");
        console.error(`[bench] ${label} N=${n} ${name} exited ${p.code}:\n${tail}`);
      }
    }
    // The file backend rewrites the whole checkpoint after every step: its size per
    // resource sets the engine's CPU in up and destroy.
    const stateBytes = Buffer.byteLength(stateText);
    return { phases, created, providerBytes, stateBytes, sampleOutputs, values };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Number of values in a stored property value: 1 for a scalar or an empty object or list, else the sum over its members. */
function leafCount(v) {
  if (v === null || typeof v !== "object") return 1;
  const members = Object.values(v);
  return members.length === 0 ? 1 : members.reduce((sum, m) => sum + leafCount(m), 0);
}

function pad(s, w) {
  return String(s).padEnd(w);
}

/** The command line's arguments, and `take(flag)`: the value after `flag`, removed from them (undefined when absent). */
function commandLine() {
  const args = process.argv.slice(2);
  const take = (flag) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  return { args, take };
}

async function main() {
  const { args, take } = commandLine();
  const rateLimit = Number(take("--rate-limit") ?? 30);
  const cpuProfDir = take("--cpu-prof");
  const engineProfDir = take("--engine-prof");
  if (engineProfDir) fs.mkdirSync(engineProfDir, { recursive: true });
  // Measurement aid only: the engine's own switch that stops it rewriting the
  // checkpoint after every step (users would not set it; it separates that cost).
  const skipCheckpoints = args.includes("--skip-checkpoints");
  if (skipCheckpoints) args.splice(args.indexOf("--skip-checkpoints"), 1);
  const sizedFloor = args.includes("--sized-floor");
  if (sizedFloor) args.splice(args.indexOf("--sized-floor"), 1);
  const sizes = args.map(Number).filter((n) => n > 0);
  const ns = sizes.length ? sizes : [50, 200, 500];
  const serverModule = path.join(engine.repoRoot, "dist", "server", "index.js");
  if (!fs.existsSync(serverModule)) throw new Error("dist/ is missing: run `npm run build` first");
  const { startServer } = require(serverModule);
  const bin = engine.ensureEngine();
  const options = {
    cpuProfDir: cpuProfDir && path.resolve(cpuProfDir),
    engineProfDir: engineProfDir && path.resolve(engineProfDir),
    extraEnv: skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
  };

  console.log(
    `# bench/scale: pulumi up, no-change preview, refresh --skip-preview and destroy of N Workspaces with tags`,
  );
  console.log(
    `# server: real HTTP on loopback, in-memory database, ${rateLimit > 0 ? `rate limit ${rateLimit} requests/s` : "no rate limit"}`,
  );
  console.log(
    `# targets: up ${TARGETS.up}; preview ${TARGETS.preview}; refresh ${TARGETS.refresh}; wall ${TARGETS.wall}; provider ${TARGETS.provider}`,
  );
  if (skipCheckpoints)
    console.log("# PULUMI_SKIP_CHECKPOINTS=true on both sides (the engine writes state once, at the end)");
  console.log(
    `# "x floor" for refresh is against max(floor, requests / announced limit); cpu ms/ws: engine + program + provider CPU per workspace\n`,
  );
  const header = [
    pad("N", 5),
    pad("phase", 8),
    pad("wall s", 8),
    pad("floor s", 8),
    pad("x floor", 8),
    pad("requests", 9),
    pad("req/ws", 7),
    pad("failed", 7),
    pad("cpu ms/ws", 10),
    pad("floor", 7),
    pad("cpu s: engine / program / provider / server", 44),
    "floor: engine / program / provider",
  ].join(" ");
  console.log(header);
  const summary = [];
  for (const n of ns) {
    const floor = await runProgram("floor", floorProgram(n), n, undefined, bin, options);
    const server = await startServer({ port: 0, db: ":memory:", rateLimit: rateLimit > 0 ? rateLimit : false });
    let real;
    try {
      real = await runProgram("workspaces", workspacesProgram(n), n, server, bin, options);
    } finally {
      await server.close();
    }
    for (const phase of ["up", "preview", "refresh", "destroy"]) {
      const p = real.phases[phase];
      const f = floor.phases[phase];
      const failed = phase === "up" ? n - real.created : p.code === 0 ? 0 : "exit " + p.code;
      // Refresh must send one request per workspace: under a limit it cannot beat requests / limit.
      const bound = phase === "refresh" && rateLimit > 0 ? Math.max(f.seconds, p.requests / rateLimit) : f.seconds;
      const ours = (c) => PARTS.reduce((sum, k) => sum + (c[k] ?? 0), 0);
      const fmt = (c) => ["engine", "program", "provider", "server"].map((k) => (c[k] ?? 0).toFixed(1)).join(" / ");
      console.log(
        [
          pad(n, 5),
          pad(phase, 8),
          pad(p.seconds.toFixed(1), 8),
          pad(bound.toFixed(1), 8),
          pad((p.seconds / bound).toFixed(2), 8),
          pad(p.requests, 9),
          pad((p.requests / n).toFixed(2), 7),
          pad(failed, 7),
          pad(((ours(p.cpu) / n) * 1000).toFixed(1), 10),
          pad(((ours(f.cpu) / n) * 1000).toFixed(1), 7),
          pad(fmt(p.cpu), 44),
          fmt(f.cpu).replace(/ \/ [^/]*$/, ""),
        ].join(" "),
      );
    }
    if (sizedFloor) {
      const sized = await runProgram("sized", sizedFloorProgram(n, real.sampleOutputs), n, undefined, bin, options);
      for (const phase of ["up", "preview", "refresh", "destroy"]) {
        const p = real.phases[phase];
        const z = sized.phases[phase];
        const fmt = (c) => ["engine", "program", "provider"].map((k) => (c[k] ?? 0).toFixed(1)).join(" / ");
        const bound = phase === "refresh" && rateLimit > 0 ? Math.max(z.seconds, p.requests / rateLimit) : z.seconds;
        summary.push(
          `N=${n} ${pad(phase, 8)} sized floor ${z.seconds.toFixed(1)} s, ours ${(p.seconds / bound).toFixed(2)}x ${bound === z.seconds ? "it" : "requests / limit"}; cpu s engine / program / provider: sized floor ${fmt(z.cpu)}, ours ${fmt(p.cpu)}`,
        );
      }
    }
    summary.push(
      `N=${n}: largest serialized provider ${real.providerBytes} bytes (floor's ${floor.providerBytes}); ` +
        `checkpoint after up ${(real.stateBytes / 1024).toFixed(0)} KB, ${(real.stateBytes / n).toFixed(0)} bytes per workspace (floor's ${(floor.stateBytes / n).toFixed(0)}); ` +
        `${real.values} property values per workspace in inputs and outputs (floor's ${floor.values})`,
    );
  }
  console.log("");
  for (const s of summary) console.log(s);
  if (cpuProfDir)
    console.log(
      `CPU profiles of the program and provider host (.cpuprofile, open in Chrome DevTools): ${path.resolve(cpuProfDir)}`,
    );
  if (engineProfDir) {
    console.log("");
    for (const line of require("./engine-profile.js").report(path.resolve(engineProfDir), path.join(bin, "pulumi")))
      console.log(line);
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[bench] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}

// bench/peer runs the same program through the same phases.
module.exports = { runProgram, programDir, workspacesProgram, pad, commandLine };
