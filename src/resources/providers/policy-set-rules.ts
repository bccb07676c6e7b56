/**
 * What `PolicySet` checks, compares and records: the rules of its inputs as the service has
 * them, the diff's fields (and which changes replace the set), and its outputs.
 */
import { isId } from "../../api/common";
import { POLICY_DESCRIPTION_MAX, POLICY_KINDS, policyNameProblem } from "../../api/policies";
import type { PolicySet as ApiPolicySet } from "../../client";
import { reportWarning } from "../process/engine-status";
import { sameFlag, sameOptionalString, sameStringSet, type FieldRule } from "./compare";
import { folderDigest, folderFiles, folderPath, folderProblem } from "./policy-set-folder";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

/** Outputs as stored in state. */
export type PolicySetOutputs = {
  name: string;
  organization: string | null;
  description: string | null;
  kind: string;
  overridable: boolean | null;
  global: boolean;
  policyIds: string[];
  policiesFolder: string | null;
  policiesSha256: string | null;
  currentVersionId: string | null;
  agentEnabled: boolean;
  policyToolVersion: string | null;
  workspaceCount: number;
  projectCount: number;
};

/** What the stack knows of the version it uploaded from `policiesFolder`. */
export interface FolderState {
  policiesFolder: string | null;
  policiesSha256: string | null;
  currentVersionId: string | null;
}

/** How messages name a set: `policy set "name" (polset-...)`, or by id alone. */
export function policySetLabel(name: unknown, id: string): string {
  return typeof name === "string" && name !== "" ? `policy set "${name}" (${id})` : `policy set ${id}`;
}

/** Whether a set holds its policies as a version: it was given a folder (recorded in its outputs). */
function versioned(olds: Props): boolean {
  return typeof olds.policiesFolder === "string" && olds.policiesFolder !== "";
}

export const POLICY_SET_FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  { name: "kind", replaces: true },
  { name: "name" },
  { name: "description", same: sameOptionalString },
  { name: "overridable", same: (d, a) => d === null || sameFlag(d, a) },
  { name: "global", same: sameFlag },
  { name: "policyIds", same: (d, a) => sameStringSet(d, a) },
  // The folder's contents count, not its path: a moved folder with the same files uploads nothing.
  { name: "policiesSha256", same: (d, a) => d === a },
  { name: "agentEnabled", same: sameFlag },
  { name: "policyToolVersion", same: sameOptionalString },
];

/**
 * The input that switches a set between policies attached one by one and a version, which
 * replaces it, or undefined: a set that had a folder now declares `policyIds`, or a set with
 * policies attached one by one now declares a folder.
 */
export function switchedSource(olds: Props, news: Props): "policyIds" | "policiesFolder" | undefined {
  const folder = news.policiesFolder !== undefined && news.policiesFolder !== null;
  if (versioned(olds) && !folder && news.policyIds !== undefined) return "policyIds";
  const attached = Array.isArray(olds.policyIds) && olds.policyIds.length > 0;
  if (!versioned(olds) && folder && attached) return "policiesFolder";
  return undefined;
}

/** The outputs of a set as read, with what the stack knows of its uploaded version. */
export function outputsOf(set: ApiPolicySet, organization: unknown, folder: FolderState): PolicySetOutputs {
  return {
    name: set.name,
    organization: set.organization ?? (typeof organization === "string" ? organization : null),
    description: set.description || null,
    kind: set.kind,
    overridable: set.overridable,
    global: set.global,
    policyIds: [...set.policyIds].sort(),
    ...folder,
    agentEnabled: set.agentEnabled === true,
    policyToolVersion: set.policyToolVersion || null,
    workspaceCount: set.workspaceCount ?? set.workspaceIds.length,
    projectCount: set.projectCount ?? set.projectIds.length,
  };
}

/**
 * What the stack knows of the version of a set just read: the digest it recorded stays only
 * while the version it recorded is still the current one (a version uploaded outside the
 * program makes the next diff upload the folder again). Recorded with no version id (an
 * adoption's seed), any current version is taken to be the folder's.
 */
export function folderStateOf(set: ApiPolicySet, props: Props): FolderState {
  const recordedVersion = typeof props.currentVersionId === "string" ? props.currentVersionId : undefined;
  const kept =
    set.currentVersionId !== null && (recordedVersion === undefined || recordedVersion === set.currentVersionId);
  return {
    policiesFolder: typeof props.policiesFolder === "string" ? props.policiesFolder : null,
    policiesSha256: kept && typeof props.policiesSha256 === "string" ? props.policiesSha256 : null,
    currentVersionId: set.currentVersionId,
  };
}

function isGiven(v: unknown): boolean {
  return v !== undefined && v !== null && !isUnknown(v);
}

function flagFailures(news: Props, failures: CheckFailure[]): void {
  for (const flag of ["overridable", "global", "agentEnabled"])
    if (isGiven(news[flag]) && typeof news[flag] !== "boolean")
      failures.push({ property: flag, reason: `${flag} must be true or false` });
}

function nameFailures(news: Props, failures: CheckFailure[]): void {
  const { name, description } = news;
  if (name === undefined || name === null) failures.push({ property: "name", reason: "name is required" });
  else if (!isUnknown(name)) {
    const problem = typeof name === "string" ? policyNameProblem(name) : "must be a string";
    if (problem) failures.push({ property: "name", reason: `name ${problem}` });
  }
  if (isGiven(description)) {
    if (typeof description !== "string") failures.push({ property: "description", reason: "must be a string" });
    else if (description.length > POLICY_DESCRIPTION_MAX)
      failures.push({
        property: "description",
        reason: `description is too long (at most ${POLICY_DESCRIPTION_MAX} characters)`,
      });
  }
}

/** The kind with its default, and the failures of `overridable` for it (#1726: a Sentinel set has no such switch). */
function kindFailures(news: Props, inputs: Props, failures: CheckFailure[]): void {
  const kind = news.kind ?? "sentinel";
  inputs.kind = kind;
  if (isUnknown(kind)) return;
  if (typeof kind !== "string" || kind === "") {
    failures.push({ property: "kind", reason: `kind must be "sentinel" or "opa", not ${JSON.stringify(kind)}` });
    return;
  }
  if (!(POLICY_KINDS as readonly string[]).includes(kind))
    reportWarning(
      `policy set ${JSON.stringify(news.name)}: kind ${JSON.stringify(kind)} is not one this release knows (${POLICY_KINDS.join(", ")}); it is sent as given and the service decides`,
    );
  if (kind === "sentinel" && isGiven(news.overridable))
    failures.push({
      property: "overridable",
      reason:
        'overridable applies to OPA policy sets only (whether a failed mandatory policy may be overridden); a Sentinel set has no such switch: its "soft-mandatory" policies are the ones that may be overridden. Remove overridable, or declare kind: "opa"',
    });
}

function policyIdFailures(list: unknown, failures: CheckFailure[]): void {
  if (list === undefined || list === null || isUnknown(list)) return;
  if (!Array.isArray(list)) {
    failures.push({ property: "policyIds", reason: "policyIds must be a list of policy ids (pol-...)" });
    return;
  }
  const seen = new Set<unknown>();
  list.forEach((id: unknown, i) => {
    if (isUnknown(id)) return;
    const at = `policyIds[${i}]`;
    if (!isId("policy", id)) failures.push({ property: at, reason: `${at}: must be a policy id (pol-...)` });
    else if (seen.has(id)) failures.push({ property: at, reason: `${at}: ${id} is listed twice` });
    seen.add(id);
  });
}

/** The folder's failures; sets `inputs.policiesSha256` to the digest of its files when it can be read. */
function folderFailures(news: Props, inputs: Props, failures: CheckFailure[]): void {
  const folder = news.policiesFolder;
  delete inputs.policiesSha256;
  if (!isGiven(folder)) return;
  if (typeof folder !== "string" || folder === "") {
    failures.push({ property: "policiesFolder", reason: "policiesFolder must be the path of a folder" });
    return;
  }
  if (isGiven(news.policyIds))
    failures.push({
      property: "policiesFolder",
      reason:
        "policiesFolder and policyIds are exclusive: a set holds its policies either as a version uploaded from a folder or attached one by one. Keep one of them",
    });
  const problem = folderProblem(folder);
  if (problem) failures.push({ property: "policiesFolder", reason: problem });
  else inputs.policiesSha256 = folderDigest(folderFiles(folderPath(folder)));
}

/** The failures of a set's inputs (organization apart), with `kind`'s default and the folder's digest set in `inputs`. */
export function checkPolicySet(news: Props, inputs: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  nameFailures(news, failures);
  kindFailures(news, inputs, failures);
  flagFailures(news, failures);
  if (isGiven(news.policyToolVersion) && typeof news.policyToolVersion !== "string")
    failures.push({ property: "policyToolVersion", reason: "policyToolVersion must be a string" });
  policyIdFailures(news.policyIds, failures);
  folderFailures(news, inputs, failures);
  return failures;
}
