/**
 * Workspace documents (spec 2.2 to 2.5) and the request bodies of create (4.2),
 * update (4.3), lock (4.7) and SSH key assignment (4.8).
 */
import { z } from "zod";
import {
  type vcsRepoRequestSchema,
  type vcsRepoSchema,
  workspaceAttributesShape,
  workspaceSettingsShape,
  WORKSPACE_NAME_PATTERN,
} from "./workspace-fields";
import { documentSchema, listDocumentSchema, type Problem, resourceSchema } from "./common";

export {
  AUTO_DESTROY_DURATION_PATTERN,
  EXECUTION_MODES,
  WORKSPACE_NAME_PATTERN,
  isValidAutoDestroyDuration,
  vcsRepoRequestSchema,
  vcsRepoSchema,
  type ExecutionMode,
} from "./workspace-fields";

/** The `permissions` object of a workspace document: what the caller may do with it. */
export const PERMISSION_NAMES = [
  "can-update",
  "can-destroy",
  "can-queue-run",
  "can-read-run",
  "can-read-variable",
  "can-update-variable",
  "can-read-state-versions",
  "can-read-state-outputs",
  "can-create-state-versions",
  "can-queue-apply",
  "can-lock",
  "can-unlock",
  "can-force-unlock",
  "can-read-settings",
  "can-manage-tags",
  "can-manage-run-tasks",
  "can-force-delete",
  "can-manage-assessments",
  "can-manage-ephemeral-workspaces",
  "can-read-assessment-results",
  "can-queue-destroy",
] as const;
/** One of the permission names of a workspace document (`can-update`, `can-lock`, ...). */
export type PermissionName = (typeof PERMISSION_NAMES)[number];

/** The `permissions` attribute as read: flags by name (a newer service may send more names). */
export const permissionsSchema = z.record(z.string(), z.boolean());
/** The caller's permissions on a workspace: one flag per permission name. */
export type Permissions = Record<PermissionName, boolean>;

/** `vcs-repo` attribute of a workspace document. */
export type VcsRepo = z.infer<typeof vcsRepoSchema>;

/**
 * Attributes of a workspace document (spec 2.2): one key per line of the field table
 * (./workspace-fields.ts), each also taking `null`, plus the neutral spellings.
 */
export const workspaceAttributesSchema = z
  .object({
    ...workspaceAttributesShape,
    /** The neutral spelling of `terraform-version`, which the local server sends beside it. */
    "engine-version": z.string().nullable().optional(),
  })
  .loose();
/** Attributes of a workspace document. */
export type WorkspaceAttributes = z.infer<typeof workspaceAttributesSchema>;

/** Every relationship a workspace document carries (spec 2.2). */
export const WORKSPACE_RELATIONSHIPS = [
  "agent-pool",
  "current-configuration-version",
  "current-run",
  "latest-run",
  "current-state-version",
  "current-assessment-result",
  "effective-tag-bindings",
  "tag-bindings",
  "organization",
  "outputs",
  "project",
  "readme",
  "remote-state-consumers",
  "ssh-key",
  "locked-by",
  "vars",
] as const;

/** A workspace resource object (`workspaces`, id `ws-`). */
export const workspaceResourceSchema = resourceSchema("workspaces", workspaceAttributesSchema);
/** A workspace resource object (`workspaces`, id `ws-`). */
export type WorkspaceResource = z.infer<typeof workspaceResourceSchema>;
/** Body of a response holding one workspace (create, read, update, lock). */
export const workspaceDocumentSchema = documentSchema(workspaceResourceSchema);
/** Body of a response holding one workspace. */
export type WorkspaceDocument = z.infer<typeof workspaceDocumentSchema>;
/** Body of one page of the workspace list (spec 4.4). */
export const workspaceListDocumentSchema = listDocumentSchema(workspaceResourceSchema);
/** Body of one page of the workspace list. */
export type WorkspaceListDocument = z.infer<typeof workspaceListDocumentSchema>;

/** `include` values accepted on workspace GET endpoints (spec 4.5). */
export const WORKSPACE_INCLUDES = [
  "current_configuration_version",
  "current_configuration_version.ingress_attributes",
  "current_run",
  "current_run.configuration_version",
  "current_run.configuration_version.ingress_attributes",
  "current_run.plan",
  "locked_by",
  "organization",
  "outputs",
  "project",
  "readme",
  /** Not listed by the spec; the hosted service and go-tfe (`WSEffectiveTagBindings`) use it to read tags with the workspace. */
  "effective_tag_bindings",
] as const;

/** Sort keys of the workspace list (spec 4.4); a leading `-` reverses. */
export const WORKSPACE_SORT_KEYS = ["name", "current-run.created-at", "latest-change-at"] as const;

// ---------------------------------------------------------------------------
// Requests

/** `vcs-repo` in a create or update body. */
export type VcsRepoRequest = z.infer<typeof vcsRepoRequestSchema>;

/** Attributes accepted on create and update (spec 4.2, 4.3): the table's settable lines plus compatibility aliases. `name` is required on create only. */
export const workspaceSettingsRequestSchema = z
  .object({
    ...workspaceSettingsShape,
    /** Former name of `assessments-enabled`. */
    "drift-detection": z.boolean().optional(),
    /** The neutral spelling of `terraform-version`, accepted for compatibility. */
    "engine-version": z.string().min(1).optional(),
  })
  .loose();
/** Attributes of a workspace create or update body. */
export type WorkspaceSettingsRequest = z.infer<typeof workspaceSettingsRequestSchema>;

/** A key-value tag in a `tag-bindings` relationship of a request. */
export const tagBindingRequestSchema = z
  .object({
    type: z.literal("tag-bindings"),
    attributes: z.object({ key: z.string().min(1), value: z.string() }).loose(),
  })
  .loose();

/** `project` relationship in a request; the hosted service accepts both spellings of the type. */
export const projectRelationshipRequestSchema = z
  .object({
    data: z
      .object({ id: z.string(), type: z.enum(["projects", "project"]).optional() })
      .loose()
      .nullable(),
  })
  .loose();

/** Relationships a workspace create or update body may set: `project` and `tag-bindings`. */
export const workspaceRelationshipsRequestSchema = z
  .object({
    project: projectRelationshipRequestSchema.optional(),
    "tag-bindings": z
      .object({ data: z.array(tagBindingRequestSchema) })
      .loose()
      .optional(),
  })
  .loose();

function workspaceBodySchema(nameRequired: boolean) {
  const attributes = nameRequired
    ? workspaceSettingsRequestSchema.extend({
        name: z.string().regex(WORKSPACE_NAME_PATTERN, "must contain only letters, digits, - and _"),
      })
    : workspaceSettingsRequestSchema;
  return z
    .object({
      /** The workspace to create, or the changes to make. */
      data: z
        .object({
          type: z.literal("workspaces"),
          attributes: nameRequired ? attributes : attributes.optional(),
          relationships: workspaceRelationshipsRequestSchema.optional(),
        })
        .loose(),
    })
    .loose();
}

/** Body of `POST /organizations/:organization_name/workspaces` (spec 4.2). */
export const workspaceCreateRequestSchema = workspaceBodySchema(true);
/** Body of a workspace create request. */
export type WorkspaceCreateRequest = z.infer<typeof workspaceCreateRequestSchema>;

/** Body of `PATCH /workspaces/:workspace_id` (spec 4.3). */
export const workspaceUpdateRequestSchema = workspaceBodySchema(false);
/** Body of a workspace update request. */
export type WorkspaceUpdateRequest = z.infer<typeof workspaceUpdateRequestSchema>;

/**
 * Cross-field rules of workspace create and update that a schema of single keys cannot express.
 * `given` is what the request supplied; `current` (on update) the stored settings in
 * request spelling, so that the rules are checked against the resulting workspace.
 * Pointers are relative to the document root (`/data/attributes/...`).
 */
export function workspaceSettingsProblems(
  given: WorkspaceSettingsRequest,
  current?: { "execution-mode"?: string; "agent-pool-id"?: string | null; "vcs-repo"?: VcsRepoRequest | null },
): Problem[] {
  const problems: Problem[] = [];
  const at = (key: string) => `/data/attributes/${key}`;
  const hasOwn = (key: string) =>
    Object.prototype.hasOwnProperty.call(given, key) && (given as Record<string, unknown>)[key] !== undefined;

  if (hasOwn("execution-mode") && hasOwn("operations")) {
    problems.push({
      pointer: at("operations"),
      detail: "operations is deprecated and must not be given together with execution-mode; use execution-mode only",
    });
  }
  if (
    hasOwn("engine-version") &&
    hasOwn("terraform-version") &&
    given["engine-version"] !== given["terraform-version"]
  ) {
    problems.push({
      pointer: at("terraform-version"),
      detail: "terraform-version is an alias of engine-version; give one of them",
    });
  }

  const mode =
    given["execution-mode"] ??
    (given.operations === false
      ? "local"
      : hasOwn("operations")
        ? "remote"
        : (current?.["execution-mode"] ?? "remote"));
  const pool = hasOwn("agent-pool-id")
    ? given["agent-pool-id"]
    : mode === "agent"
      ? current?.["agent-pool-id"]
      : undefined;
  if (mode === "agent" && !pool) {
    problems.push({ pointer: at("agent-pool-id"), detail: "agent-pool-id is required when execution-mode is agent" });
  }
  if (mode !== "agent" && given["agent-pool-id"]) {
    problems.push({
      pointer: at("agent-pool-id"),
      detail:
        given.operations === true
          ? "agent-pool-id must not be given when operations is true"
          : `agent-pool-id must not be given when execution-mode is ${mode}`,
    });
  }
  if (given["setting-overwrites"]?.["execution-mode"] === true && !hasOwn("execution-mode") && !current) {
    problems.push({
      pointer: at("execution-mode"),
      detail: "execution-mode must be given when setting-overwrites.execution-mode is true",
    });
  }

  const repo = given["vcs-repo"];
  if (repo) {
    const appId = repo["vcs-app-installation-id"] ?? repo["github-app-installation-id"];
    if (repo["oauth-token-id"] && appId) {
      problems.push({
        pointer: at("vcs-repo/vcs-app-installation-id"),
        detail: "vcs-app-installation-id cannot be given together with oauth-token-id",
      });
    }
    const adding = !current || !current["vcs-repo"];
    if (adding) {
      if (!repo.identifier)
        problems.push({
          pointer: at("vcs-repo/identifier"),
          detail: "identifier is required when adding a VCS repository",
        });
      if (!repo["oauth-token-id"] && !appId) {
        problems.push({
          pointer: at("vcs-repo/oauth-token-id"),
          detail: "oauth-token-id (or vcs-app-installation-id) is required when adding a VCS repository",
        });
      }
    }
  }
  return problems;
}

/** Body of `POST /workspaces/:workspace_id/actions/lock` (spec 4.7); the body itself is optional. */
export const lockRequestSchema = z.object({ reason: z.string().optional() }).loose();

/** Body of `PATCH /workspaces/:workspace_id/relationships/ssh-key` (spec 4.8). */
export const sshKeyAssignRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("workspaces"),
        attributes: z.object({ id: z.string().min(1).nullable() }).loose(),
      })
      .loose(),
  })
  .loose();
