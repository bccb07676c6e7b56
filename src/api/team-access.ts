/**
 * A team's access to a workspace (`/team-workspaces`) and to a project (`/team-projects`),
 * in the hosted service's shapes. The levels, the custom permissions and what each
 * preset level grants are said once here, for the server, the client and the resources.
 */
import { z } from "zod";
import { ORGANIZATION_FLAGS_ON_WORKSPACES, WORKSPACE_LEVEL_ORDER, WORKSPACE_PERMISSIONS } from "./access-levels";
import { documentSchema, listDocumentSchema, maybe, orAbsent, resourceSchema } from "./common";

export { ORGANIZATION_FLAGS_ON_WORKSPACES, WORKSPACE_LEVEL_ORDER, WORKSPACE_PERMISSIONS };

/** Access levels of a team on a workspace. */
export const WORKSPACE_ACCESS_LEVELS = ["read", "plan", "write", "admin", "custom"] as const;
/**
 * A team's access level on a workspace:
 * `read` (read runs, variables and state),
 * `plan` (also queue plans),
 * `write` (also apply runs, write variables and state, lock the workspace),
 * `admin` (also manage its settings, team access and run tasks, and delete it) or
 * `custom` (the permissions given, each on its own).
 */
export type WorkspaceAccessLevel = (typeof WORKSPACE_ACCESS_LEVELS)[number];

/** A permission of a team on a workspace, in the service's spelling (`state-versions`, ...). */
export type WorkspacePermissionName = keyof typeof WORKSPACE_PERMISSIONS;
/** A value for each workspace permission: a boolean, or one of the values it takes. */
export type WorkspacePermissionValues = {
  [K in WorkspacePermissionName]: (typeof WORKSPACE_PERMISSIONS)[K] extends "boolean"
    ? boolean
    : (typeof WORKSPACE_PERMISSIONS)[K][number];
};

/**
 * What each level grants; `custom` lists the values a custom grant starts from. A
 * permission a later service adds takes its value here, so a program written before it
 * keeps comparing equal.
 */
export const WORKSPACE_ACCESS_PRESETS: Record<WorkspaceAccessLevel, WorkspacePermissionValues> = {
  read: {
    runs: "read",
    variables: "read",
    "state-versions": "read",
    "sentinel-mocks": "none",
    "workspace-locking": false,
    "run-tasks": false,
    "policy-overrides": false,
  },
  plan: {
    runs: "plan",
    variables: "read",
    "state-versions": "read",
    "sentinel-mocks": "none",
    "workspace-locking": false,
    "run-tasks": false,
    "policy-overrides": false,
  },
  write: {
    runs: "apply",
    variables: "write",
    "state-versions": "write",
    "sentinel-mocks": "read",
    "workspace-locking": true,
    "run-tasks": false,
    "policy-overrides": false,
  },
  admin: {
    runs: "apply",
    variables: "write",
    "state-versions": "write",
    "sentinel-mocks": "read",
    "workspace-locking": true,
    "run-tasks": true,
    "policy-overrides": false,
  },
  custom: {
    runs: "read",
    variables: "none",
    "state-versions": "none",
    "sentinel-mocks": "none",
    "workspace-locking": false,
    "run-tasks": false,
    "policy-overrides": false,
  },
};

/** Access levels of a team on a project. */
export const PROJECT_ACCESS_LEVELS = ["read", "write", "maintain", "admin", "custom"] as const;
/**
 * A team's access level on a project:
 * `read` (read the project and its workspaces),
 * `write` (also apply runs and write variables and state in its workspaces),
 * `maintain` (admin on its workspaces, which it may also create and delete),
 * `admin` (also manage the project, its teams and its variable sets) or
 * `custom` (the permissions given, each on its own).
 */
export type ProjectAccessLevel = (typeof PROJECT_ACCESS_LEVELS)[number];

/** A team's permissions on the project itself (`project-access`). */
export const PROJECT_PERMISSIONS = {
  /** The project's settings: read them, also update them, or also delete the project. */
  settings: ["read", "update", "delete"],
  /** The teams with access to the project: none, read them, or also manage their access. */
  teams: ["none", "read", "manage"],
  /** The variable sets the project owns: none, read them, or also write them. */
  "variable-sets": ["none", "read", "write"],
} as const;

/** A team's permissions on every workspace of the project (`workspace-access`). */
export const PROJECT_WORKSPACE_PERMISSIONS = {
  /** Runs: read them, also queue plans, or also apply them. */
  runs: ["read", "plan", "apply"],
  /** Sentinel mocks of plans: none, or download them. */
  "sentinel-mocks": ["none", "read"],
  /** State versions: none, outputs only, read them, or also create them. */
  "state-versions": ["none", "read-outputs", "read", "write"],
  /** Workspace variables: none, read them, or also write them. */
  variables: ["none", "read", "write"],
  /** Create workspaces in the project. */
  create: "boolean",
  /** Lock and unlock the project's workspaces. */
  locking: "boolean",
  /** Move the project's workspaces to another project. */
  move: "boolean",
  /** Delete the project's workspaces. */
  delete: "boolean",
  /** Manage the run tasks of the project's workspaces. */
  "run-tasks": "boolean",
  /** Override soft-mandatory policy checks on the project's workspaces. */
  "policy-overrides": "boolean",
} as const;

type Values<T extends Record<string, "boolean" | ReadonlyArray<string>>> = {
  [K in keyof T]: T[K] extends "boolean" ? boolean : T[K] extends ReadonlyArray<infer V> ? V : never;
};
/** A value for each permission on a project itself. */
export type ProjectPermissionValues = Values<typeof PROJECT_PERMISSIONS>;
/** A value for each permission on a project's workspaces. */
export type ProjectWorkspacePermissionValues = Values<typeof PROJECT_WORKSPACE_PERMISSIONS>;

/** What each project level grants; `custom` lists the values a custom grant starts from. */
export const PROJECT_ACCESS_PRESETS: Record<
  ProjectAccessLevel,
  { project: ProjectPermissionValues; workspace: ProjectWorkspacePermissionValues }
> = (() => {
  const ws = (
    runs: ProjectWorkspacePermissionValues["runs"],
    level: "none" | "read" | "write",
    flags: Partial<ProjectWorkspacePermissionValues>,
  ): ProjectWorkspacePermissionValues => ({
    runs,
    "sentinel-mocks": level === "write" ? "read" : "none",
    "state-versions": level,
    variables: level,
    create: false,
    locking: false,
    move: false,
    delete: false,
    "run-tasks": false,
    "policy-overrides": false,
    ...flags,
  });
  const readProject: ProjectPermissionValues = { settings: "read", teams: "none", "variable-sets": "none" };
  return {
    read: { project: readProject, workspace: ws("read", "read", {}) },
    write: { project: readProject, workspace: ws("apply", "write", { locking: true }) },
    maintain: {
      project: readProject,
      workspace: ws("apply", "write", { create: true, locking: true, delete: true, "run-tasks": true }),
    },
    admin: {
      project: { settings: "delete", teams: "manage", "variable-sets": "write" },
      workspace: ws("apply", "write", { create: true, locking: true, move: true, delete: true, "run-tasks": true }),
    },
    custom: { project: readProject, workspace: ws("read", "none", {}) },
  };
})();

/** A zod object of optional permissions from one of the lists above. */
function permissionsSchema<T extends Record<string, "boolean" | ReadonlyArray<string>>>(list: T) {
  return z
    .object(
      Object.fromEntries(
        Object.entries(list).map(([k, v]) => [
          k,
          (v === "boolean" ? z.boolean() : z.enum(v as unknown as [string, ...string[]])).optional(),
        ]),
      ) as unknown as { [K in keyof T]: z.ZodOptional<z.ZodType<Values<T>[K]>> },
    )
    .loose();
}

/** A relationship naming one record by id. */
const idRef = z.object({ data: z.object({ id: z.string().min(1) }).loose() }).loose();

/** Attributes of a team's access to a workspace in a create or update body. */
export const teamWorkspaceAttributes = permissionsSchema(WORKSPACE_PERMISSIONS).extend({
  access: z.enum(WORKSPACE_ACCESS_LEVELS).optional(),
});

/**
 * Bodies of `POST /<type>` and `PATCH /<type>/:id` for a team's access to one target (a
 * workspace, a project): a create gives `created` (the attributes with the access level
 * required), the target and the team; an update gives only the `attributes` that change.
 */
function accessBodySchemas<T extends string, K extends string, C extends z.ZodType, U extends z.ZodType>(
  type: T,
  target: K,
  created: C,
  attributes: U,
) {
  const relationships = { [target]: idRef, team: idRef } as Record<K | "team", typeof idRef>;
  return {
    create: z
      .object({
        data: z
          .object({ type: z.literal(type), attributes: created, relationships: z.object(relationships).loose() })
          .loose(),
      })
      .loose(),
    update: z.object({ data: z.object({ type: z.literal(type), attributes: attributes.optional() }).loose() }).loose(),
  };
}

const teamWorkspaceBodies = accessBodySchemas(
  "team-workspaces",
  "workspace",
  teamWorkspaceAttributes.extend({ access: z.enum(WORKSPACE_ACCESS_LEVELS) }),
  teamWorkspaceAttributes,
);
/** Body of `POST /team-workspaces`. */
export const teamWorkspaceCreateSchema = teamWorkspaceBodies.create;
/** Body of `PATCH /team-workspaces/:id`. */
export const teamWorkspaceUpdateSchema = teamWorkspaceBodies.update;

const projectAccessAttributes = z
  .object({
    access: z.enum(PROJECT_ACCESS_LEVELS).optional(),
    "project-access": permissionsSchema(PROJECT_PERMISSIONS).nullish(),
    "workspace-access": permissionsSchema(PROJECT_WORKSPACE_PERMISSIONS).nullish(),
  })
  .loose();

const teamProjectBodies = accessBodySchemas(
  "team-projects",
  "project",
  projectAccessAttributes.extend({ access: z.enum(PROJECT_ACCESS_LEVELS) }),
  projectAccessAttributes,
);
/** Body of `POST /team-projects`. */
export const teamProjectCreateSchema = teamProjectBodies.create;
/** Body of `PATCH /team-projects/:id`. */
export const teamProjectUpdateSchema = teamProjectBodies.update;

/** A team's access to a workspace as read back. */
export const teamWorkspaceResourceSchema = resourceSchema(
  "team-workspaces",
  z
    .object({
      access: orAbsent(z.string(), ""),
      runs: maybe(z.string()),
      variables: maybe(z.string()),
      "state-versions": maybe(z.string()),
      "sentinel-mocks": maybe(z.string()),
      "workspace-locking": maybe(z.boolean()),
      "run-tasks": maybe(z.boolean()),
      "policy-overrides": maybe(z.boolean()),
    })
    .loose(),
);
/** A team's access to a workspace (`team-workspaces`, id `tws-`). */
export type TeamWorkspaceResource = z.infer<typeof teamWorkspaceResourceSchema>;
/** Body of a response holding one team workspace access. */
export const teamWorkspaceDocumentSchema = documentSchema(teamWorkspaceResourceSchema);
/** Body of one page of a workspace's team accesses. */
export const teamWorkspaceListDocumentSchema = listDocumentSchema(teamWorkspaceResourceSchema);

/** A team's access to a project as read back. */
export const teamProjectResourceSchema = resourceSchema(
  "team-projects",
  z
    .object({
      access: orAbsent(z.string(), ""),
      "project-access": maybe(z.record(z.string(), z.unknown())),
      "workspace-access": maybe(z.record(z.string(), z.unknown())),
    })
    .loose(),
);
/** A team's access to a project (`team-projects`, id `tprj-`). */
export type TeamProjectResource = z.infer<typeof teamProjectResourceSchema>;
/** Body of a response holding one team project access. */
export const teamProjectDocumentSchema = documentSchema(teamProjectResourceSchema);
/** Body of one page of a project's team accesses. */
export const teamProjectListDocumentSchema = listDocumentSchema(teamProjectResourceSchema);

/** The level a team's preset grant on a project gives it on every workspace of the project. */
export const PROJECT_LEVEL_ON_WORKSPACES: Record<
  Exclude<ProjectAccessLevel, "custom">,
  (typeof WORKSPACE_LEVEL_ORDER)[number]
> = { read: "read", write: "write", maintain: "admin", admin: "admin" };

/** A custom project grant's `workspace-access` read as a custom grant on each workspace of the project. */
export function projectGrantOnWorkspaces(w: ProjectWorkspacePermissionValues): WorkspacePermissionValues {
  return {
    runs: w.runs,
    variables: w.variables,
    "state-versions": w["state-versions"],
    "sentinel-mocks": w["sentinel-mocks"],
    "workspace-locking": w.locking,
    "run-tasks": w["run-tasks"],
    "policy-overrides": w["policy-overrides"],
  };
}
