#!/usr/bin/env node
// Where runs execute, at scale: N workspaces made beforehand, P agent pools, and one stack
// that declares the pools (`AgentPool`, organization-scoped) and, for each workspace, its
// settings (`WorkspaceSettings`: execution mode agent on its pool, auto-apply), through the
// real engine against the local server under one token's rate limit; with --peer the same
// records as OpenTofu's `tfe_agent_pool` and `tfe_workspace_settings`
// (terraform-provider-tfe, bench/peer) on the same server.
//
//   node bench/scale/agent-pools.js [--workspaces N] [--pools P] [--rate-limit R] [--skip-checkpoints] [--peer | --peer-only]
//   (defaults: 200 workspaces, 20 pools, 30 requests/s; needs `npm run build`)
//
// The workspaces are made through the client before either side runs (not measured); both
// programs are given their ids. Phases: up, a no-change preview, refresh, destroy (as
// organization.js runs them). Figures, not pass/fail; the targets are printed beside them.
"use strict";
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { commandLine } = require("./run.js");
const { pool } = require("./split.js");
const { runSides, printSides, setUp } = require("./sides.js");

const TARGETS = "up within 1.3x requests / limit; ahead of the peer (ours / peer below 1) on every phase";

function ourProgram(layout) {
  return `
const { AgentPool, WorkspaceSettings } = require("pulumi-workspaces");
const layout = ${JSON.stringify(layout)};
const pools = layout.pools.map((name, j) => new AgentPool("pool-" + j, { name }));
layout.workspaces.forEach((w, i) => {
  new WorkspaceSettings("settings-" + i, {
    workspaceId: w.id,
    executionMode: "agent",
    agentPoolId: pools[w.pool].id,
    autoApply: true,
  });
});
`;
}

/** The same records in HCL, after bench/peer's provider block. */
function peerResources(layout) {
  return `
locals {
  pools      = ${JSON.stringify(layout.pools)}
  workspaces = ${JSON.stringify(layout.workspaces)}
}

resource "tfe_agent_pool" "p" {
  count               = length(local.pools)
  name                = local.pools[count.index]
  organization_scoped = true
}

resource "tfe_workspace_settings" "s" {
  count          = length(local.workspaces)
  workspace_id   = local.workspaces[count.index].id
  execution_mode = "agent"
  agent_pool_id  = tfe_agent_pool.p[local.workspaces[count.index].pool].id
  auto_apply     = true
}
`;
}

/** N workspaces through the client (paced under the limit); pool j's name, and the pool of each workspace. */
async function createLayout(client, server, n, p) {
  const calls = Array.from(
    { length: n },
    (_, i) => () => client.workspaces.create(server.organization, { name: `runs-ws-${i}` }),
  );
  const workspaces = (await pool(calls, 20)).map((w, i) => ({ id: w.id, pool: i % p }));
  return { pools: Array.from({ length: p }, (_, j) => `bench-pool-${j}`), workspaces };
}

/** What a side left on the server after destroy: pools, and workspaces still in agent mode (a listing, not counted in any phase). */
async function leftOver(client, server) {
  const pools = (await client.agentPools.list(server.organization).all()).length;
  const workspaces = await client.workspaces.list(server.organization).all();
  const agent = workspaces.filter((w) => w.executionMode === "agent").length;
  const autoApply = workspaces.filter((w) => w.autoApply).length;
  return `${pools} pools, ${agent} workspaces in agent mode and ${autoApply} with auto-apply left after destroy`;
}

async function main() {
  const { args, take } = commandLine();
  const n = Number(take("--workspaces") ?? 200);
  const p = Number(take("--pools") ?? 20);
  const limit = Number(take("--rate-limit") ?? 30);
  const skip = args.includes("--skip-checkpoints");
  const peerOnly = args.includes("--peer-only");
  const { startServer, WorkspacesClient, bin, peer, binaries } = setUp(engine, peerOnly || args.includes("--peer"));

  const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
  const client = new WorkspacesClient({ address: server.url, token: server.token, env: {}, homeDir: "/nonexistent" });
  let sides;
  try {
    console.log(
      `# bench/scale/agent-pools: ${n} workspaces on ${p} agent pools, settings through WorkspaceSettings; ${limit > 0 ? `rate limit ${limit}/s` : "no rate limit"}, engine ${path.basename(path.dirname(bin))}${skip ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`,
    );
    console.log(`# targets: ${TARGETS}`);
    const layout = await createLayout(client, server, n, p);
    sides = await runSides({
      label: "agent-pools",
      n,
      server,
      bin,
      ours: ourProgram(layout),
      peerResources: peerResources(layout),
      peer,
      binaries,
      skip,
      peerOnly,
      after: () => leftOver(client, server),
    });
  } finally {
    await server.close();
  }
  printSides(sides, n, limit, 1.3);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[agent-pools] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}
