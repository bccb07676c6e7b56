/**
 * pulumi-workspaces: Pulumi resources for workspaces and no-code provisioning,
 * plus the typed client they are built on.
 *
 * @module pulumi-workspaces
 */
export { Workspace } from "./resources/workspace";
export type { WorkspaceArgs, VcsRepoArgs, VcsRepoOutput, SettingOverwritesArgs, ExecutionMode } from "./resources/workspace";
export { WorkspaceTags } from "./resources/workspaceTags";
export type { WorkspaceTagsArgs, OwnershipMode } from "./resources/workspaceTags";
export { RemoteStateConsumers } from "./resources/remoteStateConsumers";
export type { RemoteStateConsumersArgs } from "./resources/remoteStateConsumers";
export { NoCodeModule } from "./resources/noCodeModule";
export type { NoCodeModuleArgs, VariableOptionsArgs, VariableOptionsOutput } from "./resources/noCodeModule";
export { NoCodeWorkspace } from "./resources/noCodeWorkspace";
export type { NoCodeWorkspaceArgs, NoCodeVariableArgs, NoCodeVariableOutput } from "./resources/noCodeWorkspace";
export { WorkspaceLock } from "./resources/workspaceLock";
export type { WorkspaceLockArgs } from "./resources/workspaceLock";
export { typeTokens, TYPE_TOKEN_MODULE, TYPE_TOKEN_PREFIX } from "./resources/tokens";
export type { ResourceTypeName, TypeToken } from "./resources/tokens";
export { CONFIG_KEYS } from "./resources/settings";

export * as client from "./client";
export { WorkspacesClient, resolveSettings } from "./client";
export type { ClientOptions, Settings } from "./client";
