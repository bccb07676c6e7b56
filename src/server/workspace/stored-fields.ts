/**
 * The server's reading of the workspace field table (src/api/workspace-fields.ts): which
 * lines it keeps in a workspace's `settings` JSON, under which key, with which default,
 * and the type of the stored settings. A table line with a request (`write`) schema is
 * a stored setting unless {@link OUTSIDE_SETTINGS} says where the server keeps it
 * instead, so adding a settable attribute to the table is all the server needs.
 *
 * The lines are read from `workspaceFieldEntries` when used, not when this module loads:
 * a test may append a line to the table in its own process and start a server that
 * stores, updates and renders it.
 */
import type { z } from "zod";
import {
  workspaceFieldEntries,
  workspaceSettingsShape,
  type FieldDef,
  type WorkspaceFieldTable,
  type WriteSchemaOf,
} from "../../api/workspace-fields";

/** The engine release a workspace gets when the request names none (spec 9). */
const LATEST_ENGINE_VERSION = "1.9.8";

/**
 * Table lines with a request schema that the server does not keep in `settings`, and
 * where it keeps them instead.
 */
export const OUTSIDE_SETTINGS = {
  name: "the `name` column",
  agentPoolId: "the `agent_pool_id` column, rendered as the `agent-pool` relationship",
  operations: "nowhere: it mirrors `execution-mode` (false for `local`, true otherwise)",
} as const;

/** Computed lines (no request schema) that the server nevertheless keeps in `settings`, with their value. */
const SERVER_KEPT = { environment: "default" } as const;

/**
 * Defaults of the server that differ from the line's `absent` (the value a client reads
 * when the service leaves the attribute out): a workspace created without an engine
 * version gets the latest release, where a client reading no version has none.
 */
const SERVER_DEFAULTS: { readonly [key: string]: unknown } = { engineVersion: LATEST_ENGINE_VERSION, ...SERVER_KEPT };

/** `vcs-repo` as stored: the request's fields with their defaults, the credential, and the webhook's random id. */
export interface StoredVcsRepo {
  identifier: string;
  "oauth-token-id": string | null;
  "vcs-app-installation-id": string | null;
  branch: string;
  "ingress-submodules": boolean;
  "tags-regex": string | null;
  "webhook-id": string;
}

/** Stored values whose shape differs from the request's. */
interface StoredShapes {
  "vcs-repo": StoredVcsRepo | null;
  "setting-overwrites": { "execution-mode": boolean; "agent-pool": boolean };
  environment: string;
}

type Table = WorkspaceFieldTable;
/** The key of a line in `settings`: the spec's neutral spelling where the line has one, else its wire name. */
type StoredKeyOf<F> = F extends { alias: infer A extends string }
  ? A
  : F extends { wire: infer W extends string }
    ? W
    : never;
type SettingLine =
  | {
      [K in keyof Table]: Table[K] extends { write: unknown }
        ? K extends keyof typeof OUTSIDE_SETTINGS
          ? never
          : K
        : never;
    }[keyof Table]
  | keyof typeof SERVER_KEPT;

/** The attributes kept in a workspace's `settings` JSON, keyed as {@link storedKey} says: one per settable table line. */
export type WorkspaceSettings = {
  [K in SettingLine as StoredKeyOf<Table[K]>]: StoredKeyOf<Table[K]> extends keyof StoredShapes
    ? StoredShapes[StoredKeyOf<Table[K]>]
    : Exclude<z.output<WriteSchemaOf<Table[K]>>, undefined>;
};

/** A line's key in `settings`: its neutral spelling (`engine-version`) where it has one, else its wire name. */
export function storedKey(line: FieldDef): string {
  return line.alias ?? line.wire!;
}

/** The value a request gives for a line: under its wire name, else under its neutral spelling. */
export function givenValue(attributes: Record<string, unknown>, line: FieldDef): unknown {
  const value = attributes[line.wire!];
  return value === undefined && line.alias ? attributes[line.alias] : value;
}

/** The settings lines as `[key, line]`, in table order: settable lines kept in `settings`, then the server-kept ones. */
export function settingLines(): [string, FieldDef][] {
  const entries = workspaceFieldEntries as ReadonlyArray<[string, FieldDef]>;
  return [
    ...entries.filter(([key, line]) => line.wire && line.write && !(key in OUTSIDE_SETTINGS)),
    ...entries.filter(([key]) => key in SERVER_KEPT),
  ];
}

/** A new workspace's value of a setting the request leaves out (a fresh copy: stored values are changed in place). */
export function defaultOf(key: string, line: FieldDef): unknown {
  const value = key in SERVER_DEFAULTS ? SERVER_DEFAULTS[key] : line.absent;
  return value === undefined ? undefined : structuredClone(value);
}

/** Lines whose request schema is not part of the request schema of src/api (lines a process added to the table). */
export function validatedHere(line: FieldDef): boolean {
  return !(line.wire! in workspaceSettingsShape);
}
