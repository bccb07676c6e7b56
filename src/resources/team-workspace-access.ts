/** `TeamWorkspaceAccess`: a team's access to one workspace (`/team-workspaces`). */
import * as pulumi from "@pulumi/pulumi";
import type { WorkspaceAccessLevel, WorkspacePermissionValues } from "../api/team-access";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";
import { CLAIMANT_KEY } from "./process/claims";

/**
 * A team's permissions on a workspace under `custom` access; each one left out takes the
 * value a new custom grant starts from (the weakest: runs `read`, the rest `none` or false).
 */
export interface TeamWorkspacePermissionsArgs {
  /** Runs: `read` (read them), `plan` (also queue plans) or `apply` (also apply them). */
  runs?: pulumi.Input<WorkspacePermissionValues["runs"]>;
  /** Workspace variables: `none` (no access), `read` (read them) or `write` (also write them). */
  variables?: pulumi.Input<WorkspacePermissionValues["variables"]>;
  /** State versions: `none` (no access), `read-outputs` (read the outputs only), `read` (read them) or `write` (also create them). */
  stateVersions?: pulumi.Input<WorkspacePermissionValues["state-versions"]>;
  /** Sentinel mocks of plans: `none` (no access) or `read` (download them). */
  sentinelMocks?: pulumi.Input<WorkspacePermissionValues["sentinel-mocks"]>;
  /** Lock and unlock the workspace. */
  workspaceLocking?: pulumi.Input<boolean>;
  /** Manage the workspace's run tasks. */
  runTasks?: pulumi.Input<boolean>;
  /** Override soft-mandatory policy checks. */
  policyOverrides?: pulumi.Input<boolean>;
}

/** Inputs of a {@link TeamWorkspaceAccess}. */
export interface TeamWorkspaceAccessArgs {
  /** Team id (`team-...`). A change replaces the access (the new one first, then the old one removed). */
  teamId: pulumi.Input<string>;
  /** Workspace id (`ws-...`). A change replaces the access. */
  workspaceId: pulumi.Input<string>;
  /**
   * Access level: `read`, `plan`, `write`, `admin`, or `custom` for the `permissions` given.
   * A change is made in place.
   */
  access: pulumi.Input<WorkspaceAccessLevel>;
  /**
   * Permissions under `custom` access (each left out takes its custom default). Under a
   * preset level they may be left out; one given must be the level's own. A preset level and
   * custom permissions that grant the same compare equal. A change is made in place.
   */
  permissions?: pulumi.Input<TeamWorkspacePermissionsArgs>;
  /**
   * Take over the team's access to the workspace if it already has one (granted in the UI,
   * by another stack): `create` then changes only what the program declares differently
   * (nothing when all matches), and from then on this resource owns it (delete removes it).
   * Without it, access the team already has fails the create with an error that names its
   * import id and this option. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

/** The permissions a team holds on a workspace, as the service reports them. */
export interface TeamWorkspacePermissionsOutput {
  /** Runs: `read` (read them), `plan` (also queue plans) or `apply` (also apply them). */
  runs: WorkspacePermissionValues["runs"];
  /** Workspace variables: `none` (no access), `read` (read them) or `write` (also write them). */
  variables: WorkspacePermissionValues["variables"];
  /** State versions: `none` (no access), `read-outputs` (read the outputs only), `read` (read them) or `write` (also create them). */
  stateVersions: WorkspacePermissionValues["state-versions"];
  /** Sentinel mocks of plans: `none` (no access) or `read` (download them). */
  sentinelMocks: WorkspacePermissionValues["sentinel-mocks"];
  /** Lock and unlock the workspace. */
  workspaceLocking: boolean;
  /** Manage run tasks. */
  runTasks: boolean;
  /** Override soft-mandatory policy checks. */
  policyOverrides: boolean;
}

const TEAM_WORKSPACE_ACCESS_OUTPUTS = ["teamId", "workspaceId", "access", "permissions"] as const;

/**
 * A team's access to a workspace: a preset level (`read`, `plan`, `write`, `admin`) or
 * `custom` permissions (since 0.6.0). A change of the team or the workspace replaces it; a
 * change of the level or the permissions is made in place. Delete removes this access
 * alone. Two resources of one stack that give the same team access to the same workspace
 * are refused at preview.
 *
 * Drift: a refresh reads the access back; a level or permission changed outside the program
 * shows in the next preview and `pulumi up` restores it; access removed outside the
 * program is dropped from the state and `pulumi up` grants it again.
 *
 * After an interrupted `pulumi up`: an access record has no field that could say whose it
 * is, so access the interrupted update granted and left out of the state cannot be told
 * from access granted in the UI; the next `up` fails on it with one message that names
 * its import id and `adopt: true`. Set `adopt: true` for one `pulumi up` (it takes the
 * access over with no write when it matches), then remove it.
 */
export class TeamWorkspaceAccess extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.TeamWorkspaceAccess;

  /** Reads a team's access without managing it; `id` is `tws-...` or `<team-id>/<ws-id>`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): TeamWorkspaceAccess {
    return new TeamWorkspaceAccess(name, undefined as unknown as TeamWorkspaceAccessArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is TeamWorkspaceAccess {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.TeamWorkspaceAccess
    );
  }

  /** The team (`team-...`). */
  declare readonly teamId: pulumi.Output<string>;
  /** The workspace (`ws-...`). */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The access level the service reports. */
  declare readonly access: pulumi.Output<string>;
  /** The permissions the access holds (a preset level's, or the custom ones). */
  declare readonly permissions: pulumi.Output<TeamWorkspacePermissionsOutput>;

  /** Gives a team access to a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: TeamWorkspaceAccessArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.TeamWorkspaceAccess,
        name,
        dynamicProps(
          "TeamWorkspaceAccess",
          name,
          withOutputs(
            args ? { ...(args as unknown as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined,
            TEAM_WORKSPACE_ACCESS_OUTPUTS,
          ),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
