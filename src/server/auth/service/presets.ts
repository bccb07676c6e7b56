import {
  PROJECT_ACCESS_PRESETS,
  type ProjectAccessLevel,
  type ProjectPermissionValues,
  type ProjectWorkspacePermissionValues,
} from "../../../api/team-access";

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
