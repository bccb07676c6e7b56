/**
 * The arguments, their schemas and the results of the workspace lookups (`getWorkspaces`,
 * `getWorkspace`), in ./lookups.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type {
  WorkspaceMetrics,
  WorkspaceOutputValues,
  WorkspacePermissions,
  WorkspaceStatus,
} from "./workspace-fields";

/** Arguments of {@link getWorkspaces}: every filter given must match (they combine with AND). */
export interface GetWorkspacesArgs {
  /** Organization to look in. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: string;
  /** Only workspaces of this project (`prj-...`). */
  project?: string;
  /**
   * Names to select: each an exact name, or a pattern with `*` as prefix, suffix or both
   * (`app-*`, `*-prod`, `*web*`); `["*"]` selects every workspace. Default: every workspace.
   */
  names?: string[];
  /** Fuzzy name match: the service's own search (part of the name). */
  search?: string;
  /** Key-value tags every selected workspace carries, directly or inherited from its project (`{ team: "search" }`). */
  tags?: Record<string, string>;
  /** Flat tags every selected workspace carries (case does not matter). */
  tagNames?: string[];
  /** Flat tags that exclude a workspace carrying any one of them (case does not matter). */
  excludeTags?: string[];
}

/** Result of {@link getWorkspaces}, sorted by name. */
export interface GetWorkspacesResult {
  /** Organization that was searched. */
  organization: string;
  /** Ids (`ws-...`) of the selected workspaces, in the order of `names`. */
  ids: string[];
  /** Names of the selected workspaces, sorted. */
  names: string[];
  /** Id of each selected workspace by its name. */
  idsByName: Record<string, string>;
}

/** Arguments of {@link getWorkspace}: a workspace by organization and name, or by id. */
export type GetWorkspaceArgs =
  | {
      /** Organization of the workspace. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
      organization?: string;
      /** Name of the workspace. */
      name: string;
    }
  | {
      /** Workspace id (`ws-...`). */
      id: string;
    };

/**
 * Result of {@link getWorkspace}: the workspace's id, the values a `Workspace` resource
 * outputs for it (its settings, tags, effective tags, links), and what the service
 * reports on its own, which a `Workspace` does not store: `metrics`, `status` and
 * `permissions`.
 */
export interface GetWorkspaceResult extends Omit<WorkspaceOutputValues, "forceDelete"> {
  /** Workspace id (`ws-...`). */
  id: string;
  /** Run metrics: `resourceCount`, `applyDurationAverage`, `planDurationAverage`, `policyCheckFailures`, `runFailures`, `workspaceKpisRunsCount` (each value the service does not report is left out). */
  metrics: WorkspaceMetrics;
  /**
   * Status the service reports: `locked`, `lockedReason`, `lockedBy`, `actions`, auto-destroy
   * and assessment status, `currentRunId`, `currentStateVersionId`,
   * `currentConfigurationVersionId`, `createdAt`, `updatedAt`, `latestChangeAt`,
   * `environment`, `source`, no-code origin and more (each value the service does not
   * report is left out).
   */
  status: WorkspaceStatus;
  /** The caller's permissions on the workspace (spec 2.3), camel-cased (`canUpdate`, ...). */
  permissions: WorkspacePermissions;
}

/** Arguments of {@link getWorkspacesOutput}: those of {@link GetWorkspacesArgs}, each a `pulumi.Input`. */
export interface GetWorkspacesOutputArgs {
  /** Organization to look in. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
  organization?: pulumi.Input<string>;
  /** Only workspaces of this project (`prj-...`). */
  project?: pulumi.Input<string>;
  /** Exact names or `*` patterns (see {@link GetWorkspacesArgs.names}). */
  names?: pulumi.Input<pulumi.Input<string>[]>;
  /** Fuzzy name match: the service's own search (part of the name). */
  search?: pulumi.Input<string>;
  /** Key-value tags every selected workspace carries, directly or inherited from its project. */
  tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Flat tags every selected workspace carries (case does not matter). */
  tagNames?: pulumi.Input<pulumi.Input<string>[]>;
  /** Flat tags that exclude a workspace carrying any one of them (case does not matter). */
  excludeTags?: pulumi.Input<pulumi.Input<string>[]>;
}

/** Arguments of {@link getWorkspaceOutput}: those of {@link GetWorkspaceArgs}, each a `pulumi.Input`. */
export type GetWorkspaceOutputArgs =
  | {
      /** Organization of the workspace. Default: stack config `workspaces:organization`, then `WORKSPACES_ORGANIZATION` / `TFE_ORGANIZATION`. */
      organization?: pulumi.Input<string>;
      /** Name of the workspace. */
      name: pulumi.Input<string>;
    }
  | {
      /** Workspace id (`ws-...`). */
      id: pulumi.Input<string>;
    };

/** What {@link GetWorkspacesArgs} may hold. */
export const listArgsSchema = z
  .object({
    organization: z.string().min(1).optional(),
    project: z
      .string()
      .refine((v) => v.startsWith("prj-"), { error: "must be a project id (prj-...)" })
      .optional(),
    names: z.array(z.string().min(1)).optional(),
    search: z.string().optional(),
    tags: z.record(z.string().min(1), z.string()).optional(),
    tagNames: z.array(z.string().min(1)).optional(),
    excludeTags: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** {@link GetWorkspaceArgs} by id. */
export const byIdSchema = z
  .object({ id: z.string().refine((v) => v.startsWith("ws-"), { error: "must be a workspace id (ws-...)" }) })
  .strict();
/** {@link GetWorkspaceArgs} by name. */
export const byNameSchema = z.object({ organization: z.string().min(1).optional(), name: z.string().min(1) }).strict();

/** A `getWorkspaces` name pattern: `*` as any run of characters, everything else literally. */
export function namePattern(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
}
