// One bench program through the real engine and, with the peer, the same records as
// OpenTofu with terraform-provider-tfe on the same local server: the four phases of each
// side, then one table (requests, per workspace, wall time, `x limit`, ours / peer) and
// the 429s each side was answered. Shared by variables.js and organization.js.
"use strict";
const path = require("path");
const { runProgram, pad } = require("./run.js");

const PHASES = ["up", "preview", "refresh", "destroy"];

function rateLimited(server) {
  return server.stats().byStatus["429"] ?? 0;
}

/**
 * Runs our program (unless `peerOnly`) and the peer's (when `peer` is given), one after
 * the other on `server`; `after(side)` runs after each side's destroy and returns a line
 * about what is left on the server. Returns `{ ours?, peer? }`, each `{ phases, rateLimited }`.
 */
async function runSides({ label, n, server, bin, ours, peerResources, peer, binaries, skip, peerOnly, after }) {
  const sides = {};
  if (!peerOnly) {
    await new Promise((r) => setTimeout(r, 1100));
    const before = rateLimited(server);
    const run = await runProgram(label, ours, n, server, bin, {
      extraEnv: skip ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
    });
    sides.ours = { phases: run.phases, rateLimited: rateLimited(server) - before };
    console.log(
      `# ours: ${run.created} resources after up, checkpoint ${(run.stateBytes / 1024).toFixed(0)} KB (${(run.stateBytes / n).toFixed(0)} bytes per workspace), ${await after("ours")}`,
    );
  }
  if (peer) {
    await new Promise((r) => setTimeout(r, 1100));
    const before = rateLimited(server);
    const phases = await peer.runPeer(label, n, server, binaries, peerResources);
    sides.peer = { phases, rateLimited: rateLimited(server) - before };
    console.log(`# peer: ${await after("peer")}`);
  }
  return sides;
}

/** The table of both sides' phases, the 429s, and the up target and ours / peer lines; `unit` is what `n` counts. */
function printSides(sides, n, limit, upTarget, unit = "ws") {
  console.log("");
  const both = sides.peer && sides.ours;
  const header = [
    pad("side", 6),
    pad("phase", 8),
    pad("requests", 9),
    pad(`req/${unit}`, 7),
    pad("wall s", 8),
    "x limit",
  ];
  if (both) header.push(pad("", 1), "ours/peer");
  console.log(header.join(" "));
  const xLimit = (p) => (limit > 0 && p.requests > 0 ? p.seconds / (p.requests / limit) : undefined);
  for (const [side, { phases }] of Object.entries(sides)) {
    for (const phase of PHASES) {
      const p = phases[phase];
      const x = xLimit(p);
      const row = [
        pad(side, 6),
        pad(phase, 8),
        pad(p.requests, 9),
        pad((p.requests / n).toFixed(2), 7),
        pad(p.seconds.toFixed(1), 8),
        pad(x === undefined ? "-" : x.toFixed(2), 8),
      ];
      if (both && side === "ours") row.push((p.seconds / sides.peer.phases[phase].seconds).toFixed(2));
      if (p.code !== 0) row.push(`exit ${p.code}`);
      console.log(row.join(" "));
    }
  }
  console.log("");
  for (const [side, s] of Object.entries(sides)) console.log(`429s answered to ${side}: ${s.rateLimited}`);
  if (sides.ours && limit > 0)
    console.log(`ours: up ${xLimit(sides.ours.phases.up).toFixed(2)}x requests / limit (target <= ${upTarget}x)`);
  if (both)
    console.log(
      `ours / peer: ${PHASES.map((ph) => `${ph} ${(sides.ours.phases[ph].seconds / sides.peer.phases[ph].seconds).toFixed(2)}`).join(", ")} (target < 1 on every phase)`,
    );
}

/** The local server of dist/, the client, the engine and, when asked, the peer's binaries. */
function setUp(engine, withPeer) {
  const fs = require("fs");
  const dist = path.join(engine.repoRoot, "dist");
  if (!fs.existsSync(path.join(dist, "server", "index.js")))
    throw new Error("dist/ is missing: run `npm run build` first");
  const { startServer } = require(path.join(dist, "server"));
  const { WorkspacesClient } = require(path.join(dist, "client"));
  const bin = engine.ensureEngine();
  const peer = withPeer ? require("../peer/run.js") : undefined;
  if (peer && !peer.peerBuilt())
    console.log("# peer: building OpenTofu and terraform-provider-tfe (bench/peer/build.sh)");
  const binaries = peer?.ensurePeer();
  return { startServer, WorkspacesClient, bin, peer, binaries };
}

module.exports = { PHASES, runSides, printSides, setUp };
