/**
 * Seeds the service's own policy layer, over its API, on top of {@link seedOrganization}:
 * Sentinel and OPA policies with their code (one with none uploaded), a set holding two of
 * them that applies to workspaces and a project less an exclusion of each, a global OPA set
 * that members may override, and a versioned set (a folder uploaded as a version) with a
 * plain and a sensitive parameter.
 */
import type { WorkspacesClient } from "../../src/client";
import { tarball } from "../../src/resources/providers/policy-set-folder";
import { workspaceName, type Seeded } from "./seed";

/** The policies' code, by policy name: each must land, byte for byte, in its generated file. */
export const CODE: Record<string, string> = {
  "deny-public":
    'import "tfplan/v2" as tfplan\n\nmain = rule { all tfplan.resource_changes as _, rc { rc.mode is "managed" } }\n',
  "cost.limit": "# A dot in the name, and a line without its end",
  "no-admins": 'package terraform.policies\n\nimport rego.v1\n\ndeny contains msg if {\n  msg := "no admins"\n}\n',
};

/** A sensitive parameter's value: it may appear in no generated file. */
export const SENSITIVE_VALUE = "s3cr3t-parameter-value";

export interface SeededPolicies {
  /** Policy ids by name. */
  policies: Map<string, string>;
  /** Policy set ids by name. */
  sets: Map<string, string>;
  /** Parameter ids by key (of the versioned set). */
  parameters: Map<string, string>;
}

/** Workspace indexes, as seedOrganization names them: listed by `baseline`, and excluded from it. */
export const LISTED = [1, 2];
export const EXCLUDED = 5;

export async function seedPolicies(client: WorkspacesClient, seeded: Seeded): Promise<SeededPolicies> {
  const org = client.organization!;
  const ws = (i: number) => seeded.ids.get(workspaceName(i))!;
  const policies = new Map<string, string>();
  for (const [name, options] of [
    ["deny-public", { enforcementLevel: "hard-mandatory", description: "No public buckets" }],
    ["cost.limit", { enforcementLevel: "advisory" }],
    ["no-admins", { kind: "opa", query: "data.terraform.policies.deny", enforcementLevel: "mandatory" }],
    ["draft", { enforcementLevel: "soft-mandatory" }],
  ] as const) {
    const p = await client.policies.create(org, { name, ...options });
    if (CODE[name] !== undefined) await client.policies.upload(p.id, CODE[name]);
    policies.set(name, p.id);
  }
  const sets = new Map<string, string>();
  const baseline = await client.policySets.create(org, {
    name: "baseline",
    description: "What every workspace must pass",
    policyIds: [policies.get("deny-public")!, policies.get("cost.limit")!, policies.get("draft")!],
    workspaceIds: LISTED.map(ws),
    // payments: app-1, app-5, ...; app-5 excluded. edge: excluded as a project.
    projectIds: [seeded.projects[1]],
    workspaceExclusionIds: [ws(EXCLUDED)],
    projectExclusionIds: [seeded.projects[3]],
  });
  sets.set("baseline", baseline.id);
  const opa = await client.policySets.create(org, {
    name: "opa-guard",
    kind: "opa",
    overridable: true,
    global: true,
    policyIds: [policies.get("no-admins")!],
  });
  sets.set("opa-guard", opa.id);
  // Parameters first (an empty Sentinel set takes them), then the version that makes the set a versioned one.
  const versioned = await client.policySets.create(org, { name: "versioned" });
  sets.set("versioned", versioned.id);
  const parameters = new Map<string, string>();
  for (const [key, value, sensitive] of [
    ["region", "eu-west-1", false],
    ["api_key", SENSITIVE_VALUE, true],
  ] as const) {
    parameters.set(key, (await client.policySetParameters.create(versioned.id, { key, value, sensitive })).id);
  }
  const version = await client.policySetVersions.create(versioned.id);
  await client.policySetVersions.upload(
    version,
    tarball([{ path: "main.sentinel", content: Buffer.from("main = rule { true }\n") }]),
  );
  return { policies, sets, parameters };
}
