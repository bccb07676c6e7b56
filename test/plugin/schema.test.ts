/**
 * The plugin's schema against what the TypeScript door implements: every input, output and
 * function argument has an entry with a description, and the schema has none that nothing
 * implements. The committed schema is also what scripts/plugin/schema.js derives now.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import { WORKSPACE_FIELDS } from "../../src/api/workspace-fields";
import { WORKSPACE_OUTPUTS } from "../../src/resources/workspace";
import { WORKSPACE_TAGS_OUTPUTS } from "../../src/resources/workspace-tags";
import { REMOTE_STATE_CONSUMERS_OUTPUTS } from "../../src/resources/remote-state-consumers";
import { NO_CODE_MODULE_OUTPUTS } from "../../src/resources/no-code-module";
import { NO_CODE_WORKSPACE_OUTPUTS, NO_CODE_WORKSPACE_SECRET_OUTPUTS } from "../../src/resources/no-code-workspace";
import { WORKSPACE_LOCK_OUTPUTS } from "../../src/resources/workspace-lock";
import { DATA_RETENTION_POLICY_OUTPUTS } from "../../src/resources/data-retention-policy";
import { WORKSPACE_VARIABLE_OUTPUTS } from "../../src/resources/workspace-variable";
import { WORKSPACE_VARIABLES_OUTPUTS } from "../../src/resources/workspace-variables";
import { VARIABLE_SET_OUTPUTS } from "../../src/resources/variable-set";
import { PROJECT_OUTPUTS } from "../../src/resources/project";
import { TEAM_OUTPUTS } from "../../src/resources/team";
import { ORGANIZATION_MEMBERSHIP_OUTPUTS } from "../../src/resources/organization-membership";
import { VARIABLE_SET_APPLICATION_OUTPUTS } from "../../src/resources/variable-set-application";
import { RUN_TRIGGER_OUTPUTS } from "../../src/resources/run-trigger";
import { NOTIFICATION_CONFIGURATION_OUTPUTS } from "../../src/resources/notification-configuration";
import { AGENT_POOL_OUTPUTS } from "../../src/resources/agent-pool";
import {
  AGENT_POOL_PROJECT_LIST_OUTPUTS,
  AGENT_POOL_WORKSPACE_LIST_OUTPUTS,
} from "../../src/resources/agent-pool-lists";
import { AGENT_TOKEN_OUTPUTS } from "../../src/resources/agent-token";
import { TEAM_TOKEN_OUTPUTS } from "../../src/resources/team-token";
import { ORGANIZATION_TOKEN_OUTPUTS } from "../../src/resources/organization-token";
import {
  POLICY_SET_PROJECT_LIST_OUTPUTS,
  POLICY_SET_WORKSPACE_LIST_OUTPUTS,
} from "../../src/resources/policy-set-lists";
import { WORKSPACE_SETTINGS_OUTPUTS } from "../../src/resources/workspace-settings";
import { POLICY_OUTPUTS } from "../../src/resources/policy";
import { POLICY_SET_OUTPUTS } from "../../src/resources/policy-set";
import { POLICY_SET_PARAMETER_OUTPUTS } from "../../src/resources/policy-set-parameter";
import { TEAM_MEMBERS_OUTPUTS } from "../../src/resources/team-members";
import { getEffectiveAccess, getWorkspaceOutputs } from "../../src/resources/lookups";
import {
  getAgentPool,
  getEffectiveVariables,
  getOrganizationMembers,
  getPolicySet,
  getTeam,
  getTeamMembers,
  getWorkspace,
  getWorkspaces,
  LOOKUP_ARGUMENTS,
} from "../../src/resources/lookups";
import { setConfiguredSettings } from "../../src/resources/provider-settings";
import { pluginTypeTokens, typeTokens } from "../../src/resources/tokens";
import { startServer, type RunningServer } from "../../src/server";
import { SECRET_CONFIG, SECRET_VALUES } from "../../src/resources/secret-values";
import { IMPORT_IDS } from "../../src/plugin/import-ids";
import { CLEARABLE } from "../../src/resources/providers/workspace-inputs";
import { EXECUTION_MODES, NO_CODE_EXECUTION_MODES } from "../../src/api/workspace-fields";
import { UPGRADE_STRATEGIES } from "../../src/resources/providers/no-code-fields";
import { resolveSettings } from "../../src/client";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const deriver = require("../../scripts/plugin/schema.js") as { render(): string };

const schemaPath = path.join(__dirname, "../../src/plugin/schema.json");
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));

/** What each resource class registers as its outputs (the names a dynamic resource declares). */
const OUTPUTS: Record<string, readonly string[]> = {
  Workspace: WORKSPACE_OUTPUTS,
  WorkspaceTags: WORKSPACE_TAGS_OUTPUTS,
  RemoteStateConsumers: REMOTE_STATE_CONSUMERS_OUTPUTS,
  NoCodeModule: NO_CODE_MODULE_OUTPUTS,
  NoCodeWorkspace: NO_CODE_WORKSPACE_OUTPUTS,
  WorkspaceLock: WORKSPACE_LOCK_OUTPUTS,
  DataRetentionPolicy: DATA_RETENTION_POLICY_OUTPUTS,
  WorkspaceVariable: WORKSPACE_VARIABLE_OUTPUTS,
  WorkspaceVariables: WORKSPACE_VARIABLES_OUTPUTS,
  VariableSet: VARIABLE_SET_OUTPUTS,
  Project: PROJECT_OUTPUTS,
  Team: TEAM_OUTPUTS,
  OrganizationMembership: ORGANIZATION_MEMBERSHIP_OUTPUTS,
  VariableSetApplication: VARIABLE_SET_APPLICATION_OUTPUTS,
  RunTrigger: RUN_TRIGGER_OUTPUTS,
  NotificationConfiguration: NOTIFICATION_CONFIGURATION_OUTPUTS,
  AgentPool: AGENT_POOL_OUTPUTS,
  AgentPoolAllowedWorkspaces: AGENT_POOL_WORKSPACE_LIST_OUTPUTS,
  AgentPoolAllowedProjects: AGENT_POOL_PROJECT_LIST_OUTPUTS,
  AgentPoolExcludedWorkspaces: AGENT_POOL_WORKSPACE_LIST_OUTPUTS,
  AgentToken: AGENT_TOKEN_OUTPUTS,
  TeamToken: TEAM_TOKEN_OUTPUTS,
  OrganizationToken: ORGANIZATION_TOKEN_OUTPUTS,
  WorkspaceSettings: WORKSPACE_SETTINGS_OUTPUTS,
  PolicySetWorkspaces: POLICY_SET_WORKSPACE_LIST_OUTPUTS,
  PolicySetProjects: POLICY_SET_PROJECT_LIST_OUTPUTS,
  PolicySetWorkspaceExclusions: POLICY_SET_WORKSPACE_LIST_OUTPUTS,
  PolicySetProjectExclusions: POLICY_SET_PROJECT_LIST_OUTPUTS,
  Policy: POLICY_OUTPUTS,
  PolicySet: POLICY_SET_OUTPUTS,
  PolicySetParameter: POLICY_SET_PARAMETER_OUTPUTS,
  TeamMembers: TEAM_MEMBERS_OUTPUTS,
};

const resource = (kind: string) => schema.resources[`workspaces:index:${kind}`];
const sorted = (names: Iterable<string>) => [...names].sort();

describe("provider schema", () => {
  it("is what scripts/plugin/schema.js derives from the sources now", () => {
    // Run `node scripts/plugin/schema.js` after changing a resource, a lookup or the field table.
    expect(fs.readFileSync(schemaPath, "utf8")).toBe(deriver.render());
    // The derivation type-checks the sources with the compiler: tens of seconds on a busy machine.
  }, 120_000);

  it("is the schema the committed SDKs were generated from (sdk/schema.sha256)", () => {
    // Run `scripts/plugin/sdks` after the schema changes; CI's sdks stage then checks the generated code itself.
    const digest = crypto.createHash("sha256").update(fs.readFileSync(schemaPath)).digest("hex");
    const recorded = fs.readFileSync(path.join(__dirname, "../../sdk/schema.sha256"), "utf8");
    expect(recorded, "sdk/ is behind src/plugin/schema.json: run scripts/plugin/sdks").toBe(
      `${digest}  src/plugin/schema.json\n`,
    );
  });

  it("has one resource per resource class of the TypeScript door, and no other", () => {
    // StackOrigin is the TypeScript door's own bookkeeping (the stack's origin key, registered
    // by the package, never declared by a program): it has no class and no schema entry.
    const declared = Object.keys(typeTokens).filter((k) => k !== "StackOrigin");
    expect(sorted(Object.keys(schema.resources))).toEqual(sorted(declared.map((k) => `workspaces:index:${k}`)));
    // The tokens the policy pack matches for this door are the schema's own.
    expect(sorted(Object.values(pluginTypeTokens))).toEqual(sorted(Object.keys(schema.resources)));
  });

  it.each(Object.keys(OUTPUTS))("%s: one output entry per output the class registers, each described", (kind) => {
    const spec = resource(kind);
    expect(sorted(Object.keys(spec.properties))).toEqual(sorted(OUTPUTS[kind]));
    for (const [name, p] of Object.entries<any>(spec.properties)) expect(p.description, `${kind}.${name}`).toBeTruthy();
    for (const [name, p] of Object.entries<any>(spec.inputProperties))
      expect(p.description, `${kind} input ${name}`).toBeTruthy();
    expect(spec.description).toBeTruthy();
  });

  it.each(Object.keys(OUTPUTS))("%s: the required inputs are those its check requires", async (kind) => {
    const { failures } = await implementationOf(kind).check({}, { organization: "acme" });
    // One of two inputs (a policy's `code` or `codeFile`) is no required input of the schema.
    const required = failures
      .filter((f) => /\bis required\b/.test(f.reason) && !/^\w+ or \w+ is required\b/.test(f.reason))
      .map((f) => f.property);
    expect(sorted(resource(kind).requiredInputs ?? [])).toEqual(sorted(required));
  });

  it.each(Object.keys(OUTPUTS))("%s: every input is one its check reads", async (kind) => {
    // An input of the wrong type is refused by name: the provider knows it.
    const spec = resource(kind);
    for (const [name, p] of Object.entries<any>(spec.inputProperties)) {
      const wrong = p.type === "string" || p.$ref ? 12345 : "not-a-" + (p.type ?? "value");
      const { failures } = await implementationOf(kind).check({}, { organization: "acme", [name]: wrong });
      expect(
        failures.some(
          (f) => f.property === name || f.property.startsWith(`${name}.`) || f.property.startsWith(`${name}[`),
        ),
        `${kind}.${name}: check accepts ${JSON.stringify(wrong)} without a word`,
      ).toBe(true);
    }
  });

  it("Workspace: one input entry per input line of the field table, and adopt", () => {
    const lines = Object.entries(WORKSPACE_FIELDS).filter(([, f]) => f.role !== "computed");
    expect(sorted(Object.keys(resource("Workspace").inputProperties))).toEqual(
      sorted([...lines.map(([k]) => k), "adopt"]),
    );
  });

  it("types each output as its input of the same name, and a table line's output by what the service sends", () => {
    // An output shape may differ from its input shape only by name (`VcsRepoInfo` beside `VcsRepo`).
    const kind = (p: any): unknown =>
      p.type === "array" ? ["array", kind(p.items)] : (p.$ref?.replace(/Info$/, "") ?? p.type);
    const differing: string[] = [];
    for (const [token, r] of Object.entries<any>(schema.resources))
      for (const [name, out] of Object.entries<any>(r.properties ?? {})) {
        const input = r.inputProperties?.[name];
        if (input && JSON.stringify(kind(out)) !== JSON.stringify(kind(input))) differing.push(`${token}.${name}`);
      }
    expect(differing).toEqual([]);
    // A value the service may leave out (`string | null`) is still a string, not another type.
    const props = resource("Workspace").properties;
    for (const [name, line] of Object.entries<any>(WORKSPACE_FIELDS)) {
      if (!(name in props) || !line.read) continue;
      const type = props[name].type;
      if (type === "boolean") expect(line.read.safeParse("text").success, name).toBe(false);
      if (type === "string") expect(line.read.safeParse("text").success, name).toBe(true);
    }
    for (const name of ["description", "project", "organization", "htmlLink", "selfLink", "sshKeyId"])
      expect(props[name].type, name).toBe("string");
  });

  it("marks secret what the list of secrets names, and nothing else", () => {
    const configSecrets = Object.entries<any>(schema.config.variables).filter(([, p]) => p.secret);
    expect(configSecrets.map(([k]) => k)).toEqual([...SECRET_CONFIG]);
    expect(schema.provider.inputProperties.token.secret).toBe(true);
    const secret = Object.entries<any>(resource("NoCodeWorkspace").properties).filter(([, p]) => p.secret);
    expect(sorted(secret.map(([k]) => k))).toEqual(sorted(NO_CODE_WORKSPACE_SECRET_OUTPUTS));
    const marked: string[] = [];
    for (const [token, r] of Object.entries<any>(schema.resources))
      for (const [name, p] of Object.entries<any>(r.properties)) if (p.secret) marked.push(`${token}.${name}`);
    for (const [token, t] of Object.entries<any>(schema.types))
      for (const [name, p] of Object.entries<any>(t.properties ?? {})) if (p.secret) marked.push(`${token}.${name}`);
    const listed = Object.entries(SECRET_VALUES).flatMap(([kind, v]) => [
      ...v.outputs.map((o) => `workspaces:index:${kind}.${o}`),
      ...v.items.map((i) => `${resource(kind).inputProperties[i.list].items.$ref.slice(8)}.${i.value}`),
    ]);
    // Two resources whose lists hold the same item type mark it once.
    expect(sorted(marked)).toEqual(sorted(new Set(listed)));
    expect(listed).toContain("workspaces:index:NoCodeVariable.value");
  });
});

/** Every property of the schema with where it is: resource inputs and outputs, types' and functions' properties. */
function everyProperty(): { where: string; p: any; output: boolean; required: boolean }[] {
  const out: { where: string; p: any; output: boolean; required: boolean }[] = [];
  const add = (where: string, props: Record<string, any> = {}, required: string[] = [], output = false) => {
    for (const [name, p] of Object.entries(props))
      out.push({ where: `${where}.${name}`, p, output, required: required.includes(name) });
  };
  for (const [token, r] of Object.entries<any>(schema.resources)) {
    add(`${token} input`, r.inputProperties, r.requiredInputs);
    add(token, r.properties, r.required, true);
  }
  for (const [token, t] of Object.entries<any>(schema.types)) add(token, t.properties, t.required, /Info$/.test(token));
  for (const [token, f] of Object.entries<any>(schema.functions)) {
    add(`${token} argument`, f.inputs.properties, f.inputs.required);
    add(token, f.outputs.properties, f.outputs.required, true);
  }
  add("config", schema.config.variables);
  return out;
}

describe("provider schema: types that say what is there", () => {
  it("describes every type, every property and every enum value's type", () => {
    const bare = everyProperty().filter(({ p }) => !p.description);
    expect(bare.map((x) => x.where)).toEqual([]);
    for (const [token, t] of Object.entries<any>(schema.types)) expect(t.description, token).toBeTruthy();
  });

  it("makes optional every output that may be absent, and speaks of absence, not of null", () => {
    const props = everyProperty();
    const absentButRequired = props.filter(({ p, required }) => required && /\babsent\b/.test(p.description));
    expect(absentButRequired.map((x) => x.where)).toEqual([]);
    // "or null" is TypeScript's word for what Go calls nil and Python None.
    const sayNull = props.filter(({ p }) =>
      /\bor null\b|\bnull (otherwise|when|for)\b|\belse null\b/.test(p.description),
    );
    expect(sayNull.map((x) => x.where)).toEqual([]);
    const optional = (kind: string, name: string) => !(resource(kind).required ?? []).includes(name);
    for (const name of ["description", "agentPoolId", "autoDestroyAt", "sshKeyId", "vcsRepo", "workingDirectory"])
      expect(optional("Workspace", name), name).toBe(true);
    for (const name of ["moduleVersion", "lastUpgrade", "noCodeModuleVersionId", "sourceModuleId", "htmlLink"])
      expect(optional("NoCodeWorkspace", name), name).toBe(true);
    expect(optional("DataRetentionPolicy", "deleteOlderThanNDays")).toBe(true);
    expect(optional("WorkspaceLock", "lockedBy")).toBe(true);
    expect(schema.types["workspaces:index:NoCodeWorkspaceLastUpgrade"].required).toEqual(["runId", "status"]);
  });

  it("types whole numbers as integers, and check refuses a fraction for each integer input", async () => {
    expect(resource("DataRetentionPolicy").inputProperties.deleteOlderThanNDays.type).toBe("integer");
    expect(resource("DataRetentionPolicy").properties.deleteOlderThanNDays.type).toBe("integer");
    expect(resource("NoCodeWorkspace").inputProperties.upgradeTimeoutSeconds.type).toBe("integer");
    expect(resource("NoCodeWorkspace").properties.resourceCount.type).toBe("integer");
    const metrics = schema.types["workspaces:index:WorkspaceMetrics"].properties;
    for (const name of ["resourceCount", "runFailures", "policyCheckFailures", "workspaceKpisRunsCount"])
      expect(metrics[name].type, name).toBe("integer");
    for (const [token, r] of Object.entries<any>(schema.resources))
      for (const [name, p] of Object.entries<any>(r.inputProperties)) {
        if (p.type !== "integer") continue;
        const kind = token.split(":")[2];
        const { failures } = await implementationOf(kind).check({}, { organization: "acme", [name]: 1.5 });
        expect(
          failures.map((f) => f.property),
          `${kind}.${name}`,
        ).toContain(name);
      }
  });

  it("offers each closed set as an enum that still takes any string, with the values the code takes", async () => {
    const enumOf = (p: any): string[] => {
      expect(p.oneOf?.[0]).toEqual({ type: "string" });
      return schema.types[p.oneOf[1].$ref.slice(8)].enum.map((e: any) => e.value);
    };
    const cases: [string, string, readonly string[]][] = [
      ["Workspace", "executionMode", EXECUTION_MODES],
      ["NoCodeWorkspace", "executionMode", NO_CODE_EXECUTION_MODES],
      ["NoCodeWorkspace", "upgradeStrategy", UPGRADE_STRATEGIES],
      ["WorkspaceTags", "mode", ["authoritative", "additive"]],
      ["RemoteStateConsumers", "mode", ["authoritative", "additive"]],
    ];
    const base: Record<string, Record<string, unknown>> = {
      Workspace: { name: "web" },
      NoCodeWorkspace: { noCodeModuleId: "nocode-1", name: "net", project: "prj-1" },
      WorkspaceTags: { workspaceId: "ws-1", tagNames: [] },
      RemoteStateConsumers: { workspaceId: "ws-1", consumerIds: [] },
    };
    for (const [kind, name, values] of cases) {
      expect(sorted(enumOf(resource(kind).inputProperties[name])), `${kind}.${name}`).toEqual(sorted(values));
      const check = (v: unknown) =>
        implementationOf(kind).check({}, { organization: "acme", ...base[kind], [name]: v });
      for (const v of values) {
        const extra = v === "agent" ? { agentPoolId: "apool-1" } : {};
        const { failures } = await implementationOf(kind).check(
          {},
          { organization: "acme", ...base[kind], ...extra, [name]: v },
        );
        expect(failures, `${kind}.${name} = ${v}`).toEqual([]);
      }
      expect((await check("not-one-of-them")).failures.map((f) => f.property)).toContain(name);
    }
    const category = schema.types["workspaces:index:NoCodeVariable"].properties.category;
    expect(sorted(enumOf(category))).toEqual(["engine", "env", "terraform"]);
    // An open set (a newer service may report another mode) stays a string.
    expect(resource("Workspace").properties.executionMode).toMatchObject({ type: "string" });
    expect(resource("Workspace").properties.executionMode.oneOf).toBeUndefined();
  });

  it("gives each resource an Import section with every id form its read takes", () => {
    for (const kind of Object.keys(OUTPUTS)) {
      const text: string = resource(kind).description;
      expect(text, kind).toContain("## Import");
      const ids = IMPORT_IDS[kind];
      for (const f of ids.forms) {
        expect(text, kind).toContain(`\`${f.form}\``);
        expect(text, kind).toContain(`$ pulumi import workspaces:index:${kind} ${ids.name} ${f.example}`);
      }
    }
    expect(IMPORT_IDS.Workspace.forms.map((f) => f.form)).toEqual(["ws-<id>", "<organization>/<name>"]);
  });

  it("says how to clear each setting that can be cleared, in words true for every language", () => {
    for (const kind of ["Workspace", "NoCodeWorkspace"]) {
      const inputs = resource(kind).inputProperties;
      for (const name of CLEARABLE.strings.filter((n) => n in inputs))
        expect(inputs[name].description, `${kind}.${name}`).toContain('`""`');
      for (const name of CLEARABLE.objects.filter((n) => n in inputs))
        expect(inputs[name].description, `${kind}.${name}`).toContain("`{}`");
      for (const [name, p] of Object.entries<any>(inputs))
        if (!CLEARABLE.strings.includes(name as never) && !CLEARABLE.objects.includes(name as never))
          expect(p.description, `${kind}.${name}`).not.toMatch(/`""` (removes|clears|cancels|turns|unassigns)/);
    }
    for (const [object, keys] of Object.entries(CLEARABLE.keys))
      for (const key of keys ?? []) {
        const ref = resource("Workspace").inputProperties[object].$ref.slice(8);
        expect(schema.types[ref].properties[key].description, `${object}.${key}`).toContain('`""`');
      }
  });

  it("has each literal default a description claims as the property's default, and no other", () => {
    const literal = /\bDefault:?\s+(true|false|empty|\d+|`[^`]*`)(?=[\s.,;:)]|$)|`([^`]+)`\s+\(default\)/;
    // The provider configuration's defaults are environment variables, checked below.
    for (const { where, p, output } of everyProperty()) {
      if (output || where.startsWith("config.")) continue;
      const m = literal.exec(p.description ?? "");
      if (!m) {
        expect(p.default, where).toBeUndefined();
        continue;
      }
      const word = m[2] ?? m[1];
      const value = m[2]
        ? word
        : word === "empty"
          ? ""
          : /^(true|false)$/.test(word)
            ? word === "true"
            : /^\d+$/.test(word)
              ? Number(word)
              : word.slice(1, -1);
      expect(p.default, where).toEqual(value);
    }
  });

  it("claims in words only defaults that are checked against the code", () => {
    // The literal claims are checked against the code in schema-defaults.test.ts; these are
    // the claims in words, each checked there or below.
    const inWords = everyProperty()
      .filter(
        ({ p }) => /\bDefault:\s+(?!`?(true|false|empty|\d+)\b)/.test(p.description ?? "") && p.default === undefined,
      )
      .map(({ where }) => where);
    expect(sorted(inWords)).toEqual(
      sorted([
        "config.address",
        "config.token",
        "config.organization",
        "workspaces:index:NoCodeModule input.versionPin",
        "workspaces:index:getWorkspaces argument.names",
        "workspaces:index:getWorkspaces argument.organization",
        "workspaces:index:getWorkspace argument.organization",
        "workspaces:index:getTeam argument.organization",
        "workspaces:index:getAgentPool argument.organization",
        "workspaces:index:getPolicySet argument.organization",
        "workspaces:index:getOrganizationMembers argument.organization",
      ]),
    );
  });

  it("provider configuration: each claimed order of environment variables is the order the settings are read in", () => {
    const full: Record<string, string> = {
      WORKSPACES_ADDRESS: "https://a.example",
      TFE_HOSTNAME: "b.example",
      WORKSPACES_TOKEN: "token-a",
      TFE_TOKEN: "token-b",
      WORKSPACES_ORGANIZATION: "org-a",
      TFE_ORGANIZATION: "org-b",
    };
    const read: Record<string, (env: Record<string, string>) => string | undefined> = {
      address: (env) => resolveSettings({ env, homeDir: "/nonexistent" }).hostname,
      token: (env) => resolveSettings({ env, homeDir: "/nonexistent" }).token,
      organization: (env) => resolveSettings({ env, homeDir: "/nonexistent" }).organization,
    };
    for (const [key, p] of Object.entries<any>(schema.config.variables)) {
      const names = [...(p.description as string).matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1]);
      expect(names.length, key).toBeGreaterThan(1);
      const env = { ...full };
      for (const name of names) {
        expect(read[key](env), `${key} from ${name}`).toBe(full[name].replace(/^https:\/\//, ""));
        delete env[name];
      }
    }
    // No address anywhere: no built-in one, an error that names the ways to give one.
    expect(() => resolveSettings({ env: {}, homeDir: "/nonexistent" })).toThrow(/WORKSPACES_ADDRESS.*TFE_HOSTNAME/);
    expect(schema.config.variables.address.description).not.toMatch(/hosted service\b(?! )|then the hosted/);
  });

  it("names no SDK package that does not exist", () => {
    expect(schema.language.nodejs?.packageName).toBeUndefined();
  });
});

describe("provider schema: functions", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, db: ":memory:" });
    setConfiguredSettings({ address: server.url, token: server.token, organization: server.organization });
  });
  afterAll(async () => {
    setConfiguredSettings({});
    await server.close();
  });

  const calls: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
    getWorkspaces: (a) => getWorkspaces(a),
    getWorkspace: (a) => getWorkspace(a as never),
    getEffectiveVariables: (a) => getEffectiveVariables(a as never),
    getEffectiveAccess: (a) => getEffectiveAccess(a as never),
    getWorkspaceOutputs: (a) => getWorkspaceOutputs(a as never),
    getTeam: (a) => getTeam(a as never),
    getAgentPool: (a) => getAgentPool(a as never),
    getPolicySet: (a) => getPolicySet(a as never),
    getOrganizationMembers: (a) => getOrganizationMembers(a),
    getTeamMembers: (a) => getTeamMembers(a as never),
  };

  it("has one function per lookup, and no other", () => {
    expect(sorted(Object.keys(schema.functions))).toEqual(
      sorted(Object.keys(calls).map((k) => `workspaces:index:${k}`)),
    );
  });

  it.each(Object.keys(calls))("%s: every argument is one the lookup takes, and no other is", async (fn) => {
    const spec = schema.functions[`workspaces:index:${fn}`];
    expect(spec.description).toBeTruthy();
    expect(sorted(Object.keys(spec.inputs.properties))).toEqual(
      sorted(LOOKUP_ARGUMENTS[fn as keyof typeof LOOKUP_ARGUMENTS]),
    );
    const refusedAsUnknown = async (args: Record<string, unknown>) => {
      try {
        await calls[fn](args);
        return false;
      } catch (err) {
        return /Unrecognized key/i.test((err as Error).message);
      }
    };
    for (const [name, p] of Object.entries<any>(spec.inputs.properties)) {
      expect(p.description, `${fn}(${name})`).toBeTruthy();
      expect(await refusedAsUnknown({ [name]: "x" }), `${fn}(${name})`).toBe(false);
    }
    expect(await refusedAsUnknown({ notAnArgument: "x" })).toBe(true);
    for (const [name, p] of Object.entries<any>(spec.outputs.properties))
      expect(p.description, `${fn} -> ${name}`).toBeTruthy();
  });
});

describe("provider schema: the package's own text", () => {
  const root = path.join(__dirname, "../..");
  const sdk = (file: string) => fs.readFileSync(path.join(root, "sdk", file), "utf8");

  it("says what the SDKs hold: every resource and lookup by name, and nothing they do not hold", () => {
    const text: string = schema.description;
    for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)])
      expect(text, token).toContain(token.slice("workspaces:index:".length));
    // The client, the policy pack and the local server are the npm package's, not the SDKs'.
    expect(text).not.toMatch(/typed client|policy pack|local server/i);
    // The SDKs' own descriptions are the schema's.
    expect(sdk("python/pyproject.toml")).toContain(`description = ${JSON.stringify(text)}`);
    expect(sdk("go/workspaces/doc.go")).toContain(`// ${text}\npackage workspaces`);
  });

  it("names as the Python package's readme a file that is in sdk/python", () => {
    const readme = /^\s*readme = "([^"]+)"/m.exec(sdk("python/pyproject.toml"))?.[1];
    expect(readme).toBeTruthy();
    expect(fs.existsSync(path.join(root, "sdk/python", readme!)), `sdk/python/${readme}`).toBe(true);
  });

  it("gives every property it calls deprecated a deprecation message, which each SDK shows", () => {
    const props = everyProperty();
    const called = props.filter(({ p }) => /\bdeprecated\b/i.test(p.description ?? "")).map((x) => x.where);
    const marked = props.filter(({ p }) => p.deprecationMessage).map((x) => x.where);
    expect(called.length).toBeGreaterThan(0);
    expect(sorted(marked)).toEqual(sorted(called));
    const message: string = resource("Workspace").inputProperties.operations.deprecationMessage;
    expect(message).toMatch(/`executionMode`/);
    expect(sdk("python/pulumi_workspaces/workspace.py")).toContain(
      `warnings.warn("""${message}""", DeprecationWarning)`,
    );
    expect(sdk("go/workspaces/workspace.go")).toContain(`// Deprecated: ${message}`);
  });

  it("makes optional the no-code module's outputs the provider may leave absent", () => {
    const required: string[] = resource("NoCodeModule").required ?? [];
    for (const name of ["organization", "registryModuleId", "selfLink"]) expect(required, name).not.toContain(name);
  });

  it("declares the same default for an input of the same name and kind in every resource", () => {
    const byName = new Map<string, Set<string>>();
    for (const r of Object.values<any>(schema.resources))
      for (const [name, p] of Object.entries<any>(r.inputProperties)) {
        // An input that says it is not managed when omitted has no default to agree on (a policy set's `global`).
        if (p.type !== "boolean" || (p.default === undefined && /Omitted:\s+not\s+managed/.test(p.description)))
          continue;
        const seen = byName.get(name) ?? new Set<string>();
        seen.add(`${JSON.stringify(p.default)}`);
        byName.set(name, seen);
      }
    const differing = [...byName].filter(([, d]) => d.size > 1).map(([name, d]) => `${name}: ${[...d].join(" / ")}`);
    expect(differing).toEqual([]);
    expect(resource("Workspace").inputProperties.forceDelete.default).toBe(false);
    expect(resource("NoCodeWorkspace").inputProperties.forceDelete.default).toBe(false);
  });

  it("describes every value of every enum, each apart from the others", () => {
    for (const [token, t] of Object.entries<any>(schema.types)) {
      if (!t.enum) continue;
      for (const v of t.enum) expect(v.description, `${token} ${v.value}`).toMatch(/^[A-Z].{3,}\.$/);
      expect(new Set(t.enum.map((v: any) => v.description)).size, token).toBe(t.enum.length);
    }
    expect(schema.types["workspaces:index:ExecutionMode"].enum.map((v: any) => v.description)).toHaveLength(3);
  });
});

describe("provider schema: names of the types", () => {
  /** The types reached from `roots` through `$ref`, array items and map values, transitively. */
  function reached(roots: unknown[]): Set<string> {
    const out = new Set<string>();
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === "object") {
        const ref = (v as { $ref?: string }).$ref;
        if (ref?.startsWith("#/types/") && !out.has(ref.slice(8))) {
          out.add(ref.slice(8));
          visit(schema.types[ref.slice(8)]);
        }
        Object.values(v).forEach(visit);
      }
    };
    visit(roots);
    return out;
  }
  const resources = Object.values<any>(schema.resources);
  const functions = Object.values<any>(schema.functions);
  const fromInputs = reached([...resources.map((r) => r.inputProperties), ...functions.map((f) => f.inputs)]);
  const fromOutputs = reached([...resources.map((r) => r.properties), ...functions.map((f) => f.outputs)]);

  it("gives an input's type the plain name and the output's type of the same name `<Name>Info`", () => {
    const pairs = Object.keys(schema.types).filter((t) => t.endsWith("Info") && schema.types[t.slice(0, -4)]);
    expect(pairs).toEqual(expect.arrayContaining(["workspaces:index:VariableCategoryInfo"]));
    const wrong = pairs.flatMap((info) => [
      ...(fromInputs.has(info) ? [`${info} is an input's type`] : []),
      ...(fromInputs.has(info.slice(0, -4)) ? [] : [`${info.slice(0, -4)} is no input's type`]),
      ...(fromOutputs.has(info) ? [] : [`${info} is no output's type`]),
    ]);
    expect(wrong).toEqual([]);
  });

  it("keeps the name of every type the 0.5.0 SDKs had", () => {
    // Programs written against the released SDKs name these (Go: workspaces.VcsRepoArgs).
    const released = [
      "ExecutionMode",
      "NoCodeExecutionMode",
      "NoCodeVariable",
      "NoCodeVariableCategory",
      "NoCodeVariableCategoryInfo",
      "NoCodeVariableInfo",
      "NoCodeWorkspaceLastUpgrade",
      "OwnershipMode",
      "SettingOverwrites",
      "SettingOverwritesInfo",
      "UpgradeStrategy",
      "VariableOptions",
      "VariableOptionsInfo",
      "VcsRepo",
      "VcsRepoInfo",
      "WorkspaceMetrics",
      "WorkspaceStatus",
      "WorkspaceStatusActions",
    ];
    for (const t of released) expect(schema.types, t).toHaveProperty([`workspaces:index:${t}`]);
  });
});
