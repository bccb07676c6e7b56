import * as pulumi from "@pulumi/pulumi";
import {
  NotificationConfiguration,
  Project,
  RunTrigger,
  Team,
  TeamProjectAccess,
  TeamWorkspaceAccess,
  Workspace,
  getEffectiveAccess,
} from "pulumi-workspaces";

const config = new pulumi.Config();

// The payments project, and the team that runs it.
const project = new Project("payments", { name: "payments", description: "Payments' infrastructure" });
const team = new Team("payments-team", { name: "payments", visibility: "organization" });

// The team writes to every workspace of the project (runs, variables, state)...
new TeamProjectAccess("payments-team-project", { teamId: team.id, projectId: project.id, access: "write" });

const network = new Workspace("payments-network", { name: "payments-network", project: project.id });
const app = new Workspace("payments-app", { name: "payments-app", project: project.id });

// ...and on the network, whose changes reach every service, it may plan but never apply:
// custom permissions, the strongest grant of the two wins on the service.
const networkAccess = new TeamWorkspaceAccess("payments-team-network", {
  teamId: team.id,
  workspaceId: network.id,
  access: "custom",
  permissions: { runs: "plan", variables: "read", stateVersions: "read-outputs", workspaceLocking: false },
});

// A change to the network queues a run of the app.
new RunTrigger("app-after-network", { workspaceId: app.id, sourceWorkspaceId: network.id });

// Failed runs of the app are reported; the token signs each delivery and stays a secret.
new NotificationConfiguration("app-failed-runs", {
  workspaceId: app.id,
  name: "failed runs",
  destinationType: "generic",
  url: config.require("notifyUrl"),
  token: config.requireSecret("notifyToken"),
  triggers: ["run:errored"],
});

export const projectId = project.id;
export const teamId = team.id;
export const appId = app.id;

// Who may do what on the network, every grant added up: the project's write and the
// workspace's custom grant, each with where it comes from.
export const networkAccessByTeam = pulumi
  .all([network.id, team.id, networkAccess.id])
  .apply(async ([workspaceId, teamId]) => {
    const { teams } = await getEffectiveAccess({ workspaceId });
    const mine = teams.find((t) => t.teamId === teamId)!;
    return { access: mine.access, from: mine.sources.map((s) => `${s.kind} ${s.access}`).sort() };
  });
