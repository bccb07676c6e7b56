#!/usr/bin/env node
// Scale benchmark: `pulumi up` of N Workspaces with tags against the local
// server, then a no-change preview and a refresh; the same program on a no-op
// dynamic provider runs beside it as the engine's own floor.
//
//   node bench/scale/run.js [N ...] [--rate-limit R]   (default 50 200 500 and the
//   server's default 30 requests/s; R = 0 turns the limit off; needs `npm run build`)
//
// Prints, per N and phase: wall time, HTTP requests per resource, the ratio of
// wall time to the floor, and the largest serialized provider. Figures, not
// pass/fail: the targets are printed beside them.
"use strict";
const fs = require("fs");
const path = require("path");
const engine = require("../../scripts/lib/engine.js");

const TARGETS = {
  up: "<= 2 requests per workspace",
  preview: "0 requests",
  refresh: "1 request per workspace",
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

async function runProgram(label, source, n, server, bin) {
  const root = engine.tempDir(`pw-bench-${label}-`);
  const dir = path.join(root, "program");
  const backendDir = path.join(root, "backend");
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(backendDir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: scale-${label}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`);
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
  const run = async (args) => {
    const requestsBefore = server ? server.stats().total : 0;
    const t0 = process.hrtime.bigint();
    const r = await engine.runPulumi(args, { cwd: dir, env, timeoutMs: 30 * 60_000 });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const requests = server ? server.stats().total - requestsBefore : 0;
    return { ...r, seconds, requests };
  };
  try {
    const init = await run(["stack", "init", "bench", "--non-interactive"]);
    if (init.code !== 0) throw new Error(init.output);
    const phases = {};
    phases.up = await run(["up", "--yes", "--non-interactive", "--skip-preview", "--suppress-outputs"]);
    const state = JSON.parse(fs.readFileSync(engine.stateFile(backendDir, `scale-${label}`, "bench"), "utf8"));
    const resources = (state.checkpoint.latest?.resources ?? []).filter((r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/"));
    const created = resources.length;
    const providerBytes = Math.max(0, ...resources.map((r) => Buffer.byteLength(String(r.outputs?.__provider ?? ""))));
    phases.preview = await run(["preview", "--non-interactive", "--expect-no-changes"]);
    phases.refresh = await run(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    for (const [name, p] of Object.entries(phases)) {
      if (p.code !== 0) {
        const tail = p.output.split("\n").slice(-25).join("\n");
        console.error(`[bench] ${label} N=${n} ${name} exited ${p.code}:\n${tail}`);
      }
    }
    return { phases, created, providerBytes };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function pad(s, w) {
  return String(s).padEnd(w);
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--rate-limit");
  const rateLimit = at >= 0 ? Number(args.splice(at, 2)[1]) : 30;
  const sizes = args.map(Number).filter((n) => n > 0);
  const ns = sizes.length ? sizes : [50, 200, 500];
  const serverModule = path.join(engine.repoRoot, "dist", "server", "index.js");
  if (!fs.existsSync(serverModule)) throw new Error("dist/ is missing: run `npm run build` first");
  const { startServer } = require(serverModule);
  const bin = engine.ensureEngine();

  console.log(`# bench/scale: pulumi up, no-change preview and refresh of N Workspaces with tags`);
  console.log(`# server: real HTTP on loopback, in-memory database, ${rateLimit > 0 ? `rate limit ${rateLimit} requests/s` : "no rate limit"}`);
  console.log(`# targets: up ${TARGETS.up}; preview ${TARGETS.preview}; refresh ${TARGETS.refresh}; wall ${TARGETS.wall}; provider ${TARGETS.provider}\n`);
  const header = [pad("N", 5), pad("phase", 8), pad("wall s", 8), pad("floor s", 8), pad("x floor", 8), pad("requests", 9), pad("req/ws", 7), "failed"].join(" ");
  console.log(header);
  const summary = [];
  for (const n of ns) {
    const floor = await runProgram("floor", floorProgram(n), n, undefined, bin);
    const server = await startServer({ port: 0, db: ":memory:", rateLimit: rateLimit > 0 ? rateLimit : false });
    let real;
    try {
      real = await runProgram("workspaces", workspacesProgram(n), n, server, bin);
    } finally {
      await server.close();
    }
    for (const phase of ["up", "preview", "refresh"]) {
      const p = real.phases[phase];
      const f = floor.phases[phase];
      const failed = phase === "up" ? n - real.created : p.code === 0 ? 0 : "exit " + p.code;
      console.log(
        [
          pad(n, 5),
          pad(phase, 8),
          pad(p.seconds.toFixed(1), 8),
          pad(f.seconds.toFixed(1), 8),
          pad((p.seconds / f.seconds).toFixed(2), 8),
          pad(p.requests, 9),
          pad((p.requests / n).toFixed(2), 7),
          failed,
        ].join(" "),
      );
    }
    summary.push(`N=${n}: largest serialized provider ${real.providerBytes} bytes (floor's ${floor.providerBytes})`);
  }
  console.log("");
  for (const s of summary) console.log(s);
}

main().catch((err) => {
  console.error(`[bench] failed: ${err.stack ?? err}`);
  process.exit(1);
});
