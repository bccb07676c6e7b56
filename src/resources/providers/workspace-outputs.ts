/** The outputs of a `Workspace`. */
import type { Workspace as ApiWorkspace } from "../../client";
import { clientName, type WorkspaceFieldName } from "../../api/workspace-fields";
import {
  WORKSPACE_OUTPUTS,
  reportedGroups,
  type WorkspaceOutputValues,
  type WorkspaceReport,
} from "../workspace-fields";

/** What the outputs hold beside the client's view of the workspace. */
export interface OutputExtras {
  tags: Record<string, string>;
  effectiveTags: Record<string, string>;
  forceDelete: boolean;
  organization?: string;
}

/** Output values the provider computes instead of copying the client's property of the same line. */
const COMPUTED_OUTPUTS: Partial<Record<WorkspaceFieldName, (ws: ApiWorkspace, extra: OutputExtras) => unknown>> = {
  organization: (ws, extra) => ws.organization ?? extra.organization ?? null,
  operations: (ws) => ws.operations ?? ws.executionMode !== "local",
  tags: (_ws, extra) => extra.tags,
  tagNames: (ws) => [...ws.tagNames].sort(),
  forceDelete: (_ws, extra) => extra.forceDelete,
  effectiveTags: (_ws, extra) => extra.effectiveTags,
  selfLink: (ws) => ws.links.self ?? null,
  htmlLink: (ws) => ws.links.selfHtml ?? null,
  vcsRepoIdentifier: (ws) => ws.vcsRepoIdentifier ?? ws.vcsRepo?.identifier ?? null,
};

/** The output value of a table line for a workspace: the client's property of the line, or the value computed for it. */
export function workspaceValue(ws: ApiWorkspace, name: WorkspaceFieldName, extra: OutputExtras): unknown {
  const computed = COMPUTED_OUTPUTS[name];
  return computed ? computed(ws, extra) : (ws as unknown as Record<string, unknown>)[clientName(name)];
}

/** The resource's outputs for a workspace: the field table's `top` lines (what the stack owns, and links). */
export function workspaceOutputs(ws: ApiWorkspace, extra: OutputExtras): WorkspaceOutputValues {
  const out: Record<string, unknown> = {};
  for (const name of WORKSPACE_OUTPUTS) out[name] = workspaceValue(ws, name, extra);
  return out as WorkspaceOutputValues;
}

/** What the service reports on its own about a workspace, read on demand: `metrics`, `status` and `permissions`. */
export function workspaceReport(ws: ApiWorkspace): WorkspaceReport {
  const extra: OutputExtras = { tags: {}, effectiveTags: {}, forceDelete: false };
  return reportedGroups((name) => workspaceValue(ws, name, extra));
}
