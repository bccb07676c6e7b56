/** Wire schemas of the service: the single source of truth for the client and the local server. */
export * from "./common";
export * from "./workspaces";
export * from "./tags";
export * from "./no-code";
export * from "./organizations";
export * from "./workspace-fields";
