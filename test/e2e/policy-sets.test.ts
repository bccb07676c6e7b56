/**
 * The service's own policies through the real engine, from the TypeScript door, against the
 * local server (its database on disk, its request log kept):
 *
 * - a Sentinel `Policy` with inline code, an OPA one and one whose code comes from a file, a
 *   `PolicySet` holding two of them one by one and a `PolicySet` uploaded from a folder as a
 *   version, a plain and a sensitive `PolicySetParameter` on the versioned set, and where
 *   each set applies (`PolicySetWorkspaces`, `PolicySetProjects` and both exclusions): up, a
 *   no-change preview, an edit of the inline and the file policy's code (updates, the same
 *   policies), of the folder (a new version of the same set) and of the sensitive value (an
 *   update), drift made over HTTP (the Sentinel and the OPA policy's enforcement level, a
 *   set's workspaces, a policy's code) that refresh shows and up restores, `pulumi import`
 *   of each kind by its documented id (no write), then a no-change preview, and a destroy
 *   that leaves alone what the stack did not make;
 * - the sensitive value is in the checkpoint only encrypted, and nowhere else: not in any
 *   output of the CLI, the server's answers, its database file or its log; unchanged it
 *   never diffs, changed it does.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { expectSecretNowhere, forgetPluginResources, importEach, writesSince } from "./engine-steps";
import { serverEnv, startTestServer, TestStack, type PulumiResult } from "./harness";
import { createProject, createWorkspace } from "./server-helpers";
import {
  changeSetList,
  createParameter,
  createPolicy,
  createPolicySet,
  gone,
  parametersOnServer,
  patchPolicy,
  policyCode,
  policiesOnServer,
  policyOnServer,
  policySetOnServer,
  policySetsOnServer,
  uploadPolicyCode,
} from "./policy-steps";

const SECRET = "polset-param-secret-6b1e0c";
const SECRET_2 = "polset-param-secret-2-9d7f44";

interface Shape {
  inlineCode: string;
  fileCode: string;
  folderRule: string;
  secret: string;
}

const FIRST: Shape = {
  inlineCode: "main = rule { true }\n",
  fileCode: 'import "tfplan/v2"\nmain = rule { length(tfplan.resource_changes) < 50 }\n',
  folderRule: "main = rule { true }\n",
  secret: SECRET,
};
const EDITED: Shape = {
  inlineCode: "main = rule { false }\n",
  fileCode: 'import "tfplan/v2"\nmain = rule { length(tfplan.resource_changes) < 20 }\n',
  folderRule: "main = rule { 1 + 1 == 2 }\n",
  secret: SECRET_2,
};

const REGO = 'package terraform\n\ndeny[msg] { false; msg := "never" }\n';

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The program's files: the program, the policy's code file and the set's folder. */
const files = (o: Shape): Record<string, string> => ({
  "index.ts": `
import * as pulumi from "@pulumi/pulumi";
import {
  Policy,
  PolicySet,
  PolicySetParameter,
  PolicySetProjectExclusions,
  PolicySetProjects,
  PolicySetWorkspaceExclusions,
  PolicySetWorkspaces,
  getPolicySet,
} from "pulumi-workspaces";

const config = new pulumi.Config();
const [a, b, c, p1, p2] = ["a", "b", "c", "p1", "p2"].map((k) => config.require(k));

const inline = new Policy("inline", {
  name: "no-public-buckets",
  description: "buckets stay private",
  code: ${JSON.stringify(o.inlineCode)},
  enforcementLevel: "hard-mandatory",
});
// terraform-provider-tfe #1407: an OPA policy's level changed out of band must show.
const opa = new Policy("opa", {
  name: "deny-nothing",
  kind: "opa",
  query: "data.terraform.deny",
  code: ${JSON.stringify(REGO)},
  enforcementLevel: "mandatory",
});
const fromFile = new Policy("from-file", {
  name: "cost-cap",
  codeFile: "policies/cost-cap.sentinel",
  enforcementLevel: "advisory",
});
const individual = new PolicySet("individual", {
  name: "individual-set",
  description: "policies one by one",
  policyIds: [inline.id, fromFile.id],
});
const versioned = new PolicySet("versioned", { name: "versioned-set", policiesFolder: "policy-folder" });
new PolicySetParameter("region", { policySetId: versioned.id, key: "region", value: "eu-west-1" });
new PolicySetParameter("api-key", {
  policySetId: versioned.id,
  key: "api_key",
  value: ${JSON.stringify(o.secret)},
  sensitive: true,
});
const workspaces = new PolicySetWorkspaces("individual-workspaces", { policySetId: individual.id, workspaceIds: [a, b] });
const excludedProjects = new PolicySetProjectExclusions("individual-excluded-projects", {
  policySetId: individual.id,
  projectIds: [p2],
});
new PolicySetProjects("versioned-projects", { policySetId: versioned.id, projectIds: [p1] });
new PolicySetWorkspaceExclusions("versioned-excluded", { policySetId: versioned.id, workspaceIds: [c] });

export const ids = {
  inline: inline.id,
  opa: opa.id,
  fromFile: fromFile.id,
  individual: individual.id,
  versioned: versioned.id,
};
export const digests = {
  inline: inline.codeSha256,
  fromFile: fromFile.codeSha256,
  folder: versioned.policiesSha256,
  version: versioned.currentVersionId,
};
// Read once the lists are written.
export const looked = pulumi
  .all([workspaces.id, excludedProjects.id])
  .apply(() => getPolicySet({ name: "individual-set" }));
`,
  "policies/cost-cap.sentinel": o.fileCode,
  "policy-folder/sentinel.hcl":
    'policy "folder-rule" {\n  source = "./folder-rule.sentinel"\n  enforcement_level = "advisory"\n}\n',
  "policy-folder/folder-rule.sentinel": o.folderRule,
});

describe("policies, policy sets, parameters and where sets apply, through the engine (TypeScript)", () => {
  let server: RunningServer;
  let stack: TestStack;
  let dbDir: string;
  let log = "";
  const ws = { a: "", b: "", c: "" };
  const prj = { p1: "", p2: "" };
  /** Every CLI run's output and every answer of the server read here, searched for the secrets at the end. */
  const printed: string[] = [];

  beforeAll(async () => {
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "pw-policy-db-"));
    server = await startTestServer({
      db: path.join(dbDir, "server.db"),
      logLevel: "trace",
      logDestination: { write: (line) => (log += line) },
    });
    for (const k of Object.keys(ws) as Array<keyof typeof ws>) ws[k] = await createWorkspace(server, `policy-${k}`);
    for (const k of Object.keys(prj) as Array<keyof typeof prj>) prj[k] = await createProject(server, `policy-${k}`);
    stack = await TestStack.create({
      project: "policy-sets-e2e",
      files: files(FIRST),
      env: serverEnv(server),
      config: { ...ws, ...prj },
    });
  });
  afterAll(async () => {
    stack?.dispose();
    await server?.close();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  const run = async (r: Promise<PulumiResult>): Promise<PulumiResult> => {
    const done = await r;
    printed.push(done.output);
    expect(done.code, done.output.slice(-4000)).toBe(0);
    return done;
  };
  const outputs = async () => {
    const o = await stack.outputs();
    return o as {
      ids: { inline: string; opa: string; fromFile: string; individual: string; versioned: string };
      digests: { inline: string; fromFile: string; folder: string; version: string };
      looked: any;
    };
  };
  /** `secret` is in no output of the CLI, no answer read here, the server's log or database, or a file the CLI wrote. */
  const expectNowhere = (secret: string) => expectSecretNowhere(secret, { printed, log, dbDir, stack });
  const noChange = async () => {
    stack.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    const p = await stack.expectNoChanges().finally(() => delete stack.env.PULUMI_NODEJS_TRANSPILE_ONLY);
    printed.push(p.raw.output);
  };
  /** What the server holds is what the program `o` declares. */
  const expectDeclared = async (o: Shape) => {
    const { ids, digests } = await outputs();
    expect(await policyOnServer(server, ids.inline)).toMatchObject({
      name: "no-public-buckets",
      kind: "sentinel",
      enforcementLevel: "hard-mandatory",
      description: "buckets stay private",
    });
    expect(await policyOnServer(server, ids.fromFile)).toMatchObject({
      name: "cost-cap",
      enforcementLevel: "advisory",
    });
    expect(await policyCode(server, ids.inline)).toBe(o.inlineCode);
    expect(await policyCode(server, ids.fromFile)).toBe(o.fileCode);
    expect([digests.inline, digests.fromFile]).toEqual([sha256(o.inlineCode), sha256(o.fileCode)]);
    expect(await policySetOnServer(server, ids.individual)).toMatchObject({
      name: "individual-set",
      policyIds: [ids.inline, ids.fromFile].sort(),
      workspaceIds: [ws.a, ws.b].sort(),
      projectIds: [],
      workspaceExclusionIds: [],
      projectExclusionIds: [prj.p2],
    });
    const versioned = await policySetOnServer(server, ids.versioned);
    expect(versioned).toMatchObject({
      name: "versioned-set",
      policyIds: [],
      workspaceIds: [],
      projectIds: [prj.p1],
      workspaceExclusionIds: [ws.c],
      projectExclusionIds: [],
      currentVersionId: digests.version,
    });
    expect(digests.version).toMatch(/^polsetver-/);
    // Parameters: the plain one as declared, the sensitive one's value never answered (null or empty).
    const params = await parametersOnServer(server, ids.versioned);
    printed.push(JSON.stringify(params));
    expect(params.map(({ key, value, sensitive }) => ({ key, value: value ?? "", sensitive }))).toEqual([
      { key: "api_key", value: "", sensitive: true },
      { key: "region", value: "eu-west-1", sensitive: false },
    ]);
  };

  it("up creates the policies, both sets, the parameters and the lists; the lookup reads the set; then no change", async () => {
    await run(stack.up());
    await expectDeclared(FIRST);
    const { ids, looked } = await outputs();
    const sorted = (l: string[]) => [...l].sort();
    expect({
      ...looked,
      policyIds: sorted(looked.policyIds),
      workspaceIds: sorted(looked.workspaceIds),
    }).toMatchObject({
      id: ids.individual,
      name: "individual-set",
      organization: server.organization,
      kind: "sentinel",
      global: false,
      policyIds: sorted([ids.inline, ids.fromFile]),
      workspaceIds: sorted([ws.a, ws.b]),
      projectIds: [],
      workspaceExclusionIds: [],
      projectExclusionIds: [prj.p2],
    });
    await noChange();
    await stack.expectEncryptedOnly([SECRET]);
    expectNowhere(SECRET);
  });

  it("an edit of two policies' code, the folder and the secret: updates in place, a new version, same records", async () => {
    const before = await outputs();
    stack.writeFiles(files(EDITED));
    const preview = await stack.previewJson();
    printed.push(preview.raw.output);
    expect(preview.code, preview.raw.output.slice(-4000)).toBe(0);
    expect(
      preview.steps
        .filter((s) => s.op !== "same")
        .map((s) => `${s.op} ${s.urn.split("::").pop()}`)
        .sort(),
    ).toEqual(["update api-key", "update from-file", "update inline", "update versioned"]);
    const up = await run(stack.up());
    expect(up.output).not.toMatch(/replaced|\+ \d+ created|- \d+ deleted/);
    const after = await outputs();
    expect(after.ids).toEqual(before.ids);
    expect(after.digests.version).not.toBe(before.digests.version);
    expect(after.digests.folder).not.toBe(before.digests.folder);
    await expectDeclared(EDITED);
    await noChange();
    await stack.expectEncryptedOnly([SECRET_2]);
    expectNowhere(SECRET_2);
  });

  it("drift: two policies' levels (Sentinel, OPA), one's code and a set's workspaces changed over HTTP show in refresh, and up restores them", async () => {
    const { ids } = await outputs();
    await patchPolicy(server, ids.inline, { "enforcement-level": "advisory" });
    await patchPolicy(server, ids.opa, { "enforcement-level": "advisory" });
    await uploadPolicyCode(server, ids.fromFile, "main = rule { true }\n");
    await changeSetList(server, ids.individual, "workspaces", "DELETE", [ws.b]);
    await run(stack.refresh());
    const preview = await stack.previewJson();
    printed.push(preview.raw.output);
    expect(
      preview.steps
        .filter((s) => s.op !== "same")
        .map((s) => `${s.op} ${s.urn.split("::").pop()}`)
        .sort(),
    ).toEqual(["update from-file", "update individual-workspaces", "update inline", "update opa"]);
    await run(stack.up());
    await expectDeclared(EDITED);
    await noChange();
  });

  it("pulumi import takes over each kind by its documented id without one write", async () => {
    const policy = await createPolicy(server, {
      name: "theirs",
      level: "soft-mandatory",
      code: "main = rule { true }\n",
    });
    const set = await createPolicySet(server, {
      name: "their-set",
      policyIds: [policy],
      workspaceIds: [ws.a],
      projectIds: [prj.p1],
      workspaceExclusionIds: [ws.b],
      projectExclusionIds: [prj.p2],
    });
    const empty = await createPolicySet(server, { name: "their-parameters" });
    const param = await createParameter(server, empty, { key: "owner", value: "platform" });
    const imports: Array<[string, string, string]> = [
      ["Policy", "imp-policy", policy],
      ["PolicySet", "imp-set", set],
      ["PolicySetParameter", "imp-param", `${empty}/${param}`],
      ["PolicySetWorkspaces", "imp-workspaces", set],
      ["PolicySetProjects", "imp-projects", set],
      ["PolicySetWorkspaceExclusions", "imp-excluded", set],
      ["PolicySetProjectExclusions", "imp-excluded-projects", set],
    ];
    const before = server.stats().byRoute;
    const imported = await importEach(stack, imports);
    printed.push(imported.output);
    expect(writesSince(server, before)).toEqual([]);
    const outputsOf = (type: string, id: string) =>
      stack.resources(`workspaces:index:${type}`).find((r) => r.id === id)?.outputs;
    expect(outputsOf("Policy", policy)).toMatchObject({
      name: "theirs",
      organization: server.organization,
      kind: "sentinel",
      enforcementLevel: "soft-mandatory",
      codeSha256: sha256("main = rule { true }\n"),
    });
    expect(outputsOf("PolicySet", set)).toMatchObject({ name: "their-set", kind: "sentinel", policyIds: [policy] });
    expect(outputsOf("PolicySetParameter", `${empty}/${param}`)).toMatchObject({
      policySetId: empty,
      key: "owner",
      value: "platform",
    });
    expect(outputsOf("PolicySetWorkspaces", set)).toMatchObject({ policySetId: set, workspaceIds: [ws.a] });
    expect(outputsOf("PolicySetProjects", set)).toMatchObject({ policySetId: set, projectIds: [prj.p1] });
    expect(outputsOf("PolicySetWorkspaceExclusions", set)).toMatchObject({ policySetId: set, workspaceIds: [ws.b] });
    expect(outputsOf("PolicySetProjectExclusions", set)).toMatchObject({ policySetId: set, projectIds: [prj.p2] });

    // The program declares none of them: they leave the stack again (one state edit) and stay on the server.
    await forgetPluginResources(stack);
    await noChange();
    expect(await policySetOnServer(server, set)).toMatchObject({ name: "their-set", policyIds: [policy] });
    expect((await parametersOnServer(server, empty)).map((p) => p.key)).toEqual(["owner"]);
  });

  it("destroy deletes what the stack made and leaves what it did not; no secret anywhere", async () => {
    const { ids } = await outputs();
    await run(stack.destroy());
    for (const p of [`/policies/${ids.inline}`, `/policies/${ids.opa}`, `/policies/${ids.fromFile}`])
      expect(await gone(server, p), p).toBe(true);
    for (const s of [ids.individual, ids.versioned]) expect(await gone(server, `/policy-sets/${s}`), s).toBe(true);
    // What the import test made out of band stays.
    expect((await policySetsOnServer(server)).map((s) => s.name)).toEqual(["their-parameters", "their-set"]);
    expect((await policiesOnServer(server)).map((p) => p.name)).toEqual(["theirs"]);
    for (const secret of [SECRET, SECRET_2]) expectNowhere(secret);
  });
});
