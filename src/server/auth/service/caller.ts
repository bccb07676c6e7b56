import type { Permissions } from "../../../api/workspaces";

/**
 * Who is calling. Every token resolves to a principal user id (a service account for
 * organization and team tokens, as the hosted service does), which is what a lock
 * records as `locked-by`.
 */
export interface Caller {
  tokenId: string;
  kind: "organization" | "team" | "user";
  principalId: string;
  /** Organization of an organization or team token; null for a user token. */
  organization: string | null;
  teamId: string | null;
  userId: string | null;
  /** The bootstrap token of a local server: owner of every organization on it. */
  siteAdmin: boolean;
  roles: Map<string, OrgRole>;
}

export interface OrgRole {
  member: boolean;
  owner: boolean;
  manageWorkspaces: boolean;
  manageProjects: boolean;
  /** Owners, the organization token, and teams with `manage-agent-pools` manage pools and their tokens. */
  manageAgentPools: boolean;
  /** Owners, the organization token, and teams with `manage-policies` manage policies, policy sets and their parameters. */
  managePolicies: boolean;
  /**
   * The level a team's organization-wide flags give the caller on every workspace
   * (ORGANIZATION_FLAGS_ON_WORKSPACES): `admin` from manage-workspaces or manage-projects,
   * `read` from read-workspaces or read-projects; absent when no flag gives one.
   */
  everyWorkspaceLevel?: "admin" | "read";
  /** The caller's teams in this organization. */
  teamIds: string[];
  /** The organization lets workspace admins force delete (spec 5, item 7). */
  adminsMayForceDelete: boolean;
  /** Permissions on any workspace, for callers that manage them all (memoized per request). */
  everyWorkspace?: Permissions;
}
