/**
 * The Pulumi type token of every resource, through both doors, in one dependency-free
 * module. Resource classes set `static __pulumiType` from `typeTokens`; the provider
 * plugin and its schema name resources with `pluginTypeTokens`; the policy pack imports
 * this module (`pulumi-workspaces/tokens`) to match resources of either door without
 * loading the provider code, the client or a second copy of @pulumi/pulumi.
 *
 * @module pulumi-workspaces/tokens
 */

/** `pulumi.dynamic.Resource` builds tokens as `pulumi-nodejs:dynamic/<module>:<type>`. */
export const TYPE_TOKEN_MODULE = "workspaces";
/** Prefix of every dynamic resource's type token: `pulumi-nodejs:dynamic/workspaces:`. */
export const TYPE_TOKEN_PREFIX = `pulumi-nodejs:dynamic/${TYPE_TOKEN_MODULE}:` as const;

/** The Pulumi type token of each resource class, by class name (what policy packs match with). */
export const typeTokens = {
  Workspace: `${TYPE_TOKEN_PREFIX}Workspace`,
  WorkspaceTags: `${TYPE_TOKEN_PREFIX}WorkspaceTags`,
  RemoteStateConsumers: `${TYPE_TOKEN_PREFIX}RemoteStateConsumers`,
  NoCodeModule: `${TYPE_TOKEN_PREFIX}NoCodeModule`,
  NoCodeWorkspace: `${TYPE_TOKEN_PREFIX}NoCodeWorkspace`,
  WorkspaceLock: `${TYPE_TOKEN_PREFIX}WorkspaceLock`,
  DataRetentionPolicy: `${TYPE_TOKEN_PREFIX}DataRetentionPolicy`,
  WorkspaceVariable: `${TYPE_TOKEN_PREFIX}WorkspaceVariable`,
  WorkspaceVariables: `${TYPE_TOKEN_PREFIX}WorkspaceVariables`,
  VariableSet: `${TYPE_TOKEN_PREFIX}VariableSet`,
  VariableSetApplication: `${TYPE_TOKEN_PREFIX}VariableSetApplication`,
  Project: `${TYPE_TOKEN_PREFIX}Project`,
  Team: `${TYPE_TOKEN_PREFIX}Team`,
  OrganizationMembership: `${TYPE_TOKEN_PREFIX}OrganizationMembership`,
  TeamWorkspaceAccess: `${TYPE_TOKEN_PREFIX}TeamWorkspaceAccess`,
  TeamProjectAccess: `${TYPE_TOKEN_PREFIX}TeamProjectAccess`,
  RunTrigger: `${TYPE_TOKEN_PREFIX}RunTrigger`,
  NotificationConfiguration: `${TYPE_TOKEN_PREFIX}NotificationConfiguration`,
  WorkspaceSettings: `${TYPE_TOKEN_PREFIX}WorkspaceSettings`,
  AgentPool: `${TYPE_TOKEN_PREFIX}AgentPool`,
  AgentToken: `${TYPE_TOKEN_PREFIX}AgentToken`,
  TeamToken: `${TYPE_TOKEN_PREFIX}TeamToken`,
  OrganizationToken: `${TYPE_TOKEN_PREFIX}OrganizationToken`,
  AgentPoolAllowedWorkspaces: `${TYPE_TOKEN_PREFIX}AgentPoolAllowedWorkspaces`,
  AgentPoolAllowedProjects: `${TYPE_TOKEN_PREFIX}AgentPoolAllowedProjects`,
  AgentPoolExcludedWorkspaces: `${TYPE_TOKEN_PREFIX}AgentPoolExcludedWorkspaces`,
  PolicySetWorkspaces: `${TYPE_TOKEN_PREFIX}PolicySetWorkspaces`,
  PolicySetProjects: `${TYPE_TOKEN_PREFIX}PolicySetProjects`,
  PolicySetWorkspaceExclusions: `${TYPE_TOKEN_PREFIX}PolicySetWorkspaceExclusions`,
  PolicySetProjectExclusions: `${TYPE_TOKEN_PREFIX}PolicySetProjectExclusions`,
  TeamMembers: `${TYPE_TOKEN_PREFIX}TeamMembers`,
  PolicySet: `${TYPE_TOKEN_PREFIX}PolicySet`,
  PolicySetParameter: `${TYPE_TOKEN_PREFIX}PolicySetParameter`,
  Policy: `${TYPE_TOKEN_PREFIX}Policy`,
  /** The stack's origin key, one per stack, registered by the package itself (docs/interrupted-updates.md). */
  StackOrigin: `${TYPE_TOKEN_PREFIX}StackOrigin`,
} as const;

/** Names of the resource classes. */
export type ResourceTypeName = keyof typeof typeTokens;
/** Type tokens of the resource classes. */
export type TypeToken = (typeof typeTokens)[ResourceTypeName];

/** The provider plugin's package name: its schema's `name` and the first part of its tokens. */
export const PLUGIN_PACKAGE = "workspaces";
/** Prefix of every resource type token of the provider plugin: `workspaces:index:`. */
export const PLUGIN_TOKEN_PREFIX = `${PLUGIN_PACKAGE}:index:` as const;

/** Names of the resources the provider plugin serves: every class but the stack's own StackOrigin. */
export type PluginResourceName = Exclude<ResourceTypeName, "StackOrigin">;

/**
 * The type token of each resource of the provider plugin (the door of YAML, Python, Go and
 * C# programs), by class name: what policy packs match besides `typeTokens`.
 */
export const pluginTypeTokens = {
  Workspace: `${PLUGIN_TOKEN_PREFIX}Workspace`,
  WorkspaceTags: `${PLUGIN_TOKEN_PREFIX}WorkspaceTags`,
  RemoteStateConsumers: `${PLUGIN_TOKEN_PREFIX}RemoteStateConsumers`,
  NoCodeModule: `${PLUGIN_TOKEN_PREFIX}NoCodeModule`,
  NoCodeWorkspace: `${PLUGIN_TOKEN_PREFIX}NoCodeWorkspace`,
  WorkspaceLock: `${PLUGIN_TOKEN_PREFIX}WorkspaceLock`,
  DataRetentionPolicy: `${PLUGIN_TOKEN_PREFIX}DataRetentionPolicy`,
  WorkspaceVariable: `${PLUGIN_TOKEN_PREFIX}WorkspaceVariable`,
  WorkspaceVariables: `${PLUGIN_TOKEN_PREFIX}WorkspaceVariables`,
  VariableSet: `${PLUGIN_TOKEN_PREFIX}VariableSet`,
  VariableSetApplication: `${PLUGIN_TOKEN_PREFIX}VariableSetApplication`,
  Project: `${PLUGIN_TOKEN_PREFIX}Project`,
  Team: `${PLUGIN_TOKEN_PREFIX}Team`,
  OrganizationMembership: `${PLUGIN_TOKEN_PREFIX}OrganizationMembership`,
  TeamWorkspaceAccess: `${PLUGIN_TOKEN_PREFIX}TeamWorkspaceAccess`,
  TeamProjectAccess: `${PLUGIN_TOKEN_PREFIX}TeamProjectAccess`,
  RunTrigger: `${PLUGIN_TOKEN_PREFIX}RunTrigger`,
  NotificationConfiguration: `${PLUGIN_TOKEN_PREFIX}NotificationConfiguration`,
  WorkspaceSettings: `${PLUGIN_TOKEN_PREFIX}WorkspaceSettings`,
  AgentPool: `${PLUGIN_TOKEN_PREFIX}AgentPool`,
  AgentToken: `${PLUGIN_TOKEN_PREFIX}AgentToken`,
  TeamToken: `${PLUGIN_TOKEN_PREFIX}TeamToken`,
  OrganizationToken: `${PLUGIN_TOKEN_PREFIX}OrganizationToken`,
  AgentPoolAllowedWorkspaces: `${PLUGIN_TOKEN_PREFIX}AgentPoolAllowedWorkspaces`,
  AgentPoolAllowedProjects: `${PLUGIN_TOKEN_PREFIX}AgentPoolAllowedProjects`,
  AgentPoolExcludedWorkspaces: `${PLUGIN_TOKEN_PREFIX}AgentPoolExcludedWorkspaces`,
  PolicySetWorkspaces: `${PLUGIN_TOKEN_PREFIX}PolicySetWorkspaces`,
  PolicySetProjects: `${PLUGIN_TOKEN_PREFIX}PolicySetProjects`,
  PolicySetWorkspaceExclusions: `${PLUGIN_TOKEN_PREFIX}PolicySetWorkspaceExclusions`,
  PolicySetProjectExclusions: `${PLUGIN_TOKEN_PREFIX}PolicySetProjectExclusions`,
  TeamMembers: `${PLUGIN_TOKEN_PREFIX}TeamMembers`,
  PolicySet: `${PLUGIN_TOKEN_PREFIX}PolicySet`,
  PolicySetParameter: `${PLUGIN_TOKEN_PREFIX}PolicySetParameter`,
  Policy: `${PLUGIN_TOKEN_PREFIX}Policy`,
} as const satisfies Record<PluginResourceName, string>;
