import type { PolicyConfigSchema, PolicyResource } from "@pulumi/policy";
import { ENFORCEMENT_LEVELS } from "pulumi-workspaces/api";
import {
  Policy,
  PolicySet,
  PolicySetParameter,
  PolicySetProjectExclusions,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetWorkspaces,
  Project,
  UNKNOWN,
  WorkspaceTags,
  configOf,
  declaredProps,
  isGiven,
  isOfType,
  knownProps,
  recordInputsOf,
  show,
  str,
  strings,
  subject,
  workspaceKinds,
  type Props,
  type ResourceKind,
  type StackRule,
} from "./common";
import { productionReason, productionSchema, type ProductionConfig } from "./production";
import { declaredBy, settingsInEffect, type SettingsInEffect } from "./settingsInEffect";
import { tagsInEffect } from "./tags";

// The two layers of policy meet here: the CrossGuard pack judges the program, and the
// service's policy sets (declared by the same program) judge the runs of its workspaces. A
// stack rule sees the resources of the stack, not the lookups the program made, so a set
// counts only when the program declares it (or adopts it with `adopt: true`).

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
interface Named {
  keys: Set<string>;
  unknown: boolean;
}

/** What `property` of `resource` names among records of `kinds`: the resources its value came from, and the known ids in it. */
function named(resource: PolicyResource, props: Props, property: string, kinds: readonly ResourceKind[]): Named {
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

/** The strictest level of each kind: the one no run can pass by (hard-mandatory, mandatory). */
const MANDATORY_LEVELS = new Set(Object.values(ENFORCEMENT_LEVELS).map((levels) => levels[levels.length - 1]));

/** The lists that say where a set applies, by the resource that declares each and its input. */
const APPLICATIONS = [
  { kind: PolicySetWorkspaces, input: "workspaceIds", of: "workspace", excludes: false },
  { kind: PolicySetProjects, input: "projectIds", of: "project", excludes: false },
  { kind: PolicySetWorkspaceExclusions, input: "workspaceIds", of: "workspace", excludes: true },
  { kind: PolicySetProjectExclusions, input: "projectIds", of: "project", excludes: true },
] as const;

/** A list of where a set applies (or where it does not), as one resource of the stack declares it. */
interface Application {
  resource: PolicyResource;
  of: "workspace" | "project";
  excludes: boolean;
  targets: Named;
}

/** A policy set of the stack. */
interface SetEntry {
  resource: PolicyResource;
  props: Props;
  applications: Application[];
}

/** The policy sets of the stack, by every key they are known by, each with the lists of the stack that name it. */
function policySetsOf(resources: readonly PolicyResource[]): {
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

/** Whether a set counts as mandatory: named in the config, or holding a policy of the stack at its kind's strictest level. */
type Verdict = true | false | typeof UNKNOWN;

function mandatory(
  set: SetEntry,
  policies: Map<string, PolicyResource>,
  names: readonly string[],
): { verdict: Verdict; why: string } {
  if (names.length > 0) {
    const name = set.props.name;
    if (name === UNKNOWN) return { verdict: UNKNOWN, why: "" };
    return {
      verdict: typeof name === "string" && names.includes(name),
      why: `is not one of policySets ${show(names)}`,
    };
  }
  const held = named(set.resource, set.props, "policyIds", [Policy]);
  let verdict: Verdict = held.unknown ? UNKNOWN : false;
  for (const key of held.keys) {
    const policy = policies.get(key);
    if (policy === undefined) continue;
    const level = declaredProps(policy).enforcementLevel;
    if (level === UNKNOWN) verdict = verdict === true ? true : UNKNOWN;
    else if (typeof level === "string" && MANDATORY_LEVELS.has(level)) return { verdict: true, why: "" };
  }
  const why = isGiven(set.props.policiesFolder)
    ? "takes its policies from policiesFolder, whose enforcement levels the rule does not read (name it in policySets)"
    : "holds no policy of the stack at level hard-mandatory (Sentinel) or mandatory (OPA)";
  return { verdict, why };
}

/** How a list reaches a workspace: by the workspace's own keys, or by its project's. */
function reaches(application: Application, workspace: readonly string[], project: Named): Verdict {
  const keys = application.of === "workspace" ? workspace : [...project.keys];
  if (meets(application.targets.keys, keys)) return true;
  // A list not known yet, or a project not known yet, may turn out to name it.
  if (application.targets.unknown || (application.of === "project" && project.unknown)) return UNKNOWN;
  return false;
}

/** Whether a set covers a workspace (applies to it and does not exclude it), and the lists that decide it. */
function covers(
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

// ---------------------------------------------------------------------------------------------
// Production workspaces are covered by a mandatory policy set (stack)
// ---------------------------------------------------------------------------------------------

const coveredSchema: PolicyConfigSchema = {
  properties: {
    ...productionSchema.properties,
    policySets: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
      description:
        'The names of the policy sets that count as mandatory, for example ["baseline"]; each must be a PolicySet of the stack (declared, or adopted with `adopt: true`). Default []: any PolicySet of the stack whose `policyIds` hold a Policy of the stack at level hard-mandatory (Sentinel) or mandatory (OPA).',
    },
  },
};

interface CoveredConfig extends ProductionConfig {
  policySets: string[];
}

/** The keys of the project a workspace is in, as its declaration (or its WorkspaceSettings) names it. */
function projectOf(entry: SettingsInEffect): Named {
  return named(declaredBy(entry, "project"), entry.props, "project", [Project]);
}

export const productionPolicySet: StackRule = {
  name: "production-policy-set",
  description:
    "Every production workspace (by tag, name or project) is covered by a mandatory policy set of the stack: a global PolicySet, or one whose PolicySetWorkspaces lists the workspace or whose PolicySetProjects lists its project, and whose exclusions do not name it. Mandatory: a set named in policySets, else one holding a Policy of the stack at level hard-mandatory or mandatory. A set the program only reads with getPolicySet is not seen: declare it, or adopt it with `adopt: true`.",
  // An organisation's convention, not the service's rule.
  enforcementLevel: "advisory",
  configSchema: coveredSchema,
  remediationSteps:
    "Apply a mandatory policy set to the workspace: a PolicySetWorkspaces that lists it, a PolicySetProjects that lists its project, or a global PolicySet; or name a set that already applies in policySets.",
  validateResource: recordInputsOf([
    ...workspaceKinds,
    WorkspaceTags,
    Policy,
    PolicySet,
    ...APPLICATIONS.map((a) => a.kind),
  ]),
  validateStack: (args, reportViolation) => {
    const config = configOf<CoveredConfig>(coveredSchema, args);
    const names = strings(config.policySets) ?? [];
    const policies = new Map<string, PolicyResource>();
    for (const r of args.resources) if (isOfType(r, Policy)) for (const k of keysOf(r)) policies.set(k, r);
    const { sets, unplaced } = policySetsOf(args.resources);
    const judged = sets.map((set) => ({ set, ...mandatory(set, policies, names) }));
    const tags = tagsInEffect(args.resources);
    for (const [urn, entry] of settingsInEffect(args.resources).workspaces) {
      const reason = productionReason(entry, tags.get(urn), config, productionPolicySet.name);
      if (reason === undefined) continue;
      const workspace = keysOf(entry.resource);
      const project = projectOf(entry);
      // A list whose set is not known yet may be a mandatory set's.
      if (unplaced.some((a) => !a.excludes && reaches(a, workspace, project) !== false)) continue;
      const notes: string[] = [];
      let maybe = false;
      let covered = false;
      for (const { set, verdict, why } of judged) {
        const c = covers(set, workspace, project);
        if (c.verdict === false) {
          if (c.excludedBy !== undefined && verdict !== false)
            notes.push(`${subject(set.resource)} excludes it (${subject(c.excludedBy)})`);
          continue;
        }
        if (verdict === true && c.verdict === true) covered = true;
        else if (verdict === false) notes.push(`${subject(set.resource)} applies to it but ${why}`);
        else maybe = true;
      }
      if (covered || maybe) continue;
      const what = names.length > 0 ? `none of policySets ${show(names)}` : "no mandatory policy set of the stack";
      reportViolation(
        `${subject(entry.resource)} is production (${reason}), but ${what} covers it${notes.length ? `: ${notes.join("; ")}` : ""}. ` +
          "Fix: apply a policy set with a hard-mandatory (Sentinel) or mandatory (OPA) policy to it: a PolicySetWorkspaces that lists it, " +
          "a PolicySetProjects that lists its project, or a global PolicySet (and no exclusion that names it)" +
          `${names.length > 0 ? ", one of policySets" : ", or name such a set in policySets"}.`,
        entry.resource.urn,
      );
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Parameters only on a set that can take one (stack)
// ---------------------------------------------------------------------------------------------

/** Why a set the stack declares cannot take parameters, or undefined when it can (or when that is not known yet). */
function refusesParameters(props: Props): { why: string; fix: string } | undefined {
  if (props.kind === "opa") {
    return {
      why: 'is an OPA set (kind "opa"), and OPA policies take no parameters',
      fix: "remove the parameter, or put its policies in a Sentinel set",
    };
  }
  const ids = props.policyIds;
  if (Array.isArray(ids) && ids.length > 0 && !isGiven(props.policiesFolder)) {
    return {
      why: "attaches its policies individually (policyIds), and the service applies parameters only to a versioned set (policiesFolder, or a VCS connection)",
      fix: "give the set its policies with policiesFolder in place of policyIds, or remove the parameter",
    };
  }
  return undefined;
}

export const policySetParameterAllowed: StackRule = {
  name: "policy-set-parameter-allowed",
  description:
    "A PolicySetParameter's set, where the stack declares it, can take parameters: a Sentinel set whose policies come from policiesFolder (a version), not an OPA set nor one whose policies are attached with policyIds. The provider refuses one on a set that exists already; this rule catches it for a set created by the same update.",
  enforcementLevel: "mandatory",
  configSchema: { properties: {} },
  validateResource: recordInputsOf([PolicySet, PolicySetParameter]),
  validateStack: (args, reportViolation) => {
    const { byKey } = policySetsOf(args.resources);
    for (const r of args.resources) {
      if (!isOfType(r, PolicySetParameter)) continue;
      const props = declaredProps(r);
      const set = [...named(r, props, "policySetId", [PolicySet]).keys].map((k) => byKey.get(k)).find((e) => e);
      if (set === undefined) continue;
      const refused = refusesParameters(set.props);
      if (refused === undefined) continue;
      const key = str(props.key);
      reportViolation(
        `${subject(r)}${key !== undefined ? ` (key ${show(key)})` : ""}: ${subject(set.resource)} ${refused.why}; the service would refuse the parameter. ` +
          `Fix: ${refused.fix}.`,
        r.urn,
      );
    }
  },
};
