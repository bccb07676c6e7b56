/** Wire schemas of the service: the single source of truth for the client and the local server. */
export * from "./common";
export * from "./workspaces";
export * from "./tags";
export * from "./nocode";
export * from "./organizations";
export * from "./workspaceFields";
