/** The outputs of a `Workspace`, and the error of a create that made the workspace but could not finish. */
import type { WorkspaceResource } from "../../api/workspaces";
import { UnreadableCreateError, toWorkspace, type Workspace as ApiWorkspace } from "../../client";
import { clientName, type WorkspaceFieldName } from "../../api/workspace-fields";
import { WORKSPACE_TOP_OUTPUTS, groupedOutputs, type WorkspaceOutputValues } from "../workspace-fields";
import { ProviderError } from "./errors";
import type { Props } from "./types";

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

/** The resource's outputs for a workspace: the field table's top-level lines, then `metrics`, `status` and `permissions`. */
export function workspaceOutputs(ws: ApiWorkspace, extra: OutputExtras): WorkspaceOutputValues {
  const value = (name: WorkspaceFieldName): unknown => workspaceValue(ws, name, extra);
  const out: Record<string, unknown> = {};
  for (const name of WORKSPACE_TOP_OUTPUTS) out[name] = value(name);
  Object.assign(out, groupedOutputs(value));
  out.permissions = ws.permissions;
  return out as WorkspaceOutputValues;
}

/** Thrown after the workspace exists, so that the engine records it instead of orphaning it. */
export class PartialCreateError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
  ) {
    super(message);
    this.name = "PartialCreateError";
  }
  get reasons(): string[] {
    return [this.message];
  }
}

/**
 * A create the service acknowledged (2xx) although neither its answer nor a read of the
 * workspace could be understood: the workspace exists, and is never left out of the
 * stack when its id is known. It is recorded with the outputs of a workspace that has
 * the service's defaults, so the next `pulumi up` sends what differs and a refresh reads
 * the rest. Without an id the error says how to take it over.
 */
export function unreadableCreate(err: unknown, organization: string, inputs: Props): never {
  if (!(err instanceof UnreadableCreateError)) throw err;
  const name = String(inputs.name);
  if (err.createdId) {
    const resource = {
      id: err.createdId,
      type: "workspaces",
      attributes: { name },
      relationships: { organization: { data: { id: organization, type: "organizations" } } },
    };
    const outs = workspaceOutputs(toWorkspace(resource as WorkspaceResource), {
      tags: {},
      effectiveTags: {},
      forceDelete: Boolean(inputs.forceDelete),
      organization,
    });
    throw new PartialCreateError(
      `workspace "${name}" (${err.createdId}) was created, but neither the service's answer nor a read of it could be understood (${err.message}). ` +
        `It is recorded in the stack with the service's defaults; the next \`pulumi up\` sends the declared settings again.`,
      err.createdId,
      outs,
    );
  }
  throw new ProviderError(
    `workspace "${name}" in organization "${organization}" was created, but neither the service's answer nor a read of it by name could be understood (${err.message}). ` +
      `Set adopt: true on the resource and run \`pulumi up\` to take it over.`,
  );
}
