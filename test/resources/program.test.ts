/**
 * Programs built with the resource classes under `pulumi.runtime.setMocks`: the
 * tokens, the inputs each class sends, secret outputs, and `get` adoption.
 * Mocks do not run providers; check failures are covered by the provider tests.
 */
import { describe, it, expect, beforeAll } from "vitest";
import * as pulumi from "@pulumi/pulumi";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, any>;
  id?: string;
}
const registered: Registered[] = [];
/** The outputs each registration asked the engine to keep secret, by resource name. */
const secretOutputsAsked = new Map<string, string[]>();

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, id: args.id });
        const id = args.id ?? `${args.name}-id`;
        return { id, state: { ...args.inputs, ...(args.id ? { name: `adopted-${args.id}` } : {}) } };
      },
      call() {
        return {};
      },
    },
    "project",
    "stack",
    false,
  );
  // The engine, not the SDK, applies additionalSecretOutputs: record what each registration asks for.
  const monitor = (pulumi.runtime as unknown as { getMonitor(): any }).getMonitor();
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: unknown) => {
    secretOutputsAsked.set(req.getName(), req.getAdditionalsecretoutputsList());
    return register(req, callback);
  };
});

async function value<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

async function isSecret(o: pulumi.Output<unknown>): Promise<boolean> {
  return pulumi.isSecret(o);
}

describe("resource classes in a program", () => {
  it("register every type under its token with typical arguments", async () => {
    const r = await import("../../src");
    const ws = new r.Workspace("web", {
      name: "web",
      organization: "acme",
      executionMode: "remote",
      tags: { env: "prod" },
      tagNames: ["frontend"],
      vcsRepo: { identifier: "acme/web", oauthTokenId: "ot-1" },
    });
    const tags = new r.WorkspaceTags("web-tags", { workspaceId: ws.id, tagNames: ["x"], mode: "additive" });
    const consumers = new r.RemoteStateConsumers("web-consumers", { workspaceId: ws.id, consumerIds: ["ws-2"] });
    const settings = new r.WorkspaceSettings("other-settings", {
      workspaceId: "ws-other",
      executionMode: "agent",
      agentPoolId: "apool-1",
    });
    const mod = new r.NoCodeModule("mod", {
      organization: "acme",
      registryModuleId: "mod-1",
      versionPin: "1.0.0",
      variableOptions: [{ variableName: "size", variableType: "string", options: ["s", "m"] }],
    });
    const ncw = new r.NoCodeWorkspace("ncw", {
      noCodeModuleId: mod.id,
      name: "ncw",
      project: "prj-1",
      moduleVersion: "1.0.0",
      variables: [{ key: "size", value: "s", category: "engine" }],
    });
    const lock = new r.WorkspaceLock("lock", { workspaceId: ws.id, reason: "freeze" });
    const retention = new r.DataRetentionPolicy("retention", { workspaceId: ws.id, deleteOlderThanNDays: 30 });
    const variable = new r.WorkspaceVariable("region", {
      workspaceId: ws.id,
      key: "AWS_REGION",
      value: "eu-west-1",
      category: "env",
    });
    const variables = new r.WorkspaceVariables("web-vars", {
      workspaceId: ws.id,
      variables: [{ key: "size", value: "s", category: "engine" }],
    });
    const set = new r.VariableSet("creds", {
      name: "creds",
      organization: "acme",
      variables: [{ key: "AWS_SECRET_ACCESS_KEY", value: "s3cret", category: "env", sensitive: true }],
    });
    const application = new r.VariableSetApplication("creds-web", { variableSetId: set.id, workspaceId: ws.id });
    const trigger = new r.RunTrigger("web-after-net", { workspaceId: ws.id, sourceWorkspaceId: "ws-net" });
    const hook = { workspaceId: ws.id, destinationType: "generic" as const };
    const alerts = new r.NotificationConfiguration("alerts", {
      ...hook,
      name: "alerts",
      url: "https://user:pw@hooks.test/runs",
      token: "plain-literal-token",
    });
    const plainHook = new r.NotificationConfiguration("plain-hook", {
      ...hook,
      name: "plain",
      url: "https://hooks.test/x",
    });
    const project = new r.Project("platform", { name: "platform", organization: "acme" });
    const team = new r.Team("platform-team", { name: "platform", organization: "acme", visibility: "organization" });
    const webAccess = new r.TeamWorkspaceAccess("platform-web", {
      teamId: team.id,
      workspaceId: ws.id,
      access: "write",
    });
    const pool = new r.AgentPool("private-network", { name: "private-network", organizationScoped: false });
    const agentToken = new r.AgentToken("agents", { agentPoolId: pool.id, description: "agents", rotation: "1" });
    const ciToken = new r.TeamToken("ci", { teamId: team.id, description: "ci", expiresInDays: 90 });
    const orgToken = new r.OrganizationToken("automation", { tokenType: "audit-trails", rotation: "2027" });
    new r.AgentPoolAllowedWorkspaces("pool-web", { agentPoolId: pool.id, workspaceIds: [ws.id] });
    new r.AgentPoolAllowedProjects("pool-platform", { agentPoolId: pool.id, projectIds: [project.id] });
    new r.AgentPoolExcludedWorkspaces("pool-not-net", { agentPoolId: pool.id, workspaceIds: ["ws-net"] });
    const policy = new r.Policy("cost", { name: "cost", code: "main = rule { true }\n" });
    const baseline = new r.PolicySet("baseline", { name: "baseline", policyIds: [policy.id] });
    const limit = new r.PolicySetParameter("limit", { policySetId: baseline.id, key: "limit", value: "10" });
    const apiKey = new r.PolicySetParameter("api-key", {
      policySetId: baseline.id,
      key: "api_key",
      value: "plain-literal",
      sensitive: true,
    });
    new r.PolicySetWorkspaces("baseline-web", { policySetId: "polset-baseline", workspaceIds: [ws.id] });
    new r.PolicySetProjects("baseline-platform", { policySetId: "polset-baseline", projectIds: [project.id] });
    new r.PolicySetWorkspaceExclusions("baseline-not-net", {
      policySetId: "polset-baseline",
      workspaceIds: ["ws-net"],
    });
    new r.PolicySetProjectExclusions("baseline-not-sandbox", {
      policySetId: "polset-baseline",
      projectIds: ["prj-sandbox"],
      mode: "additive",
    });
    const members = new r.TeamMembers("platform-members", { teamId: team.id, usernames: ["alice"] });
    const ada = new r.OrganizationMembership("ada", { email: "ada@example.com", organization: "acme" });
    const appsAccess = new r.TeamProjectAccess("platform-apps", {
      teamId: team.id,
      projectId: project.id,
      access: "custom",
      workspacePermissions: { runs: "plan" },
    });

    expect(await value(ws.urn)).toContain("pulumi-nodejs:dynamic/workspaces:Workspace::web");
    expect(await value(tags.urn)).toContain("workspaces:WorkspaceTags");
    expect(await value(consumers.urn)).toContain("workspaces:RemoteStateConsumers");
    expect(await value(settings.urn)).toContain("workspaces:WorkspaceSettings::other-settings");
    expect(await value(mod.urn)).toContain("workspaces:NoCodeModule");
    expect(await value(ncw.urn)).toContain("workspaces:NoCodeWorkspace");
    expect(await value(lock.urn)).toContain("workspaces:WorkspaceLock");
    expect(await value(retention.urn)).toContain("workspaces:DataRetentionPolicy");
    expect(await value(variable.urn)).toContain("workspaces:WorkspaceVariable::region");
    expect(await value(variables.urn)).toContain("workspaces:WorkspaceVariables");
    expect(await value(set.urn)).toContain("workspaces:VariableSet::creds");
    expect(await value(application.urn)).toContain("workspaces:VariableSetApplication");
    expect(await value(trigger.urn)).toContain("workspaces:RunTrigger::web-after-net");
    expect(await value(alerts.urn)).toContain("workspaces:NotificationConfiguration::alerts");
    // The token always, a URL only when it carries credentials.
    expect(await isSecret(alerts.token as pulumi.Output<unknown>)).toBe(true);
    expect(await isSecret(alerts.url as pulumi.Output<unknown>)).toBe(true);
    expect(await isSecret(plainHook.url as pulumi.Output<unknown>)).toBe(false);
    expect(await value(project.urn)).toContain("workspaces:Project::platform");
    expect(await value(team.urn)).toContain("workspaces:Team::platform-team");
    expect(await value(webAccess.urn)).toContain("workspaces:TeamWorkspaceAccess::platform-web");
    expect(await value(appsAccess.urn)).toContain("workspaces:TeamProjectAccess::platform-apps");
    expect(await value(members.urn)).toContain("workspaces:TeamMembers::platform-members");
    expect(await value(ada.urn)).toContain("workspaces:OrganizationMembership::ada");
    expect(await value(pool.urn)).toContain("workspaces:AgentPool::private-network");
    expect(await value(agentToken.urn)).toContain("workspaces:AgentToken::agents");
    expect(await value(policy.urn)).toContain("workspaces:Policy::cost");
    expect(await value(baseline.urn)).toContain("workspaces:PolicySet::baseline");
    // A parameter's value is a secret only when sensitive (#2232), and then even as a plain literal.
    expect(await isSecret(limit.value as pulumi.Output<unknown>)).toBe(false);
    expect(await isSecret(apiKey.value as pulumi.Output<unknown>)).toBe(true);
    expect(secretOutputsAsked.get("api-key")).toContain("sensitiveValue");
    // The token the service answers once is a secret output of every AgentToken.
    expect(secretOutputsAsked.get("agents")).toContain("token");
    // And of every team and organization token, from this door as from the plugin's.
    expect(await value(ciToken.urn)).toContain("workspaces:TeamToken::ci");
    expect(await value(orgToken.urn)).toContain("workspaces:OrganizationToken::automation");
    expect(secretOutputsAsked.get("ci")).toContain("token");
    expect(secretOutputsAsked.get("automation")).toContain("token");
    // Only a sensitive value is a secret: a plain variable's value stays readable.
    expect(await isSecret(variable.value as pulumi.Output<unknown>)).toBe(false);
    const token = new r.WorkspaceVariable("token", {
      workspaceId: ws.id,
      key: "API_TOKEN",
      value: "t0ken",
      category: "env",
      sensitive: true,
    });
    expect(await isSecret(token.value as pulumi.Output<unknown>)).toBe(true);
    expect(await value(ws.name)).toBe("web");
    expect(await value(ws.tags)).toEqual({ env: "prod" });

    const types = registered.map((x) => x.type);
    for (const t of Object.values(r.typeTokens)) expect(types).toContain(t);
    expect(r.Workspace.__pulumiType).toBe("pulumi-nodejs:dynamic/workspaces:Workspace");
    expect(r.NoCodeWorkspace.__pulumiType).toBe(r.typeTokens.NoCodeWorkspace);
    expect(r.Workspace.isInstance(ws)).toBe(true);
    expect(r.Workspace.isInstance(lock)).toBe(false);

    const wsInputs = registered.find((x) => x.name === "web")!.inputs;
    expect(wsInputs.__provider).toContain("pulumi-workspaces/provider");
    expect(wsInputs.__provider.length).toBeLessThan(4096);
  });

  it("keeps sensitive variables secret", async () => {
    const r = await import("../../src");
    const ncw = new r.NoCodeWorkspace("secret-ncw", {
      noCodeModuleId: "nocode-1",
      name: "s",
      project: "prj-1",
      variables: [
        { key: "password", value: "hunter2", category: "env", sensitive: true },
        { key: "size", value: "s", category: "engine" },
      ],
    });
    expect(await isSecret(ncw.variables as pulumi.Output<unknown>)).toBe(true);
    const plain = new r.NoCodeWorkspace("plain-ncw", {
      noCodeModuleId: "nocode-1",
      name: "p",
      project: "prj-1",
      variables: [{ key: "size", value: "s", category: "engine" }],
    });
    expect(await isSecret(plain.variables as pulumi.Output<unknown>)).toBe(false);
    // The whole variables input travels as a secret when one value is sensitive.
    expect(await value(ncw.variables)).toHaveLength(2);
  });

  it("adopts existing resources with get; org/name becomes the workspace id", async () => {
    const r = await import("../../src");
    const { startServer } = await import("../../src/server");
    const server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
    const saved = { ...process.env };
    try {
      process.env.WORKSPACES_ADDRESS = server.url;
      process.env.WORKSPACES_TOKEN = server.token;
      const client = new r.WorkspacesClient({ rateLimit: false });
      const legacy = await client.workspaces.create(server.organization, { name: "legacy" });
      const adopted = r.Workspace.get("adopted", `${server.organization}/legacy`);
      expect(await value(adopted.id)).toBe(legacy.id);
      expect(registered.find((x) => x.name === "adopted")!.id).toBe(legacy.id);
      const byId = r.Workspace.get("adopted-by-id", legacy.id);
      expect(await value(byId.id)).toBe(legacy.id);
    } finally {
      process.env = saved;
      await server.close();
    }
    const lock = r.WorkspaceLock.get("adopted-lock", "ws-1/lock");
    expect(await value(lock.id)).toBe("ws-1/lock");
    expect(r.NoCodeModule.get("m", "nocode-1")).toBeInstanceOf(r.NoCodeModule);
    expect(r.NoCodeWorkspace.get("n", "ws-9")).toBeInstanceOf(r.NoCodeWorkspace);
    expect(r.WorkspaceTags.get("t", "ws-9")).toBeInstanceOf(r.WorkspaceTags);
    expect(r.RemoteStateConsumers.get("c", "ws-9")).toBeInstanceOf(r.RemoteStateConsumers);
  });

  it("refuses wrong arguments the SDK can see before any provider runs", async () => {
    const r = await import("../../src");
    // A dynamic resource must not carry the provider key itself.
    expect(() => new r.Workspace("bad", { name: "x", __provider: "evil" } as any)).toThrow(/__provider/);
    // Wrong shapes still register (validation is the provider's check), and arrive unchanged for it to judge.
    const w = new r.Workspace("wrong", { name: "bad name!", executionMode: "agent" } as any);
    expect(await value(w.urn)).toContain("Workspace::wrong");
    const inputs = registered.find((x) => x.name === "wrong")!.inputs;
    expect(inputs.name).toBe("bad name!");
    expect(inputs.executionMode).toBe("agent");
    expect(inputs.agentPoolId).toBeUndefined();
  });

  it("wrong arguments of every class fail the provider's check with property paths", async () => {
    const r = await import("../../src");
    const { implementationOf } = await import("../../src/resources/entry");
    const { setConfiguredSettings } = await import("../../src/resources/provider-settings");
    setConfiguredSettings({ organization: "acme" });
    new r.Workspace("w-bad", {
      name: "no spaces allowed",
      executionMode: "local",
      agentPoolId: "apool-1",
      autoDestroyActivityDuration: "5w",
    });
    new r.WorkspaceTags("t-bad", { workspaceId: "ws-1", tagNames: ["bad tag"], mode: "sometimes" as any });
    new r.RemoteStateConsumers("c-bad", { workspaceId: "ws-1", consumerIds: ["ws-1"] });
    new r.NoCodeModule("m-bad", { registryModuleId: "module-1" });
    new r.NoCodeWorkspace("n-bad", {
      noCodeModuleId: "nocode-1",
      name: "n",
      project: "prj-1",
      variables: [{ key: "k", category: "shell" as any }],
    });
    new r.WorkspaceLock("l-bad", { workspaceId: "1234" });
    const expected: Record<string, [string, string[]]> = {
      "w-bad": ["Workspace", ["agentPoolId", "autoDestroyActivityDuration", "name"]],
      "t-bad": ["WorkspaceTags", ["mode", "tagNames[0]"]],
      "c-bad": ["RemoteStateConsumers", ["consumerIds[0]"]],
      "m-bad": ["NoCodeModule", ["registryModuleId"]],
      "n-bad": ["NoCodeWorkspace", ["variables[0].category"]],
      "l-bad": ["WorkspaceLock", ["workspaceId"]],
    };
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const [name, [kind, props]] of Object.entries(expected)) {
      const entry = registered.find((x) => x.name === name);
      expect(entry, name).toBeDefined();
      const { __provider: _p, ...inputs } = entry!.inputs;
      const result = await implementationOf(kind).check({}, inputs);
      expect(result.failures.map((f) => f.property).sort(), name).toEqual(props);
    }
    setConfiguredSettings({});
  });
});
