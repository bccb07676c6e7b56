#!/usr/bin/env node
// An organisation's access and notifications at scale: N workspaces in P projects, each
// project with a team; one stack declares each team's access to its project
// (`TeamProjectAccess`), and for each workspace its team's access (`TeamWorkspaceAccess`)
// and a notification of failed runs (`NotificationConfiguration`, generic, to a receiver
// on this machine), through the real engine against the local server under one token's
// rate limit; with --peer the same records as OpenTofu's `tfe_team_project_access`,
// `tfe_team_access` and `tfe_notification_configuration` (terraform-provider-tfe,
// bench/peer) on the same server.
//
//   node bench/scale/organization.js [--workspaces N] [--projects P] [--rate-limit R] [--skip-checkpoints] [--peer | --peer-only]
//   (defaults: 200 workspaces, 20 projects, 30 requests/s; needs `npm run build`)
//
// The projects, teams and workspaces are made through the client before either side runs
// (not measured); both programs are given their ids. Phases: up, a no-change preview,
// refresh, destroy (as variables.js runs them). Figures, not pass/fail; the targets are
// printed beside them.
"use strict";
const http = require("http");
const path = require("path");
const engine = require("../../scripts/lib/engine.js");
const { commandLine } = require("./run.js");
const { pool } = require("./split.js");
const { runSides, printSides, setUp } = require("./sides.js");

const TARGETS = "up within 1.3x requests / limit; ahead of the peer (ours / peer below 1) on every phase";

function ourProgram(layout, url) {
  return `
const { NotificationConfiguration, TeamProjectAccess, TeamWorkspaceAccess } = require("pulumi-workspaces");
const layout = ${JSON.stringify(layout)};
layout.projects.forEach((p, j) => {
  new TeamProjectAccess("project-access-" + j, { teamId: p.teamId, projectId: p.id, access: "read" });
});
layout.workspaces.forEach((w, i) => {
  new TeamWorkspaceAccess("access-" + i, { teamId: layout.projects[w.project].teamId, workspaceId: w.id, access: "write" });
  new NotificationConfiguration("notify-" + i, {
    workspaceId: w.id,
    name: "failed-runs",
    destinationType: "generic",
    url: ${JSON.stringify(url)},
    triggers: ["run:errored"],
    enabled: true,
  });
});
`;
}

/** The same records in HCL, after bench/peer's provider block. */
function peerResources(layout, url) {
  return `
locals {
  projects   = ${JSON.stringify(layout.projects.map((p) => ({ id: p.id, team: p.teamId })))}
  workspaces = ${JSON.stringify(layout.workspaces.map((w) => ({ id: w.id, team: layout.projects[w.project].teamId })))}
}

resource "tfe_team_project_access" "p" {
  count      = length(local.projects)
  team_id    = local.projects[count.index].team
  project_id = local.projects[count.index].id
  access     = "read"
}

resource "tfe_team_access" "w" {
  count        = length(local.workspaces)
  team_id      = local.workspaces[count.index].team
  workspace_id = local.workspaces[count.index].id
  access       = "write"
}

resource "tfe_notification_configuration" "n" {
  count            = length(local.workspaces)
  workspace_id     = local.workspaces[count.index].id
  name             = "failed-runs"
  destination_type = "generic"
  url              = "${url}"
  triggers         = ["run:errored"]
  enabled          = true
}
`;
}

/** Projects with a team each, and N workspaces spread over them, through the client (paced under the limit). */
async function createLayout(client, server, n, p) {
  const projects = [];
  for (let j = 0; j < p; j++) {
    const project = await client.projects.create(server.organization, { name: `org-${j}` });
    const team = await client.teams.create(server.organization, { name: `team-${j}` });
    projects.push({ id: project.id, teamId: team.id });
  }
  const calls = Array.from(
    { length: n },
    (_, i) => () =>
      client.workspaces.create(server.organization, { name: `org-ws-${i}`, projectId: projects[i % p].id }),
  );
  const workspaces = (await pool(calls, 20)).map((w, i) => ({ id: w.id, project: i % p }));
  return { projects, workspaces };
}

/** What the sides left on the server after destroy (one listing per workspace, not counted in any phase). */
async function leftOver(client, layout) {
  const counts = await pool(
    layout.workspaces.map((w) => async () => {
      const [access, notes] = await Promise.all([
        client.teamAccess.list(w.id).all(),
        client.notificationConfigurations.list(w.id).all(),
      ]);
      return access.length + notes.length;
    }),
    10,
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function main() {
  const { args, take } = commandLine();
  const n = Number(take("--workspaces") ?? 200);
  const p = Number(take("--projects") ?? 20);
  const limit = Number(take("--rate-limit") ?? 30);
  const skip = args.includes("--skip-checkpoints");
  const peerOnly = args.includes("--peer-only");
  const { startServer, WorkspacesClient, bin, peer, binaries } = setUp(engine, peerOnly || args.includes("--peer"));

  // A receiver on this machine: the local server delivers only to loopback addresses.
  let delivered = 0;
  const receiver = http.createServer((req, res) => {
    delivered++;
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${receiver.address().port}/failed-runs`;

  const server = await startServer({ port: 0, db: ":memory:", rateLimit: limit > 0 ? limit : false });
  const client = new WorkspacesClient({ address: server.url, token: server.token, env: {}, homeDir: "/nonexistent" });
  let sides;
  try {
    console.log(
      `# bench/scale/organization: ${n} workspaces in ${p} projects, a team each; team access to each project and workspace, a notification per workspace; ${limit > 0 ? `rate limit ${limit}/s` : "no rate limit"}, engine ${path.basename(path.dirname(bin))}${skip ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`,
    );
    console.log(`# targets: ${TARGETS}`);
    const layout = await createLayout(client, server, n, p);
    sides = await runSides({
      label: "organization",
      n,
      server,
      bin,
      ours: ourProgram(layout, url),
      peerResources: peerResources(layout, url),
      peer,
      binaries,
      skip,
      peerOnly,
      after: async () =>
        `${await leftOver(client, layout)} workspace access and notification records left after destroy, ${delivered} deliveries`,
    });
  } finally {
    await server.close();
    receiver.close();
  }
  printSides(sides, n, limit, 1.3);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[organization] failed: ${err.stack ?? err}`);
    process.exit(1);
  });
}
