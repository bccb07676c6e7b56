/**
 * The `NoCodeWorkspace` resource's side of the workspace field table
 * (src/api/workspace-fields.ts): the workspace settings it offers and the values it
 * reports, as lines of the table. Loaded by both the resource class and the provider, so
 * it imports nothing at run time.
 */
import type { WorkspaceFieldName } from "../api/workspace-fields";

/** The workspace settings a no-code workspace offers as inputs, sent on create and update. */
export const NO_CODE_SETTINGS = [
  "name",
  "project",
  "description",
  "executionMode",
  "agentPoolId",
  "autoApply",
  "sourceName",
  "sourceUrl",
] as const satisfies readonly WorkspaceFieldName[];

/** The table's lines a no-code workspace reports beside its settings. */
export const NO_CODE_REPORTED = [
  "noCodeModuleVersionId",
  "noCodeUpgradeAvailable",
  "sourceModuleId",
  "resourceCount",
  "locked",
  "createdAt",
  "selfLink",
  "htmlLink",
] as const satisfies readonly WorkspaceFieldName[];
