import { beforeEach, describe, expect, it } from "vitest";
import {
  NoCodeWorkspace,
  Policy,
  PolicySet,
  PolicySetParameter,
  PolicySetProjectExclusions,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetWorkspaces,
  Project,
  Workspace,
  WorkspaceTags,
  policySetParameterAllowed,
  productionPolicyAdvisory,
  productionPolicySet,
} from "../rules";
import { LAYOUTS, through, unknown, validateStack } from "./harness";

const FIX =
  "Fix: apply a policy set with a hard-mandatory (Sentinel) or mandatory (OPA) policy to it: a PolicySetWorkspaces that lists it, " +
  "a PolicySetProjects that lists its project, or a global PolicySet (and no exclusion that names it)";

describe.each(LAYOUTS)("doors: %s", (layout) => {
  const { stackResource, reset } = through(layout);
  beforeEach(reset);

  /** A Policy and a PolicySet holding it (in a preview: their ids unknown), with the set's other inputs. */
  const setWith = (name: string, level: string | undefined, set: Record<string, unknown> = {}) => {
    const policy = stackResource(Policy, `${name}-policy`, {
      name: `${name}-policy`,
      ...(level !== undefined ? { enforcementLevel: level } : {}),
    });
    const policySet = stackResource(
      PolicySet,
      name,
      { name, policyIds: [unknown.string], ...set },
      { policyIds: [policy] },
    );
    return [policy, policySet] as const;
  };

  describe("production-policy-set", () => {
    it("reports a production workspace no mandatory set covers, and passes one a PolicySetWorkspaces lists", async () => {
      const billing = stackResource(Workspace, "billing", { name: "billing", tagNames: ["production"] });
      const ledger = stackResource(Workspace, "ledger", { name: "ledger", tags: { env: "production" } });
      const dev = stackResource(Workspace, "api-dev", { name: "api-dev" });
      const [policy, set] = setWith("baseline", "hard-mandatory");
      const onLedger = stackResource(
        PolicySetWorkspaces,
        "baseline-workspaces",
        { policySetId: unknown.string, workspaceIds: [unknown.string] },
        { policySetId: [set], workspaceIds: [ledger] },
      );
      const out = await validateStack(productionPolicySet, [billing, ledger, dev, policy, set, onLedger], {
        productionTags: ["production", "env=production"],
      });
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "billing" is production (tagged "production"), but no mandatory policy set of the stack covers it. ' +
            `${FIX}, or name such a set in policySets.`,
          urn: billing.urn,
        },
      ]);
      // Without the key-value tag in the config, ledger is not production; billing still is.
      expect(
        (await validateStack(productionPolicySet, [billing, ledger, policy, set, onLedger])).violations.map(
          (v) => v.urn,
        ),
      ).toEqual([billing.urn]);
    });

    it("leaves a stack without policy sets alone, unless policySets names the sets it must use", async () => {
      const ws = stackResource(Workspace, "billing", { name: "billing", tagNames: ["production"] });
      expect((await validateStack(productionPolicySet, [ws])).violations).toEqual([]);
      expect((await validateStack(productionPolicySet, [ws], { policySets: ["baseline"] })).violations).toEqual([
        {
          message:
            'Workspace "billing" is production (tagged "production"), but none of policySets ["baseline"] covers it. ' +
            `${FIX}, one of policySets.`,
          urn: ws.urn,
        },
      ]);
    });

    it("covers through a project, and reports an exclusion by workspace or by project, naming it", async () => {
      const payments = stackResource(Project, "payments", { name: "payments" });
      const pay = stackResource(
        Workspace,
        "pay",
        { name: "pay", tagNames: ["production"], project: unknown.string },
        { project: [payments] },
      );
      const refunds = stackResource(
        Workspace,
        "refunds",
        { name: "refunds", tagNames: ["production"], project: unknown.string },
        { project: [payments] },
      );
      const legacy = stackResource(NoCodeWorkspace, "legacy", {
        name: "legacy",
        noCodeModuleId: "nocode-1",
        project: "prj-old",
      });
      const legacyTags = stackResource(
        WorkspaceTags,
        "legacy-tags",
        { workspaceId: unknown.string, tagNames: ["production"] },
        { workspaceId: [legacy] },
      );
      const [policy, set] = setWith("baseline", "mandatory", { kind: "opa" });
      const projects = stackResource(
        PolicySetProjects,
        "baseline-projects",
        { policySetId: unknown.string, projectIds: [unknown.string, "prj-old"] },
        { policySetId: [set], projectIds: [payments] },
      );
      const exclusions = stackResource(
        PolicySetWorkspaceExclusions,
        "baseline-exclusions",
        { policySetId: unknown.string, workspaceIds: [unknown.string] },
        { policySetId: [set], workspaceIds: [refunds] },
      );
      const projectExclusions = stackResource(PolicySetProjectExclusions, "baseline-project-exclusions", {
        policySetId: unknown.string,
        projectIds: ["prj-old"],
      });
      const resources = [payments, pay, refunds, legacy, legacyTags, policy, set, projects, exclusions];
      const out = await validateStack(productionPolicySet, resources);
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "refunds" is production (tagged "production"), but no mandatory policy set of the stack covers it: ' +
            'PolicySet "baseline" excludes it (PolicySetWorkspaceExclusions "baseline-exclusions"). ' +
            `${FIX}, or name such a set in policySets.`,
          urn: refunds.urn,
        },
      ]);
      // An exclusion whose set is not known yet is not counted against a workspace; one of the set is.
      const unplaced = await validateStack(productionPolicySet, [...resources, projectExclusions]);
      expect(unplaced.violations.map((v) => v.urn)).toEqual([refunds.urn]);
      const placed = stackResource(
        PolicySetProjectExclusions,
        "baseline-old-excluded",
        { policySetId: unknown.string, projectIds: ["prj-old"] },
        { policySetId: [set] },
      );
      const out2 = await validateStack(productionPolicySet, [...resources, placed]);
      expect(out2.violations.map((v) => v.urn)).toEqual([refunds.urn, legacy.urn]);
      expect(out2.violations[1].message).toContain(
        'NoCodeWorkspace "legacy" is production (tagged "production"), but no mandatory policy set of the stack covers it: ' +
          'PolicySet "baseline" excludes it (PolicySetProjectExclusions "baseline-old-excluded").',
      );
    });

    it("counts a global set, but not one whose policies are advisory or only soft-mandatory, saying why", async () => {
      const ws = stackResource(Workspace, "billing", { name: "billing", tagNames: ["production"] });
      const [soft, softSet] = setWith("soft", "soft-mandatory", { global: true });
      const [none, defaultSet] = setWith("defaults", undefined, { global: true });
      const out = await validateStack(productionPolicySet, [ws, soft, softSet, none, defaultSet]);
      expect(out.violations).toEqual([
        {
          message:
            'Workspace "billing" is production (tagged "production"), but no mandatory policy set of the stack covers it: ' +
            'PolicySet "soft" applies to it but holds no policy of the stack at level hard-mandatory (Sentinel) or mandatory (OPA); ' +
            'PolicySet "defaults" applies to it but holds no policy of the stack at level hard-mandatory (Sentinel) or mandatory (OPA). ' +
            `${FIX}, or name such a set in policySets.`,
          urn: ws.urn,
        },
      ]);
      const [hard, hardSet] = setWith("hard", "hard-mandatory", { global: true });
      expect(
        (await validateStack(productionPolicySet, [ws, soft, softSet, none, defaultSet, hard, hardSet])).violations,
      ).toEqual([]);
    });

    it("counts only the sets policySets names, when it names any", async () => {
      const ws = stackResource(Workspace, "billing-prod", { name: "billing-prod" });
      const folder = stackResource(PolicySet, "baseline", { name: "baseline", global: true, policiesFolder: "./p" });
      const [policy, strict] = setWith("strict", "hard-mandatory", { global: true });
      const config = { namePattern: "-prod$", productionTags: [] };
      const byDefault = await validateStack(productionPolicySet, [ws, folder], config);
      expect(byDefault.violations.map((v) => v.message)).toEqual([
        'Workspace "billing-prod" is production (its name matches namePattern "-prod$"), but no mandatory policy set of the stack covers it: ' +
          'PolicySet "baseline" applies to it but takes its policies from policiesFolder, whose enforcement levels the rule does not read (name it in policySets). ' +
          `${FIX}, or name such a set in policySets.`,
      ]);
      expect(
        (await validateStack(productionPolicySet, [ws, folder], { ...config, policySets: ["baseline"] })).violations,
      ).toEqual([]);
      // Named sets replace the default: a set holding a hard-mandatory policy no longer counts by itself.
      const named = await validateStack(productionPolicySet, [ws, policy, strict], {
        ...config,
        policySets: ["baseline"],
      });
      expect(named.violations.map((v) => v.message)).toEqual([
        'Workspace "billing-prod" is production (its name matches namePattern "-prod$"), but none of policySets ["baseline"] covers it: ' +
          'PolicySet "strict" applies to it but is not one of policySets ["baseline"]. ' +
          `${FIX}, one of policySets.`,
      ]);
    });

    it("finds sets, policies and workspaces by id once deployed", async () => {
      const ws = stackResource(
        Workspace,
        "billing",
        { name: "billing", tagNames: ["production"] },
        {},
        { outputs: { id: "ws-billing", name: "billing", tagNames: ["production"] } },
      );
      const policy = stackResource(
        Policy,
        "strict",
        { name: "strict", enforcementLevel: "hard-mandatory" },
        {},
        { outputs: { id: "pol-strict", name: "strict", enforcementLevel: "hard-mandatory" } },
      );
      const set = stackResource(
        PolicySet,
        "baseline",
        { name: "baseline", policyIds: ["pol-strict"] },
        {},
        { outputs: { id: "polset-1", name: "baseline", policyIds: ["pol-strict"] } },
      );
      const applied = stackResource(PolicySetWorkspaces, "applied", {
        policySetId: "polset-1",
        workspaceIds: ["ws-billing"],
      });
      expect((await validateStack(productionPolicySet, [ws, policy, set, applied])).violations).toEqual([]);
      const elsewhere = stackResource(PolicySetWorkspaces, "elsewhere", {
        policySetId: "polset-1",
        workspaceIds: ["ws-other"],
      });
      expect((await validateStack(productionPolicySet, [ws, policy, set, elsewhere])).violations).toHaveLength(1);
    });

    it("does not judge what the engine does not know yet", async () => {
      const ws = stackResource(Workspace, "billing", { name: "billing", tagNames: ["production"] });
      const [policy, set] = setWith("baseline", "hard-mandatory", { global: unknown.boolean });
      const [later, laterSet] = setWith("later", unknown.string, { global: true });
      // A list that names the workspace, of a set not known yet (not one of the stack's).
      const unplaced = stackResource(
        PolicySetWorkspaces,
        "somewhere",
        { policySetId: unknown.string, workspaceIds: [unknown.string] },
        { workspaceIds: [ws] },
      );
      expect((await validateStack(productionPolicySet, [ws, policy, set])).violations).toEqual([]);
      expect((await validateStack(productionPolicySet, [ws, later, laterSet])).violations).toEqual([]);
      expect((await validateStack(productionPolicySet, [ws, unplaced])).violations).toEqual([]);
      const [p2, known] = setWith("known", "hard-mandatory");
      const listed = stackResource(
        PolicySetWorkspaces,
        "any-known",
        { policySetId: unknown.string, workspaceIds: unknown.array },
        { policySetId: [known] },
      );
      expect((await validateStack(productionPolicySet, [ws, p2, known, listed])).violations).toEqual([]);
      // The same stack with nothing unknown is judged.
      expect((await validateStack(productionPolicySet, [ws, p2, known])).violations).toHaveLength(1);
    });
  });

  describe("production-policy-advisory", () => {
    it("reports an advisory policy, or a new one left at the default, in a set that applies to production", async () => {
      const prod = stackResource(Workspace, "billing", { name: "billing", tagNames: ["production"] });
      const dev = stackResource(Workspace, "sandbox", { name: "sandbox" });
      const advisory = stackResource(Policy, "cost", { name: "cost", enforcementLevel: "advisory" });
      const unset = stackResource(Policy, "tags", { name: "tags", kind: "opa" });
      const adopted = stackResource(Policy, "legacy", { name: "legacy", adopt: true });
      const hard = stackResource(Policy, "strict", { name: "strict", enforcementLevel: "hard-mandatory" });
      const onProd = stackResource(
        PolicySet,
        "prod-set",
        { name: "prod-set", policyIds: [unknown.string, unknown.string, unknown.string, unknown.string] },
        { policyIds: [advisory, unset, adopted, hard] },
      );
      const applied = stackResource(
        PolicySetWorkspaces,
        "prod-set-workspaces",
        { policySetId: unknown.string, workspaceIds: [unknown.string] },
        { policySetId: [onProd], workspaceIds: [prod] },
      );
      const onDev = stackResource(
        PolicySet,
        "dev-set",
        { name: "dev-set", policyIds: [unknown.string] },
        { policyIds: [advisory] },
      );
      const devApplied = stackResource(
        PolicySetWorkspaces,
        "dev-set-workspaces",
        { policySetId: unknown.string, workspaceIds: [unknown.string] },
        { policySetId: [onDev], workspaceIds: [dev] },
      );
      const resources = [prod, dev, advisory, unset, adopted, hard, onProd, applied, onDev, devApplied];
      const out = await validateStack(productionPolicyAdvisory, resources);
      expect(out.violations).toEqual([
        {
          message:
            'Policy "cost" is advisory in PolicySet "prod-set", which applies to Workspace "billing", production (tagged "production"); ' +
            "an advisory policy's failure never stops a run. " +
            'Fix: set enforcementLevel "hard-mandatory", or "soft-mandatory" where someone may override a failure.',
          urn: advisory.urn,
        },
        {
          message:
            'Policy "tags" is advisory (enforcementLevel is not set, and a new policy is) in PolicySet "prod-set", which applies to ' +
            'Workspace "billing", production (tagged "production"); an advisory policy\'s failure never stops a run. ' +
            'Fix: set enforcementLevel "mandatory".',
          urn: unset.urn,
        },
      ]);
      // Off production, nothing to report.
      expect((await validateStack(productionPolicyAdvisory, [dev, advisory, onDev, devApplied])).violations).toEqual(
        [],
      );
    });
  });

  describe("policy-set-parameter-allowed", () => {
    const parameter = (name: string, set: ReturnType<typeof stackResource>) =>
      stackResource(
        PolicySetParameter,
        name,
        { policySetId: unknown.string, key: name, value: "v" },
        { policySetId: [set] },
      );

    it("reports a parameter on an OPA set or on one whose policies are attached with policyIds", async () => {
      const opa = stackResource(PolicySet, "opa-set", { name: "opa-set", kind: "opa", policiesFolder: "./opa" });
      const [policy, inline] = setWith("inline", "hard-mandatory");
      const onOpa = parameter("region", opa);
      const onInline = parameter("limit", inline);
      const out = await validateStack(policySetParameterAllowed, [opa, policy, inline, onOpa, onInline]);
      expect(out.violations).toEqual([
        {
          message:
            'PolicySetParameter "region" (key "region"): PolicySet "opa-set" is an OPA set (kind "opa"), and OPA policies take no parameters; ' +
            "the service would refuse the parameter. Fix: remove the parameter, or put its policies in a Sentinel set.",
          urn: onOpa.urn,
        },
        {
          message:
            'PolicySetParameter "limit" (key "limit"): PolicySet "inline" attaches its policies individually (policyIds), and the service applies ' +
            "parameters only to a versioned set (policiesFolder, or a VCS connection); the service would refuse the parameter. " +
            "Fix: give the set its policies with policiesFolder in place of policyIds, or remove the parameter.",
          urn: onInline.urn,
        },
      ]);
    });

    it("passes a parameter on a versioned Sentinel set, an empty one, one known by id, or one whose set is not known", async () => {
      const folder = stackResource(PolicySet, "versioned", { name: "versioned", policiesFolder: "./policies" });
      const empty = stackResource(PolicySet, "empty", { name: "empty", policyIds: [] });
      const kindLater = stackResource(PolicySet, "later", { name: "later", kind: unknown.string });
      const byId = stackResource(PolicySetParameter, "by-id", {
        policySetId: "polset-elsewhere",
        key: "k",
        value: "v",
      });
      const resources = [
        folder,
        empty,
        kindLater,
        parameter("a", folder),
        parameter("b", empty),
        parameter("c", kindLater),
        byId,
      ];
      expect((await validateStack(policySetParameterAllowed, resources)).violations).toEqual([]);
    });
  });
});
