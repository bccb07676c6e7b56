/**
 * The workspace field table: one line per attribute of a workspace, from which the
 * wire schema of the document's attributes and of the settings request
 * (./workspaces.ts), the client's mapping both ways and its `Workspace` type
 * (src/client/workspaces.ts), the `Workspace` resource's arguments, outputs and diff
 * rules, and the groups of the `getWorkspace` lookup (src/resources) are derived.
 *
 * Each line says:
 * - `wire`: the attribute's name in the document (and in create/update bodies), as the
 *   hosted service and its official clients spell it (`terraform-version`);
 *   `alias`: the spec's neutral spelling of the same attribute (`engine-version`), read
 *   when `wire` is absent (when both are present and differ, `wire` wins: it is the
 *   name every server of this API stores); `rel`: the relationship it is read from
 *   instead. A line with neither is the resource's own (tags it binds, links, `forceDelete`).
 * - `read` / `write`: the zod schema of the attribute in a response / in a request
 *   (`write: "read"` reuses the response schema). Lines without `write` are computed.
 *   The document's attribute schema also takes `null` for every line (read as absent);
 *   requests stay as strict as `write` says.
 * - `absent`: the client's value when the service leaves the attribute out or sends `null`.
 * - `role`: `input` (given by programs only), `computed` (the service's) or `both`.
 * - `nullable`: a program clears the setting on the service with the empty string `""`
 *   (the empty object `{}` for an object setting), which works from every language, or
 *   with `null` in TypeScript; the resource keeps `null` as the desired value (so a
 *   refresh that finds it set shows a diff). `nullableKeys` names keys of an object
 *   setting cleared the same way on their own. Other inputs refuse `null`; an omitted
 *   input is never managed.
 * - `diff`: how the resource compares a desired input with what the service reported
 *   (named rules; src/resources/providers/workspace.ts maps names to functions).
 * - `group`: where the value goes: `top`, an output the `Workspace` resource stores in
 *   state; `metrics` / `status` / `permissions`, that object of `getWorkspace`'s result
 *   (what the service reports and changes on its own: read on demand, not stored by the
 *   resource); `none`, neither.
 * - `client`: the client's property name where it differs from the line's key (the
 *   resource's name).
 *
 * The type parameter of `field<T>()` is the value's type in programs; the derived
 * TypeScript types (client `Workspace`, resource outputs and groups) follow from it.
 * The doc comment of each line documents every derived member.
 *
 * The lines are in ./workspace-fields-settings.ts (what programs set) and
 * ./workspace-fields-reported.ts (what the service reports), in table order; what a
 * line is made of is in ./workspace-field-kinds.ts.
 */
import type { z } from "zod";
import type { FieldDef, NoCodePlace } from "./workspace-field-kinds";
import { WORKSPACE_REPORTED_FIELDS } from "./workspace-fields-reported";
import { WORKSPACE_SETTING_FIELDS } from "./workspace-fields-settings";

export {
  AUTO_DESTROY_DURATION_PATTERN,
  EXECUTION_MODES,
  NO_CODE_EXECUTION_MODES,
  WORKSPACE_NAME_PATTERN,
  isValidAutoDestroyDuration,
  vcsRepoRequestSchema,
  vcsRepoSchema,
  type DiffRule,
  type ExecutionMode,
  type FieldDef,
  type NoCodeExecutionMode,
  type NoCodePlace,
  type OutputGroup,
  type VcsRepoValue,
} from "./workspace-field-kinds";

/** The table. Keys are the resource's names; `client` names the client's property where it differs. */
export const WORKSPACE_FIELDS = { ...WORKSPACE_SETTING_FIELDS, ...WORKSPACE_REPORTED_FIELDS } as const;

/** The type of the table, from which the derived types are computed. */
export type WorkspaceFieldTable = typeof WORKSPACE_FIELDS;
/** Key of a line of the table (the `Workspace` resource's name of the field). */
export type WorkspaceFieldName = keyof WorkspaceFieldTable;

/** The program-side value type of a line. */
export type ValueOf<F> = F extends { readonly __value?: infer T } ? T : never;

// ---------------------------------------------------------------------------
// Derived wire schemas

type ReadShape = {
  [
    K in WorkspaceFieldName as WorkspaceFieldTable[K] extends { wire: infer W extends string; read: z.ZodType }
      ? W
      : never
  ]: WorkspaceFieldTable[K] extends {
    read: infer S extends z.ZodType;
  }
    ? z.ZodOptional<z.ZodNullable<S>>
    : never;
};

/** The request schema of a line (its `write`, or its `read` where `write` is `"read"`). */
export type WriteSchemaOf<F> = F extends { write: "read"; read: infer S }
  ? S
  : F extends { write: infer S extends z.ZodType }
    ? S
    : never;
type WriteShape = {
  [
    K in WorkspaceFieldName as WorkspaceFieldTable[K] extends { wire: infer W extends string; write: unknown }
      ? W
      : never
  ]: WriteSchemaOf<WorkspaceFieldTable[K]>;
};

const entries = Object.entries(WORKSPACE_FIELDS) as [WorkspaceFieldName, FieldDef][];

/** The zod shape of the workspace document's attributes, one key per table line with `wire` and `read`; `null` and a missing key read as absent. */
export const workspaceAttributesShape = Object.fromEntries(
  entries.filter(([, f]) => f.wire && f.read).map(([, f]) => [f.wire!, f.read!.nullable().optional()]),
) as unknown as ReadShape;

/** The zod shape of the settable attributes of create and update, one key per table line with `write`. */
export const workspaceSettingsShape = Object.fromEntries(
  entries.filter(([, f]) => f.wire && f.write).map(([, f]) => [f.wire!, f.write === "read" ? f.read! : f.write!]),
) as unknown as WriteShape;

/**
 * Plain settings the client sends in create and update bodies as they are, as `[client
 * name, wire name]` (nested ones are built by the client). Read from the table when
 * called, so that a line a process appends is sent too.
 */
export function workspaceSettingWire(): readonly (readonly [string, string])[] {
  return entries
    .filter(([k, f]) => f.wire && f.write && k !== "name" && f.shape === undefined)
    .map(([k, f]) => [f.client ?? k, f.wire!] as const);
}

/** {@link workspaceSettingWire} of the table as written. */
export const WORKSPACE_SETTING_WIRE = workspaceSettingWire();

/** The line of `key`, a line a process appended included. */
export function fieldLine(key: WorkspaceFieldName): FieldDef | undefined {
  return WORKSPACE_FIELDS[key] ?? entries.find(([k]) => k === key)?.[1];
}

/** The client's property name of a line. */
export function clientName(key: WorkspaceFieldName): string {
  return fieldLine(key)?.client ?? key;
}

/** The table's lines as `[key, line]` pairs, in table order. */
export { entries as workspaceFieldEntries };

// ---------------------------------------------------------------------------
// `NoCodeWorkspace`'s side of the table (lines with `noCode`)

/** Keys of the lines `NoCodeWorkspace` carries in `place`. */
export type NoCodeLineName<P extends NoCodePlace> = {
  [K in WorkspaceFieldName]: WorkspaceFieldTable[K] extends { noCode: P } ? K : never;
}[WorkspaceFieldName];

/**
 * Keys of the lines `NoCodeWorkspace` carries in `place`, in table order. Read from the
 * table when called, so that a line a process appends is carried too.
 */
export function noCodeLines<const P extends NoCodePlace>(place: P): NoCodeLineName<P>[] {
  return entries.filter(([, f]) => f.noCode === place).map(([k]) => k) as NoCodeLineName<P>[];
}

type NoCodeWire = {
  [K in NoCodeLineName<"setting">]: WorkspaceFieldTable[K] extends { wire: infer W extends string; write: unknown }
    ? W
    : never;
}[NoCodeLineName<"setting">];

/** The request schemas of the settings `NoCodeWorkspace` sends, keyed by wire name (for the no-code create body). */
export const noCodeSettingsShape = Object.fromEntries(
  entries
    .filter(([, f]) => f.noCode === "setting" && f.wire && f.write)
    .map(([, f]) => [f.wire!, f.write === "read" ? f.read! : f.write!]),
) as unknown as Pick<WriteShape, NoCodeWire>;
