/**
 * The effective-access lookup (./lookups.ts), for both doors: who may do what on one
 * workspace, from the three places the service grants it (a team's organization-wide
 * flags, its access to the workspace's project, and its access to the workspace itself).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  ORGANIZATION_FLAGS_ON_WORKSPACES,
  PROJECT_ACCESS_PRESETS,
  PROJECT_WORKSPACE_PERMISSIONS,
  PROJECT_LEVEL_ON_WORKSPACES,
  WORKSPACE_ACCESS_PRESETS,
  WORKSPACE_LEVEL_ORDER,
  WORKSPACE_PERMISSIONS,
  projectGrantOnWorkspaces,
  type WorkspacePermissionValues,
} from "../api/team-access";
import type { WorkspacesClient } from "../client";
import type { TeamWorkspacePermissionsOutput } from "./team-workspace-access";

/** Arguments of {@link getEffectiveAccess}. */
export interface GetEffectiveAccessArgs {
  /** Workspace id (`ws-...`). */
  workspaceId: string;
}

/** Arguments of {@link getEffectiveAccessOutput}: those of {@link GetEffectiveAccessArgs}, each a `pulumi.Input`. */
export interface GetEffectiveAccessOutputArgs {
  /** Workspace id (`ws-...`). */
  workspaceId: pulumi.Input<string>;
}

/** One grant a team's access to the workspace comes from. */
export interface EffectiveAccessSource {
  /** Where the grant is: `organization` (a flag of the team, for every workspace), `project` (its access to the workspace's project) or `workspace` (its access to the workspace itself). */
  kind: "organization" | "project" | "workspace";
  /** The organization's name, the project access record (`tprj-...`) or the workspace access record (`tws-...`). */
  id: string;
  /** The level this grant gives on the workspace (a project's `maintain` gives `admin`), or `custom`. */
  access: string;
  /** For an organization grant, the team's flag that gives it (`manageWorkspaces`, `readWorkspaces`, ...); absent otherwise. */
  flag?: string;
}

/** A team's access to the workspace, all its grants together. */
export interface EffectiveTeamAccess {
  /** Team id (`team-...`). */
  teamId: string;
  /** Team name; absent when the token may not see the team (a secret team). */
  teamName?: string;
  /**
   * The strongest level among the grants; `custom` when the grants together hold a
   * permission that level does not (an `admin` grant stays `admin`, which holds more than
   * its permissions: settings, team access, delete).
   */
  access: string;
  /** The permissions the grants hold together: each one's strongest value. */
  permissions: TeamWorkspacePermissionsOutput;
  /** The grants it comes from: organization first, then project, then workspace. */
  sources: EffectiveAccessSource[];
}

/** Result of {@link getEffectiveAccess}. */
export interface GetEffectiveAccessResult {
  /** The workspace (`ws-...`). */
  workspaceId: string;
  /** The workspace's project (`prj-...`); absent on a server without projects. */
  projectId?: string;
  /** Each team with any access to the workspace, by team name (then id). */
  teams: EffectiveTeamAccess[];
}

type Level = (typeof WORKSPACE_LEVEL_ORDER)[number];
type Values = WorkspacePermissionValues;

const camel = (k: string) => k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Each permission's strongest value of the two (the lists run from weakest to strongest). */
function stronger(a: Values, b: Values): Values {
  const out: Record<string, unknown> = { ...a };
  for (const [name, values] of Object.entries(WORKSPACE_PERMISSIONS)) {
    const x = (a as Record<string, unknown>)[name];
    const y = (b as Record<string, unknown>)[name];
    out[name] =
      values === "boolean"
        ? x === true || y === true
        : (values as readonly string[]).indexOf(String(y)) > (values as readonly string[]).indexOf(String(x))
          ? y
          : x;
  }
  return out as Values;
}

/** Whether `held` grants anything `level` does not. */
function exceeds(held: Values, level: Level): boolean {
  const preset = WORKSPACE_ACCESS_PRESETS[level];
  return JSON.stringify(stronger(preset, held)) !== JSON.stringify(preset);
}

/** The values a record gives (in the client's spelling) in the service's spelling, for the permissions of `list`. */
function wireOf<T extends object>(list: T, given: Record<string, unknown>): Partial<Record<keyof T, never>> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(list)) {
    const v = given[camel(name)];
    if (typeof v === "string" || typeof v === "boolean") out[name] = v;
  }
  return out as Partial<Record<keyof T, never>>;
}

/** A workspace grant's permissions (in the service's spelling): a preset level's, or a custom grant's over the custom defaults. */
function valuesOf(level: string, given: Record<string, unknown>): Values {
  if (level !== "custom" && level in WORKSPACE_ACCESS_PRESETS) return WORKSPACE_ACCESS_PRESETS[level as Level];
  return { ...WORKSPACE_ACCESS_PRESETS.custom, ...wireOf(WORKSPACE_PERMISSIONS, given) };
}

interface Collected {
  teamId: string;
  sources: EffectiveAccessSource[];
  values: Values[];
  levels: Level[];
}

/**
 * Reads the workspace, its project's and its own team access, and the organization's teams
 * (their names and organization-wide flags), and puts each team's grants together.
 */
export async function effectiveAccess(
  client: WorkspacesClient,
  workspaceId: string,
): Promise<GetEffectiveAccessResult> {
  const ws = await client.workspaces.read(workspaceId);
  const organization = ws.organization ?? client.organization;
  const byTeam = new Map<string, Collected>();
  const add = (teamId: string, source: EffectiveAccessSource, values: Values) => {
    let c = byTeam.get(teamId);
    if (!c) byTeam.set(teamId, (c = { teamId, sources: [], values: [], levels: [] }));
    c.sources.push(source);
    c.values.push(values);
    if (source.access !== "custom") c.levels.push(source.access as Level);
  };

  const names = new Map<string, string>();
  if (organization) {
    for await (const team of client.teams.list(organization)) {
      names.set(team.id, team.name);
      const flags = team.organizationAccess as Record<string, boolean | undefined>;
      // The strongest flag the team holds, one source per team.
      const held = Object.entries(ORGANIZATION_FLAGS_ON_WORKSPACES)
        .filter(([flag]) => flags[camel(flag)] === true)
        .sort(([, a], [, b]) => WORKSPACE_LEVEL_ORDER.indexOf(b) - WORKSPACE_LEVEL_ORDER.indexOf(a))[0];
      if (held)
        add(
          team.id,
          { kind: "organization", id: organization, access: held[1], flag: camel(held[0]) },
          WORKSPACE_ACCESS_PRESETS[held[1]],
        );
    }
  }
  if (ws.projectId) {
    for await (const grant of client.teamProjectAccess.list(ws.projectId)) {
      if (!grant.teamId) continue;
      const level = grant.access;
      if (level === "custom") {
        const wire = {
          ...PROJECT_ACCESS_PRESETS.custom.workspace,
          ...wireOf(PROJECT_WORKSPACE_PERMISSIONS, grant.workspacePermissions),
        };
        add(grant.teamId, { kind: "project", id: grant.id, access: "custom" }, projectGrantOnWorkspaces(wire));
      } else if (level in PROJECT_LEVEL_ON_WORKSPACES) {
        const on = PROJECT_LEVEL_ON_WORKSPACES[level as keyof typeof PROJECT_LEVEL_ON_WORKSPACES];
        add(grant.teamId, { kind: "project", id: grant.id, access: on }, WORKSPACE_ACCESS_PRESETS[on]);
      }
    }
  }
  for await (const grant of client.teamAccess.list(workspaceId)) {
    if (!grant.teamId) continue;
    const level = grant.access in WORKSPACE_ACCESS_PRESETS ? grant.access : "custom";
    add(grant.teamId, { kind: "workspace", id: grant.id, access: level }, valuesOf(level, grant.permissions));
  }

  const teams = [...byTeam.values()].map((c): EffectiveTeamAccess => {
    const held = c.values.reduce(stronger);
    const top = [...c.levels].sort((a, b) => WORKSPACE_LEVEL_ORDER.indexOf(b) - WORKSPACE_LEVEL_ORDER.indexOf(a))[0];
    const access = top === undefined ? "custom" : top === "admin" || !exceeds(held, top) ? top : "custom";
    const permissions = Object.fromEntries(
      Object.entries(held).map(([k, v]) => [camel(k), v]),
    ) as unknown as TeamWorkspacePermissionsOutput;
    const name = names.get(c.teamId);
    return {
      teamId: c.teamId,
      ...(name !== undefined ? { teamName: name } : {}),
      access,
      permissions,
      sources: c.sources,
    };
  });
  teams.sort(
    (a, b) => (a.teamName ?? "\uffff").localeCompare(b.teamName ?? "\uffff") || a.teamId.localeCompare(b.teamId),
  );
  return { workspaceId, ...(ws.projectId ? { projectId: ws.projectId } : {}), teams };
}
