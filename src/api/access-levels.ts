/**
 * What a team's access means on a workspace, as plain data with no imports: the custom
 * permissions, the levels' order, and the organization-wide flags that reach every
 * workspace. src/api/team-access.ts re-exports them for the server, the client and the
 * resources; the local server's web view bundles this module alone (no zod).
 */

/** The permissions of a team on a workspace, each with the values it takes (a boolean when `boolean`). */
export const WORKSPACE_PERMISSIONS = {
  runs: ["read", "plan", "apply"],
  variables: ["none", "read", "write"],
  "state-versions": ["none", "read-outputs", "read", "write"],
  "sentinel-mocks": ["none", "read"],
  "workspace-locking": "boolean",
  "run-tasks": "boolean",
  "policy-overrides": "boolean",
} as const;

/** The workspace access levels, weakest first (`custom` is not ranked: it is what its permissions say). */
export const WORKSPACE_LEVEL_ORDER = ["read", "plan", "write", "admin"] as const;

/**
 * The organization-wide flags of a team (`organization-access`) that give it a level on
 * every workspace of the organization, as the hosted service documents them (the owners
 * team holds every flag).
 */
export const ORGANIZATION_FLAGS_ON_WORKSPACES = {
  "manage-workspaces": "admin",
  "manage-projects": "admin",
  "read-workspaces": "read",
  "read-projects": "read",
} as const satisfies Partial<Record<string, (typeof WORKSPACE_LEVEL_ORDER)[number]>>;
