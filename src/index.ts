/**
 * pulumi-workspaces: Pulumi resources for workspaces and no-code provisioning,
 * plus the typed client they are built on.
 *
 * @module pulumi-workspaces
 */
export { Workspace, WORKSPACE_OUTPUTS } from "./resources/workspace";
export type { WorkspaceArgs, VcsRepoArgs, VcsRepoOutput, SettingOverwritesArgs, ExecutionMode } from "./resources/workspace";
export { WorkspaceTags, WORKSPACE_TAGS_OUTPUTS } from "./resources/workspaceTags";
export type { WorkspaceTagsArgs, OwnershipMode } from "./resources/workspaceTags";
export { RemoteStateConsumers, REMOTE_STATE_CONSUMERS_OUTPUTS } from "./resources/remoteStateConsumers";
export type { RemoteStateConsumersArgs } from "./resources/remoteStateConsumers";
export { NoCodeModule, NO_CODE_MODULE_OUTPUTS } from "./resources/noCodeModule";
export type { NoCodeModuleArgs, VariableOptionsArgs, VariableOptionsOutput } from "./resources/noCodeModule";
export { NoCodeWorkspace, NO_CODE_WORKSPACE_OUTPUTS } from "./resources/noCodeWorkspace";
export type { NoCodeWorkspaceArgs, NoCodeVariableArgs, NoCodeVariableOutput } from "./resources/noCodeWorkspace";
export { WorkspaceLock, WORKSPACE_LOCK_OUTPUTS } from "./resources/workspaceLock";
export type { WorkspaceLockArgs } from "./resources/workspaceLock";
export { typeTokens, TYPE_TOKEN_MODULE, TYPE_TOKEN_PREFIX } from "./resources/tokens";
export type { ResourceTypeName, TypeToken } from "./resources/tokens";
export { CONFIG_KEYS } from "./resources/settings";

export * as client from "./client";
export { WorkspacesClient, resolveSettings } from "./client";
export type { ClientOptions, Settings } from "./client";
