/** The arguments and results of the effective-variables lookup (./lookups.ts), for both doors. */
import type * as pulumi from "@pulumi/pulumi";
import type { VariableSource } from "../client";
import type { VariableCategory } from "./workspace-variable";

/** Arguments of {@link getEffectiveVariables}. */
export interface GetEffectiveVariablesArgs {
  /** Workspace id (`ws-...`). */
  workspaceId: string;
}

/** Where an effective variable, or one it overrides, comes from. */
export interface EffectiveVariableSource {
  /** `workspace` (the workspace's own variable) or `variable-set` (a variable of a set that reaches the workspace). */
  kind: "workspace" | "variable-set";
  /** The set's id (`varset-...`); absent for the workspace's own. */
  variableSetId?: string;
  /** The set's name; absent for the workspace's own. */
  variableSetName?: string;
  /** How the set reaches the workspace: `workspace` (applied to it), `project` (applied to its project) or `global` (applied to every workspace); absent for the workspace's own. */
  scope?: "workspace" | "project" | "global";
  /** Whether the set is a priority set (it overrides the workspace's own); absent for the workspace's own. */
  priority?: boolean;
}

/** One variable that applies to a workspace: the one that wins for its key and category. */
export interface EffectiveVariable {
  /** Variable name. */
  key: string;
  /** `engine` (an input variable of the engine's configuration) or `env` (an environment variable of its runs). */
  category: VariableCategory;
  /** The value; absent for a sensitive variable (the service never shows it). */
  value?: string;
  /** Whether the value is parsed as HCL. */
  hcl: boolean;
  /** Whether the value is write-only. */
  sensitive: boolean;
  /** Description; absent when it has none. */
  description?: string;
  /** The variable's id (`var-...`). */
  variableId: string;
  /** Where it comes from. */
  source: EffectiveVariableSource;
  /** Where the variables of the same key and category that it overrides come from, strongest first. */
  overrides: EffectiveVariableSource[];
}

/** Result of {@link getEffectiveVariables}. */
export interface GetEffectiveVariablesResult {
  /** The workspace (`ws-...`). */
  workspaceId: string;
  /** One per key and category: the workspace's own first, then the sets' by the service's precedence. */
  variables: EffectiveVariable[];
}

/** Arguments of {@link getEffectiveVariablesOutput}: those of {@link GetEffectiveVariablesArgs}, each a `pulumi.Input`. */
export interface GetEffectiveVariablesOutputArgs {
  /** Workspace id (`ws-...`). */
  workspaceId: pulumi.Input<string>;
}

/** Where a variable comes from, as the lookup says it. */
export function sourceOf(source: VariableSource): EffectiveVariableSource {
  return source.kind === "workspace"
    ? { kind: "workspace" }
    : {
        kind: "variable-set",
        variableSetId: source.id,
        variableSetName: source.name,
        scope: source.scope,
        priority: source.priority,
      };
}
