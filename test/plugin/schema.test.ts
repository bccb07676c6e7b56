/**
 * The plugin's schema against what the TypeScript door implements: every input, output and
 * function argument has an entry with a description, and the schema has none that nothing
 * implements. The committed schema is also what scripts/plugin/schema.js derives now.
 */
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
import { getWorkspace, getWorkspaces, LOOKUP_ARGUMENTS } from "../../src/resources/lookups";
import { setConfiguredSettings } from "../../src/resources/provider-settings";
import { pluginTypeTokens, typeTokens } from "../../src/resources/tokens";
import { startServer, type RunningServer } from "../../src/server";

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
};

const resource = (kind: string) => schema.resources[`workspaces:index:${kind}`];
const sorted = (names: Iterable<string>) => [...names].sort();

describe("provider schema", () => {
  it("is what scripts/plugin/schema.js derives from the sources now", () => {
    // Run `node scripts/plugin/schema.js` after changing a resource, a lookup or the field table.
    expect(fs.readFileSync(schemaPath, "utf8")).toBe(deriver.render());
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
    const required = failures.filter((f) => /\bis required\b/.test(f.reason)).map((f) => f.property);
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

  it("marks the token and the no-code workspace's sensitive outputs secret", () => {
    expect(schema.config.variables.token.secret).toBe(true);
    expect(schema.provider.inputProperties.token.secret).toBe(true);
    const secret = Object.entries<any>(resource("NoCodeWorkspace").properties).filter(([, p]) => p.secret);
    expect(sorted(secret.map(([k]) => k))).toEqual(sorted(NO_CODE_WORKSPACE_SECRET_OUTPUTS));
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
