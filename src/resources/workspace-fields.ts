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

/** Names of the groups of values read on demand (`getWorkspace`) and not stored by the resource. */
export type WorkspaceReportGroup = Exclude<OutputGroup, "top" | "none">;

/** Run metrics of a workspace (`getWorkspace`'s `metrics`); a value the service does not report is left out. */
export type WorkspaceMetrics = { [K in InGroup<"metrics">]: NonNullable<ValueOf<Line<K>>> | undefined };
/** Rarely read status of a workspace (`getWorkspace`'s `status`): lock, current run and state, times, origin. A value the service does not report is left out. */
export type WorkspaceStatus = { [K in InGroup<"status">]: NonNullable<ValueOf<Line<K>>> | undefined };
/** The caller's permissions on the workspace (`getWorkspace`'s `permissions`), camel-cased. */
export type WorkspacePermissions = ValueOf<Line<"permissions">>;

/** The outputs a `Workspace` stores, as plain values: the table's `top` lines. */
export type WorkspaceOutputValues = { [K in WorkspaceTopName]: ValueOf<Line<K>> };

/** What the service reports and changes on its own, read on demand: the table's `metrics`, `status` and `permissions` lines. */
export type WorkspaceReport = {
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

/** Outputs as stored in state: this release's shape, or an earlier release's (see {@link currentShape}). */
export type WorkspaceStoredOutputs = Partial<WorkspaceOutputValues> & Record<string, unknown>;

/** Every declared output name of `Workspace`: the table's `top` lines, in table order. */
export const WORKSPACE_OUTPUTS: readonly WorkspaceTopName[] = workspaceFieldEntries
  .filter(([, f]) => f.group === "top")
  .map(([k]) => k) as WorkspaceTopName[];

/** Table lines read on demand, as `[name, group]`: every line whose group is neither `top` nor `none`. */
const WORKSPACE_REPORTED: readonly (readonly [WorkspaceFieldName, WorkspaceReportGroup])[] = workspaceFieldEntries
  .filter(([, f]) => f.group !== "top" && f.group !== "none")
  .map(([k, f]) => [k, f.group as WorkspaceReportGroup] as const);

/** The groups of values read on demand, in table order. */
export const WORKSPACE_REPORT_GROUPS: readonly WorkspaceReportGroup[] = [
  ...new Set(WORKSPACE_REPORTED.map(([, g]) => g)),
];

/**
 * Puts the values read on demand into their groups. A line named as its group is the
 * group (`permissions`, an object); the others are members of it, and a value the
 * service did not report (null) is left out.
 */
export function reportedGroups(value: (name: WorkspaceFieldName) => unknown): WorkspaceReport {
  const groups: Record<string, unknown> = Object.fromEntries(WORKSPACE_REPORT_GROUPS.map((g) => [g, {}]));
  for (const [name, group] of WORKSPACE_REPORTED) {
    const v = value(name);
    if (name === (group as string)) groups[group] = v ?? {};
    else if (v !== null && v !== undefined) (groups[group] as Record<string, unknown>)[name] = v;
  }
  return groups as WorkspaceReport;
}

/** Keys an earlier release stored that this one does not: the groups (0.2.0 to 0.3.x) and their lines (flat, before 0.2.0). */
const NO_LONGER_STORED = new Set<string>([...WORKSPACE_REPORT_GROUPS, ...WORKSPACE_REPORTED.map(([name]) => name)]);

/**
 * Outputs in this release's shape. A `Workspace` stores only what its stack owns (the
 * table's `top` lines); releases 0.2.0 to 0.3.x also stored `metrics`, `status` and
 * `permissions`, and releases before 0.2.0 stored their values flat at the top level.
 * A stack written by one still calls this release with those outputs as `olds` until
 * the next refresh or update rewrites them, so they are left out here. Outputs already
 * in this shape are returned as they are.
 */
export function currentShape(stored: WorkspaceStoredOutputs): WorkspaceStoredOutputs {
  if (!Object.keys(stored).some((k) => NO_LONGER_STORED.has(k))) return stored;
  return Object.fromEntries(Object.entries(stored).filter(([k]) => !NO_LONGER_STORED.has(k)));
}
