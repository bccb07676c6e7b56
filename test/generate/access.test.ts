/**
 * The generator and how an organization is laid out, against the real server: its projects
 * (not the default one) and teams (not the owners team), the teams' access to projects and
 * workspaces (preset and custom), run triggers and notification configurations, each with
 * `adopt: true` and by reference where the program declares what it names; a notification's
 * token and a webhook URL as secret config keys named in the README; the reads it takes;
 * a program of one project; and which stack of a split program owns each.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WorkspacesClient } from "../../src/client";
import { generate, ORGANIZATION_STACK, type GenerateResult, type SplitResult } from "../../src/generate";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import type { RunningServer } from "../../src/server";
import { generateBoth, seededServer, statementOf as declaredBy, typeErrors } from "./check";
import { workspaceName, type Seeded } from "./seed";
import { seedAccess, type SeededAccess } from "./seed-access";

const COUNT = 16;
const NO_CODE = 4;

let server: RunningServer;
let seeded: Seeded;
let access: SeededAccess;
let client: WorkspacesClient;
let dir: string;
let result: GenerateResult;
let reads: Record<string, number>;
let split: SplitResult;

beforeAll(async () => {
  ({ server, seeded, client } = await seededServer(COUNT, NO_CODE));
  access = await seedAccess(client, seeded);
  ({ dir, result, reads, split } = await generateBoth(server, client, "pw-generate-access-"));
}, 90_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

/** The statement that declares the resource named `name`, on one line. */
const statementOf = (program: string, kind: string, name: string) =>
  declaredBy(program, kind, name).replace(/\s+/g, " ");
const names = (program: string, kind: string) =>
  [...program.matchAll(new RegExp(`new ${kind}\\("([^"]+)"`, "g"))].map((m) => m[1]).sort();

describe("generate with projects, teams, access, run triggers and notifications", () => {
  it("declares every project but the default one, and refers to each from its workspaces", () => {
    expect(names(result.program, "Project")).toEqual(
      ["data", "edge", "payments", "platform", "sandbox"].map((n) => `${n}-project`),
    );
    expect(result.program).not.toContain('name: "Default Project"');
    expect(statementOf(result.program, "Project", "platform-project")).toBe(
      'new Project("platform-project", { name: "platform", organization, adopt: true });',
    );
    expect(statementOf(result.program, "Project", "sandbox-project")).toContain('description: "experiments"');
    expect(result.program).toContain("export const platformProject = new Project(");
    expect(statementOf(result.program, "Workspace", workspaceName(0))).toContain("project: platformProject.id");
    expect(result.program).not.toMatch(/project: "prj-/);
  });

  it("declares every team but the owners team, with only the settings that differ from a new team's", () => {
    expect(names(result.program, "Team")).toEqual(["auditors-team", "developers-team"]);
    expect(statementOf(result.program, "Team", "developers-team")).toBe(
      'new Team("developers-team", { name: "developers", organization, visibility: "organization", ' +
        "organizationAccess: { manageWorkspaces: true, readProjects: true }, adopt: true, });",
    );
    expect(statementOf(result.program, "Team", "auditors-team")).toBe(
      'new Team("auditors-team", { name: "auditors", organization, ssoTeamId: "sso-auditors", ' +
        "allowMemberTokenManagement: false, adopt: true, });",
    );
  });

  it("declares each team's access to projects and workspaces, custom permissions only where they differ", () => {
    expect(names(result.program, "TeamProjectAccess")).toEqual(
      ["auditors-payments", "auditors-sandbox", "developers-Default-Project", "developers-platform"].map(
        (n) => `${n}-access`,
      ),
    );
    expect(statementOf(result.program, "TeamProjectAccess", "developers-platform-access")).toBe(
      'new TeamProjectAccess("developers-platform-access", { teamId: developersTeam.id, projectId: platformProject.id, access: "write", adopt: true, });',
    );
    const custom = statementOf(result.program, "TeamProjectAccess", "auditors-payments-access");
    expect(custom).toContain('access: "custom", projectPermissions: { teams: "read" }');
    // `runs: "read"` is where a custom grant starts: left out.
    expect(custom).toContain('workspacePermissions: { stateVersions: "read-outputs" }');
    // The default project is not declared: its access names it by id.
    expect(statementOf(result.program, "TeamProjectAccess", "developers-Default-Project-access")).toContain(
      `projectId: "${access.defaultProject}"`,
    );

    expect(names(result.program, "TeamWorkspaceAccess")).toEqual([
      `auditors-${workspaceName(1)}-access`,
      `developers-${workspaceName(0)}-access`,
    ]);
    expect(statementOf(result.program, "TeamWorkspaceAccess", `developers-${workspaceName(0)}-access`)).toBe(
      `new TeamWorkspaceAccess("developers-${workspaceName(0)}-access", { teamId: developersTeam.id, workspaceId: app0.id, access: "admin", adopt: true, });`,
    );
    expect(statementOf(result.program, "TeamWorkspaceAccess", `auditors-${workspaceName(1)}-access`)).toContain(
      'access: "custom", permissions: { runs: "plan", stateVersions: "read-outputs", workspaceLocking: true },',
    );
  });

  it("declares the run triggers into each workspace, by reference", () => {
    expect(names(result.program, "RunTrigger")).toEqual([...access.runTriggers.keys()].sort());
    expect(statementOf(result.program, "RunTrigger", `${workspaceName(0)}-triggers-${workspaceName(4)}`)).toBe(
      `new RunTrigger("${workspaceName(0)}-triggers-${workspaceName(4)}", { workspaceId: app4.id, sourceWorkspaceId: app0.id, adopt: true });`,
    );
  });

  it("declares each notification configuration, its token and a webhook URL from secret config the README names", () => {
    expect(names(result.program, "NotificationConfiguration")).toEqual(
      [...access.notifications.keys()].map((k) => `${k}-notification`).sort(),
    );
    const generic = statementOf(
      result.program,
      "NotificationConfiguration",
      `${workspaceName(0)}-deploys-notification`,
    );
    expect(generic).toContain('destinationType: "generic", url: "https://hooks.example.test/hooks/deploys"');
    // The service never says whether it has a token: an unset key leaves it unmanaged.
    expect(generic).toContain(`token: config.getSecret("${workspaceName(0)}-deploys-token")`);
    expect(generic).toContain('triggers: ["run:completed", "run:errored"]');
    expect(generic).not.toContain("enabled");
    const slack = statementOf(result.program, "NotificationConfiguration", `${workspaceName(0)}-alerts-notification`);
    expect(slack).toContain(`url: config.requireSecret("${workspaceName(0)}-alerts-url")`);
    expect(slack).toContain("enabled: false");
    expect(slack).not.toContain("token");
    const email = statementOf(result.program, "NotificationConfiguration", `${workspaceName(4)}-mail-notification`);
    expect(email).toContain('emailAddresses: ["ops@example.com"]');
    expect(email).not.toMatch(/url|token/);

    expect(result.secrets.filter((s) => s.notification)).toEqual([
      { key: `${workspaceName(0)}-alerts-url`, workspace: workspaceName(0), notification: "alerts", variable: "url" },
      {
        key: `${workspaceName(0)}-deploys-token`,
        workspace: workspaceName(0),
        notification: "deploys",
        variable: "token",
        optional: true,
      },
    ]);
    expect(result.readme).toContain(
      `| \`${workspaceName(0)}-deploys-token\` | notification deploys of workspace ${workspaceName(0)} | token |`,
    );
    expect(result.readme).toContain(
      `pulumi config set --secret ${workspaceName(0)}-alerts-url '<url of notification alerts>'`,
    );
    expect(result.readme).toContain("leave it unset to leave the token as it is");
    const imports = fs.readFileSync(result.importPath!, "utf8");
    for (const text of [result.program, result.readme, imports]) {
      for (const secret of Object.values(access.secretValues)) expect(text).not.toContain(secret);
      expect(text).not.toContain(server.token);
    }
  });

  it("counts each kind, in the README too", () => {
    expect(result.counts).toMatchObject({
      projects: 5,
      teams: 2,
      teamProjectAccess: 4,
      teamWorkspaceAccess: 2,
      runTriggers: 2,
      notificationConfigurations: 3,
    });
    expect(result.readme).toContain("- 4 grants of a team's access to a project and 2 to a workspace");
    expect(result.readme).toContain("- 2 run triggers and 3 notification configurations of workspaces");
  });

  it("lists each record in the bulk import file by its own id, of a form the import-id table documents", () => {
    const { resources } = JSON.parse(fs.readFileSync(result.importPath!, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    const idsOf = (kind: string) =>
      resources
        .filter((r) => r.type === `workspaces:index:${kind}`)
        .map((r) => r.id)
        .sort();
    expect(idsOf("TeamProjectAccess")).toEqual([...access.projectAccess.values()].sort());
    expect(idsOf("TeamWorkspaceAccess")).toEqual([...access.workspaceAccess.values()].sort());
    expect(idsOf("RunTrigger")).toEqual([...access.runTriggers.values()].sort());
    expect(idsOf("NotificationConfiguration")).toEqual([...access.notifications.values()].sort());
    expect(idsOf("Team")).toEqual([access.teams.get("auditors"), access.teams.get("developers")].sort());
    const prefix: Record<string, string> = {
      Project: "prj-",
      Team: "team-",
      TeamProjectAccess: "tprj-",
      TeamWorkspaceAccess: "tws-",
      RunTrigger: "rt-",
      NotificationConfiguration: "nc-",
    };
    for (const [kind, start] of Object.entries(prefix)) {
      expect(
        IMPORT_IDS[kind]?.forms.some((f) => f.form.startsWith(start)),
        kind,
      ).toBe(true);
      for (const id of idsOf(kind)) expect(id.startsWith(start), `${kind} ${id}`).toBe(true);
    }
  });

  it("reads each kind once per workspace or project, and writes nothing", () => {
    const writes = Object.keys(reads).filter((r) => !r.startsWith("GET "));
    expect(writes).toEqual([]);
    expect(reads["GET /api/v2/team-workspaces"]).toBe(COUNT);
    expect(reads["GET /api/v2/workspaces/:workspace_id/run-triggers"]).toBe(COUNT);
    expect(reads["GET /api/v2/workspaces/:id/notification-configurations"]).toBe(COUNT);
    // Six projects: the four seeded, sandbox and the default one.
    expect(reads["GET /api/v2/team-projects"]).toBe(6);
    expect(reads["GET /api/v2/organizations/:organization_name/teams"]).toBe(1);
    expect(reads["GET /api/v2/organizations/:organization_name/projects"]).toBe(1);
    // Five lists per workspace (consumers, variables, access, triggers, notifications), one
    // per project, and a few for the organization (policies and policy sets among them): the
    // floor, as the API lists these by workspace. A team's people take one read per team;
    // memberships, the team tokens and the organization's two tokens four more.
    expect(reads["GET /api/v2/teams/:id"]).toBe(3);
    expect(reads["GET /api/v2/organizations/:organization_name/organization-memberships"]).toBe(1);
    const total = Object.values(reads).reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(5 * COUNT + 6 + 12 + 3 + 4);
  });

  it("type-checks against this package (as built in dist/)", () => {
    expect(typeErrors([result.programPath])).toEqual([]);
  }, 60_000);

  it("for one project, declares that project, its access and its workspaces' records, and names teams by id", async () => {
    const r = await generate({ client, projectId: seeded.projects[0], out: path.join(dir, "project", "index.ts") });
    expect(names(r.program, "Project")).toEqual(["platform-project"]);
    expect(r.program).not.toContain("new Team(");
    expect(names(r.program, "TeamProjectAccess")).toEqual(["developers-platform-access"]);
    expect(statementOf(r.program, "TeamProjectAccess", "developers-platform-access")).toContain(
      `teamId: "${access.teams.get("developers")}" /* team developers */`,
    );
    // app-0 and app-4 are in this project; the trigger into app-1 belongs to app-1's project.
    expect(names(r.program, "RunTrigger")).toEqual([`${workspaceName(0)}-triggers-${workspaceName(4)}`]);
    expect(names(r.program, "NotificationConfiguration")).toHaveLength(3);
    expect(typeErrors([r.programPath])).toEqual([]);
  }, 60_000);
});

describe("generate --split-by project with access, triggers and notifications", () => {
  const file = (name: string) => fs.readFileSync(path.join(split.dir, name), "utf8");
  const stack = (name: string) => split.stacks.find((s) => s.name === name)!;

  it("gives a project's stack the project, its access and its workspaces' records; teams and empty projects to organization", () => {
    const platform = file(stack("platform").file);
    expect(names(platform, "Project")).toEqual(["platform-project"]);
    expect(statementOf(platform, "TeamProjectAccess", "developers-platform-access")).toContain(
      `teamId: "${access.teams.get("developers")}" /* team developers, stack organization */`,
    );
    expect(names(platform, "TeamWorkspaceAccess")).toEqual([`developers-${workspaceName(0)}-access`]);
    expect(names(platform, "NotificationConfiguration")).toHaveLength(3);
    // The trigger into app-1 is in app-1's stack, its source named by id and stack.
    const payments = file(stack("payments").file);
    expect(statementOf(payments, "RunTrigger", `${workspaceName(0)}-triggers-${workspaceName(1)}`)).toContain(
      `sourceWorkspaceId: "${seeded.ids.get(workspaceName(0))}" /* ${workspaceName(0)}, stack platform */`,
    );
    const organization = file(stack(ORGANIZATION_STACK).file);
    expect(names(organization, "Team")).toEqual(["auditors-team", "developers-team"]);
    expect(names(organization, "Project")).toEqual(["sandbox-project"]);
    expect(names(organization, "TeamProjectAccess")).toEqual([
      "auditors-sandbox-access",
      "developers-Default-Project-access",
    ]);
    expect(stack(ORGANIZATION_STACK).projectIds.sort()).toEqual([access.defaultProject, access.sandbox].sort());
    expect(split.counts).toMatchObject(result.counts);
    const readme = file("README.md");
    expect(readme).toContain(
      `pulumi stack select --create platform && pulumi config set --secret --stack platform ${workspaceName(0)}-deploys-token '<token of notification deploys>'`,
    );
    for (const f of split.written)
      for (const secret of Object.values(access.secretValues)) expect(file(f)).not.toContain(secret);
  });

  it("type-checks, every stack file", () => {
    expect(typeErrors(split.stacks.map((s) => path.join(split.dir, s.file)))).toEqual([]);
  }, 60_000);
});
