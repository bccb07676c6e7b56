import {
  PROJECT_ACCESS_PRESETS,
  type ProjectAccessLevel,
  type ProjectPermissionValues,
  type ProjectWorkspacePermissionValues,
} from "../../../api/team-access";
import { ORGANIZATION_ACCESS_FLAGS, type OrganizationAccessFlag } from "../../../api/teams";
import type { TeamRecord } from "../store/records";

/** A custom project grant's permissions, stored as JSON; what the JSON lacks reads as the custom starting values. */
export interface ProjectGrantPermissions {
  project: ProjectPermissionValues;
  workspace: ProjectWorkspacePermissionValues;
}

export function customProjectAccess(json: string | null): ProjectGrantPermissions {
  const base = PROJECT_ACCESS_PRESETS.custom;
  let stored: Partial<{
    project: Partial<ProjectPermissionValues>;
    workspace: Partial<ProjectWorkspacePermissionValues>;
  }> = {};
  try {
    stored = json ? (JSON.parse(json) as typeof stored) : {};
  } catch {
    stored = {};
  }
  return { project: { ...base.project, ...stored.project }, workspace: { ...base.workspace, ...stored.workspace } };
}

/** The permissions a project grant holds: its level's preset, or a custom grant's own. */
export function projectGrantPermissions(access: string, customAccess: string | null): ProjectGrantPermissions {
  if (access === "custom") return customProjectAccess(customAccess);
  return PROJECT_ACCESS_PRESETS[access as ProjectAccessLevel] ?? PROJECT_ACCESS_PRESETS.read;
}

/** Every organization access flag of a team; the owners team holds them all. Unknown flags set on are kept. */
export function organizationAccessOf(
  t: Pick<TeamRecord, "organization_access" | "is_owners" | "manage_workspaces" | "manage_projects">,
): Record<OrganizationAccessFlag, boolean> {
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(t.organization_access || "{}") as Record<string, unknown>;
  } catch {
    stored = {};
  }
  const owners = t.is_owners === 1;
  const out = Object.fromEntries(ORGANIZATION_ACCESS_FLAGS.map((f) => [f, owners || stored[f] === true])) as Record<
    OrganizationAccessFlag,
    boolean
  >;
  out["manage-workspaces"] = owners || t.manage_workspaces === 1;
  out["manage-projects"] = owners || t.manage_projects === 1;
  // A flag this release does not know, set by a newer client, is kept and answered as a
  // newer service would (it grants nothing here).
  for (const [f, v] of Object.entries(stored))
    if (v === true && !(f in out)) (out as Record<string, boolean>)[f] = true;
  return out;
}
