/**
 * The provider plugin's `Provider` (the interface `@pulumi/pulumi/provider` serves): every
 * resource call goes to the provider object the TypeScript door's dynamic resources use
 * (`provider(PROTOCOL, kind)` of src/resources/entry.ts) and every function call to the
 * lookup the TypeScript door exports, so both doors share one implementation. What is the
 * plugin's own is the protocol's framing: the type token names the resource, secrets
 * arrive and leave marked as such, and configuration comes from the provider's inputs.
 */
import type * as pulumi from "@pulumi/pulumi";
import { provider as doorProvider, PROTOCOL } from "../resources/entry";
import { isPackageOrigin } from "../api/origin";
import { INPUT_NAMES_KEY, ORIGIN_KEY, inputNames } from "../resources/providers/inputs";
import { KINDS_WITH_ORIGIN, isOriginKey, newOriginKey, originFor } from "../resources/providers/origin";
import { setConfiguredSettings } from "../resources/provider-settings";
import { projectDirectory, stateBackend } from "../resources/state-backend";
import { secretPaths, type SecretPath } from "../resources/secret-values";
import { CLAIMANT_KEY, KINDS_WITH_CLAIMS } from "../resources/process/claims";
import {
  getAgentPool,
  getEffectiveAccess,
  getEffectiveVariables,
  getPolicySet,
  getWorkspace,
  getOrganizationMembers,
  getTeamMembers,
  getWorkspaces,
  getTeam,
} from "../resources/lookups";
import { readWorkspaceOutputs, type GetWorkspaceOutputsArgs } from "../resources/workspace-outputs";
import { PLUGIN_TOKEN_PREFIX, type ResourceTypeName } from "../resources/tokens";
import type { ConfigureRequestLike } from "./shims";
import schemaJson from "./schema.json";

type Props = Record<string, unknown>;
type DoorProvider = ReturnType<typeof doorProvider>;

/** The package schema this plugin serves (`pulumi package get-schema`), derived by scripts/plugin/schema.js. */
export const schema = schemaJson as unknown as PackageSchema;

interface PropertySpec {
  secret?: boolean;
}
interface PackageSchema {
  name: string;
  version: string;
  resources: Record<
    string,
    { properties: Record<string, PropertySpec>; inputProperties: Record<string, PropertySpec> }
  >;
  functions: Record<string, unknown>;
}

/** `workspaces:index:Workspace` -> `Workspace`; undefined for a token of another package or an unknown type. */
function kindOf(typeToken: string): ResourceTypeName | undefined {
  if (!typeToken.startsWith(PLUGIN_TOKEN_PREFIX) || !schema.resources[typeToken]) return undefined;
  return typeToken.slice(PLUGIN_TOKEN_PREFIX.length) as ResourceTypeName;
}

/** The parts of a URN (`urn:pulumi:stack::project::[parent$]type::name`). */
function parseUrn(urn: string): { stack: string; project: string; type: string; name: string } {
  const [head = "", project = "", qualified = "", ...rest] = urn.split("::");
  return {
    stack: head.replace(/^urn:pulumi:/, ""),
    project,
    type: qualified.slice(qualified.lastIndexOf("$") + 1),
    name: rest.join("::"),
  };
}

function typeOfUrn(urn: string): string {
  return parseUrn(urn).type;
}

// ---------------------------------------------------------------------------
// Secrets, as the engine hands them to a provider that accepts them

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && (v as Props)[SIG_KEY] === SECRET_SIG;
}

/** A copy with every secret replaced by its value. */
function reveal(v: unknown): unknown {
  if (isSecret(v)) return reveal(v.value);
  if (Array.isArray(v)) return v.map(reveal);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reveal(x)]));
  return v;
}

function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsSecret);
  return false;
}

const asSecret = (value: unknown): Props => ({ [SIG_KEY]: SECRET_SIG, value });

/** A copy of `value` with `fn` applied to what is at `path` (a path that is not there changes nothing). */
function atPath(value: unknown, path: SecretPath, fn: (v: unknown) => unknown): unknown {
  if (path.length === 0) return fn(value);
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === "number" && head < value.length)
    return (value as unknown[]).map((x, i) => (i === head ? atPath(x, rest, fn) : x));
  if (value !== null && typeof value === "object" && !Array.isArray(value) && typeof head === "string" && head in value)
    return { ...(value as Props), [head]: atPath((value as Props)[head], rest, fn) };
  return value;
}

/** A copy of `value` with the value at `path` marked secret. */
const secretAt = (value: unknown, path: SecretPath) =>
  atPath(value, path, (v) => (v === undefined || v === null || isSecret(v) ? v : asSecret(v)));

/**
 * Top-level names whose value holds a secret anywhere, but where the list of secrets
 * puts one for a resource of `kind` (a sensitive variable's value): such a value is marked
 * in its place again, and does not make the rest of its list secret.
 */
function secretNames(props: Props | undefined, kind?: ResourceTypeName): Set<string> {
  let given: unknown = props ?? {};
  for (const path of kind ? secretPaths(kind, reveal(given) as Props) : [])
    if (path.length > 1) given = atPath(given, path, reveal);
  return new Set(Object.keys(given as Props).filter((k) => containsSecret((given as Props)[k])));
}

/**
 * Plain JSON for the protocol's `Struct` (which refuses `undefined`), with the values of
 * `given` names marked secret as a whole (what arrived secret stays secret), and every
 * value the list of secrets (src/resources/secret-values.ts) names for a resource of
 * `kind` marked secret where it is: a secret output as a whole, a sensitive variable's
 * value in its place, so that a plain literal for it is stored only encrypted.
 */
function marked(props: Props | undefined, given: ReadonlySet<string>, kind?: ResourceTypeName): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined) continue;
    const value = JSON.parse(JSON.stringify(v)) as unknown;
    out[k] = given.has(k) ? secretAt(value, []) : value;
  }
  for (const path of kind ? secretPaths(kind, reveal(out) as Props) : []) {
    const [name] = path as [string];
    if (!given.has(name)) out[name] = secretAt(out[name], path.slice(1));
  }
  return out;
}

// ---------------------------------------------------------------------------

/**
 * The provider input that holds the origin key of the records this provider creates
 * (docs/interrupted-updates.md): added by `checkConfig`, recorded by the engine with the
 * provider resource in the stack's state, and handed back on every `Configure`. Never a
 * setting of the program and never sent to the service.
 */
export const ORIGIN_KEY_INPUT = "__originKey";

/** The origin key this process was configured with (undefined before `Configure`, or without one). */
let originKey: string | undefined;

/**
 * The provider's checked configuration: what the program gives, with the origin key the
 * provider's recorded inputs (`olds`) hold, or a new random one for a provider that has
 * none yet. The key is marked secret, so that it is encrypted in the state and shown as
 * `[secret]`; a value the program gives under its name is not taken (the key is the
 * state's, never the program's).
 */
export function checkConfig(olds: Props, news: Props): Props {
  const recorded = reveal(olds[ORIGIN_KEY_INPUT]);
  const key = isOriginKey(recorded) ? recorded : newOriginKey();
  return { ...news, [ORIGIN_KEY_INPUT]: { [SIG_KEY]: SECRET_SIG, value: key } };
}

/** The provider's configuration: its inputs (`args`), else the engine's `variables` (`workspaces:config:token`). */
export function configure(request: ConfigureRequestLike): void {
  const args = (reveal(request.getArgs()?.toJavaScript() ?? {}) ?? {}) as Props;
  const variables = new Map(request.getVariablesMap().toObject());
  const value = (key: string): string | undefined => {
    const v = args[key] ?? variables.get(`${schema.name}:config:${key}`) ?? variables.get(`${schema.name}:${key}`);
    return typeof v === "string" && v.trim() !== "" ? v : undefined;
  };
  setConfiguredSettings({ address: value("address"), token: value("token"), organization: value("organization") });
  const key = value(ORIGIN_KEY_INPUT);
  originKey = isOriginKey(key) ? key : undefined;
}

/**
 * The stack's state backend, found once per process as the engine that started it finds
 * it: the engine starts a provider in the program's directory with its own environment
 * (`PULUMI_BACKEND_URL`, `PULUMI_HOME`, `PULUMI_SKIP_CHECKPOINTS`). No organization: the
 * engine tells a provider none (the TypeScript door adds the program's).
 */
let pluginBackend: string | undefined;

/**
 * The inputs a create hands the shared provider: the program's, with the origin of the
 * resource at `urn` (derived from the configured origin key, with the digest of the
 * stack's state backend for a create while checkpoints are skipped: the provider's
 * recorded key is lost with a first update that never ends) for the kinds whose records
 * carry one; without an origin key, none. An `__origin` the inputs carry is never taken.
 */
function withPluginOrigin(urn: string, kind: string, inputs: Props): Props {
  const { [ORIGIN_KEY]: _given, ...rest } = inputs;
  if (!KINDS_WITH_ORIGIN.has(kind)) return rest;
  const { project, stack, name } = parseUrn(urn);
  pluginBackend ??= stateBackend(projectDirectory(process.cwd()));
  const origin = originFor(originKey, project, stack, kind, name, pluginBackend);
  return origin ? { ...rest, [ORIGIN_KEY]: origin } : rest;
}

/**
 * Outputs as this door keeps them: without what the shared provider adds for the
 * TypeScript door. The origin is no input here (it comes from the provider's key), and
 * the names of the inputs (`__inputNames`, which the dynamic-provider host needs because
 * it hands a read no inputs) are not kept either: the engine hands this door's read the
 * recorded inputs themselves (see passReadInputs in ./shims.ts). A stack written by an
 * earlier release keeps the names it has (`keepNames`) until its next update, so that its
 * refresh reports no change.
 */
function doorOutputs(outs: Props | undefined, keepNames = false): Props | undefined {
  if (!outs) return outs;
  const { [ORIGIN_KEY]: _origin, [INPUT_NAMES_KEY]: names, ...rest } = outs;
  return keepNames && Array.isArray(names)
    ? { ...rest, [INPUT_NAMES_KEY]: names.filter((n) => n !== ORIGIN_KEY) }
    : rest;
}

/** The inputs the engine recorded for a resource, by URN, from the read request being served (a refresh). */
const recordedInputs = new Map<string, Props>();

/** Keeps the inputs of a read request until the provider's `read` for `urn` takes them (see passReadInputs in ./shims.ts). */
export function recordReadInputs(urn: string, inputs: Props): void {
  if (Object.keys(inputs).length > 0) recordedInputs.set(urn, inputs);
  else recordedInputs.delete(urn);
}

/**
 * A create or update that changed the record and then failed reports the record's id and
 * properties with its error, and the engine keeps them in state. The SDK's server sends
 * those properties as they are, and a property it cannot encode (`undefined`) would turn
 * the failure into a stalled operation; they are sent as outputs are.
 */
function partial(err: unknown, secret: Set<string>, kind: ResourceTypeName): unknown {
  const e = err as { id?: unknown; properties?: unknown } | null;
  if (e && typeof e === "object" && typeof e.id === "string" && e.properties && typeof e.properties === "object")
    e.properties = marked(doorOutputs(e.properties as Props), secret, kind);
  return err;
}

/**
 * The inputs an import records, when the read could not tell which inputs a program gave
 * (create and update record their names): the read's outputs that are inputs of the schema,
 * without `null`s (which would clear a setting the program never named), and without what
 * the resource's own `check` refuses together (a deprecated spelling beside its successor),
 * so that the program `pulumi import` writes runs as it is. An origin this package wrote
 * is left out as the generator leaves it out: declared, it would turn off the take-over
 * of an interrupted create for the resource (docs/interrupted-updates.md).
 */
async function importedInputs(impl: DoorProvider, typeToken: string, props: Props): Promise<Props> {
  const inputs: Props = {};
  const names = Object.keys(schema.resources[typeToken]?.inputProperties ?? {});
  for (const k of names) if (props[k] !== undefined && props[k] !== null && k !== "adopt") inputs[k] = props[k];
  if (isPackageOrigin(inputs.sourceName, inputs.sourceUrl)) {
    delete inputs.sourceName;
    delete inputs.sourceUrl;
  }
  for (let round = 0; round < names.length; round++) {
    const { failures = [] } = await impl.check({}, inputs);
    const refused = failures.map((f) => f.property.split(/[.[]/)[0]).filter((k) => k in inputs);
    if (refused.length === 0) break;
    for (const k of refused) delete inputs[k];
  }
  return inputs;
}

/**
 * The lookups whose results hold no secret, by function name: each answers the TypeScript
 * door's own function with the arguments as the program gave them (its check refuses others).
 */
const LOOKUPS: Readonly<Record<string, (args: never) => Promise<unknown>>> = {
  getWorkspaces,
  getWorkspace,
  getEffectiveVariables,
  getEffectiveAccess,
  getTeam,
  getAgentPool,
  getOrganizationMembers,
  getTeamMembers,
  getPolicySet,
};

/** The provider the plugin serves. */
export function workspacesProvider(version: string): pulumi.provider.Provider {
  const doors = new Map<string, DoorProvider>();
  const door = (urn: string): { impl: DoorProvider; type: string; kind: ResourceTypeName } => {
    const type = typeOfUrn(urn);
    const kind = kindOf(type);
    if (!kind)
      throw new Error(
        `${schema.name}: unknown resource type ${type}; this plugin (v${version}) serves ${Object.keys(schema.resources).join(", ")}`,
      );
    let impl = doors.get(kind);
    if (!impl) doors.set(kind, (impl = doorProvider(PROTOCOL, kind)));
    return { impl, type, kind };
  };

  return {
    version,
    schema: JSON.stringify(schema),

    async check(urn, olds: Props, news: Props) {
      const { impl, kind } = door(urn);
      const given = reveal(news) as Props;
      // The resource's name for the claims of its check (src/resources/process/claims.ts), as the TypeScript class gives it.
      if (KINDS_WITH_CLAIMS.has(kind)) given[CLAIMANT_KEY] = parseUrn(urn).name;
      const result = await impl.check(reveal(olds), given);
      return { inputs: marked(result.inputs as Props, secretNames(news, kind), kind), failures: result.failures };
    },

    async diff(id, urn, olds: Props, news: Props) {
      return door(urn).impl.diff(id, reveal(olds), reveal(news));
    },

    // A thin forwarder: whatever create records is the shared provider's, with this door's origin.
    async create(urn, inputs: Props) {
      const { impl, kind } = door(urn);
      const secret = secretNames(inputs, kind);
      const given = withPluginOrigin(urn, kind, reveal(inputs) as Props);
      const result = await impl.create(given).catch((err: unknown) => Promise.reject(partial(err, secret, kind)));
      return { id: result.id, outs: marked(doorOutputs(result.outs as Props), secret, kind) };
    },

    async read(id, urn, props?: Props) {
      const { impl, type, kind } = door(urn);
      const recorded = recordedInputs.get(urn);
      recordedInputs.delete(urn);
      const olds = reveal(props ?? {}) as Props;
      const oldNames = Array.isArray(olds[INPUT_NAMES_KEY]);
      // The names of the inputs the program manages: recorded with the outputs by an earlier
      // release, else those of the inputs the engine recorded (none on an import).
      const names = oldNames ? olds[INPUT_NAMES_KEY] : recorded ? inputNames(reveal(recorded) as Props) : undefined;
      const result = (await impl.read?.(id, names ? { ...olds, [INPUT_NAMES_KEY]: names } : olds)) ?? {};
      if (!result.id || !result.props) return { id: result.id ?? "", props: {} };
      const secret = new Set([...secretNames(props, kind), ...secretNames(recorded, kind)]);
      const outs = doorOutputs(result.props as Props, oldNames) ?? {};
      const inputs = (result.inputs as Props | undefined) ?? (await importedInputs(impl, type, outs));
      return { id: result.id, props: marked(outs, secret, kind), inputs: marked(inputs, secret, kind) };
    },

    async update(id, urn, olds: Props, news: Props) {
      const { impl, kind } = door(urn);
      const secret = secretNames(news, kind);
      const result = await impl
        .update(id, reveal(olds), reveal(news))
        .catch((err: unknown) => Promise.reject(partial(err, secret, kind)));
      return { outs: marked(doorOutputs(result.outs as Props), secret, kind) };
    },

    async delete(id, urn, props: Props) {
      await door(urn).impl.delete(id, reveal(props));
    },

    async invoke(token, args: Props) {
      const given = reveal(args ?? {}) as Props;
      const name = token.startsWith(PLUGIN_TOKEN_PREFIX) ? token.slice(PLUGIN_TOKEN_PREFIX.length) : "";
      if (Object.hasOwn(LOOKUPS, name)) {
        const lookup = LOOKUPS[name] as (args: Props) => Promise<unknown>;
        return { outputs: marked((await lookup(given)) as Props, new Set()) };
      }
      if (name === "getWorkspaceOutputs") {
        // Plain values from the one reading, each sensitive one marked secret in its place.
        const read = await readWorkspaceOutputs("getWorkspaceOutputs", given as unknown as GetWorkspaceOutputsArgs);
        let outputs: unknown = marked(read as unknown as Props, new Set());
        for (const n of read.sensitiveNames) outputs = secretAt(outputs, ["outputs", n]);
        return { outputs: outputs as Props };
      }
      throw new Error(
        `${schema.name}: unknown function ${token}; this plugin serves ${Object.keys(schema.functions).join(", ")}`,
      );
    },
  };
}
