/** `TeamProjectAccess`: a team's access to one project and its workspaces (`/team-projects`). */
import * as pulumi from "@pulumi/pulumi";
import type { ProjectAccessLevel, ProjectPermissionValues, ProjectWorkspacePermissionValues } from "../api/team-access";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { CLAIMANT_KEY } from "./process/claims";

/** A team's permissions on the project itself under `custom` access; each one left out takes its custom default. */
export interface TeamProjectPermissionsArgs {
  /** The project's settings: `read` (read them), `update` (also update them) or `delete` (also delete the project). */
  settings?: pulumi.Input<ProjectPermissionValues["settings"]>;
  /** The teams with access to the project: `none` (no access), `read` (read them) or `manage` (also manage their access). */
  teams?: pulumi.Input<ProjectPermissionValues["teams"]>;
  /** The variable sets the project owns: `none` (no access), `read` (read them) or `write` (also write them). */
  variableSets?: pulumi.Input<ProjectPermissionValues["variable-sets"]>;
}

/** A team's permissions on every workspace of the project under `custom` access; each one left out takes its custom default. */
export interface TeamProjectWorkspacePermissionsArgs {
  /** Runs: `read` (read them), `plan` (also queue plans) or `apply` (also apply them). */
  runs?: pulumi.Input<ProjectWorkspacePermissionValues["runs"]>;
  /** Sentinel mocks of plans: `none` (no access) or `read` (download them). */
  sentinelMocks?: pulumi.Input<ProjectWorkspacePermissionValues["sentinel-mocks"]>;
  /** State versions: `none` (no access), `read-outputs` (read the outputs only), `read` (read them) or `write` (also create them). */
  stateVersions?: pulumi.Input<ProjectWorkspacePermissionValues["state-versions"]>;
  /** Workspace variables: `none` (no access), `read` (read them) or `write` (also write them). */
  variables?: pulumi.Input<ProjectWorkspacePermissionValues["variables"]>;
  /** Create workspaces in the project. */
  create?: pulumi.Input<boolean>;
  /** Lock and unlock the project's workspaces. */
  locking?: pulumi.Input<boolean>;
  /** Move the project's workspaces to another project. */
  move?: pulumi.Input<boolean>;
  /** Delete the project's workspaces. */
  delete?: pulumi.Input<boolean>;
  /** Manage the run tasks of the project's workspaces. */
  runTasks?: pulumi.Input<boolean>;
  /** Override soft-mandatory policy checks on the project's workspaces. */
  policyOverrides?: pulumi.Input<boolean>;
}

/** Inputs of a {@link TeamProjectAccess}. */
export interface TeamProjectAccessArgs {
  /** Team id (`team-...`). A change replaces the access (the new one first, then the old one removed). */
  teamId: pulumi.Input<string>;
  /** Project id (`prj-...`). A change replaces the access. */
  projectId: pulumi.Input<string>;
  /**
   * Access level: `read`, `write`, `maintain`, `admin`, or `custom` for the permissions
   * given. A change is made in place.
   */
  access: pulumi.Input<ProjectAccessLevel>;
  /** Permissions on the project itself under `custom` access (under a preset level, one given must be the level's own). A change is made in place. */
  projectPermissions?: pulumi.Input<TeamProjectPermissionsArgs>;
  /** Permissions on every workspace of the project under `custom` access (under a preset level, one given must be the level's own). A change is made in place. */
  workspacePermissions?: pulumi.Input<TeamProjectWorkspacePermissionsArgs>;
  /**
   * Take over the team's access to the project if it already has one (granted in the UI,
   * by another stack): `create` then changes only what the program declares differently
   * (nothing when all matches). Without it, access the team already has fails the create
   * with an error that names its import id and this option. Default false; no effect once
   * the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

/** A team's permissions on a project itself, as the service reports them. */
export interface TeamProjectPermissionsOutput {
  /** The project's settings: `read` (read them), `update` (also update them) or `delete` (also delete the project). */
  settings: ProjectPermissionValues["settings"];
  /** The teams with access to the project: `none` (no access), `read` (read them) or `manage` (also manage their access). */
  teams: ProjectPermissionValues["teams"];
  /** The variable sets the project owns: `none` (no access), `read` (read them) or `write` (also write them). */
  variableSets: ProjectPermissionValues["variable-sets"];
}

/** A team's permissions on every workspace of a project, as the service reports them. */
export interface TeamProjectWorkspacePermissionsOutput {
  /** Runs: `read` (read them), `plan` (also queue plans) or `apply` (also apply them). */
  runs: ProjectWorkspacePermissionValues["runs"];
  /** Sentinel mocks of plans: `none` (no access) or `read` (download them). */
  sentinelMocks: ProjectWorkspacePermissionValues["sentinel-mocks"];
  /** State versions: `none` (no access), `read-outputs` (read the outputs only), `read` (read them) or `write` (also create them). */
  stateVersions: ProjectWorkspacePermissionValues["state-versions"];
  /** Workspace variables: `none` (no access), `read` (read them) or `write` (also write them). */
  variables: ProjectWorkspacePermissionValues["variables"];
  /** Create workspaces in the project. */
  create: boolean;
  /** Lock and unlock the project's workspaces. */
  locking: boolean;
  /** Move the project's workspaces. */
  move: boolean;
  /** Delete the project's workspaces. */
  delete: boolean;
  /** Manage run tasks. */
  runTasks: boolean;
  /** Override soft-mandatory policy checks. */
  policyOverrides: boolean;
}

const TEAM_PROJECT_ACCESS_OUTPUTS = [
  "teamId",
  "projectId",
  "access",
  "projectPermissions",
  "workspacePermissions",
] as const;

/**
 * A team's access to a project and every workspace in it: a preset level (`read`,
 * `write`, `maintain`, `admin`) or `custom` permissions (since 0.6.0). A change of the team
 * or the project replaces it; a change of the level or the permissions is made in place.
 * Delete removes this access alone. Two resources of one stack that give the same team
 * access to the same project are refused at preview.
 *
 * Drift: a refresh reads the access back; a level or permission changed outside the program
 * shows in the next preview and `pulumi up` restores it; access removed outside the
 * program is dropped from the state and `pulumi up` grants it again.
 *
 * After an interrupted `pulumi up`: an access record has no field that could say whose it
 * is, so access the interrupted update granted and left out of the state cannot be told
 * from access granted in the UI; the next `up` fails on it with one message that names
 * its import id and `adopt: true`. Set `adopt: true` for one `pulumi up`, then remove it.
 */
export class TeamProjectAccess extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.TeamProjectAccess;

  /** Reads a team's project access without managing it; `id` is `tprj-...` or `<team-id>/<prj-id>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): TeamProjectAccess {
    return new TeamProjectAccess(name, undefined as unknown as TeamProjectAccessArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is TeamProjectAccess {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.TeamProjectAccess
    );
  }

  /** The team (`team-...`). */
  declare readonly teamId: pulumi.Output<string>;
  /** The project (`prj-...`). */
  declare readonly projectId: pulumi.Output<string>;
  /** The access level the service reports. */
  declare readonly access: pulumi.Output<string>;
  /** The permissions on the project itself. */
  declare readonly projectPermissions: pulumi.Output<TeamProjectPermissionsOutput>;
  /** The permissions on every workspace of the project. */
  declare readonly workspacePermissions: pulumi.Output<TeamProjectWorkspacePermissionsOutput>;

  /** Gives a team access to a project; `name` is the Pulumi resource name. */
  constructor(name: string, args: TeamProjectAccessArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.TeamProjectAccess,
        name,
        dynamicProps(
          "TeamProjectAccess",
          name,
          withOutputs(
            args ? { ...(args as unknown as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined,
            TEAM_PROJECT_ACCESS_OUTPUTS,
          ),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
