/**
 * Seeds how an organization is laid out and who hears of what, over the service's API, on
 * top of {@link seedOrganization}: two teams (one visible to the organization with a right,
 * one with an SSO id and a custom grant), a project without workspaces, the teams' access
 * to projects (the default project's too) and to workspaces (preset and custom), run
 * triggers within a project and across projects, and notification configurations of each
 * destination (a generic one with a token, a disabled Slack one, an email one).
 */
import type { WorkspacesClient } from "../../src/client";
import { workspaceName, type Seeded } from "./seed";

export interface SeededAccess {
  /** Team id by name (the owners team too). */
  teams: Map<string, string>;
  /** The organization's default project. */
  defaultProject: string;
  /** The project without workspaces. */
  sandbox: string;
  /** Ids of the access records to projects, by `<team>-<project name>`. */
  projectAccess: Map<string, string>;
  /** Ids of the access records to workspaces, by `<team>-<workspace>`. */
  workspaceAccess: Map<string, string>;
  /** Run trigger ids by `<source>-triggers-<workspace>`. */
  runTriggers: Map<string, string>;
  /** Notification configuration ids by `<workspace>-<name>`. */
  notifications: Map<string, string>;
  /** The generic configuration's token and the Slack webhook: neither may appear in a generated file. */
  secretValues: { token: string; slackUrl: string };
}

/** Project names as seedOrganization makes them, in the order of `seeded.projects`. */
export const PROJECT_NAMES = ["platform", "payments", "data", "edge"];

export async function seedAccess(client: WorkspacesClient, seeded: Seeded): Promise<SeededAccess> {
  const org = client.organization!;
  const ws = (i: number) => seeded.ids.get(workspaceName(i))!;
  const teams = new Map((await client.teams.list(org).all()).map((t) => [t.name, t.id]));
  const developers = await client.teams.create(org, {
    name: "developers",
    visibility: "organization",
    organizationAccess: { manageWorkspaces: true, readProjects: true },
  });
  const auditors = await client.teams.create(org, {
    name: "auditors",
    ssoTeamId: "sso-auditors",
    allowMemberTokenManagement: false,
  });
  teams.set(developers.name, developers.id);
  teams.set(auditors.name, auditors.id);

  const [defaultProject] = await client.projects.list(org, { name: "Default Project" }).all();
  const sandbox = (await client.projects.create(org, { name: "sandbox", description: "experiments" })).id;

  const projectAccess = new Map<string, string>();
  const grantProject = async (
    team: string,
    projectId: string,
    label: string,
    options: Parameters<WorkspacesClient["teamProjectAccess"]["add"]>[2],
  ) =>
    projectAccess.set(
      `${team}-${label}`,
      (await client.teamProjectAccess.add(teams.get(team)!, projectId, options)).id,
    );
  await grantProject("developers", seeded.projects[0], PROJECT_NAMES[0], { access: "write" });
  await grantProject("auditors", seeded.projects[1], PROJECT_NAMES[1], {
    access: "custom",
    projectPermissions: { teams: "read" },
    workspacePermissions: { stateVersions: "read-outputs", runs: "read" },
  });
  await grantProject("developers", defaultProject.id, defaultProject.name, { access: "read" });
  await grantProject("auditors", sandbox, "sandbox", { access: "maintain" });

  const workspaceAccess = new Map<string, string>();
  const grantWorkspace = async (
    team: string,
    i: number,
    options: Parameters<WorkspacesClient["teamAccess"]["add"]>[2],
  ) =>
    workspaceAccess.set(
      `${team}-${workspaceName(i)}`,
      (await client.teamAccess.add(teams.get(team)!, ws(i), options)).id,
    );
  await grantWorkspace("developers", 0, { access: "admin" });
  await grantWorkspace("auditors", 1, {
    access: "custom",
    permissions: { runs: "plan", stateVersions: "read-outputs", workspaceLocking: true },
  });

  // app-4 is in app-0's project (projects[i % 4]); app-1 in another.
  const runTriggers = new Map<string, string>();
  for (const [source, target] of [
    [0, 4],
    [0, 1],
  ]) {
    const t = await client.runTriggers.create(ws(target), ws(source));
    runTriggers.set(`${workspaceName(source)}-triggers-${workspaceName(target)}`, t.id);
  }

  const token = "notification-token-not-shown";
  const slackUrl = "https://hooks.slack.com/services/T000/B000/not-shown";
  const notifications = new Map<string, string>();
  const notify = async (i: number, options: Parameters<WorkspacesClient["notificationConfigurations"]["create"]>[1]) =>
    notifications.set(
      `${workspaceName(i)}-${options.name}`,
      (await client.notificationConfigurations.create(ws(i), options)).id,
    );
  await notify(0, {
    name: "deploys",
    destinationType: "generic",
    enabled: true,
    url: "https://hooks.example.test/hooks/deploys",
    token,
    triggers: ["run:errored", "run:completed"],
  });
  await notify(0, {
    name: "alerts",
    destinationType: "slack",
    enabled: false,
    url: slackUrl,
    triggers: ["run:errored"],
  });
  await notify(4, {
    name: "mail",
    destinationType: "email",
    enabled: true,
    emailAddresses: ["ops@example.com"],
    triggers: ["run:needs_attention"],
  });

  return {
    teams,
    defaultProject: defaultProject.id,
    sandbox,
    projectAccess,
    workspaceAccess,
    runTriggers,
    notifications,
    secretValues: { token, slackUrl },
  };
}
