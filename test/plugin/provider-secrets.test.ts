/**
 * The provider plugin's answers to the engine, against the real local server: a value the
 * list of secrets names (src/resources/secret-values.ts) leaves the plugin marked secret
 * wherever it is (checked inputs, outputs, the inputs a refresh gives back), whether the
 * program gave it as a secret or as a plain literal; and outputs carry nothing the schema
 * does not declare (no input names: the engine hands a refresh the recorded inputs).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordReadInputs, schema, workspacesProvider } from "../../src/plugin/provider";
import { createProject, registryModuleWith, startHarness, uniqueName, type Harness } from "../resources/helpers";

type Props = Record<string, any>;

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });
const isSecret = (v: unknown) => v !== null && typeof v === "object" && (v as Props)[SIG] === SECRET;

const PASSWORD = "plain-literal-password-5c1e";
const urn = (type: string, name: string) => `urn:pulumi:dev::plugin-test::workspaces:index:${type}::${name}`;

/** The value of every plain (unmarked) string in `v`, at any depth. */
function plainStrings(v: unknown): string[] {
  if (isSecret(v)) return [];
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(plainStrings);
  if (v && typeof v === "object") return Object.values(v).flatMap(plainStrings);
  return [];
}

/** `v` with every secret mark taken off. */
function unmarked(v: any): any {
  if (isSecret(v)) return unmarked(v.value);
  if (Array.isArray(v)) return v.map(unmarked);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unmarked(x)]));
  return v;
}

let h: Harness;
const provider = workspacesProvider("0.0.0-test");
let moduleId: string;
let project: string;

beforeAll(async () => {
  h = await startHarness();
  project = await createProject(h, uniqueName("plugin"));
  const registryModuleId = await registryModuleWith(h, ["1.0.0"]);
  const checked = await provider.check!(urn("NoCodeModule", "mod"), {}, { registryModuleId, versionPin: "1.0.0" });
  moduleId = (await provider.create!(urn("NoCodeModule", "mod"), checked.inputs)).id;
});
afterAll(async () => {
  await h.close();
});

const variables = (value: unknown) => [
  { key: "region", value: "eu-west-1", category: "engine" },
  { key: "db_password", value, category: "engine", sensitive: true },
];

describe("the plugin marks the listed secrets wherever they are", () => {
  it("check: a sensitive variable's plain literal comes back secret, in its place; other values stay plain", async () => {
    const news = { noCodeModuleId: "nocode-1", name: "net", project: "prj-1", variables: variables(PASSWORD) };
    const r = await provider.check!(urn("NoCodeWorkspace", "net"), {}, news);
    expect(r.failures).toEqual([]);
    const vars = r.inputs!.variables as Props[];
    expect(vars[1].value).toEqual(secret(PASSWORD));
    expect(vars[0].value).toBe("eu-west-1");
    expect(plainStrings(r.inputs)).not.toContain(PASSWORD);
  });

  it("check: a value that arrived secret stays secret as a whole", async () => {
    const news = {
      noCodeModuleId: "nocode-1",
      name: "net",
      project: "prj-1",
      variables: [{ key: "region", value: secret("eu-west-1"), category: "engine" }],
    };
    const r = await provider.check!(urn("NoCodeWorkspace", "net"), {}, news);
    expect(isSecret(r.inputs!.variables)).toBe(true);
  });

  it("create, read and update: outputs hold the value only as a secret, and a refresh's inputs too", async () => {
    const u = urn("NoCodeWorkspace", "net");
    const news = { noCodeModuleId: moduleId, name: uniqueName("net"), project, variables: variables(PASSWORD) };
    const { inputs } = await provider.check!(u, {}, news);
    const created = await provider.create!(u, inputs);
    expect(isSecret(created.outs!.sensitiveValues)).toBe(true);
    expect(plainStrings(created.outs)).not.toContain(PASSWORD);

    // Recorded in plain text (as a stack written before the literal was marked holds it): the
    // inputs the refresh gives back hold it only as a secret, in its place.
    recordReadInputs(u, unmarked(inputs));
    const read = await provider.read!(created.id, u, created.outs);
    expect(read.id).toBe(created.id);
    expect(isSecret(read.props!.sensitiveValues)).toBe(true);
    expect((read.inputs!.variables as Props[])[1].value).toEqual(secret(PASSWORD));
    expect(plainStrings(read.props)).not.toContain(PASSWORD);
    expect(plainStrings(read.inputs)).not.toContain(PASSWORD);

    const changed = { ...news, variables: variables("another-literal-91d0") };
    const checked = await provider.check!(u, inputs, changed);
    const updated = await provider.update!(created.id, u, read.props, checked.inputs);
    expect(plainStrings(updated.outs)).not.toContain("another-literal-91d0");
    expect(isSecret(updated.outs!.sensitiveValues)).toBe(true);
  });
});

describe("an agent token from the plugin", () => {
  it("create and read: the secret the service answers once is an output only as a secret", async () => {
    const pool = await h.client.agentPools.create(h.org, { name: uniqueName("plugin-pool") });
    const u = urn("AgentToken", "agents");
    const { inputs } = await provider.check!(u, {}, { agentPoolId: pool.id, description: "agents" });
    const created = await provider.create!(u, inputs);
    expect(isSecret(created.outs!.token)).toBe(true);
    const token = unmarked(created.outs!.token) as string;
    expect(token.length).toBeGreaterThan(16);
    expect(plainStrings(created.outs)).not.toContain(token);
    recordReadInputs(u, unmarked(inputs));
    const read = await provider.read!(created.id, u, created.outs);
    expect(read.props!.token).toEqual(secret(token));
    expect(plainStrings(read.props)).not.toContain(token);
  });
});

describe("the plugin's outputs are the schema's", () => {
  it("create, read and update send no output the schema does not declare; a refresh still reads back the inputs", async () => {
    const u = urn("Workspace", "web");
    const { inputs } = await provider.check!(u, {}, { name: uniqueName("web"), description: "first" });
    const created = await provider.create!(u, inputs);
    const declared = Object.keys(schema.resources["workspaces:index:Workspace"].properties);
    expect(Object.keys(created.outs).filter((k) => !declared.includes(k))).toEqual([]);

    // Edited by hand: the refresh gives back the program's inputs with the service's values.
    await h.client.workspaces.update(created.id, { description: "by hand" });
    recordReadInputs(u, inputs);
    const read = await provider.read!(created.id, u, created.outs);
    expect(Object.keys(read.props).filter((k) => !declared.includes(k))).toEqual([]);
    expect(read.inputs).toEqual({ name: inputs!.name, description: "by hand", organization: h.org });

    const checked = await provider.check!(u, read.inputs, { name: inputs!.name, description: "" });
    const updated = await provider.update!(created.id, u, read.props, checked.inputs);
    expect(Object.keys(updated.outs).filter((k) => !declared.includes(k))).toEqual([]);
    expect(updated.outs!.description ?? null).toBeNull();
  });

  it("a stack written by an earlier release keeps its recorded input names through a refresh", async () => {
    const u = urn("Workspace", "old");
    const { inputs } = await provider.check!(u, {}, { name: uniqueName("old"), description: "kept" });
    const created = await provider.create!(u, inputs);
    const names = Object.keys(inputs).sort();
    const read = await provider.read!(created.id, u, { ...created.outs, __inputNames: names });
    expect(read.props!.__inputNames).toEqual(names);
    expect(read.inputs).toMatchObject({ name: inputs!.name, description: "kept" });
  });
});
