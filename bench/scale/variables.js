#!/usr/bin/env node
// Variables at scale: N workspaces with K variables each, one `WorkspaceVariables` per
// workspace, through the real engine against the local server under one token's rate
// limit, and with --peer the same variables as OpenTofu's `tfe_variable`s
// (terraform-provider-tfe, bench/peer) on the same server.
//
//   node bench/scale/variables.js [--workspaces N] [--variables K] [--rate-limit R] [--skip-checkpoints] [--peer | --peer-only]
//   (defaults: 200 workspaces, 5 variables, 30 requests/s; needs `npm run build`; --peer-only
//   runs the peer alone, so that the two sides can run at once, each on its own server)
//
// The workspaces are made through the client before either side runs (not measured); both
// programs are given their ids. Variable j of workspace i: key `var_<j>`, value
// `value-<i>-<j>`, category `env` for odd j and the engine's for even j, the last one
// sensitive. Phases: up (`pulumi up --skip-preview` / `tofu apply`), a no-change preview
// (`pulumi preview --expect-no-changes` / `tofu plan -detailed-exitcode`), refresh
// (`pulumi refresh --skip-preview` / `tofu apply -refresh-only`), destroy.
//
// Per phase: requests the server counted, wall time, and `x limit`: wall time over
// (requests / limit), 1.0 being the limit itself; with --peer, the peer's same figures and
// ours / peer. Figures, not pass/fail; the targets are printed beside them.
"use strict";
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { commandLine } = require("./run.js");
const { pool } = require("./split.js");
const { runSides, printSides, setUp } = require("./sides.js");

const TARGETS = "up within 1.3x requests / limit; ahead of the peer (ours / peer below 1) on every phase";

/** Variable j of workspace i, as both programs declare it. */
const variable = (i, j, k) => ({
  key: `var_${j}`,
  value: `value-${i}-${j}`,
  category: j % 2 === 1 ? "env" : "engine",
  sensitive: j === k - 1,
});

function ourProgram(ids, k) {
  return `
const { WorkspaceVariables } = require("pulumi-workspaces");
const ids = ${JSON.stringify(ids)};
const variable = ${variable.toString()};
ids.forEach((workspaceId, i) => {
  new WorkspaceVariables("vars-" + i, {
    workspaceId,
    variables: Array.from({ length: ${k} }, (_, j) => variable(i, j, ${k})),
  });
});
`;
}

/** The same variables in HCL, after bench/peer's provider block. */
function peerResources(ids, k) {
  return `
locals {
  workspaces = ${JSON.stringify(ids)}
}

resource "tfe_variable" "v" {
  count        = ${ids.length * k}
  workspace_id = local.workspaces[floor(count.index / ${k})]
  key          = "var_\${count.index % ${k}}"
  value        = "value-\${floor(count.index / ${k})}-\${count.index % ${k}}"
  category     = count.index % ${k} % 2 == 1 ? "env" : "terraform"
  sensitive    = count.index % ${k} == ${k - 1}
}
`;
}

/** Creates N workspaces through the client (paced under the limit); returns their ids. */
async function createWorkspaces(client, server, n) {
  const calls = Array.from(
    { length: n },
    (_, i) => () => client.workspaces.create(server.organization, { name: `vars-${i}` }),
  );
  return (await pool(calls, 20)).map((w) => w.id);
}

/** Variables on the server's workspaces now (one listing per workspace, not counted in any phase). */
async function variableCount(client, ids) {
  const lists = await pool(
    ids.map((id) => () => client.variables.list(id)),
    20,
  );
  return lists.reduce((sum, l) => sum + l.length, 0);
}

async function main() {
  const { args, take } = commandLine();
  const n = Number(take("--workspaces") ?? 200);
  const k = Number(take("--variables") ?? 5);
  const limit = Number(take("--rate-limit") ?? 30);
  const skip = args.includes("--skip-checkpoints");
  const peerOnly = args.includes("--peer-only");
  const { startServer, WorkspacesClient, bin, peer, binaries } = setUp(engine, peerOnly || args.includes("--peer"));

  const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
  const client = new WorkspacesClient({ address: server.url, token: server.token, env: {}, homeDir: "/nonexistent" });
  let sides;
  try {
    console.log(
      `# bench/scale/variables: ${n} workspaces x ${k} variables (one WorkspaceVariables per workspace), ${limit > 0 ? `rate limit ${limit}/s` : "no rate limit"}, engine ${path.basename(path.dirname(bin))}${skip ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`,
    );
    console.log(`# targets: ${TARGETS}`);
    const ids = await createWorkspaces(client, server, n);
    sides = await runSides({
      label: "variables",
      n,
      server,
      bin,
      ours: ourProgram(ids, k),
      peerResources: peerResources(ids, k),
      peer,
      binaries,
      skip,
      peerOnly,
      after: async () => `${await variableCount(client, ids)} variables left after destroy`,
    });
  } finally {
    await server.close();
  }
  printSides(sides, n, limit, 1.3);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[variables] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}
