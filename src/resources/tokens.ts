/**
 * The Pulumi type token of every resource class, in one dependency-free module.
 * Resource classes set `static __pulumiType` from here, and the policy pack imports
 * this module (`pulumi-workspaces/tokens`) to match resources without loading the
 * provider code, the client or a second copy of @pulumi/pulumi.
 *
 * @module pulumi-workspaces/tokens
 */

/** `pulumi.dynamic.Resource` builds tokens as `pulumi-nodejs:dynamic/<module>:<type>`. */
export const TYPE_TOKEN_MODULE = "workspaces";
/** Prefix of every resource type token: `pulumi-nodejs:dynamic/workspaces:`. */
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
  /** The stack's origin key, one per stack, registered by the package itself (docs/interrupted-updates.md). */
  StackOrigin: `${TYPE_TOKEN_PREFIX}StackOrigin`,
} as const;

/** Names of the resource classes. */
export type ResourceTypeName = keyof typeof typeTokens;
/** Type tokens of the resource classes. */
export type TypeToken = (typeof typeTokens)[ResourceTypeName];
