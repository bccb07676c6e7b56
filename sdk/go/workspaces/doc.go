// Pulumi resources and lookups for infrastructure-engine workspaces and no-code provisioning: Workspace, WorkspaceTags, RemoteStateConsumers, NoCodeModule, NoCodeWorkspace, WorkspaceLock, DataRetentionPolicy, WorkspaceVariable, WorkspaceVariables, VariableSet and VariableSetApplication; the lookups getWorkspaces, getWorkspace and getEffectiveVariables.
package workspaces
