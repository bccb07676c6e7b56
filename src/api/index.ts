/**
 * Wire schemas of the service: the single source of truth for the client and the local
 * server. The workspace field table they are derived from (./workspace-fields.ts) is
 * internal; its public parts (name and duration patterns, execution modes, `vcs-repo`
 * schemas) are exported with the workspace schemas.
 *
 * @module pulumi-workspaces/api
 */
export * from "./common";
export * from "./workspaces";
export * from "./tags";
export * from "./no-code";
export * from "./organizations";
export * from "./variables";
export * from "./variable-sets";
export * from "./teams";
export * from "./team-access";
export * from "./run-triggers";
export * from "./notifications";
export * from "./state-version-outputs";
export * from "./agent-pools";
export * from "./agent-tokens";
export * from "./policies";
export * from "./policy-sets";
export * from "./memberships";
export * from "./auth-tokens";
