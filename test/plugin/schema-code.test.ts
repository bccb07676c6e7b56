/**
 * What the plugin's schema claims, against what the code does, through the plugin's own
 * provider and the real local server: every `default` is what a resource created without
 * the input has (or, for `adopt`, does); each default claimed in words holds; and every id
 * form of an Import section is one the resource's read takes (`pulumi import` reads the
 * record with nothing else known).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fs from "node:fs";
import * as path from "node:path";
import { recordReadInputs, workspacesProvider } from "../../src/plugin/provider";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import type { RunningServer } from "../../src/server";
import { configuredSettings, defaultOrganization, setConfiguredSettings } from "../../src/resources/provider-settings";
import { getWorkspaces, lookupSettingsFrom } from "../../src/resources/lookups";
import { createProject, registryModuleWith, startHarness, uniqueName, type Harness } from "../resources/helpers";

type Props = Record<string, any>;

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "../../src/plugin/schema.json"), "utf8"));
const provider = workspacesProvider("0.0.0-test");
const urn = (kind: string, name: string) => `urn:pulumi:dev::schema-code::workspaces:index:${kind}::${name}`;
const SIG = "4dabf18193072939515e22adb298388d";

/** `v` with every secret mark taken off. */
function unmarked(v: any): any {
  if (v && typeof v === "object" && v[SIG]) return unmarked(v.value);
  if (Array.isArray(v)) return v.map(unmarked);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unmarked(x)]));
  return v;
}

/** check then create through the plugin's provider, as the engine does. */
async function create(kind: string, news: Props, name = uniqueName(kind)): Promise<{ id: string; outs: Props }> {
  const checked = await provider.check!(urn(kind, name), {}, news);
  expect(checked.failures, `${kind} ${JSON.stringify(news)}`).toEqual([]);
  const r = await provider.create!(urn(kind, name), checked.inputs);
  return { id: r.id, outs: unmarked(r.outs) };
}

let h: Harness;
let server: RunningServer;
let workspaceId: string;
let project: string;
let moduleId: string;
let variableSetId: string;
/** A pool whose lists the least programs declare. */
let agentPoolId: string;
/** An empty Sentinel set, which takes parameters, and a set whose lists the least programs declare. */
let parameterSetId: string;
let listSetId: string;
/** Teams given access, one per access record, taken in turn. */
const accessTeams: string[] = [];
/** Source workspaces of run triggers: one pair per trigger, taken in turn. */
const sources: string[] = [];
/** A team whose list and tokens the least programs declare. */
let peopleTeamId: string;

beforeAll(async () => {
  // Self-managed: data retention policies are a self-managed server's feature.
  h = await startHarness({ selfManaged: true });
  server = h.server;
  // As the plugin's lookups do (src/plugin/main.ts): the provider's configuration first.
  lookupSettingsFrom(configuredSettings);
  workspaceId = (await create("Workspace", { name: uniqueName("base") })).id;
  project = await createProject(h, uniqueName("schema"));
  moduleId = (await create("NoCodeModule", { registryModuleId: await registryModuleWith(h, ["1.0.0"]) })).id;
  agentPoolId = (await h.client.agentPools.create(h.org, { name: uniqueName("base"), organizationScoped: false })).id;
  variableSetId = (await create("VariableSet", { name: uniqueName("base") })).id;
  parameterSetId = (await h.client.policySets.create(h.org, { name: uniqueName("params") })).id;
  listSetId = (await h.client.policySets.create(h.org, { name: uniqueName("lists") })).id;
  for (let i = 0; i < 6; i++) accessTeams.push((await h.client.teams.create(h.org, { name: uniqueName("access") })).id);
  for (let i = 0; i < 4; i++) sources.push((await create("Workspace", { name: uniqueName("source") })).id);
  peopleTeamId = (await h.client.teams.create(h.org, { name: uniqueName("people") })).id;
});
afterAll(async () => {
  await h.close();
});

/** The least a program gives for each resource; each default is then left to the code. */
const minimal = (): Record<string, Props> => ({
  Workspace: { name: uniqueName("least") },
  WorkspaceTags: { workspaceId, tagNames: [] },
  RemoteStateConsumers: { workspaceId, consumerIds: [] },
  NoCodeWorkspace: {
    noCodeModuleId: moduleId,
    name: uniqueName("least"),
    project,
    variables: [{ key: "region", category: "engine" }],
  },
  WorkspaceLock: { workspaceId },
  DataRetentionPolicy: { workspaceId, deleteOlderThanNDays: 30 },
  WorkspaceVariable: { workspaceId, key: uniqueName("least").replace(/-/g, "_"), category: "env" },
  WorkspaceVariables: { workspaceId, variables: [{ key: uniqueName("least").replace(/-/g, "_"), category: "env" }] },
  VariableSet: { name: uniqueName("least"), variables: [{ key: "least", category: "env" }] },
  VariableSetApplication: { variableSetId, workspaceId },
  // Taken only when asked for: each access is of a team of its own.
  get TeamWorkspaceAccess() {
    return { teamId: accessTeams.shift(), workspaceId, access: "read" };
  },
  get TeamProjectAccess() {
    return { teamId: accessTeams.shift(), projectId: project, access: "read" };
  },
  get RunTrigger() {
    return { workspaceId, sourceWorkspaceId: sources.shift() };
  },
  NotificationConfiguration: { workspaceId, name: uniqueName("least"), destinationType: "email" },
  Project: { name: uniqueName("least") },
  Team: { name: uniqueName("least") },
  AgentPoolAllowedWorkspaces: { agentPoolId, workspaceIds: [] },
  AgentPoolAllowedProjects: { agentPoolId, projectIds: [] },
  AgentPoolExcludedWorkspaces: { agentPoolId, workspaceIds: [] },
  AgentPool: { name: uniqueName("least") },
  AgentToken: { agentPoolId, description: uniqueName("least") },
  // At least one setting: the value the workspace has.
  WorkspaceSettings: { workspaceId, autoApply: false },
  Policy: { name: uniqueName("least"), code: "main = rule { true }" },
  PolicySet: { name: uniqueName("least") },
  PolicySetParameter: { policySetId: parameterSetId, key: uniqueName("least").replace(/-/g, "_"), value: "least" },
  PolicySetWorkspaces: { policySetId: listSetId, workspaceIds: [] },
  PolicySetProjects: { policySetId: listSetId, projectIds: [] },
  PolicySetWorkspaceExclusions: { policySetId: listSetId, workspaceIds: [] },
  PolicySetProjectExclusions: { policySetId: listSetId, projectIds: [] },
  OrganizationMembership: { email: `${uniqueName("least")}@example.test` },
  TeamMembers: { teamId: peopleTeamId },
  TeamToken: { teamId: peopleTeamId, description: uniqueName("least") },
  // The organization's audit-trail token: the organization token is the import test's.
  OrganizationToken: { tokenType: "audit-trails" },
});

const kindOf = (token: string) => token.split(":")[2];

/** Inputs that say what a create does, not what the record holds: no output keeps them. */
const CREATE_ONLY = ["adopt", "replaceExisting"];

describe("the schema's defaults are the code's", () => {
  const withDefaults = Object.entries<any>(schema.resources).filter(([, r]) =>
    Object.values<any>(r.inputProperties).some((p) => p.default !== undefined || p.items?.$ref),
  );

  it.each(withDefaults.map(([token]) => kindOf(token)))(
    "%s: created without them, it has every default",
    async (kind) => {
      // A module is made once per registry module: this one from a registry module of its own.
      const inputs =
        kind === "NoCodeModule" ? { registryModuleId: await registryModuleWith(h, ["1.0.0"]) } : minimal()[kind];
      const spec = schema.resources[`workspaces:index:${kind}`];
      const { outs } = await create(kind, inputs);
      for (const [name, p] of Object.entries<any>(spec.inputProperties)) {
        if (p.default !== undefined && !CREATE_ONLY.includes(name))
          expect(outs[name] ?? "", `${kind}.${name}`).toEqual(p.default);
        const type = p.items?.$ref && schema.types[p.items.$ref.slice(8)];
        if (!type || !Array.isArray(outs[name]) || outs[name].length === 0) continue;
        for (const [field, f] of Object.entries<any>(type.properties))
          if (f.default !== undefined)
            expect(outs[name][0][field] ?? "", `${kind}.${name}[].${field}`).toEqual(f.default);
      }
    },
  );

  it("adopt: left out, it is false: a second create of the same record fails and names adopt", async () => {
    const kinds = Object.entries<any>(schema.resources)
      .filter(([, r]) => r.inputProperties.adopt)
      .map(([token]) => kindOf(token));
    expect(kinds.sort()).toEqual([
      "AgentPool",
      "AgentToken",
      "NoCodeModule",
      "NoCodeWorkspace",
      "NotificationConfiguration",
      "OrganizationMembership",
      "OrganizationToken",
      "Policy",
      "PolicySet",
      "PolicySetParameter",
      "Project",
      "RunTrigger",
      "Team",
      "TeamProjectAccess",
      "TeamToken",
      "TeamWorkspaceAccess",
      "VariableSet",
      "VariableSetApplication",
      "Workspace",
      "WorkspaceSettings",
      "WorkspaceVariable",
      "WorkspaceVariables",
    ]);
    for (const kind of kinds)
      expect(schema.resources[`workspaces:index:${kind}`].inputProperties.adopt.default, kind).toBe(false);
    // A token has no unique name (a second create of one resource replaces the token its
    // interrupted create left), and settings are no record of their own (a second create
    // writes what differs): neither can find its record taken.
    // An invitation says nothing of whose it is: one still pending for the email is the one an
    // interrupted create sent, and is taken over, never sent twice.
    const unnamed = ["AgentToken", "TeamToken", "OrganizationToken", "WorkspaceSettings", "OrganizationMembership"];
    const invite = minimal().OrganizationMembership;
    const name = uniqueName("OrganizationMembership");
    const { id } = await create("OrganizationMembership", invite, name);
    expect((await create("OrganizationMembership", invite, name)).id).toBe(id);
    for (const kind of kinds.filter((k) => !unnamed.includes(k))) {
      const inputs =
        kind === "NoCodeModule"
          ? { registryModuleId: await registryModuleWith(h, ["1.0.0"]) }
          : kind === "VariableSetApplication"
            ? { variableSetId, projectId: project }
            : minimal()[kind];
      // The same resource created again (an update that was interrupted): one claim of the set's target.
      const name = uniqueName(kind);
      await create(kind, inputs, name);
      // A parameter says nothing of whose it is: one of the same key and value is the one an
      // interrupted create made, and is taken over; one of another value is someone else's.
      const again = kind === "PolicySetParameter" ? { ...inputs, value: "another" } : inputs;
      await expect(create(kind, again, name), kind).rejects.toThrow(/adopt: true/);
    }
  });

  it("the defaults claimed in words: a module's latest version, every workspace, the configured organization", async () => {
    const { outs } = await create("NoCodeModule", {
      registryModuleId: await registryModuleWith(h, ["1.0.0", "1.2.0"]),
    });
    expect(outs.versionPin).toBe("1.2.0");

    const all = await getWorkspaces({ organization: server.organization, names: ["*"] });
    expect(all.names.length).toBeGreaterThan(3);
    expect((await getWorkspaces({})).names).toEqual(all.names);

    const env = {
      WORKSPACES_ORGANIZATION: process.env.WORKSPACES_ORGANIZATION,
      TFE_ORGANIZATION: process.env.TFE_ORGANIZATION,
    };
    try {
      process.env.WORKSPACES_ORGANIZATION = "from-workspaces-env";
      process.env.TFE_ORGANIZATION = "from-tfe-env";
      expect(defaultOrganization()).toBe(server.organization);
      setConfiguredSettings({ address: server.url, token: server.token });
      expect(defaultOrganization()).toBe("from-workspaces-env");
      delete process.env.WORKSPACES_ORGANIZATION;
      expect(defaultOrganization()).toBe("from-tfe-env");
    } finally {
      for (const [k, v] of Object.entries(env))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      setConfiguredSettings({ address: server.url, token: server.token, organization: server.organization });
    }
  });
});

describe("every id form of an Import section is one the resource's read takes", () => {
  it("imports a record of each resource by each of its forms", async () => {
    const ws = await create("Workspace", { name: uniqueName("imported") });
    const name = ws.outs.name as string;
    const reader = await create("Workspace", { name: uniqueName("reader") });
    await create("WorkspaceTags", { workspaceId: ws.id, tagNames: ["imported"] });
    await create("RemoteStateConsumers", { workspaceId: ws.id, consumerIds: [reader.id] });
    await create("WorkspaceLock", { workspaceId: ws.id, reason: "import" });
    await create("DataRetentionPolicy", { workspaceId: ws.id, deleteOlderThanNDays: 7 });
    const net = await create("NoCodeWorkspace", { noCodeModuleId: moduleId, name: uniqueName("imported"), project });
    const variable = await create("WorkspaceVariable", { workspaceId: ws.id, key: "imported", category: "engine" });
    const set = await create("VariableSet", { name: uniqueName("imported") });
    await create("VariableSetApplication", { variableSetId: set.id, workspaceId: ws.id });
    await create("VariableSetApplication", { variableSetId: set.id, projectId: project });
    const trigger = await create("RunTrigger", { workspaceId: ws.id, sourceWorkspaceId: reader.id });
    const accessTeam = (await h.client.teams.create(h.org, { name: uniqueName("imported") })).id;
    const wsAccess = await create("TeamWorkspaceAccess", { teamId: accessTeam, workspaceId: ws.id, access: "plan" });
    const prjAccess = await create("TeamProjectAccess", { teamId: accessTeam, projectId: project, access: "write" });
    const alerts = await create("NotificationConfiguration", {
      workspaceId: ws.id,
      name: "imported",
      destinationType: "generic",
      url: "https://hooks.test/runs",
      token: "never-read-back",
      // Disabled: the local server verifies an enabled one, and delivers only on loopback.
      enabled: false,
    });

    const poolName = uniqueName("imported");
    const pool = (await h.client.agentPools.create(h.org, { name: poolName, organizationScoped: false })).id;
    const token = await create("AgentToken", { agentPoolId: pool, description: "imported" });
    await create("AgentPoolAllowedWorkspaces", { agentPoolId: pool, workspaceIds: [ws.id] });
    await create("AgentPoolAllowedProjects", { agentPoolId: pool, projectIds: [project] });
    await create("AgentPoolExcludedWorkspaces", { agentPoolId: pool, workspaceIds: [reader.id] });

    const policy = await create("Policy", { name: uniqueName("imported"), code: "main = rule { true }" });
    const policySet = await create("PolicySet", { name: uniqueName("imported") });
    const parameter = await create("PolicySetParameter", {
      policySetId: policySet.id,
      key: "imported",
      value: "plain",
    });
    await create("PolicySetWorkspaces", { policySetId: policySet.id, workspaceIds: [ws.id] });
    await create("PolicySetProjects", { policySetId: policySet.id, projectIds: [project] });
    await create("PolicySetWorkspaceExclusions", { policySetId: policySet.id, workspaceIds: [reader.id] });
    await create("PolicySetProjectExclusions", { policySetId: policySet.id, projectIds: [] });

    const madeProject = await create("Project", { name: uniqueName("imported"), description: "imported" });
    const madeTeam = await create("Team", { name: uniqueName("imported") });

    const email = `${uniqueName("imported")}@example.test`;
    const membership = await create("OrganizationMembership", { email });
    const people = (await h.client.teams.create(h.org, { name: uniqueName("imported") })).id;
    await create("TeamMembers", { teamId: people, organizationMembershipIds: [membership.id] });
    const described = await create("TeamToken", { teamId: people, description: "imported" });
    await h.client.teamTokens.create(people, {});
    await h.client.organizationTokens.create(h.org, {});
    await h.client.organizationTokens.create(h.org, { tokenType: "audit-trails" });

    const ids: Record<string, string> = {
      "ws-<id>": ws.id,
      "<organization>/<name>": `${server.organization}/${name}`,
      "ws-<id>/tags": `${ws.id}/tags`,
      "ws-<id>/remote-state-consumers": `${ws.id}/remote-state-consumers`,
      "ws-<id>/lock": `${ws.id}/lock`,
      "ws-<id>/data-retention-policy": `${ws.id}/data-retention-policy`,
      "nocode-<id>": moduleId,
      "ws-<id>/var-<id>": variable.id,
      "ws-<id>/variables": `${ws.id}/variables`,
      "varset-<id>": set.id,
      "varset-<id>/ws-<id>": `${set.id}/${ws.id}`,
      "varset-<id>/prj-<id>": `${set.id}/${project}`,
      "rt-<id>": trigger.id,
      "tws-<id>": wsAccess.id,
      "team-<id>/ws-<id>": `${accessTeam}/${ws.id}`,
      "tprj-<id>": prjAccess.id,
      "team-<id>/prj-<id>": `${accessTeam}/${project}`,
      "nc-<id>": alerts.id,
      "prj-<id>": madeProject.id,
      "team-<id>": madeTeam.id,
      "apool-<id>": pool,
      "at-<id>": token.id,
      "apool-<id>/at-<id>": `${pool}/${token.id}`,
      "pol-<id>": policy.id,
      "polset-<id>": policySet.id,
      "polset-<id>/var-<id>": `${policySet.id}/${parameter.outs.parameterId}`,
      "ou-<id>": membership.id,
      "<organization>/<email>": `${server.organization}/${email}`,
      "<organization>": server.organization,
      "<organization>/audit-trails": `${server.organization}/audit-trails`,
    };
    /** Where one form names another record for a kind: a pool by its organization and name. */
    const own: Record<string, Record<string, string>> = {
      NoCodeWorkspace: { "ws-<id>": net.id },
      AgentPool: { "<organization>/<name>": `${server.organization}/${poolName}` },
      Policy: { "<organization>/<name>": `${server.organization}/${policy.outs.name}` },
      PolicySet: { "<organization>/<name>": `${server.organization}/${policySet.outs.name}` },
      TeamMembers: { "team-<id>": people },
      TeamToken: { "at-<id>": described.id, "team-<id>": people },
    };
    const expected: Record<string, (props: Props) => void> = {
      Workspace: (p) => expect(p.name).toBe(name),
      WorkspaceTags: (p) => expect(p.tagNames).toContain("imported"),
      RemoteStateConsumers: (p) => expect(p.consumerIds).toEqual([reader.id]),
      NoCodeModule: (p) => expect(p.versionPin).toBe("1.0.0"),
      NoCodeWorkspace: (p) => expect(p.name).toBe(net.outs.name),
      WorkspaceLock: (p) => expect(p.locked).toBe(true),
      DataRetentionPolicy: (p) => expect(p.deleteOlderThanNDays).toBe(7),
      WorkspaceVariable: (p) => expect(p.key).toBe("imported"),
      WorkspaceVariables: (p) => expect(p.variables.map((v: Props) => v.key)).toEqual(["imported"]),
      VariableSet: (p) => expect(p.name).toBe(set.outs.name),
      VariableSetApplication: (p) => expect(p.variableSetId).toBe(set.id),
      RunTrigger: (p) => expect(p).toMatchObject({ workspaceId: ws.id, sourceWorkspaceId: reader.id }),
      TeamWorkspaceAccess: (p) => expect(p).toMatchObject({ teamId: accessTeam, workspaceId: ws.id, access: "plan" }),
      TeamProjectAccess: (p) => expect(p).toMatchObject({ teamId: accessTeam, projectId: project, access: "write" }),
      Project: (p) => expect(p).toMatchObject({ name: madeProject.outs.name, description: "imported" }),
      Team: (p) => expect(p).toMatchObject({ name: madeTeam.outs.name, visibility: "secret" }),
      AgentPoolAllowedWorkspaces: (p) =>
        expect(p).toMatchObject({ agentPoolId: pool, mode: "authoritative", workspaceIds: [ws.id] }),
      AgentPoolAllowedProjects: (p) =>
        expect(p).toMatchObject({ agentPoolId: pool, mode: "authoritative", projectIds: [project] }),
      AgentPoolExcludedWorkspaces: (p) =>
        expect(p).toMatchObject({ agentPoolId: pool, mode: "authoritative", workspaceIds: [reader.id] }),
      NotificationConfiguration: (p) =>
        expect(p).toMatchObject({ name: "imported", url: "https://hooks.test/runs", token: null }),
      AgentPool: (p) => expect(p).toMatchObject({ name: poolName, organizationScoped: false }),
      // The secret, answered once on create, is not read back.
      AgentToken: (p) => {
        expect(p).toMatchObject({ agentPoolId: pool, description: "imported" });
        expect(p.token).toBeUndefined();
      },
      // Every setting it has, consumers included.
      WorkspaceSettings: (p) =>
        expect(p).toMatchObject({ workspaceId: ws.id, executionMode: "remote", remoteStateConsumerIds: [reader.id] }),
      Policy: (p) => expect(p).toMatchObject({ name: policy.outs.name, codeSha256: policy.outs.codeSha256 }),
      PolicySet: (p) => expect(p).toMatchObject({ name: policySet.outs.name }),
      PolicySetParameter: (p) =>
        expect(p).toMatchObject({ policySetId: policySet.id, key: "imported", value: "plain", sensitive: false }),
      PolicySetWorkspaces: (p) =>
        expect(p).toMatchObject({ policySetId: policySet.id, mode: "authoritative", workspaceIds: [ws.id] }),
      PolicySetProjects: (p) =>
        expect(p).toMatchObject({ policySetId: policySet.id, mode: "authoritative", projectIds: [project] }),
      PolicySetWorkspaceExclusions: (p) =>
        expect(p).toMatchObject({ policySetId: policySet.id, mode: "authoritative", workspaceIds: [reader.id] }),
      PolicySetProjectExclusions: (p) =>
        expect(p).toMatchObject({ policySetId: policySet.id, mode: "authoritative", projectIds: [] }),
      OrganizationMembership: (p) => expect(p).toMatchObject({ email, organization: server.organization }),
      TeamMembers: (p) =>
        expect(p).toMatchObject({ teamId: people, mode: "additive", organizationMembershipIds: [membership.id] }),
      // A token's secret, answered once on create, is not read back.
      TeamToken: (p) => {
        expect(p).toMatchObject({ teamId: people });
        expect(p.token).toBeUndefined();
      },
      OrganizationToken: (p) => {
        expect(p).toMatchObject({ organization: server.organization });
        expect(p.token).toBeUndefined();
      },
    };
    for (const [kind, { forms }] of Object.entries(IMPORT_IDS)) {
      for (const { form } of forms) {
        const id = own[kind]?.[form] ?? ids[form];
        expect(id, `${kind} ${form}`).toBeDefined();
        const u = urn(kind, "imported");
        recordReadInputs(u, {});
        const read = await provider.read!(id, u, {});
        expect(read.id, `${kind} ${form}`).toBeTruthy();
        expected[kind](unmarked(read.props));
        if (kind === "Workspace") expect(read.id).toBe(ws.id);
        if (kind === "AgentPool") expect(read.id).toBe(pool);
        if (kind === "AgentToken") expect(read.id).toBe(token.id);
      }
    }
  });
});
