/**
 * How an organization is laid out and who hears of what, in a generated program: its
 * projects and teams, the teams' access to projects and workspaces, run triggers and
 * notification configurations, each with only what differs from the service's defaults.
 */
import { originQuery } from "../api/origin";
import { PROJECT_ACCESS_PRESETS, WORKSPACE_ACCESS_PRESETS } from "../api/team-access";
import type { NotificationConfiguration, Team, TeamProjectAccess, TeamWorkspaceAccess } from "../client";
import { carriesCredentials } from "../resources/secret-values";
import { shapedAccess } from "../resources/providers/team";
import { Code } from "./code";
import { byCodePoint } from "./names";
import type { ProjectRecord } from "./read";
import type { DeclarationContext } from "./variable-declarations";

/** The owners team: every organization has it, it cannot be deleted or renamed, and it holds every right. */
const OWNERS_TEAM = "owners";

/** Whether a program declares `team`: every team but the owners team. */
export const declaresTeam = (team: Team) => team.name !== OWNERS_TEAM;

/** Whether a program declares `project`: every project but the organization's default one, which cannot be deleted. */
export const declaresProject = (project: ProjectRecord) => !project.isDefault;

/** A project or team name as part of a resource name: spaces (a project name may have them) become `-`. */
const namePart = (name: string) => name.trim().replace(/\s+/g, "-");

const camel = (wire: string) => wire.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The permissions of a custom grant that differ from what a custom grant starts from (the
 * preset `custom` of the shared list), in the client's spelling; a preset level's are its
 * level's, so none. An input left out takes that start value.
 */
function customPermissions(
  access: string,
  actual: Record<string, unknown>,
  start: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (access !== "custom") return undefined;
  const out: Record<string, unknown> = {};
  for (const [wire, initial] of Object.entries(start)) {
    const value = actual[camel(wire)];
    if (value !== undefined && value !== initial) out[camel(wire)] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A URL that a program must not carry in plaintext: one the resource keeps secret
 * (../resources/secret-values.ts: credentials, a credential-named query parameter, a Slack
 * or Microsoft Teams webhook), any Slack or Microsoft Teams destination's (whose URL is its
 * secret wherever it is hosted), and one that is not a URL at all.
 */
function urlIsSecret(url: string, destinationType: string): boolean {
  if (destinationType === "slack" || destinationType === "microsoft-teams") return true;
  if (!URL.canParse(url)) return true;
  return carriesCredentials(url);
}

/** What {@link AccessDeclarations} needs beyond the declaration context: references to teams and projects. */
export interface AccessContext extends DeclarationContext {
  /** A team as the file refers to it: a reference, or its literal id with its name beside it. */
  teamRef(id: string): unknown;
  /** The name of a team, for resource names; its id when unknown. */
  teamName(id: string): string;
}

/** Declares the projects (each not the default) with `adopt: true`, each bound to `ident(project)`. */
export function declareProjects(at: AccessContext, projects: ProjectRecord[], ident: (id: string) => string): void {
  if (!projects.length) return;
  at.section("// Projects");
  for (const p of projects) {
    at.declare(
      "Project",
      at.resourceName(`${namePart(p.name)}-project`),
      p.id,
      {
        name: p.name,
        organization: new Code("organization"),
        ...(p.description && !originQuery(p.description) ? { description: p.description } : {}),
        adopt: true,
      },
      ident(p.id),
    );
  }
}

/** Declares the teams (not the owners team) with their settings, each bound to `ident(team)`. */
export function declareTeams(at: AccessContext, teams: Team[], ident: (id: string) => string): void {
  if (!teams.length) return;
  at.section("// Teams");
  for (const t of teams) {
    const flags = Object.entries(t.organizationAccess)
      .filter(([, on]) => on === true)
      .sort(([a], [b]) => byCodePoint(a, b));
    at.declare(
      "Team",
      at.resourceName(`${namePart(t.name)}-team`),
      t.id,
      {
        name: t.name,
        organization: new Code("organization"),
        ...(t.visibility && t.visibility !== "secret" ? { visibility: t.visibility } : {}),
        // A flag this release does not know goes in otherFlags, as a program writes it.
        ...(flags.length ? { organizationAccess: shapedAccess(Object.fromEntries(flags)) } : {}),
        ...(t.ssoTeamId ? { ssoTeamId: t.ssoTeamId } : {}),
        ...(t.allowMemberTokenManagement === false ? { allowMemberTokenManagement: false } : {}),
        adopt: true,
      },
      ident(t.id),
    );
  }
}

/** Declares each team's access to the projects, one `TeamProjectAccess` per grant; returns how many. */
export function declareProjectAccess(at: AccessContext, projects: ProjectRecord[]): number {
  const grants = projects.flatMap((p) =>
    p.teamAccess.map((a) => ({ p, a, label: `${namePart(at.teamName(a.teamId ?? ""))}-${namePart(p.name)}` })),
  );
  if (!grants.length) return 0;
  grants.sort((x, y) => byCodePoint(x.label, y.label) || byCodePoint(x.a.id, y.a.id));
  at.section("// Team access to projects");
  for (const { p, a, label } of grants)
    at.declare("TeamProjectAccess", at.resourceName(`${label}-access`), a.id, projectAccessArgs(at, p.id, a));
  return grants.length;
}

function projectAccessArgs(at: AccessContext, projectId: string, a: TeamProjectAccess): Record<string, unknown> {
  const start = PROJECT_ACCESS_PRESETS.custom;
  const projectPermissions = customPermissions(a.access, a.projectPermissions, start.project);
  const workspacePermissions = customPermissions(a.access, a.workspacePermissions, start.workspace);
  return {
    teamId: at.teamRef(a.teamId ?? ""),
    projectId: at.ref(projectId),
    access: a.access,
    ...(projectPermissions ? { projectPermissions } : {}),
    ...(workspacePermissions ? { workspacePermissions } : {}),
    adopt: true,
  };
}

/** One workspace's records that name it: the teams' access, the run triggers into it and its notification configurations. */
interface WorkspaceLinks {
  /** Workspace id. */
  id: string;
  /** Workspace name. */
  name: string;
  teamAccess: TeamWorkspaceAccess[];
  /** Source workspace ids of the run triggers into it, with each trigger's id. */
  runTriggers: { id: string; sourceId: string }[];
  notifications: NotificationConfiguration[];
}

/** How many of each {@link declareWorkspaceLinks} declared. */
interface LinkCounts {
  teamWorkspaceAccess: number;
  runTriggers: number;
  notificationConfigurations: number;
}

/**
 * Declares the teams' access to each workspace, the run triggers into each and each
 * workspace's notification configurations. A notification's token, which the service never
 * shows, is read from a secret config key that may stay unset (the token is then not
 * managed); a URL that is a credential from one that must be set.
 */
export function declareWorkspaceLinks(at: AccessContext, workspaces: WorkspaceLinks[]): LinkCounts {
  const access = workspaces.flatMap((w) =>
    w.teamAccess.map((a) => ({ w, a, label: `${namePart(at.teamName(a.teamId ?? ""))}-${w.name}` })),
  );
  access.sort((x, y) => byCodePoint(x.label, y.label) || byCodePoint(x.a.id, y.a.id));
  if (access.length) {
    at.section("// Team access to workspaces");
    for (const { w, a, label } of access) {
      const permissions = customPermissions(a.access, a.permissions, WORKSPACE_ACCESS_PRESETS.custom);
      at.declare("TeamWorkspaceAccess", at.resourceName(`${label}-access`), a.id, {
        teamId: at.teamRef(a.teamId ?? ""),
        workspaceId: at.ref(w.id),
        access: a.access,
        ...(permissions ? { permissions } : {}),
        adopt: true,
      });
    }
  }

  const triggers = workspaces.flatMap((w) =>
    w.runTriggers.map((t) => ({ w, t, label: `${at.workspaceName(t.sourceId) ?? t.sourceId}-triggers-${w.name}` })),
  );
  triggers.sort((x, y) => byCodePoint(x.label, y.label) || byCodePoint(x.t.id, y.t.id));
  if (triggers.length) {
    at.section("// Run triggers: an applied run in the source workspace queues a run in the workspace");
    for (const { w, t, label } of triggers) {
      at.declare("RunTrigger", at.resourceName(label), t.id, {
        workspaceId: at.ref(w.id),
        sourceWorkspaceId: at.ref(t.sourceId),
        adopt: true,
      });
    }
  }

  let notifications = 0;
  const withNotifications = workspaces.filter((w) => w.notifications.length);
  if (withNotifications.length) {
    at.section("// Notification configurations");
    for (const w of withNotifications) {
      for (const n of [...w.notifications].sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id))) {
        const owner = { workspace: w.name, notification: n.name };
        const url =
          n.url && urlIsSecret(n.url, n.destinationType)
            ? at.secret({ ...owner, variable: "url" }, w.name, n.name, "url")
            : n.url;
        const triggers = [...n.triggers].sort(byCodePoint);
        at.declare("NotificationConfiguration", at.resourceName(`${w.name}-${n.name}-notification`), n.id, {
          workspaceId: at.ref(w.id),
          name: n.name,
          destinationType: n.destinationType,
          ...(url ? { url } : {}),
          // Only a generic destination's deliveries are signed with a token.
          ...(n.destinationType === "generic"
            ? { token: at.secret({ ...owner, variable: "token", optional: true }, w.name, n.name, "token") }
            : {}),
          ...(n.enabled ? {} : { enabled: false }),
          ...(triggers.length ? { triggers } : {}),
          ...(n.emailAddresses.length ? { emailAddresses: [...n.emailAddresses].sort(byCodePoint) } : {}),
          ...(n.emailUserIds.length ? { emailUserIds: [...n.emailUserIds].sort(byCodePoint) } : {}),
          adopt: true,
        });
        notifications++;
      }
    }
  }
  return {
    teamWorkspaceAccess: access.length,
    runTriggers: triggers.length,
    notificationConfigurations: notifications,
  };
}
