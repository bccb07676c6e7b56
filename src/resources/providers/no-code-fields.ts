/** The inputs and outputs of a `NoCodeWorkspace` and how they compare. */
import type * as pulumi from "@pulumi/pulumi";
import type { NoCodeWorkspaceCreateOptions, Workspace as ApiWorkspace } from "../../client";
import { clientName, type ValueOf, type WorkspaceFieldTable } from "../../api/workspace-fields";
import { sameOptionalString, type FieldRule } from "./compare";
import type { Props } from "./types";
import { fieldRules } from "./workspace-diff-rules";
import { workspaceValue } from "./workspace-outputs";
import {
  NO_CODE_REPORTED,
  NO_CODE_SETTINGS,
  type NoCodeReportedName,
  type NoCodeSettingName,
} from "../no-code-workspace-fields";

export { NO_CODE_SETTINGS };
import type {
  NoCodeVariableOutput,
  NoCodeWorkspaceArgs,
  NoCodeWorkspaceLastUpgrade,
  UpgradeStrategy,
} from "../no-code-workspace";
import { apiVariables, normalizeVariables, sameVariables, storedVariables } from "./no-code-variables";

/** Inputs as the engine hands them over. */
export type NoCodeWorkspaceInputs = pulumi.Unwrap<NoCodeWorkspaceArgs>;

/** The upgrade run that last changed the workspace's version or variables. */
export type LastUpgrade = NoCodeWorkspaceLastUpgrade;

/** Outputs as stored in state: the table's no-code lines, and the module's and upgrade's own values. */
export type NoCodeWorkspaceOutputs = {
  [K in NoCodeSettingName | NoCodeReportedName]: ValueOf<WorkspaceFieldTable[K]>;
} & {
  /** Absent when adopted through `get` from a workspace the service does not stamp with its module. */
  noCodeModuleId?: string;
  organization: string | null;
  variables: NoCodeVariableOutput[];
  sensitiveValues: Record<string, string>;
  moduleVersion: string | null;
  forceDelete: boolean;
  autoConfirm: boolean;
  upgradeTimeoutSeconds: number;
  /** Absent from state written before replace-style upgrades. */
  upgradeStrategy?: UpgradeStrategy;
  lastUpgrade: LastUpgrade | null;
};

/** The values outputsOf echoes: from the inputs, or from stored outputs on a read. */
export type Echoed = Partial<
  Pick<
    NoCodeWorkspaceOutputs,
    "noCodeModuleId" | "organization" | "forceDelete" | "autoConfirm" | "upgradeTimeoutSeconds" | "upgradeStrategy"
  >
> & {
  variables?: unknown;
};

export const DEFAULT_UPGRADE_TIMEOUT_SECONDS = 1800;
export const UPGRADE_STRATEGIES = ["in-place", "replace"] as const satisfies readonly UpgradeStrategy[];
/** Inputs whose change is an upgrade: in place, or a replacement under `upgradeStrategy: "replace"`. */
export const UPGRADE_INPUTS = ["moduleVersion", "variables"];

export function strategyOf(p: { upgradeStrategy?: unknown }): UpgradeStrategy {
  return p.upgradeStrategy === "replace" ? "replace" : "in-place";
}

/** How each input compares with what the service last reported: the table's rules for its lines, then the module's own inputs. */
export const FIELDS: FieldRule[] = [
  { name: "noCodeModuleId", replaces: true },
  ...fieldRules(["organization", ...NO_CODE_SETTINGS]),
  { name: "variables", same: sameVariables },
  { name: "moduleVersion", same: sameOptionalString },
  ...fieldRules(["forceDelete"]),
  { name: "autoConfirm", same: (a, b) => (a ?? true) === (b ?? true) },
  {
    name: "upgradeTimeoutSeconds",
    same: (a, b) => Number(a ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS) === Number(b ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS),
  },
  { name: "upgradeStrategy", same: (a, b) => (a ?? "in-place") === (b ?? "in-place") },
];

/** The client's create options: the given settings (a cleared one is one the new workspace does not have) and the variables. */
export function createOptions(inputs: NoCodeWorkspaceInputs): NoCodeWorkspaceCreateOptions {
  const out: Props = {};
  for (const k of NO_CODE_SETTINGS) {
    const v = (inputs as Props)[k];
    if (v !== undefined && v !== null) out[clientName(k)] = v;
  }
  if (inputs.variables !== undefined) out.variables = apiVariables(normalizeVariables(inputs.variables));
  return out as unknown as NoCodeWorkspaceCreateOptions;
}

/** The client's update options for the changed settings (the table's client names). */
export function settingsPatch(news: Props, changed: ReadonlySet<string>): Props {
  const patch: Props = {};
  for (const k of NO_CODE_SETTINGS) if (changed.has(k) && news[k] !== undefined) patch[clientName(k)] = news[k];
  return patch;
}

export function outputsOf(
  ws: ApiWorkspace,
  inputs: Echoed,
  extra: { moduleVersion: string | null; lastUpgrade?: LastUpgrade | null; organization?: string | null },
): NoCodeWorkspaceOutputs {
  const stored = storedVariables(normalizeVariables(inputs.variables));
  const extras = { tags: {}, effectiveTags: {}, forceDelete: Boolean(inputs.forceDelete) };
  const fromTable = Object.fromEntries(
    [...NO_CODE_SETTINGS, ...NO_CODE_REPORTED].map((k) => [k, workspaceValue(ws, k, extras)]),
  );
  return {
    ...(fromTable as Pick<NoCodeWorkspaceOutputs, NoCodeSettingName | NoCodeReportedName>),
    noCodeModuleId: inputs.noCodeModuleId,
    organization: ws.organization ?? extra.organization ?? inputs.organization ?? null,
    variables: stored.variables,
    sensitiveValues: stored.sensitiveValues,
    moduleVersion: extra.moduleVersion,
    forceDelete: Boolean(inputs.forceDelete),
    autoConfirm: inputs.autoConfirm !== false,
    upgradeTimeoutSeconds: Number(inputs.upgradeTimeoutSeconds ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS),
    upgradeStrategy: strategyOf(inputs),
    lastUpgrade: extra.lastUpgrade ?? null,
  };
}
