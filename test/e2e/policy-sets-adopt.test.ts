/**
 * The service's policies made out of band, through the real engine and the real server
 * under its default rate limit, each step counting the server's writes:
 *
 * - Adoption: Sentinel and OPA policies, a set holding policies one by one and applied to
 *   workspaces with an exclusion, an OPA set on a project, a versioned set with a plain and
 *   a sensitive parameter, and a global set with a project exclusion. A program declaring
 *   them as they are (`adopt: true`, the lists equal to the sets') takes everything over
 *   without one write, and a preview then changes nothing and writes nothing.
 * - Refusals at `pulumi preview`, each with nothing written: a parameter of an existing OPA
 *   set and of a set whose policies are attached one by one (the reason and the way out);
 *   two owners of one list (two authoritative, authoritative and additive, one id in two
 *   additive), naming both resources; workspaces on a global set. A parameter of an OPA set
 *   created in the same `pulumi up` is refused before it is sent (the set is made).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { writesSince } from "./engine-steps";
import { serverEnv, startTestServer, TestStack } from "./harness";
import { createProject, createWorkspace } from "./server-helpers";
import {
  createParameter,
  createPolicy,
  createPolicySet,
  parametersOnServer,
  policySetsOnServer,
  uploadPolicySetVersion,
} from "./policy-steps";

const SENTINEL = "main = rule { true }\n";
const REGO = 'package terraform\n\ndeny[msg] { false; msg := "never" }\n';
const SECRET = "adopted-param-secret-41c2de";
const FOLDER = {
  "sentinel.hcl": 'policy "folder-rule" {\n  source = "./folder-rule.sentinel"\n  enforcement_level = "advisory"\n}\n',
  "folder-rule.sentinel": SENTINEL,
};

const adoptProgram = `
import * as pulumi from "@pulumi/pulumi";
import {
  Policy,
  PolicySet,
  PolicySetParameter,
  PolicySetProjectExclusions,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetWorkspaces,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const [w1, w2, w3, p1, p2] = ["w1", "w2", "w3", "p1", "p2"].map((k) => config.require(k));

const sentinel = new Policy("sentinel", {
  name: "adopt-sentinel",
  code: ${JSON.stringify(SENTINEL)},
  enforcementLevel: "hard-mandatory",
  adopt: true,
});
const opa = new Policy("opa", {
  name: "adopt-opa",
  kind: "opa",
  query: "data.terraform.deny",
  code: ${JSON.stringify(REGO)},
  enforcementLevel: "mandatory",
  adopt: true,
});
const individual = new PolicySet("individual", { name: "adopt-individual", policyIds: [sentinel.id], adopt: true });
new PolicySetWorkspaces("individual-workspaces", { policySetId: individual.id, workspaceIds: [w1, w2] });
new PolicySetWorkspaceExclusions("individual-excluded", { policySetId: individual.id, workspaceIds: [w3] });
const opaSet = new PolicySet("opa-set", {
  name: "adopt-opa-set",
  kind: "opa",
  overridable: true,
  policyIds: [opa.id],
  adopt: true,
});
new PolicySetProjects("opa-projects", { policySetId: opaSet.id, projectIds: [p1] });
const versioned = new PolicySet("versioned", { name: "adopt-versioned", policiesFolder: "policy-folder", adopt: true });
new PolicySetParameter("region", { policySetId: versioned.id, key: "region", value: "eu-west-1", adopt: true });
new PolicySetParameter("api-key", {
  policySetId: versioned.id,
  key: "api_key",
  value: ${JSON.stringify(SECRET)},
  sensitive: true,
  adopt: true,
});
const global = new PolicySet("global", { name: "adopt-global", global: true, adopt: true });
new PolicySetProjectExclusions("global-excluded", { policySetId: global.id, projectIds: [p2] });
`;

/** A program of the refusals' stack: `body` after the imports and the config's ids. */
const refusal = (body: string) => `
import * as pulumi from "@pulumi/pulumi";
import {
  PolicySet,
  PolicySetParameter,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetWorkspaces,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const [w1, w2, w3, p1] = ["w1", "w2", "w3", "p1"].map((k) => config.require(k));
const [opaSet, individual, versioned, global] = ["opaSet", "individual", "versioned", "global"].map((k) =>
  config.require(k),
);
void [w1, w2, w3, p1, opaSet, individual, versioned, global];
${body}
`;

describe("policies, policy sets and parameters made out of band", () => {
  let server: RunningServer;
  let adopting: TestStack;
  let refusing: TestStack;
  const ws = { w1: "", w2: "", w3: "" };
  const prj = { p1: "", p2: "" };
  const sets = { opaSet: "", individual: "", versioned: "", global: "" };

  beforeAll(async () => {
    server = await startTestServer();
    for (const k of Object.keys(ws) as Array<keyof typeof ws>) ws[k] = await createWorkspace(server, k);
    for (const k of Object.keys(prj) as Array<keyof typeof prj>) prj[k] = await createProject(server, k);
    const sentinel = await createPolicy(server, { name: "adopt-sentinel", level: "hard-mandatory", code: SENTINEL });
    const opa = await createPolicy(server, {
      name: "adopt-opa",
      kind: "opa",
      query: "data.terraform.deny",
      level: "mandatory",
      code: REGO,
    });
    sets.individual = await createPolicySet(server, {
      name: "adopt-individual",
      policyIds: [sentinel],
      workspaceIds: [ws.w1, ws.w2],
      workspaceExclusionIds: [ws.w3],
    });
    sets.opaSet = await createPolicySet(server, {
      name: "adopt-opa-set",
      kind: "opa",
      overridable: true,
      policyIds: [opa],
      projectIds: [prj.p1],
    });
    sets.versioned = await createPolicySet(server, { name: "adopt-versioned" });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pw-adopt-folder-"));
    for (const [name, text] of Object.entries(FOLDER)) fs.writeFileSync(path.join(folder, name), text);
    await uploadPolicySetVersion(server, sets.versioned, folder);
    fs.rmSync(folder, { recursive: true, force: true });
    await createParameter(server, sets.versioned, { key: "region", value: "eu-west-1" });
    await createParameter(server, sets.versioned, { key: "api_key", value: SECRET, sensitive: true });
    sets.global = await createPolicySet(server, {
      name: "adopt-global",
      global: true,
      projectExclusionIds: [prj.p2],
    });
    adopting = await TestStack.create({
      project: "adopt-policy-sets",
      files: {
        "index.ts": adoptProgram,
        ...Object.fromEntries(Object.entries(FOLDER).map(([name, text]) => [`policy-folder/${name}`, text])),
      },
      env: serverEnv(server),
      config: { ...ws, ...prj },
    });
    refusing = await TestStack.create({
      project: "refuse-policy-sets",
      files: { "index.ts": refusal("") },
      // These programs only need to reach their check: no type-check of them.
      env: { ...serverEnv(server), PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      config: { ...ws, ...prj, ...sets },
    });
  });

  afterAll(async () => {
    adopting?.dispose();
    refusing?.dispose();
    await server?.close();
  });

  it("pulumi up adopts every policy, set, parameter and list and sends no write; a preview then changes nothing", async () => {
    const before = server.stats().byRoute;
    const r = await adopting.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(writesSince(server, before)).toEqual([]);
    const ids = (type: string) =>
      adopting
        .resources(`dynamic/workspaces:${type}`)
        .map((res) => res.id)
        .sort();
    expect(ids("PolicySet")).toEqual(Object.values(sets).sort());
    expect(ids("Policy")).toHaveLength(2);
    expect(ids("PolicySetParameter")).toHaveLength(2);
    for (const [type, set] of [
      ["PolicySetWorkspaces", sets.individual],
      ["PolicySetWorkspaceExclusions", sets.individual],
      ["PolicySetProjects", sets.opaSet],
      ["PolicySetProjectExclusions", sets.global],
    ])
      expect(ids(type), type).toEqual([set]);
    // The sensitive value was neither written nor read: the server holds one of each key still.
    expect((await parametersOnServer(server, sets.versioned)).map((p) => p.key)).toEqual(["api_key", "region"]);
    await adopting.expectEncryptedOnly([SECRET]);

    const again = server.stats().byRoute;
    await adopting.expectNoChanges();
    expect(writesSince(server, again)).toEqual([]);
  });

  /** `pulumi preview` of `body` fails naming each of `names`, matching `reason`, and writes nothing. */
  const refused = async (body: string, names: string[], reason: RegExp) => {
    refusing.writeFiles({ "index.ts": refusal(body) });
    const before = server.stats().byRoute;
    const p = await refusing.pulumi(["preview", "--non-interactive"]);
    expect(p.code, p.output.slice(-4000)).not.toBe(0);
    for (const name of names) expect(p.output, name).toContain(name);
    expect(p.output).toMatch(reason);
    expect(p.output).not.toMatch(/\n\s+at [\w.<>]+ \(.*:\d+:\d+\)/);
    expect(writesSince(server, before)).toEqual([]);
    return p.output;
  };

  it("a parameter of an existing OPA set is refused at preview, with the reason", async () => {
    await refused(
      `new PolicySetParameter("on-opa", { policySetId: opaSet, key: "region", value: "eu" });`,
      ["on-opa"],
      /OPA/i,
    );
  });

  it("a parameter of an existing set whose policies are attached one by one is refused at preview, with the way out", async () => {
    await refused(
      `new PolicySetParameter("on-individual", { policySetId: individual, key: "region", value: "eu" });`,
      ["on-individual"],
      /policiesFolder/,
    );
  });

  it("two authoritative owners of one set's workspaces are refused at preview, naming both", async () => {
    await refused(
      `new PolicySetWorkspaces("owner-one", { policySetId: individual, workspaceIds: [w1, w2] });
new PolicySetWorkspaces("owner-two", { policySetId: individual, workspaceIds: [w1, w2] });`,
      ["owner-one", "owner-two"],
      /owner-one[\s\S]*owner-two|owner-two[\s\S]*owner-one/,
    );
  });

  it("an authoritative and an additive owner of one set's projects are refused at preview, naming both", async () => {
    await refused(
      `new PolicySetProjects("all-projects", { policySetId: opaSet, projectIds: [p1] });
new PolicySetProjects("more-projects", { policySetId: opaSet, projectIds: [p1], mode: "additive" });`,
      ["all-projects", "more-projects"],
      /all-projects[\s\S]*more-projects|more-projects[\s\S]*all-projects/,
    );
  });

  it("one workspace in two additive exclusion lists is refused at preview, naming both", async () => {
    await refused(
      `new PolicySetWorkspaceExclusions("adds-w3", { policySetId: individual, workspaceIds: [w3], mode: "additive" });
new PolicySetWorkspaceExclusions("adds-w3-too", { policySetId: individual, workspaceIds: [w3], mode: "additive" });`,
      ["adds-w3", "adds-w3-too"],
      /adds-w3\b[\s\S]*adds-w3-too|adds-w3-too[\s\S]*adds-w3\b/,
    );
  });

  it("workspaces on a global set are refused at preview", async () => {
    await refused(
      `new PolicySetWorkspaces("on-global", { policySetId: global, workspaceIds: [w1] });`,
      ["on-global"],
      /global/,
    );
  });

  it("a parameter of an OPA set created in the same up is refused before its own write", async () => {
    refusing.writeFiles({
      "index.ts": refusal(`const fresh = new PolicySet("fresh-opa", { name: "fresh-opa", kind: "opa" });
new PolicySetParameter("on-fresh", { policySetId: fresh.id, key: "region", value: "eu" });`),
    });
    const before = server.stats().byRoute;
    const up = await refusing.up();
    expect(up.code, up.output.slice(-4000)).not.toBe(0);
    expect(up.output).toContain("on-fresh");
    expect(up.output).toMatch(/OPA/i);
    // The set is made (the program declares it); no parameter is sent.
    expect(writesSince(server, before)).toEqual(["POST /api/v2/organizations/:organization_name/policy-sets x1"]);
    const fresh = (await policySetsOnServer(server)).find((s) => s.name === "fresh-opa");
    expect(await parametersOnServer(server, fresh!.id)).toEqual([]);
  });
});
