/**
 * What a line of the workspace field table (./workspace-fields.ts) is made of: the
 * line's definition, `field<T>()` that carries its program-side type, and the value
 * schemas and patterns the lines use.
 */
import { z } from "zod";

/** Which settings the service reports as set on the workspace itself rather than inherited. */
export interface SettingOverwritesValue {
  /** True: the execution mode is the workspace's own. */
  executionMode?: boolean;
  /** True: the agent pool is the workspace's own. */
  agentPool?: boolean;
}

/** The actions the service currently allows on a workspace. */
export interface WorkspaceStatusActions {
  /** Whether the workspace may be destroyed now; absent when the service does not say. */
  isDestroyable?: boolean;
}

/** Who sets a field: the program only, the service only, or both (an input the service echoes). */
type FieldRole = "input" | "computed" | "both";

/** How an input compares with the value the service reported (see the resource provider). */
export type DiffRule =
  | "exact"
  | "replace"
  | "bool"
  | "optionalString"
  | "instant"
  | "stringSet"
  | "stringMap"
  | "tagNames"
  | "vcsRepo"
  | "settingOverwrites";

/**
 * Where a value goes: `top`, an output the `Workspace` resource stores in state (and a
 * top-level member of `getWorkspace`'s result); `metrics`, `status` or `permissions`, a
 * member of that object in `getWorkspace`'s result, read on demand and not stored by the
 * resource (what the service reports and changes on its own); `none`, neither.
 */
export type OutputGroup = "top" | "metrics" | "status" | "permissions" | "none";

/** How the client reads a value that is not a plain attribute copy. */
type WireShape = "camelKeys" | "vcsRepo";

/** One line of the table. */
export interface FieldDef {
  /** The attribute's name in the document and in create and update bodies, in the hosted service's spelling. */
  readonly wire?: string;
  /** The spec's neutral spelling of the attribute, read when `wire` is absent. */
  readonly alias?: string;
  /** The relationship the value is read from, for a line that is not an attribute. */
  readonly rel?: string;
  /** The client's property name, where it differs from the line's key. */
  readonly client?: string;
  /** Schema of the attribute in a response. */
  readonly read?: z.ZodType;
  /** Schema of the attribute in a request, or `"read"` to reuse `read`; absent for computed lines. */
  readonly write?: z.ZodType | "read";
  /** The client's value when the service leaves the attribute out or sends `null`. */
  readonly absent?: unknown;
  /** How the client converts a value that is not a plain copy. */
  readonly shape?: WireShape;
  /** Who sets the value. */
  readonly role: FieldRole;
  /** A program clears the setting on the service: `""` (or `{}` for an object), or `null` in TypeScript (see the module comment). */
  readonly nullable?: true;
  /** Keys of an object setting that a program clears the same way, on their own (`vcsRepo.tagsRegex`). */
  readonly nullableKeys?: readonly string[];
  /** How the resource compares an input with the service's value. */
  readonly diff?: DiffRule;
  /** Where the value goes: a stored output of `Workspace`, or a group of `getWorkspace`'s result (see {@link OutputGroup}). */
  readonly group: OutputGroup;
  /**
   * The line's place on `NoCodeWorkspace`: `setting` (an input it sends on create and
   * update, and an output), `reported` (an output only); absent: not carried.
   */
  readonly noCode?: NoCodePlace;
}

/** Where `NoCodeWorkspace` carries a line of the table: as an input (echoed as an output), or as an output only. */
export type NoCodePlace = "setting" | "reported";

/** A line whose program-side value has type `T` (carried as a phantom member for the derived types). */
export type Field<T, D extends FieldDef = FieldDef> = D & { readonly __value?: T };

export function field<T>() {
  return <const D extends FieldDef>(d: D): Field<T, D> => d;
}

/** `vcs-repo` as the client describes it (spec 2.4). */
export interface VcsRepoValue {
  /** Repository as `owner/name` (or the provider's equivalent). */
  identifier: string;
  /** Branch the workspace follows; empty for the repository's default branch. */
  branch: string;
  /** The repository as the VCS provider displays it. */
  displayIdentifier: string | null;
  /** Whether runs fetch the repository's submodules. */
  ingressSubmodules: boolean;
  /** OAuth token (`ot-...`) of the VCS connection; absent when a VCS app installation is used. */
  oauthTokenId: string | null;
  /** VCS app installation used instead of an OAuth token (`github-app-installation-id` on the wire); absent when an OAuth token is used. */
  vcsAppInstallationId: string | null;
  /** HTTP address of the repository; absent when the service reports none. */
  repositoryHttpUrl: string | null;
  /** VCS provider of the connection (for example `github`); absent when the service reports none. */
  serviceProvider: string | null;
  /** Regular expression of the git tags that start runs; absent when branch pushes do. */
  tagsRegex: string | null;
  /** Address the VCS provider calls on a push; absent when the service reports none. */
  webhookUrl: string | null;
}

/** `vcs-repo` as the service returns it (spec 2.4); every key may be missing or `null`. */
export const vcsRepoSchema = z
  .object({
    /** Branch the workspace follows; empty for the repository's default branch. */
    branch: z.string().nullable().optional(),
    /** The repository as the VCS provider displays it. */
    "display-identifier": z.string().nullable().optional(),
    /** Repository as `owner/name` (or the provider's equivalent). */
    identifier: z.string().nullable().optional(),
    /** Whether runs fetch the repository's submodules. */
    "ingress-submodules": z.boolean().nullable().optional(),
    /** OAuth token (`ot-...`) of the VCS connection, or null when a VCS app installation is used. */
    "oauth-token-id": z.string().nullable().optional(),
    /** GitHub App installation used instead of an OAuth token, as the hosted service spells it, or null. */
    "github-app-installation-id": z.string().nullable().optional(),
    /** The spec's spelling of `github-app-installation-id`, read when that is absent. */
    "vcs-app-installation-id": z.string().nullable().optional(),
    /** HTTP address of the repository. */
    "repository-http-url": z.string().nullable().optional(),
    /** VCS provider of the connection (for example `github`), or null. */
    "service-provider": z.string().nullable().optional(),
    /** Regular expression of the git tags that start runs, or null when branch pushes do. */
    "tags-regex": z.string().nullable().optional(),
    /** Address the VCS provider calls on a push. */
    "webhook-url": z.string().nullable().optional(),
  })
  .loose();

/** `vcs-repo` in a create or update body. Presence rules are checked by `workspaceSettingsProblems`. */
export const vcsRepoRequestSchema = z
  .object({
    /** Repository as `owner/name`; required when a workspace gets its first VCS connection. */
    identifier: z.string().min(1).optional(),
    /** OAuth token (`ot-...`) of the VCS connection; give it or `github-app-installation-id`, not both. */
    "oauth-token-id": z.string().min(1).nullable().optional(),
    /** The spec's spelling of `github-app-installation-id`, accepted for compatibility. */
    "vcs-app-installation-id": z.string().min(1).nullable().optional(),
    /** GitHub App installation to use instead of an OAuth token, as the hosted service and its clients spell it. */
    "github-app-installation-id": z.string().min(1).nullable().optional(),
    /** Branch to follow; empty for the repository's default branch. */
    branch: z.string().optional(),
    /** Whether runs fetch the repository's submodules. */
    "ingress-submodules": z.boolean().optional(),
    /** Regular expression of the git tags that start runs, or null to start runs on branch pushes. */
    "tags-regex": z.string().nullable().optional(),
  })
  .loose();

/** Workspace names: letters, digits, `-` and `_` (spec section 8). */
export const WORKSPACE_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** `auto-destroy-activity-duration`: a value of at most four digits followed by `d` or `h` (its value must also be above 0). */
export const AUTO_DESTROY_DURATION_PATTERN = /^\d{1,4}[dh]$/;

/** True for an `auto-destroy-activity-duration` the service accepts: `1d` to `9999d` or `1h` to `9999h`. */
export function isValidAutoDestroyDuration(value: string): boolean {
  return AUTO_DESTROY_DURATION_PATTERN.test(value) && Number.parseInt(value.slice(0, -1), 10) > 0;
}

/** Execution modes: where a workspace's runs execute. */
export const EXECUTION_MODES = ["remote", "local", "agent"] as const;
/** Where a workspace's runs execute: `remote` (the service), `local` (the caller's machine) or `agent` (an agent pool). */
export type ExecutionMode = (typeof EXECUTION_MODES)[number];
/** The execution modes a workspace made from a no-code module may have: not `local`, since the module runs on the service. */
export const NO_CODE_EXECUTION_MODES = ["remote", "agent"] as const satisfies readonly ExecutionMode[];
/** Where a no-code workspace's runs execute: `remote` (the service) or `agent` (an agent pool). */
export type NoCodeExecutionMode = (typeof NO_CODE_EXECUTION_MODES)[number];

export const bool = z.boolean().optional();
export const nullableString = z.string().nullable().optional();
export const nullableNumber = z.number().nullable().optional();
export const strings = z.array(z.string()).optional();
export const flags = z.record(z.string(), z.boolean().nullable());
