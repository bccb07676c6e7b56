/**
 * The service's own policies in a generated program: each policy adopted with its code in a
 * file beside the program (`codeFile`), each policy set adopted with the policies it holds
 * by reference, its parameters (a sensitive value from secret stack config, never written)
 * and where it applies (each list the set's whole list, authoritative).
 */
import { POLICY_FILE_EXTENSIONS, type PolicyKind } from "../api/policies";
import { originQuery } from "../api/origin";
import { Code, NotedId } from "./code";
import { byCodePoint } from "./names";
import type { PolicyRecord, PolicySetRecord } from "./read-policies";
import type { DeclarationContext } from "./variable-declarations";

/** The folder beside the program that holds the policies' code, one file each. */
const POLICY_CODE_FOLDER = "policies";

/** How many of each {@link declarePolicies} declared, the classes it used and the code files to write. */
export interface PolicyDeclarations {
  /** The classes the statements use. */
  kinds: string[];
  /** Policies declared (a policy without code is not). */
  policies: number;
  /** Policy sets declared. */
  policySets: number;
  /** Parameters declared. */
  policySetParameters: number;
  /** Lists of where a set applies declared, one resource each. */
  policySetLists: number;
  /** File text by path relative to the program's folder (`policies/<name>.sentinel`). */
  files: Record<string, string>;
}

/** The lists of a set: the resource that declares each, its input and the set's ids in it. */
const LISTS = [
  { kind: "PolicySetWorkspaces", input: "workspaceIds", suffix: "workspaces", of: "workspaceIds" },
  { kind: "PolicySetProjects", input: "projectIds", suffix: "projects", of: "projectIds" },
  {
    kind: "PolicySetWorkspaceExclusions",
    input: "workspaceIds",
    suffix: "workspace-exclusions",
    of: "workspaceExclusionIds",
  },
  { kind: "PolicySetProjectExclusions", input: "projectIds", suffix: "project-exclusions", of: "projectExclusionIds" },
] as const;

/** How a list's items read: references by name first, then literal ids (with their notes). */
const itemOrder = (v: unknown) =>
  v instanceof NotedId ? `1${v.id}` : v instanceof Code ? `0${v.text}` : `1${String(v)}`;

/** A description the program states: none for an origin this package wrote (docs/interrupted-updates.md). */
const stated = (description: string | null) => (description && !originQuery(description) ? { description } : {});

/**
 * Declares the policies (each with its code in a file under {@link POLICY_CODE_FOLDER}), the
 * policy sets, their parameters and the lists of where each applies. `codeFile` hands out a
 * file name no other policy of the program has (file systems that ignore case included).
 * A policy with no code on the service is not declared (a `Policy` needs code): a comment
 * names it, and a set holding it names it by id.
 */
export function declarePolicies(
  at: DeclarationContext,
  policies: PolicyRecord[],
  sets: PolicySetRecord[],
  codeFile: (wanted: string) => string,
): PolicyDeclarations {
  const out: PolicyDeclarations = {
    kinds: [],
    policies: 0,
    policySets: 0,
    policySetParameters: 0,
    policySetLists: 0,
    files: {},
  };
  const kinds = new Set<string>();
  const identOf = new Map<string, string>();
  if (policies.length) {
    at.section(
      `// Policies of the service, each with its code in a file under ${POLICY_CODE_FOLDER}/ (codeFile: a path from the program's folder)`,
    );
    for (const { policy, code } of policies) {
      if (code === undefined) {
        at.section(`// Policy ${JSON.stringify(policy.name)} (${policy.id}) has no code on the service: not declared.`);
        continue;
      }
      // A kind this release does not know names its file's extension.
      const extension = Object.hasOwn(POLICY_FILE_EXTENSIONS, policy.kind)
        ? POLICY_FILE_EXTENSIONS[policy.kind as PolicyKind]
        : `.${policy.kind.replace(/[^A-Za-z0-9]/g, "") || "policy"}`;
      const file = codeFile(`${POLICY_CODE_FOLDER}/${policy.name.replace(/^\.+/, "_")}${extension}`);
      out.files[file] = code;
      const ident = at.identifier(`${policy.name}-policy`, "policy");
      identOf.set(policy.id, ident);
      at.declare(
        "Policy",
        at.resourceName(`${policy.name}-policy`),
        policy.id,
        {
          name: policy.name,
          organization: new Code("organization"),
          ...(policy.kind !== "sentinel" ? { kind: policy.kind } : {}),
          ...stated(policy.description),
          ...(policy.query ? { query: policy.query } : {}),
          ...(policy.enforcementLevel ? { enforcementLevel: policy.enforcementLevel } : {}),
          codeFile: file,
          adopt: true,
        },
        ident,
      );
      out.policies++;
    }
    if (out.policies) kinds.add("Policy");
  }
  if (!sets.length) return { ...out, kinds: [...kinds] };

  const setIdent = new Map<string, string>();
  const versioned = (set: PolicySetRecord["set"]) => set.currentVersionId !== null || set.newestVersionId !== null;
  at.section(
    sets.some((s) => versioned(s.set))
      ? [
          "// Policy sets. A set whose policies come from a version (uploaded, or from VCS) is declared",
          "// without them: the service keeps them; policiesFolder would upload a folder in their place.",
        ].join("\n")
      : "// Policy sets, each with the policies it holds",
  );
  for (const { set } of sets) {
    const ident = at.identifier(`${set.name}-policy-set`, "policySet");
    setIdent.set(set.id, ident);
    const policyIds = set.policyIds
      .map((id) => (identOf.has(id) ? new Code(`${identOf.get(id)}.id`) : id))
      .sort((a, b) => byCodePoint(itemOrder(a), itemOrder(b)));
    at.declare(
      "PolicySet",
      at.resourceName(`${set.name}-policy-set`),
      set.id,
      {
        name: set.name,
        organization: new Code("organization"),
        ...(set.kind !== "sentinel" ? { kind: set.kind } : {}),
        ...stated(set.description),
        ...(set.overridable === true ? { overridable: true } : {}),
        ...(set.global ? { global: true } : {}),
        ...(!versioned(set) && policyIds.length ? { policyIds } : {}),
        ...(set.agentEnabled === true ? { agentEnabled: true } : {}),
        ...(set.policyToolVersion ? { policyToolVersion: set.policyToolVersion } : {}),
        adopt: true,
      },
      ident,
    );
  }
  out.policySets = sets.length;
  kinds.add("PolicySet");

  const withParameters = sets.filter((s) => s.parameters.length);
  if (withParameters.length) {
    at.section(
      [
        "// Policy set parameters. A sensitive value, which the service never shows, comes from secret",
        "// stack config that you set before `pulumi up` (README.md lists the keys); it is never written here.",
      ].join("\n"),
    );
    for (const { set, parameters } of withParameters) {
      for (const p of parameters) {
        at.declare("PolicySetParameter", at.resourceName(`${set.name}-${p.key}`), `${set.id}/${p.id}`, {
          policySetId: new Code(`${setIdent.get(set.id)}.id`),
          key: p.key,
          value: p.sensitive
            ? at.secret({ policySet: set.name, variable: p.key }, "polset", set.name, p.key)
            : (p.value ?? ""),
          ...(p.sensitive ? { sensitive: true } : {}),
          adopt: true,
        });
        out.policySetParameters++;
      }
    }
    kinds.add("PolicySetParameter");
  }

  const withLists = sets.filter(({ set }) => LISTS.some((l) => set[l.of].length > 0));
  if (withLists.length) {
    at.section("// Where each policy set applies: each resource declares the set's whole list");
    for (const { set } of withLists) {
      for (const list of LISTS) {
        const ids = set[list.of];
        if (!ids.length) continue;
        at.declare(list.kind, at.resourceName(`${set.name}-${list.suffix}`), set.id, {
          policySetId: new Code(`${setIdent.get(set.id)}.id`),
          [list.input]: ids.map((id) => at.ref(id)).sort((a, b) => byCodePoint(itemOrder(a), itemOrder(b))),
        });
        kinds.add(list.kind);
        out.policySetLists++;
      }
    }
  }
  return { ...out, kinds: [...kinds] };
}
