#!/usr/bin/env node
// The service's policy sets at scale (issue 56): N workspaces made beforehand, S policy sets,
// each applied to N / S of them, through the real engine against the local server under one
// token's rate limit: one `PolicySet` and one `PolicySetWorkspaces` per set. With --peer the
// same as OpenTofu with terraform-provider-tfe (bench/peer) on the same server:
// `tfe_policy_set` with `workspace_ids` (one resource per set), or with --peer-per-workspace
// `tfe_policy_set` and one `tfe_workspace_policy_set` per workspace.
//
//   node bench/scale/policy-sets.js [--workspaces N] [--sets S] [--rate-limit R] [--skip-checkpoints]
//                                   [--peer | --peer-only] [--peer-per-workspace]
//   (defaults: 2,000 workspaces, 200 sets, 30 requests/s; needs `npm run build`)
//
// The workspaces are made through the client before either side runs (not measured); both
// programs are given their ids. Phases: up, a no-change preview, refresh, destroy (as
// agent-pools.js runs them). Per phase the requests and requests per set; refresh's
// requests per set is terraform-provider-tfe #1080's figure (a read of every set with every
// workspace, once per resource). Figures, not pass/fail; the targets are printed beside them.
"use strict";
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { commandLine } = require("./run.js");
const { pool } = require("./split.js");
const { runSides, printSides, setUp } = require("./sides.js");

const TARGETS =
  "refresh close to 1 request per set; up within 1.3x requests / limit; ahead of the peer (ours / peer below 1) on every phase";

function ourProgram(layout) {
  return `
const { PolicySet, PolicySetWorkspaces } = require("pulumi-workspaces");
const layout = ${JSON.stringify(layout)};
layout.forEach((workspaceIds, j) => {
  const set = new PolicySet("set-" + j, { name: "bench-set-" + j, description: "bench" });
  new PolicySetWorkspaces("workspaces-" + j, { policySetId: set.id, workspaceIds });
});
`;
}

/** The same sets in HCL, after bench/peer's provider block. */
function peerResources(layout, perWorkspace) {
  const sets = `
locals {
  sets = ${JSON.stringify(layout)}
}

resource "tfe_policy_set" "s" {
  count         = length(local.sets)
  name          = "bench-set-\${count.index}"
  description   = "bench"
  ${perWorkspace ? "" : "workspace_ids = local.sets[count.index]"}
}
`;
  if (!perWorkspace) return sets;
  const pairs = layout.flatMap((ids, j) => ids.map((id) => ({ set: j, workspace: id })));
  return `${sets}
locals {
  pairs = ${JSON.stringify(pairs)}
}

resource "tfe_workspace_policy_set" "a" {
  count         = length(local.pairs)
  policy_set_id = tfe_policy_set.s[local.pairs[count.index].set].id
  workspace_id  = local.pairs[count.index].workspace
}
`;
}

/** N workspaces through the client (paced under the limit), dealt to S sets in runs of N / S. */
async function createLayout(client, server, n, s) {
  const calls = Array.from(
    { length: n },
    (_, i) => () => client.workspaces.create(server.organization, { name: `policy-ws-${i}` }),
  );
  const ids = (await pool(calls, 20)).map((w) => w.id);
  const per = Math.ceil(n / s);
  return Array.from({ length: s }, (_, j) => ids.slice(j * per, (j + 1) * per));
}

/** What a side left on the server after destroy (a listing, not counted in any phase). */
async function leftOver(client, server) {
  const sets = await client.policySets.list(server.organization).all();
  const applied = sets.reduce((n, set) => n + set.workspaceIds.length, 0);
  return `${sets.length} policy sets (${applied} applications to workspaces) left after destroy`;
}

async function main() {
  const { args, take } = commandLine();
  const n = Number(take("--workspaces") ?? 2000);
  const s = Number(take("--sets") ?? 200);
  const limit = Number(take("--rate-limit") ?? 30);
  const skip = args.includes("--skip-checkpoints");
  const peerOnly = args.includes("--peer-only");
  const perWorkspace = args.includes("--peer-per-workspace");
  const { startServer, WorkspacesClient, bin, peer, binaries } = setUp(engine, peerOnly || args.includes("--peer"));

  const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
  const client = new WorkspacesClient({ address: server.url, token: server.token, env: {}, homeDir: "/nonexistent" });
  let sides;
  try {
    console.log(
      `# bench/scale/policy-sets: ${s} policy sets across ${n} workspaces (${Math.ceil(n / s)} each, PolicySetWorkspaces); peer ${perWorkspace ? "tfe_workspace_policy_set per workspace" : "tfe_policy_set.workspace_ids"}; ${limit > 0 ? `rate limit ${limit}/s` : "no rate limit"}, engine ${path.basename(path.dirname(bin))}${skip ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`,
    );
    console.log(`# targets: ${TARGETS}`);
    const layout = await createLayout(client, server, n, s);
    sides = await runSides({
      label: "policy-sets",
      n: s,
      server,
      bin,
      ours: ourProgram(layout),
      peerResources: peerResources(layout, perWorkspace),
      peer,
      binaries,
      skip,
      peerOnly,
      after: () => leftOver(client, server),
    });
  } finally {
    await server.close();
  }
  printSides(sides, s, limit, 1.3, "set");
  if (sides.ours)
    console.log(
      `ours: refresh ${(sides.ours.phases.refresh.requests / s).toFixed(2)} requests per set (target close to 1)`,
    );
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[policy-sets] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}
