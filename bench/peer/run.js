#!/usr/bin/env node
// This package against the peer a user would otherwise pick: OpenTofu with the
// official terraform-provider-tfe, both built from the Go module proxy (build.sh
// beside this file), against the same local server. The same N workspaces with
// the same name, key-value tags and flat tags go through up/apply, a no-change
// preview/plan, refresh, destroy; an empty program on each side gives the
// engine's fixed start-up. Requests are counted at the server.
//
//   node bench/peer/run.js [--sizes 50,200,500] [--rate-limit on|off|both] [--skip-checkpoints]
//   (--skip-checkpoints: PULUMI_SKIP_CHECKPOINTS=true for our engine, which then writes its
//   state once per command, as OpenTofu does)
//   (needs `npm run build`; the first run builds the peer, see README.md)
"use strict";
const { execFileSync, spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { runProgram, workspacesProgram, pad, commandLine } = require("../scale/run.js");
const { sampleTree } = require("../scale/cpu.js");

const CACHE = process.env.PEER_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-workspaces", "peer");
const HOSTNAME = "workspaces.bench.test";
const PHASES = ["up", "preview", "refresh", "destroy"];

const emptyProgram = `require("@pulumi/pulumi");\n`;

/** The peer's program: the bench/scale program in HCL. */
function peerProgram(n, organization) {
  const provider = `
terraform {
  required_providers {
    tfe = { source = "hashicorp/tfe" }
  }
}

provider "tfe" {
  hostname     = "${HOSTNAME}"
  organization = "${organization}"
}
`;
  if (n === 0) return provider;
  return `${provider}
resource "tfe_workspace" "ws" {
  count     = ${n}
  name      = "scale-\${count.index}"
  tags      = { env = "bench", shard = tostring(count.index % 10) }
  tag_names = ["bench", "shard-\${count.index % 10}"]
}
`;
}

/** Whether the peer's binaries are already in the cache (no build needed). */
function peerBuilt() {
  return ["tofu", "terraform-provider-tfe"].every((f) => fs.existsSync(path.join(CACHE, "bin", f)));
}

function ensurePeer() {
  execFileSync("bash", [path.join(__dirname, "build.sh")], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, PEER_CACHE: CACHE },
  });
  return { tofu: path.join(CACHE, "bin", "tofu"), providerDir: path.join(CACHE, "bin") };
}

function run(cmd, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * One peer stack through the four phases; returns wall seconds, requests and CPU per phase.
 * `resources`: the HCL after the provider block (default: N `tfe_workspace`s, peerProgram).
 */
async function runPeer(label, n, server, peer, resources) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `pw-peer-${label}-`));
  try {
    const address = new URL(server.url); // http://127.0.0.1:PORT/api/v2
    const cliConfig = path.join(root, "cli.tfrc");
    // dev_overrides: the provider comes from the build directory and no registry is
    // asked; the host block makes service discovery answer without HTTPS.
    fs.writeFileSync(
      cliConfig,
      `provider_installation {
  dev_overrides {
    "hashicorp/tfe" = "${peer.providerDir}"
  }
  direct {}
}

host "${HOSTNAME}" {
  services = {
    "tfe.v2.2" = "${address.origin}/api/v2/"
  }
}
`,
    );
    const dir = path.join(root, "program");
    fs.mkdirSync(dir);
    const main =
      resources === undefined ? peerProgram(n, server.organization) : peerProgram(0, server.organization) + resources;
    fs.writeFileSync(path.join(dir, "main.tf"), main);
    const env = { ...process.env };
    for (const key of Object.keys(env)) if (/^(TF_|TFE_|WORKSPACES_)/.test(key)) delete env[key];
    Object.assign(env, {
      TF_CLI_CONFIG_FILE: cliConfig,
      TF_IN_AUTOMATION: "1",
      TF_INPUT: "0",
      TFE_TOKEN: server.token,
      CHECKPOINT_DISABLE: "1",
      NO_COLOR: "1",
      HOME: root,
    });
    const phase = async (args) => {
      const before = server.stats().total;
      const sampler = sampleTree(process.pid);
      const t0 = process.hrtime.bigint();
      const r = await run(peer.tofu, [...args, "-no-color"], { cwd: dir, env });
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const cpu = sampler.stop();
      return {
        ...r,
        seconds,
        requests: server.stats().total - before,
        cpu: Object.values(cpu).reduce((a, b) => a + b, 0),
      };
    };
    const phases = {};
    // No `tofu init`: with dev_overrides for the only provider there is nothing to install.
    phases.up = await phase(["apply", "-auto-approve", "-input=false"]);
    // -detailed-exitcode: 0 is no change, 2 would be a change.
    phases.preview = await phase(["plan", "-input=false", "-detailed-exitcode"]);
    phases.refresh = await phase(["apply", "-refresh-only", "-auto-approve", "-input=false"]);
    phases.destroy = await phase(["destroy", "-auto-approve", "-input=false"]);
    for (const [name, p] of Object.entries(phases)) {
      if (p.code !== 0)
        console.error(
          `[peer] ${label} N=${n} ${name} exited ${p.code}:\n${p.output.split("\n").slice(-30).join("\n")}`,
        );
    }
    return phases;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** This package's side, through bench/scale's runner; requests and CPU in the same shape. */
async function runOurs(label, source, n, server, bin, extraEnv) {
  const real = await runProgram(label, source, n, server, bin, { extraEnv });
  const phases = {};
  for (const name of PHASES) {
    const p = real.phases[name];
    phases[name] = {
      ...p,
      cpu: Object.entries(p.cpu)
        .filter(([k]) => k !== "server")
        .reduce((a, [, v]) => a + v, 0),
    };
  }
  return phases;
}

async function main() {
  const { take } = commandLine();
  const sizes = (take("--sizes") ?? "50,200,500")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  const limitArg = take("--rate-limit") ?? "both";
  const skip = process.argv.includes("--skip-checkpoints");
  const ourEnv = skip ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
  const limits =
    limitArg === "both"
      ? [30, 0]
      : limitArg === "off" || limitArg === "0"
        ? [0]
        : [limitArg === "on" ? 30 : Number(limitArg)];
  const serverModule = path.join(engine.repoRoot, "dist", "server", "index.js");
  if (!fs.existsSync(serverModule)) throw new Error("dist/ is missing: run `npm run build` first");
  const { startServer } = require(serverModule);
  const bin = engine.ensureEngine();
  const peer = ensurePeer();

  console.log(
    "# bench/peer: this package (Pulumi, dynamic providers) vs OpenTofu + terraform-provider-tfe, same local server",
  );
  console.log("# N workspaces with key-value and flat tags; phases up/apply, no-change preview/plan, refresh, destroy");
  console.log("# empty: the same phases for a program with no resource (each engine's fixed start-up)");
  if (skip) console.log("# PULUMI_SKIP_CHECKPOINTS=true for our engine (state written once per command)");
  console.log(
    "# net ratio: (ours - ours empty) / (peer - peer empty); cpu: CPU seconds of every process under the CLI\n",
  );
  const header = [
    pad("limit", 6),
    pad("N", 5),
    pad("phase", 8),
    pad("ours s", 8),
    pad("peer s", 8),
    pad("ours/peer", 10),
    pad("empty o/p s", 12),
    pad("net ratio", 10),
    pad("req ours", 9),
    pad("req peer", 9),
    pad("cpu ours", 9),
    "cpu peer",
  ].join(" ");
  console.log(header);
  for (const limit of limits) {
    const empty = {};
    {
      const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
      try {
        empty.ours = await runOurs("empty", emptyProgram, 0, server, bin, ourEnv);
        empty.peer = await runPeer("empty", 0, server, peer);
      } finally {
        await server.close();
      }
    }
    for (const n of sizes) {
      const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
      let ours;
      let theirs;
      try {
        ours = await runOurs("workspaces", workspacesProgram(n), n, server, bin, ourEnv);
        theirs = await runPeer("workspaces", n, server, peer);
      } finally {
        await server.close();
      }
      for (const name of PHASES) {
        const o = ours[name];
        const p = theirs[name];
        const eo = empty.ours[name].seconds;
        const ep = empty.peer[name].seconds;
        const net = Math.max(0.01, o.seconds - eo) / Math.max(0.01, p.seconds - ep);
        const failed = o.code !== 0 || p.code !== 0 ? ` (exit ours ${o.code}, peer ${p.code})` : "";
        console.log(
          [
            pad(limit > 0 ? `${limit}/s` : "off", 6),
            pad(n, 5),
            pad(name, 8),
            pad(o.seconds.toFixed(1), 8),
            pad(p.seconds.toFixed(1), 8),
            pad((o.seconds / p.seconds).toFixed(2), 10),
            pad(`${eo.toFixed(1)}/${ep.toFixed(1)}`, 12),
            pad(net.toFixed(2), 10),
            pad(o.requests, 9),
            pad(p.requests, 9),
            pad(o.cpu.toFixed(1), 9),
            p.cpu.toFixed(1) + failed,
          ].join(" "),
        );
      }
    }
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[peer] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}

// bench/scale/split.js runs the peer beside the split stacks.
module.exports = { runPeer, ensurePeer, peerBuilt };
