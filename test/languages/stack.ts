/**
 * The one description of the languages suite's stack (stack.json): the program's values at
 * each step, resolved against the records made over HTTP, and the YAML program derived
 * from them. The Go and Python programs read the same values (as a JSON file).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };

export type Step = "first" | "edit" | "clear" | "import";
const STEPS: Step[] = ["first", "edit", "clear", "import"];

/** The program's values at one step (the shape of stack.json's `programs.first`). */
export interface Values {
  workspaces: Record<string, { name: string } & Obj>;
  consumers: { resource: string; workspace: string; consumers: string[] };
  lock: { resource: string; workspace: string; reason?: string };
  module: { resource: string; registryModuleId: string; versionPin?: string; variableOptions?: Obj[] };
  noCodeWorkspace: {
    resource: string;
    name: string;
    project: string;
    forceDelete?: boolean;
    variables: { key: string; value: string; category: string; sensitive?: boolean }[];
  };
  retention: { resource: string; workspace: string; deleteOlderThanNDays?: number };
  lookups: { names: string[]; workspace: string };
  imports: { type: string; resource: string; id: string }[];
  /** One `WorkspaceVariable` each; `workspace` is a key of `workspaces` or a workspace's id. */
  variables: ({ resource: string; workspace: string } & Variable)[];
  /** A `WorkspaceVariables`. */
  variableList: { resource: string; workspace: string; variables: Variable[] };
  variableSet: { resource: string; name: string; description?: string; variables: Variable[] };
  /** `VariableSetApplication`s of `variableSet`: to a workspace (as in `variables`) or to a project's id. */
  applications: { resource: string; workspace?: string; project?: string }[];
}

/** A variable as every door declares it. */
export interface Variable {
  key: string;
  value: string;
  category: string;
  sensitive?: boolean;
  hcl?: boolean;
}

/** What the server holds after a step (stack.json's `expect`). */
export interface Expected {
  workspaces: Record<
    string,
    {
      attributes?: Obj;
      tags?: Record<string, string>;
      consumers?: string[];
      retentionDays?: number;
      variables?: Record<string, Obj>;
    }
  >;
  versionPin?: string;
  /** Variable sets by name: attributes, variables by key, and where the set applies (by name). */
  variableSets?: Record<
    string,
    { attributes?: Obj; variables: Record<string, Obj>; workspaces: string[]; projects: string[] }
  >;
}

interface Description {
  project: string;
  stack: string;
  server: {
    project: string;
    module: { name: string; provider: string; versions: string[] };
    existing: { name: string; description: string };
    /** A workspace the stack never owns: a variable of its own (`theirs`) and one the import step takes over. */
    shared: { name: string; theirs: Variable; imported: Variable };
  };
  /** Values changed over HTTP on one workspace after the edit, and the resources whose state refresh then changes. */
  drift: { workspace: string; values: Record<string, string>; resources: string[] };
  programs: Record<Step, Obj>;
  imports: Values["imports"];
  edits: Record<string, string>;
  expect: Partial<Record<Step, Expected>>;
}

export const description = JSON.parse(fs.readFileSync(path.join(__dirname, "stack.json"), "utf8")) as Description;

/** Records made over HTTP that the programs name (`${name}` in stack.json). */
export type Refs = Record<
  "oauthTokenId" | "moduleId" | "projectId" | "existingId" | "sharedId" | "sharedVariableId",
  string
>;

/** `patch` over `base`, object by object; an empty object in `patch` replaces (`vcsRepo: {}` is a value, not "no change"). */
function merge(base: Json, patch: Json): Json {
  if (!isObj(base) || !isObj(patch) || Object.keys(patch).length === 0) return patch;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = k in base ? merge(base[k], v) : v;
  return out;
}

function isObj(v: Json): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function resolve(v: Json, refs: Record<string, string>, file: string): Json {
  if (typeof v === "string") {
    return v.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
      if (!(name in refs)) throw new Error(`${file} names \${${name}}, which no record made over HTTP provides`);
      return refs[name];
    });
  }
  if (Array.isArray(v)) return v.map((x) => resolve(x, refs, file));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, refs, file)]));
  return v;
}

/**
 * The values of a stack description's program at `step` (`file`'s `programs`: the first
 * whole, each later step a patch on the one before, up to `step` in `steps`' order), with
 * its `imports`, each `${name}` resolved against `refs`.
 */
export function programAt<S extends string>(
  file: string,
  d: { programs: Partial<Record<S, Obj>>; imports: unknown },
  steps: readonly S[],
  step: S,
  refs: Record<string, string>,
): Obj {
  let v: Json = {};
  for (const s of steps.slice(0, steps.indexOf(step) + 1)) v = merge(v, d.programs[s] ?? {});
  return resolve({ ...(v as Obj), imports: d.imports as Json }, refs, file) as Obj;
}

/** The program's values at `step`: the first program with every later patch up to it applied. */
export function valuesAt(step: Step, refs: Refs): Values {
  return programAt("stack.json", description, STEPS, step, refs) as unknown as Values;
}

/** The values of the sensitive variables: what the checkpoint must never hold in plain text. */
export function sensitiveLiterals(v: Values): string[] {
  return [...v.noCodeWorkspace.variables, ...v.variables, ...v.variableList.variables, ...v.variableSet.variables]
    .filter((x) => x.sensitive)
    .map((x) => x.value);
}

const TOKEN = (name: string) => `workspaces:index:${name}`;
export const ref = (resource: string, output = "id") => `\${${resource}.${output}}`;

/** The YAML program (Pulumi.yaml after its `name` and `runtime` lines) that declares `v`. */
export function yamlProgram(v: Values): string {
  const resources: Record<string, { type: string; properties: Obj }> = {};
  for (const [key, w] of Object.entries(v.workspaces)) resources[key] = { type: TOKEN("Workspace"), properties: w };
  const m = v.module;
  resources[m.resource] = {
    type: TOKEN("NoCodeModule"),
    properties: omitUndefined({
      registryModuleId: m.registryModuleId,
      versionPin: m.versionPin,
      variableOptions: m.variableOptions,
    }),
  };
  const n = v.noCodeWorkspace;
  resources[n.resource] = {
    type: TOKEN("NoCodeWorkspace"),
    properties: omitUndefined({
      noCodeModuleId: ref(m.resource),
      name: n.name,
      project: n.project,
      moduleVersion: ref(m.resource, "versionPin"),
      forceDelete: n.forceDelete,
      variables: n.variables,
    }),
  };
  const c = v.consumers;
  resources[c.resource] = {
    type: TOKEN("RemoteStateConsumers"),
    properties: { workspaceId: ref(c.workspace), consumerIds: c.consumers.map((k) => ref(k)) },
  };
  resources[v.lock.resource] = {
    type: TOKEN("WorkspaceLock"),
    properties: omitUndefined({ workspaceId: ref(v.lock.workspace), reason: v.lock.reason }),
  };
  const r = v.retention;
  resources[r.resource] = {
    type: TOKEN("DataRetentionPolicy"),
    properties: omitUndefined({ workspaceId: ref(r.workspace), deleteOlderThanNDays: r.deleteOlderThanNDays }),
  };
  // A workspace of the program by reference, any other by its id.
  const workspace = (w: string) => (w in v.workspaces ? ref(w) : w);
  for (const x of v.variables) {
    const { resource, workspace: w, ...variable } = x;
    resources[resource] = { type: TOKEN("WorkspaceVariable"), properties: { workspaceId: workspace(w), ...variable } };
  }
  const l = v.variableList;
  resources[l.resource] = {
    type: TOKEN("WorkspaceVariables"),
    properties: { workspaceId: workspace(l.workspace), variables: l.variables as unknown as Json },
  };
  const { resource: set, ...setProperties } = v.variableSet;
  resources[set] = { type: TOKEN("VariableSet"), properties: setProperties as unknown as Obj };
  for (const a of v.applications) {
    resources[a.resource] = {
      type: TOKEN("VariableSetApplication"),
      properties: omitUndefined({
        variableSetId: ref(set),
        workspaceId: a.workspace && workspace(a.workspace),
        projectId: a.project,
      }),
    };
  }
  const ids = Object.fromEntries([...Object.keys(v.workspaces), n.resource].map((k) => [k, ref(k)]));
  return yamlText(
    resources,
    {
      found: { function: "getWorkspaces", arguments: { names: v.lookups.names } },
      one: { function: "getWorkspace", arguments: { name: v.lookups.workspace } },
    },
    {
      ids,
      moduleId: ref(m.resource),
      found: ref("found", "names"),
      foundId: ref("one"),
      lastUpgrade: ref(n.resource, "lastUpgrade"),
      variableSetId: ref(set),
    },
  );
}

/** A YAML program's text: its resources, its lookups (by the function's name in the package) and its outputs. */
export function yamlText(
  resources: Record<string, { type: string; properties: Obj }>,
  lookups: Record<string, { function: string; arguments: Obj }>,
  outputs: Obj,
): string {
  const lines = ["resources:"];
  for (const [name, res] of Object.entries(resources)) {
    lines.push(`  ${name}:`, `    type: ${res.type}`, "    properties:");
    for (const [k, x] of Object.entries(res.properties)) lines.push(`      ${k}: ${JSON.stringify(x)}`);
  }
  lines.push("variables:");
  for (const [name, l] of Object.entries(lookups)) {
    lines.push(
      `  ${name}:`,
      "    fn::invoke:",
      `      function: ${TOKEN(l.function)}`,
      `      arguments: ${JSON.stringify(l.arguments)}`,
    );
  }
  lines.push("outputs:");
  for (const [k, x] of Object.entries(outputs)) lines.push(`  ${k}: ${JSON.stringify(x)}`);
  return lines.join("\n") + "\n";
}

export function omitUndefined(o: Record<string, Json | undefined>): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as Obj;
}
