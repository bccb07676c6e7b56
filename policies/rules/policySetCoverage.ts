import type { PolicyResource } from "@pulumi/policy";
import {
  Policy,
  PolicySet,
  PolicySetProjectExclusions,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetWorkspaces,
  Project,
  UNKNOWN,
  WorkspaceTags,
  declaredProps,
  isOfType,
  knownProps,
  str,
  strings,
  workspaceKinds,
  type Props,
  type ResourceKind,
} from "./common";
import { productionReason, type ProductionConfig } from "./production";
import { declaredBy, settingsInEffect } from "./settingsInEffect";
import { tagsInEffect } from "./tags";

// Which policy set of the stack covers which workspace: the sets, the policies each holds,
// the lists of where each applies (and does not), and the production workspaces, linked
// through ids or the engine's property dependencies. Read by the rules of policySets.ts.

// ---------------------------------------------------------------------------------------------
// What names what: a property's value names records by id, or (in a preview, where new ids are
// unknown) through the engine's property dependencies on the resources it was computed from.
// ---------------------------------------------------------------------------------------------

/** The keys a resource of the stack is known by: its URN, and its id once the outputs have it. */
function keysOf(resource: PolicyResource): string[] {
  const id = str(knownProps(resource.props).id);
  return [`urn:${resource.urn}`, ...(id !== undefined && id !== "" ? [`id:${id}`] : [])];
}

/** The records a property names (a list of ids, or one id), and whether some of them are not known yet. */
export interface Named {
  keys: Set<string>;
  unknown: boolean;
}

/** What `property` of `resource` names among records of `kinds`: the resources its value came from, and the known ids in it. */
export function named(resource: PolicyResource, props: Props, property: string, kinds: readonly ResourceKind[]): Named {
  const deps = (resource.propertyDependencies?.[property] ?? []).filter((d) => isOfType(d, ...kinds));
  const value = props[property];
  const ids = Array.isArray(value) ? (strings(value) ?? []) : str(value) !== undefined ? [str(value)!] : [];
  const unknowns = Array.isArray(value) ? value.filter((v) => v === UNKNOWN).length : value === UNKNOWN ? 1 : 0;
  return {
    keys: new Set([...deps.map((d) => `urn:${d.urn}`), ...ids.filter((id) => id !== "").map((id) => `id:${id}`)]),
    // An unknown value computed from resources of the stack is theirs; any other may be anything.
    unknown: unknowns > deps.length,
  };
}

const meets = (a: Set<string>, b: readonly string[]) => b.some((k) => a.has(k));

// ---------------------------------------------------------------------------------------------
// The policy sets of the stack: what each holds and where it applies
// ---------------------------------------------------------------------------------------------

/** The lists that say where a set applies, by the resource that declares each and its input. */
const APPLICATIONS = [
  { kind: PolicySetWorkspaces, input: "workspaceIds", of: "workspace", excludes: false },
  { kind: PolicySetProjects, input: "projectIds", of: "project", excludes: false },
  { kind: PolicySetWorkspaceExclusions, input: "workspaceIds", of: "workspace", excludes: true },
  { kind: PolicySetProjectExclusions, input: "projectIds", of: "project", excludes: true },
] as const;

/** A list of where a set applies (or where it does not), as one resource of the stack declares it. */
export interface Application {
  resource: PolicyResource;
  of: "workspace" | "project";
  excludes: boolean;
  targets: Named;
}

/** A policy set of the stack. */
export interface SetEntry {
  resource: PolicyResource;
  props: Props;
  applications: Application[];
}

/** The policy sets of the stack, by every key they are known by, each with the lists of the stack that name it. */
export function policySetsOf(resources: readonly PolicyResource[]): {
  sets: SetEntry[];
  byKey: Map<string, SetEntry>;
  /** Lists whose set is not known (yet): they may belong to any set. */
  unplaced: Application[];
} {
  const sets: SetEntry[] = [];
  const byKey = new Map<string, SetEntry>();
  for (const r of resources) {
    if (!isOfType(r, PolicySet)) continue;
    const entry: SetEntry = { resource: r, props: declaredProps(r), applications: [] };
    sets.push(entry);
    for (const key of keysOf(r)) byKey.set(key, entry);
  }
  const unplaced: Application[] = [];
  for (const r of resources) {
    const list = APPLICATIONS.find((a) => isOfType(r, a.kind));
    if (list === undefined) continue;
    const props = declaredProps(r);
    const targetKinds = list.of === "workspace" ? workspaceKinds : [Project];
    const application = {
      resource: r,
      of: list.of,
      excludes: list.excludes,
      targets: named(r, props, list.input, targetKinds),
    };
    const set = named(r, props, "policySetId", [PolicySet]);
    const entry = [...set.keys].map((k) => byKey.get(k)).find((e) => e !== undefined);
    if (entry !== undefined) entry.applications.push(application);
    else if (set.unknown) unplaced.push(application);
  }
  return { sets, byKey, unplaced };
}

/** The policies of the stack, by every key they are known by. */
export function policiesOf(resources: readonly PolicyResource[]): Map<string, PolicyResource> {
  const policies = new Map<string, PolicyResource>();
  for (const r of resources) if (isOfType(r, Policy)) for (const k of keysOf(r)) policies.set(k, r);
  return policies;
}

/** The policies of the stack a set holds (`policyIds`), and whether it may hold more not known yet. */
export function heldBy(
  set: SetEntry,
  policies: Map<string, PolicyResource>,
): { policies: PolicyResource[]; unknown: boolean } {
  const held = named(set.resource, set.props, "policyIds", [Policy]);
  const found = [...held.keys].map((k) => policies.get(k)).filter((p): p is PolicyResource => p !== undefined);
  return { policies: [...new Set(found)], unknown: held.unknown };
}

/** Whether something holds: yes, no, or not known yet (a value the engine does not know). */
export type Verdict = true | false | typeof UNKNOWN;

/** How a list reaches a workspace: by the workspace's own keys, or by its project's. */
export function reaches(application: Application, workspace: readonly string[], project: Named): Verdict {
  const keys = application.of === "workspace" ? workspace : [...project.keys];
  if (meets(application.targets.keys, keys)) return true;
  // A list not known yet, or a project not known yet, may turn out to name it.
  if (application.targets.unknown || (application.of === "project" && project.unknown)) return UNKNOWN;
  return false;
}

/** Whether a set covers a workspace (applies to it and does not exclude it), and the lists that decide it. */
export function covers(
  set: SetEntry,
  workspace: readonly string[],
  project: Named,
): { verdict: Verdict; excludedBy?: PolicyResource } {
  let applies: Verdict = set.props.global === true ? true : set.props.global === UNKNOWN ? UNKNOWN : false;
  for (const a of set.applications) {
    if (a.excludes) continue;
    const r = reaches(a, workspace, project);
    if (r === true) applies = true;
    else if (r === UNKNOWN && applies === false) applies = UNKNOWN;
  }
  if (applies === false) return { verdict: false };
  // An exclusion not known yet is not counted against the workspace: a violation is never reported on an unknown.
  const excludedBy = set.applications.find((a) => a.excludes && reaches(a, workspace, project) === true);
  if (excludedBy !== undefined) return { verdict: false, excludedBy: excludedBy.resource };
  return { verdict: applies };
}

/** A production workspace of the stack: why it is one, and the keys it and its project are known by. */
export interface ProductionWorkspace {
  resource: PolicyResource;
  reason: string;
  workspace: string[];
  project: Named;
}

/** The production workspaces of the stack, as `config` says what production is (`policyName` names the rule). */
export function productionWorkspaces(
  resources: readonly PolicyResource[],
  config: ProductionConfig,
  policyName: string,
): ProductionWorkspace[] {
  const tags = tagsInEffect(resources);
  const out: ProductionWorkspace[] = [];
  for (const [urn, entry] of settingsInEffect(resources).workspaces) {
    const reason = productionReason(entry, tags.get(urn), config, policyName);
    if (reason === undefined) continue;
    // The project as the workspace's declaration (or its WorkspaceSettings) names it.
    const project = named(declaredBy(entry, "project"), entry.props, "project", [Project]);
    out.push({ resource: entry.resource, reason, workspace: keysOf(entry.resource), project });
  }
  return out;
}

/** What the rules about production and policy sets read the inputs of. */
export const COVERAGE_KINDS = [...workspaceKinds, WorkspaceTags, Policy, PolicySet, ...APPLICATIONS.map((a) => a.kind)];
