/** How each `Workspace` input compares with what the service last reported: the field table's diff rules as functions. */
import { workspaceFieldEntries, type DiffRule, type WorkspaceFieldName } from "../../api/workspace-fields";
import {
  sameGivenKeys,
  sameInstant,
  sameOptionalString,
  sameStringMap,
  sameStringSet,
  sameTagNames,
  type FieldRule,
} from "./compare";

const sameBool = (a: unknown, b: unknown) => Boolean(a) === Boolean(b);
const vcsCompare = {
  branch: sameOptionalString,
  tagsRegex: sameOptionalString,
  oauthTokenId: sameOptionalString,
  vcsAppInstallationId: sameOptionalString,
  ingressSubmodules: sameBool,
};

/** The diff rules the field table names (src/api/workspace-fields.ts), as functions. */
const DIFF_RULES: Record<DiffRule, Omit<FieldRule, "name">> = {
  exact: {},
  replace: { replaces: true },
  bool: { same: sameBool },
  optionalString: { same: sameOptionalString },
  instant: { same: sameInstant },
  stringSet: { same: (a, b) => sameStringSet(a, b) },
  stringMap: { same: sameStringMap },
  tagNames: { same: sameTagNames },
  vcsRepo: { same: (a, b) => sameGivenKeys(a, b, vcsCompare) },
  settingOverwrites: { same: (a, b) => sameGivenKeys(a, b, { executionMode: sameBool, agentPool: sameBool }) },
};

/** How each input compares with what the service last reported: one rule per input line of the field table. */
export const WORKSPACE_FIELDS: FieldRule[] = workspaceFieldEntries
  .filter(([, f]) => f.role !== "computed")
  .map(([name, f]) => ({ name, ...DIFF_RULES[f.diff ?? "exact"] }));

/** The diff rules of the given table lines, in the order given (a resource that offers a subset of the settings). */
export function fieldRules(names: readonly WorkspaceFieldName[]): FieldRule[] {
  const byName = new Map(WORKSPACE_FIELDS.map((r) => [r.name, r]));
  return names.map((name) => byName.get(name) ?? { name });
}
