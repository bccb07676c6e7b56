/**
 * pulumi-workspaces: Pulumi resources for workspaces and no-code provisioning,
 * plus the typed client they are built on.
 *
 * @module pulumi-workspaces
 */
export { Workspace } from "./resources/workspace";
export type {
  WorkspaceArgs,
  VcsRepoArgs,
  VcsRepoOutput,
  SettingOverwritesArgs,
  ExecutionMode,
} from "./resources/workspace";
export { WorkspaceTags } from "./resources/workspace-tags";
export type { WorkspaceTagsArgs, OwnershipMode } from "./resources/workspace-tags";
export { RemoteStateConsumers } from "./resources/remote-state-consumers";
export type { RemoteStateConsumersArgs } from "./resources/remote-state-consumers";
export { WorkspaceSettings } from "./resources/workspace-settings";
export type { WorkspaceSettingsArgs, WorkspaceSettingsValues } from "./resources/workspace-settings";
export { NoCodeModule } from "./resources/no-code-module";
export type { NoCodeModuleArgs, VariableOptionsArgs, VariableOptionsOutput } from "./resources/no-code-module";
export { NoCodeWorkspace } from "./resources/no-code-workspace";
export type {
  NoCodeWorkspaceArgs,
  NoCodeVariableArgs,
  NoCodeVariableOutput,
  NoCodeVariableCategory,
  NoCodeWorkspaceLastUpgrade,
  UpgradeStrategy,
} from "./resources/no-code-workspace";
export { WorkspaceLock } from "./resources/workspace-lock";
export type { WorkspaceLockArgs } from "./resources/workspace-lock";
export { DataRetentionPolicy } from "./resources/data-retention-policy";
export type { DataRetentionPolicyArgs } from "./resources/data-retention-policy";
export { WorkspaceVariable } from "./resources/workspace-variable";
export type { WorkspaceVariableArgs, VariableArgs, VariableCategory } from "./resources/workspace-variable";
export { WorkspaceVariables } from "./resources/workspace-variables";
export type { WorkspaceVariablesArgs, VariableOutput } from "./resources/workspace-variables";
export { VariableSet } from "./resources/variable-set";
export type { VariableSetArgs } from "./resources/variable-set";
export { VariableSetApplication } from "./resources/variable-set-application";
export type { VariableSetApplicationArgs } from "./resources/variable-set-application";
export { Project } from "./resources/project";
export type { ProjectArgs } from "./resources/project";
export { Team } from "./resources/team";
export type { TeamArgs, TeamVisibility, OrganizationAccessArgs, OrganizationAccessOutput } from "./resources/team";
export { OrganizationMembership } from "./resources/organization-membership";
export type { OrganizationMembershipArgs } from "./resources/organization-membership";
export { TeamWorkspaceAccess } from "./resources/team-workspace-access";
export type {
  TeamWorkspaceAccessArgs,
  TeamWorkspacePermissionsArgs,
  TeamWorkspacePermissionsOutput,
} from "./resources/team-workspace-access";
export { TeamProjectAccess } from "./resources/team-project-access";
export type {
  TeamProjectAccessArgs,
  TeamProjectPermissionsArgs,
  TeamProjectWorkspacePermissionsArgs,
  TeamProjectPermissionsOutput,
  TeamProjectWorkspacePermissionsOutput,
} from "./resources/team-project-access";
export { AgentPool } from "./resources/agent-pool";
export type { AgentPoolArgs } from "./resources/agent-pool";
export { AgentToken } from "./resources/agent-token";
export { TeamToken } from "./resources/team-token";
export { OrganizationToken } from "./resources/organization-token";
export { Policy } from "./resources/policy";
export type { PolicyArgs } from "./resources/policy";
export { PolicySet } from "./resources/policy-set";
export type { PolicySetArgs } from "./resources/policy-set";
export { PolicySetParameter } from "./resources/policy-set-parameter";
export type { PolicySetParameterArgs } from "./resources/policy-set-parameter";
export type { AgentTokenArgs } from "./resources/agent-token";
export type { TeamTokenArgs } from "./resources/team-token";
export type { OrganizationTokenArgs } from "./resources/organization-token";
export { RunTrigger } from "./resources/run-trigger";
export type { RunTriggerArgs } from "./resources/run-trigger";
export { NotificationConfiguration } from "./resources/notification-configuration";
export type { NotificationConfigurationArgs } from "./resources/notification-configuration";
export {
  AgentPoolAllowedWorkspaces,
  AgentPoolAllowedProjects,
  AgentPoolExcludedWorkspaces,
} from "./resources/agent-pool-lists";
export type {
  AgentPoolAllowedWorkspacesArgs,
  AgentPoolAllowedProjectsArgs,
  AgentPoolExcludedWorkspacesArgs,
} from "./resources/agent-pool-lists";
export {
  PolicySetWorkspaces,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetProjectExclusions,
} from "./resources/policy-set-lists";
export type {
  PolicySetWorkspacesArgs,
  PolicySetProjectsArgs,
  PolicySetWorkspaceExclusionsArgs,
  PolicySetProjectExclusionsArgs,
} from "./resources/policy-set-lists";
export { TeamMembers } from "./resources/team-members";
export type { TeamMembersArgs } from "./resources/team-members";
export {
  getWorkspaces,
  getWorkspacesOutput,
  getWorkspace,
  getWorkspaceOutput,
  getEffectiveVariables,
  getEffectiveVariablesOutput,
  getEffectiveAccess,
  getEffectiveAccessOutput,
  getWorkspaceOutputs,
  getWorkspaceOutputsOutput,
  getTeam,
  getTeamOutput,
  getAgentPool,
  getAgentPoolOutput,
  getPolicySet,
  getPolicySetOutput,
  getOrganizationMembers,
  getOrganizationMembersOutput,
  getTeamMembers,
  getTeamMembersOutput,
} from "./resources/lookups";
export type {
  GetOrganizationMembersArgs,
  GetOrganizationMembersOutputArgs,
  GetOrganizationMembersResult,
  OrganizationMember,
  GetTeamMembersArgs,
  GetTeamMembersOutputArgs,
  GetTeamMembersResult,
  TeamMemberEntry,
} from "./resources/membership-lookups";
export type { GetTeamArgs, GetTeamOutputArgs, GetTeamResult } from "./resources/team-lookup";
export type { GetAgentPoolArgs, GetAgentPoolOutputArgs, GetAgentPoolResult } from "./resources/agent-pool-lookup";
export type { GetPolicySetArgs, GetPolicySetOutputArgs, GetPolicySetResult } from "./resources/policy-set-lookup";
export type {
  GetWorkspacesArgs,
  GetWorkspacesOutputArgs,
  GetWorkspacesResult,
  GetWorkspaceArgs,
  GetWorkspaceOutputArgs,
  GetWorkspaceResult,
} from "./resources/lookups";
export type {
  GetEffectiveVariablesArgs,
  GetEffectiveVariablesOutputArgs,
  GetEffectiveVariablesResult,
  EffectiveVariable,
  EffectiveVariableSource,
} from "./resources/effective-variables";
export type {
  GetEffectiveAccessArgs,
  GetEffectiveAccessOutputArgs,
  GetEffectiveAccessResult,
  EffectiveTeamAccess,
  EffectiveAccessSource,
} from "./resources/effective-access";
export type {
  GetWorkspaceOutputsArgs,
  GetWorkspaceOutputsOutputArgs,
  GetWorkspaceOutputsResult,
} from "./resources/workspace-outputs";
export {
  typeTokens,
  TYPE_TOKEN_MODULE,
  TYPE_TOKEN_PREFIX,
  pluginTypeTokens,
  PLUGIN_PACKAGE,
  PLUGIN_TOKEN_PREFIX,
} from "./resources/tokens";
export type { ResourceTypeName, TypeToken, PluginResourceName } from "./resources/tokens";
export { CONFIG_KEYS } from "./resources/provider-settings";

export * as client from "./client";
export { WorkspacesClient, resolveSettings } from "./client";
export type { ClientOptions, Settings } from "./client";
