/**
 * Every resource that accepts `adopt: true` reports in preview the record `pulumi up`
 * adopts, through the one mechanism (reportsAdoption in src/resources/providers/adoption.ts),
 * and the docs name exactly those resources. The list comes from the code: the `…Args`
 * types of src/resources/*.ts that declare `adopt`. A resource that stops reporting, or a
 * new one that accepts `adopt` without reporting, fails here. Against the real local server.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import type { Props } from "../../src/resources/providers/types";
import { api, createProject, startHarness, uniqueName, type Harness } from "./helpers";

const ROOT = path.resolve(__dirname, "../..");

/** The resources whose args declare `adopt`, read from the classes' sources. */
function adoptingResources(): string[] {
  const dir = path.join(ROOT, "src/resources");
  const names: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const source = fs.readFileSync(path.join(dir, file), "utf8");
    for (const m of source.matchAll(/export (?:interface|type) (\w+)Args\b[^{]*\{/g)) {
      let depth = 1;
      let i = m.index + m[0].length;
      while (depth > 0 && i < source.length) {
        if (source[i] === "{") depth += 1;
        else if (source[i] === "}") depth -= 1;
        i += 1;
      }
      if (/^\s*adopt\?:/m.test(source.slice(m.index + m[0].length, i))) names.push(m[1]);
    }
  }
  return names.sort();
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function ok(res: Promise<{ status: number; json: any }>): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
}

/** Records that exist already, and the inputs of a resource of each kind that adopts one of them. */
async function existingRecords(): Promise<Record<string, Props>> {
  const ws = await h.client.workspaces.create(h.org, { name: uniqueName("adoptee") });
  const other = await h.client.workspaces.create(h.org, { name: uniqueName("source") });
  const projectName = uniqueName("prj");
  const project = await createProject(h, projectName);
  const team = await ok(
    api(h, "POST", `/organizations/${h.org}/teams`, {
      data: { type: "teams", attributes: { name: uniqueName("team"), visibility: "organization" } },
    }),
  );
  const set = await ok(
    api(h, "POST", `/organizations/${h.org}/varsets`, {
      data: { type: "varsets", attributes: { name: uniqueName("set"), global: false } },
    }),
  );
  await h.client.variableSets.applyToWorkspaces(set.id, [ws.id]);
  await h.client.variables.create(ws.id, { key: "region", value: "eu", category: "env" });
  await h.client.variables.create(ws.id, { key: "zone", value: "a", category: "env" });
  await h.client.teamAccess.add(team.id, ws.id, { access: "read" });
  await ok(
    api(h, "POST", "/team-projects", {
      data: {
        type: "team-projects",
        attributes: { access: "read" },
        relationships: {
          team: { data: { type: "teams", id: team.id } },
          project: { data: { type: "projects", id: project } },
        },
      },
    }),
  );
  await h.client.runTriggers.create(ws.id, other.id);
  await h.client.notificationConfigurations.create(ws.id, {
    name: "ops",
    destinationType: "generic",
    url: "http://127.0.0.1:9/hook",
    enabled: false,
  });
  const rm = await h.client.registryModules.create(h.org, { name: uniqueName("net"), provider: "aws", noCode: true });
  await h.client.registryModules.createVersion({ organization: h.org, name: rm.name, provider: "aws" }, "1.0.0");
  const nocode = await h.client.noCode.enable(h.org, { registryModuleId: rm.id, enabled: true });
  const made = await h.client.noCode.createWorkspace(nocode.id, { name: uniqueName("ncws"), projectId: project });
  const pool = await h.client.agentPools.create(h.org, { name: uniqueName("pool") });
  await h.client.agentTokens.create(pool.id, "runners");
  const pol = await h.client.policies.create(h.org, { name: uniqueName("pol"), enforcementLevel: "advisory" });
  await h.client.policies.upload(pol.id, "main = rule { true }\n");
  const policies = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-policies-"));
  fs.writeFileSync(path.join(policies, "main.sentinel"), "main = rule { true }\n");
  const policySet = implementationOf("PolicySet");
  const versioned = { name: uniqueName("polset"), organization: h.org, policiesFolder: policies };
  const polset = await policySet.create((await policySet.check({}, versioned)).inputs);
  await h.client.policySetParameters.create(polset.id, { key: "limit", value: "10" });
  await h.client.teamTokens.create(team.id);
  await h.client.organizationTokens.create(h.org);
  const invited = await h.client.organizationMemberships.create(h.org, { email: `${uniqueName("ada")}@example.com` });

  return {
    Workspace: { name: ws.name },
    NoCodeModule: { registryModuleId: rm.id },
    NoCodeWorkspace: { noCodeModuleId: nocode.id, name: made.name, project },
    WorkspaceVariable: { workspaceId: ws.id, key: "region", value: "eu", category: "env" },
    WorkspaceVariables: {
      workspaceId: ws.id,
      variables: [
        { key: "region", value: "eu", category: "env" },
        { key: "zone", value: "b", category: "env" },
      ],
    },
    VariableSet: { name: set.attributes.name },
    VariableSetApplication: { variableSetId: set.id, workspaceId: ws.id },
    TeamWorkspaceAccess: { teamId: team.id, workspaceId: ws.id, access: "read" },
    TeamProjectAccess: { teamId: team.id, projectId: project, access: "read" },
    Project: { name: projectName },
    Team: { name: team.attributes.name, visibility: "organization" },
    RunTrigger: { workspaceId: ws.id, sourceWorkspaceId: other.id },
    NotificationConfiguration: {
      workspaceId: ws.id,
      name: "ops",
      destinationType: "generic",
      url: "http://127.0.0.1:9/hook",
      enabled: false,
    },
    AgentPool: { name: pool.name },
    AgentToken: { agentPoolId: pool.id, description: "runners" },
    WorkspaceSettings: { workspaceId: ws.id, autoApply: false },
    Policy: { name: pol.name, code: "main = rule { true }\n", enforcementLevel: "advisory" },
    PolicySet: versioned,
    PolicySetParameter: { policySetId: polset.id, key: "limit", value: "10" },
    OrganizationMembership: { email: invited.email },
    TeamToken: { teamId: team.id },
    OrganizationToken: {},
  };
}

describe("adoption is reported by every resource that accepts adopt", () => {
  it("the resources that accept adopt, as the code declares them", () => {
    // A floor, so that a broken reading of the sources cannot pass with an empty list.
    expect(adoptingResources()).toEqual(
      expect.arrayContaining(["Workspace", "WorkspaceVariables", "VariableSetApplication", "TeamProjectAccess"]),
    );
  });

  it("each names, in preview, the existing record pulumi up adopts and what it changes", async () => {
    const records = await existingRecords();
    expect(Object.keys(records).sort()).toEqual(adoptingResources());
    for (const kind of adoptingResources()) {
      const impl = implementationOf(kind);
      expect(typeof impl.previewAdoption, `${kind} reports no adoption`).toBe("function");
      const checked = await impl.check({}, { ...records[kind], adopt: true });
      expect(checked.failures, kind).toEqual([]);
      const line = await impl.previewAdoption!(checked.inputs);
      // Declared as they are, but the bulk form's "zone" (see below).
      const changes = kind === "WorkspaceVariables" ? "changes variables" : "no property changes";
      expect(line, kind).toMatch(new RegExp(`^adopt: pulumi up adopts the existing .+; ${changes}$`));
    }
  });

  it("the bulk variables name each variable they adopt, and what differs", async () => {
    const records = await existingRecords();
    const impl = implementationOf("WorkspaceVariables");
    const checked = await impl.check({}, { ...records.WorkspaceVariables, adopt: true });
    const line = await impl.previewAdoption!(checked.inputs);
    expect(line).toMatch(/adopts the existing variables "region" \(env\) var-\S+, "zone" \(env\) var-\S+ of workspace/);
    expect(line).toMatch(/; changes variables$/);
  });

  it("a record that does not exist yet: preview says pulumi up creates it", async () => {
    const ws = await h.client.workspaces.create(h.org, { name: uniqueName("fresh") });
    const team = await ok(
      api(h, "POST", `/organizations/${h.org}/teams`, {
        data: { type: "teams", attributes: { name: uniqueName("team"), visibility: "organization" } },
      }),
    );
    const cases: Array<[string, Props]> = [
      ["WorkspaceVariables", { workspaceId: ws.id, variables: [{ key: "k", value: "v", category: "env" }] }],
      ["TeamWorkspaceAccess", { teamId: team.id, workspaceId: ws.id, access: "read" }],
    ];
    for (const [kind, inputs] of cases) {
      const impl = implementationOf(kind);
      const checked = await impl.check({}, { ...inputs, adopt: true });
      expect(await impl.previewAdoption!(checked.inputs), kind).toMatch(/^adopt: no .+ exists; pulumi up creates it$/);
    }
  });
});

describe("the docs name the resources that accept adopt", () => {
  it("docs/resources.md, in its section on adoption, names exactly those", () => {
    const page = fs.readFileSync(path.join(ROOT, "docs/resources.md"), "utf8");
    const section = page.split(/^## Adopting existing records$/m)[1]?.split(/^## /m)[0] ?? "";
    const first = section.trim().split(/\n\s*\n/)[0] ?? "";
    expect(first).toMatch(/accept `adopt: true`/);
    const named = Array.from(first.matchAll(/`([A-Z]\w+)`/g), (m) => m[1]).sort();
    expect(named).toEqual(adoptingResources());
  });
});
