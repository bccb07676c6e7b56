/**
 * The `Workspace` resource's side of the field table (src/api/workspace-fields.ts): its
 * output names and groups, the types of its inputs and outputs, and the reading of
 * outputs written by earlier releases. Loaded by both the resource class and the
 * provider, so it imports nothing at run time but the table.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  workspaceFieldEntries,
  type OutputGroup,
  type ValueOf,
  type WorkspaceFieldName,
  type WorkspaceFieldTable,
} from "../api/workspace-fields";

type Line<K extends WorkspaceFieldName> = WorkspaceFieldTable[K];
type InGroup<G extends OutputGroup> = {
  [K in WorkspaceFieldName]: Line<K> extends { group: G } ? K : never;
}[WorkspaceFieldName];

/** Names of the top-level outputs that come from the table. */
export type WorkspaceTopName = InGroup<"top">;
/** Names of the table lines that programs set. */
export type WorkspaceInputName = {
  [K in WorkspaceFieldName]: Line<K> extends { role: "input" | "both" } ? K : never;
}[WorkspaceFieldName];

/** Run metrics of a workspace (the `metrics` output); a value the service does not report is left out. */
export type WorkspaceMetrics = { [K in InGroup<"metrics">]: NonNullable<ValueOf<Line<K>>> | undefined };
/** Rarely read status of a workspace (the `status` output): lock, current run and state, times, origin. A value the service does not report is left out. */
export type WorkspaceStatus = { [K in InGroup<"status">]: NonNullable<ValueOf<Line<K>>> | undefined };
/** The caller's permissions on the workspace (the `permissions` output), camel-cased. */
export type WorkspacePermissions = ValueOf<Line<"permissions">>;

/** The outputs of a `Workspace` as plain values: the table's top-level lines plus the three groups. */
export type WorkspaceOutputValues = { [K in WorkspaceTopName]: ValueOf<Line<K>> } & {
  metrics: WorkspaceMetrics;
  status: WorkspaceStatus;
  permissions: WorkspacePermissions;
};

/**
 * An input's type in a program: `pulumi.Input` of the line's value (lists of inputs for
 * lists); `null` only where the line is `nullable` (null clears the setting).
 */
export type ArgOf<F> =
  NonNullable<ValueOf<F>> extends (infer E)[]
    ? pulumi.Input<pulumi.Input<E>[]>
    : F extends { nullable: true }
      ? pulumi.Input<NonNullable<ValueOf<F>> | null>
      : pulumi.Input<NonNullable<ValueOf<F>>>;

/** Inputs of the field table (src/api/workspace-fields.ts) whose program type is the line's own value. */
/** Inputs of a `Workspace` as the provider receives them (plain values, after the engine resolved them). */
export type WorkspaceInputValues = { [K in WorkspaceInputName]?: ValueOf<Line<K>> } & { adopt?: boolean };

/** Outputs as stored in state: this release's shape, or an earlier release's flat one (see {@link currentShape}). */
export type WorkspaceStoredOutputs = Partial<WorkspaceOutputValues> & Record<string, unknown>;

/** Names of the object outputs that group rarely read values. */
export const WORKSPACE_OUTPUT_GROUPS = ["metrics", "status", "permissions"] as const;

/** Top-level output names that come from the table, in table order. */
export const WORKSPACE_TOP_OUTPUTS = workspaceFieldEntries
  .filter(([, f]) => f.group === "top")
  .map(([k]) => k) as WorkspaceTopName[];

/** Every declared output name of `Workspace`. */
export const WORKSPACE_OUTPUTS: readonly string[] = [...WORKSPACE_TOP_OUTPUTS, ...WORKSPACE_OUTPUT_GROUPS];

/** Table lines that go into `metrics` or `status`, as `[name, group]`. */
const WORKSPACE_GROUPED: readonly (readonly [WorkspaceFieldName, "metrics" | "status"])[] = workspaceFieldEntries
  .filter(([, f]) => f.group === "metrics" || f.group === "status")
  .map(([k, f]) => [k, f.group as "metrics" | "status"] as const);

/** Puts grouped values into their groups, leaving out what the service did not report (null). */
export function groupedOutputs(
  value: (name: WorkspaceFieldName) => unknown,
): Pick<WorkspaceOutputValues, "metrics" | "status"> {
  const groups: Record<"metrics" | "status", Record<string, unknown>> = { metrics: {}, status: {} };
  for (const [name, group] of WORKSPACE_GROUPED) {
    const v = value(name);
    if (v !== null && v !== undefined) groups[group][name] = v;
  }
  return groups as Pick<WorkspaceOutputValues, "metrics" | "status">;
}

/**
 * Outputs in this release's shape. Releases before 0.2.0 stored every value at the top
 * level (about 60 outputs); a stack written by one still calls this release with those
 * outputs as `olds` until the next refresh or update rewrites them, so the flat values
 * are moved into their groups here. Outputs already in this shape are returned as they are.
 */
export function currentShape(stored: WorkspaceStoredOutputs): WorkspaceStoredOutputs {
  const legacy =
    WORKSPACE_GROUPED.some(([name]) => name in stored) ||
    (stored.permissions !== undefined && stored.status === undefined);
  if (!legacy) return stored;
  const out: Record<string, unknown> = {};
  const grouped = new Set<string>(WORKSPACE_GROUPED.map(([name]) => name));
  for (const [k, v] of Object.entries(stored)) if (!grouped.has(k)) out[k] = v;
  Object.assign(
    out,
    groupedOutputs((name) => stored[name]),
  );
  out.permissions = stored.permissions ?? {};
  return out;
}
