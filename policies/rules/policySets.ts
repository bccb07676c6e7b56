import type { PolicyConfigSchema, PolicyResource } from "@pulumi/policy";
import { ENFORCEMENT_LEVELS } from "pulumi-workspaces/api";
import {
  PolicySetParameter,
  PolicySet,
  UNKNOWN,
  configOf,
  declaredProps,
  isAbsent,
  isGiven,
  recordInputsOf,
  isOfType,
  show,
  str,
  strings,
  subject,
  type Props,
  type StackRule,
} from "./common";
import {
  COVERAGE_KINDS,
  covers,
  heldBy,
  named,
  policiesOf,
  policySetsOf,
  productionWorkspaces,
  reaches,
  type SetEntry,
  type Verdict,
} from "./policySetCoverage";
import { productionSchema, type ProductionConfig } from "./production";

// The two layers of policy meet here: the CrossGuard pack judges the program, and the
// service's policy sets (declared by the same program) judge the runs of its workspaces
// (policySetCoverage.ts says which set covers which workspace). A stack rule sees the
// resources of the stack, not the lookups the program made, so a set counts only when the
// program declares it (or adopts it with `adopt: true`).

/** The strictest level of each kind: the one no run can pass by (hard-mandatory, mandatory). */
const MANDATORY_LEVELS = new Set(Object.values(ENFORCEMENT_LEVELS).map((levels) => levels[levels.length - 1]));

/** Whether a set counts as mandatory: named in the config, or holding a policy of the stack at its kind's strictest level. */
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
  const held = heldBy(set, policies);
  let verdict: Verdict = held.unknown ? UNKNOWN : false;
  for (const policy of held.policies) {
    const level = declaredProps(policy).enforcementLevel;
    if (level === UNKNOWN) verdict = verdict === true ? true : UNKNOWN;
    else if (typeof level === "string" && MANDATORY_LEVELS.has(level)) return { verdict: true, why: "" };
  }
  const why = isGiven(set.props.policiesFolder)
    ? "takes its policies from policiesFolder, whose enforcement levels the rule does not read (name it in policySets)"
    : "holds no policy of the stack at level hard-mandatory (Sentinel) or mandatory (OPA)";
  return { verdict, why };
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

export const productionPolicySet: StackRule = {
  name: "production-policy-set",
  description:
    "Every production workspace (by tag, name or project) is covered by a mandatory policy set of the stack: a global PolicySet, or one whose PolicySetWorkspaces lists the workspace or whose PolicySetProjects lists its project, and whose exclusions do not name it. Mandatory: a set named in policySets, else one holding a Policy of the stack at level hard-mandatory or mandatory. A set the program only reads with getPolicySet is not seen: declare it, or adopt it with `adopt: true`. A stack without policy sets is judged only when policySets names some.",
  // An organisation's convention, not the service's rule.
  enforcementLevel: "advisory",
  configSchema: coveredSchema,
  remediationSteps:
    "Apply a mandatory policy set to the workspace: a PolicySetWorkspaces that lists it, a PolicySetProjects that lists its project, or a global PolicySet; or name a set that already applies in policySets.",
  validateResource: recordInputsOf(COVERAGE_KINDS),
  validateStack: (args, reportViolation) => {
    const config = configOf<CoveredConfig>(coveredSchema, args);
    const names = strings(config.policySets) ?? [];
    const policies = policiesOf(args.resources);
    const { sets, unplaced } = policySetsOf(args.resources);
    // A program that declares none of the service's policy layer is judged only when the config names the sets it must use.
    if (sets.length === 0 && unplaced.length === 0 && names.length === 0) return;
    const judged = sets.map((set) => ({ set, ...mandatory(set, policies, names) }));
    for (const { resource, reason, workspace, project } of productionWorkspaces(
      args.resources,
      config,
      productionPolicySet.name,
    )) {
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
        `${subject(resource)} is production (${reason}), but ${what} covers it${notes.length ? `: ${notes.join("; ")}` : ""}. ` +
          "Fix: apply a policy set with a hard-mandatory (Sentinel) or mandatory (OPA) policy to it: a PolicySetWorkspaces that lists it, " +
          "a PolicySetProjects that lists its project, or a global PolicySet (and no exclusion that names it)" +
          `${names.length > 0 ? ", one of policySets" : ", or name such a set in policySets"}.`,
        resource.urn,
      );
    }
  },
};

// ---------------------------------------------------------------------------------------------
// No advisory policy in a set that applies to production (stack)
// ---------------------------------------------------------------------------------------------

export const productionPolicyAdvisory: StackRule = {
  name: "production-policy-advisory",
  description:
    "A Policy of the stack held by a PolicySet that applies to a production workspace (by tag, name or project) is not advisory: declared `advisory`, or left unset on a policy the stack creates (a new policy is advisory), its failure never stops a run.",
  enforcementLevel: "advisory",
  configSchema: productionSchema,
  validateResource: recordInputsOf(COVERAGE_KINDS),
  validateStack: (args, reportViolation) => {
    const config = configOf<ProductionConfig>(productionSchema, args);
    const policies = policiesOf(args.resources);
    const production = productionWorkspaces(args.resources, config, productionPolicyAdvisory.name);
    for (const set of policySetsOf(args.resources).sets) {
      const reached = production.find((p) => covers(set, p.workspace, p.project).verdict === true);
      if (reached === undefined) continue;
      for (const policy of heldBy(set, policies).policies) {
        const props = declaredProps(policy);
        const level = props.enforcementLevel;
        if (level !== "advisory" && !(isAbsent(level) && props.adopt !== true)) continue;
        const how =
          level === "advisory" ? "is advisory" : "is advisory (enforcementLevel is not set, and a new policy is)";
        const fix =
          props.kind === "opa"
            ? 'set enforcementLevel "mandatory"'
            : 'set enforcementLevel "hard-mandatory", or "soft-mandatory" where someone may override a failure';
        reportViolation(
          `${subject(policy)} ${how} in ${subject(set.resource)}, which applies to ${subject(reached.resource)}, production (${reached.reason}); ` +
            `an advisory policy's failure never stops a run. Fix: ${fix}.`,
          policy.urn,
        );
      }
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
