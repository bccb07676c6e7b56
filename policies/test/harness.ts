// Builds the arguments the analyzer hands to a rule and runs the rule directly. Props go through
// @pulumi/policy's own deserializer and unknown-checking proxy (and remediation results through
// its serializer), so rules meet them exactly as the engine delivers them; the PolicyPack itself
// is never constructed because that starts the analyzer server. Every resource is built with the
// token of one door: the dynamic resource of a TypeScript program, or the provider plugin's
// resource of a YAML, Python, Go or C# program (`through`).
import type {
  PolicyResource,
  PolicyResourceOptions,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import * as policyModule from "@pulumi/policy";
import * as deserializeModule from "@pulumi/policy/deserialize";
import * as proxyModule from "@pulumi/policy/proxy";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { forgetRecordedInputs, type ResourceKind } from "../rules";

type Wire = Record<string, unknown>;

// Internal to @pulumi/policy (exported at runtime, absent from its type declarations).
const internals = {
  ...(policyModule as unknown as { unknownCheckingProxy: (props: object) => Record<string, unknown> }),
  ...(deserializeModule as unknown as {
    deserializeProperties: (struct: { toJavaScript(): Wire }, proxySecrets: boolean) => Record<string, unknown>;
    serializeProperties: (props: unknown) => Promise<Wire>;
  }),
  ...(proxyModule as unknown as Record<
    "unknownStringValue" | "unknownBooleanValue" | "unknownArrayValue" | "unknownObjectValue",
    string
  >),
};

/** Values the engine sends for outputs not known yet (during preview). */
export const unknown = {
  string: internals.unknownStringValue,
  boolean: internals.unknownBooleanValue,
  array: internals.unknownArrayValue,
  object: internals.unknownObjectValue,
};

/** A secret as it travels on the wire. */
export function secret(value: unknown): Wire {
  return { [rpc.specialSigKey]: rpc.specialSecretSig, value };
}

/** The props as the analyzer exposes them to a rule. */
function engineProps(wire: Wire, proxySecrets: boolean): Record<string, unknown> {
  return internals.unknownCheckingProxy(internals.deserializeProperties({ toJavaScript: () => wire }, proxySecrets));
}

class NotApplicable extends Error {}

function notApplicable(reason?: string): never {
  throw new NotApplicable(reason ?? "not applicable");
}

/**
 * `isType` and `asType` as the analyzer implements them: by the class's `__pulumiType` when it
 * has one, else by its `isInstance` (as the pack's markers, which know the tokens of both doors).
 */
function typeChecks<
  T extends Pick<PolicyResource, "isType" | "asType"> | Pick<ResourceValidationArgs, "isType" | "asType">,
>(type: string, props: Record<string, unknown>): T {
  const isType = (cls: { __pulumiType?: unknown; isInstance?: (obj: unknown) => boolean }) =>
    typeof cls.__pulumiType === "string" && cls.__pulumiType !== ""
      ? cls.__pulumiType === type
      : cls.isInstance?.({ __pulumiType: type }) === true;
  return {
    isType,
    asType: (cls: Parameters<typeof isType>[0]) => (isType(cls) ? props : undefined),
  } as unknown as T;
}

const defaultOptions: PolicyResourceOptions = {
  protect: false,
  ignoreChanges: [],
  aliases: [],
  customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
  additionalSecretOutputs: [],
};

export interface RunOptions {
  /** The Pulumi resource name (defaults to "subject"). */
  name?: string;
  /** The policy's config as given with --policy-pack-config. */
  config?: Record<string, unknown>;
}

function urnOf(type: string, name: string): string {
  return `urn:pulumi:test::workspaces::${type}::${name}`;
}

function resourceArgs(type: string, props: Record<string, unknown>, options: RunOptions): ResourceValidationArgs {
  const name = options.name ?? "subject";
  return {
    type,
    props,
    urn: urnOf(type, name),
    name,
    opts: defaultOptions,
    stackTags: new Map(),
    ...typeChecks<Pick<ResourceValidationArgs, "isType" | "asType">>(type, props),
    getConfig: <T extends object>() => (options.config ?? {}) as T,
    notApplicable,
  };
}

export interface Outcome {
  violations: string[];
  /** Set when the rule declared itself not applicable to the resource. */
  notApplicable?: string;
}

/** Runs a resource rule's validations on one resource of the given type token. */
async function validate(
  policy: ResourceValidationPolicy,
  type: string,
  wire: Wire,
  options: RunOptions = {},
): Promise<Outcome> {
  const violations: string[] = [];
  const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource];
  for (const validation of validations) {
    if (validation === undefined) continue;
    const args = resourceArgs(type, engineProps(wire, false), options);
    try {
      await validation(args, (message) => violations.push(message));
    } catch (e) {
      if (e instanceof NotApplicable) return { violations, notApplicable: e.message };
      throw e;
    }
  }
  return { violations };
}

/**
 * Runs a rule's remediation on one resource and returns what the engine would receive: the
 * serialized props (secrets as wire secrets), or undefined when the rule changed nothing.
 */
async function remediate(
  policy: ResourceValidationPolicy,
  type: string,
  wire: Wire,
  options: RunOptions = {},
): Promise<Wire | undefined> {
  if (policy.remediateResource === undefined) throw new Error(`${policy.name} has no remediation`);
  const args = resourceArgs(type, engineProps(wire, true), options);
  try {
    const result = await policy.remediateResource(args);
    return result ? internals.serializeProperties(result) : undefined;
  } catch (e) {
    if (e instanceof NotApplicable) return undefined;
    throw e;
  }
}

export interface StackResourceOptions {
  /** Outputs, when they differ from the inputs (a resource left unchanged reports what the service holds). */
  outputs?: Wire;
  /** False for a resource the engine did not analyze in this run (so its inputs are not known). */
  analyzed?: boolean;
}

const inputsOfResource = new WeakMap<PolicyResource, Wire>();

/**
 * A resource of a stack. `inputs` are what the program declares; as in a preview of a new or
 * changed resource they also serve as its outputs unless `options.outputs` says otherwise.
 * `dependsOn` maps a property to the resources its value came from.
 */
function stackResource(
  type: string,
  name: string,
  inputs: Wire,
  dependsOn: Record<string, PolicyResource[]> = {},
  options: StackResourceOptions = {},
): PolicyResource {
  const props = engineProps(options.outputs ?? inputs, false);
  const resource: PolicyResource = {
    type,
    props,
    urn: urnOf(type, name),
    name,
    opts: defaultOptions,
    dependencies: [...new Set(Object.values(dependsOn).flat())],
    propertyDependencies: dependsOn,
    ...typeChecks<Pick<PolicyResource, "isType" | "asType">>(type, props),
  };
  if (options.analyzed !== false) inputsOfResource.set(resource, inputs);
  return resource;
}

export interface StackOutcome {
  violations: { message: string; urn?: string }[];
}

/**
 * Runs a stack rule the way the engine does in one deployment: first the rule's resource
 * validation on the inputs of every analyzed resource, then its stack validation on the outputs.
 */
export async function validateStack(
  policy: StackValidationPolicy & Partial<ResourceValidationPolicy>,
  resources: PolicyResource[],
  config: Record<string, unknown> = {},
): Promise<StackOutcome> {
  forgetRecordedInputs();
  const violations: StackOutcome["violations"] = [];
  if (policy.validateResource !== undefined) {
    for (const r of resources) {
      const inputs = inputsOfResource.get(r);
      if (inputs === undefined) continue;
      const outcome = await validate(policy, r.type, inputs, { name: r.name, config });
      for (const message of outcome.violations) violations.push({ message, urn: r.urn });
    }
  }
  const args: StackValidationArgs = {
    resources,
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable,
  };
  await policy.validateStack(args, (message, urn) => violations.push({ message, urn }));
  return { violations };
}

// ---------------------------------------------------------------------------------------------
// Doors
// ---------------------------------------------------------------------------------------------

/** The two ways a program reaches the package: TypeScript's dynamic resources, the provider plugin. */
export type Door = "dynamic" | "plugin";
export const DOORS: readonly Door[] = ["dynamic", "plugin"];

/** How a test spreads its resources over the doors: all through one, or alternating from one. */
export type Layout = Door | "alternating, dynamic first" | "alternating, plugin first";
/** Every layout: for stack rules, which judge resources of both doors together. */
export const LAYOUTS: readonly Layout[] = [...DOORS, "alternating, dynamic first", "alternating, plugin first"];

/** A kind of the pack (`Workspace`), or any pair of tokens to build resources of other types with. */
type Kind = Pick<ResourceKind, "tokens">;

/** The type token of a kind through a door. */
export function tokenOf(kind: Kind, door: Door): string {
  return kind.tokens[DOORS.indexOf(door)];
}

/**
 * The harness with each resource built through the layout's door: `validate`, `remediate` and
 * `stackResource` take a kind (`Workspace`) where the rule sees a token. In an alternating
 * layout each resource takes the other door than the one before; `reset` (before each test)
 * starts again from the first.
 */
export function through(layout: Layout) {
  let built = 0;
  const nextType = (kind: Kind): string => {
    const first = layout === "alternating, plugin first" ? 1 : 0;
    const door = layout === "dynamic" || layout === "plugin" ? layout : DOORS[(first + built) % 2];
    built++;
    return tokenOf(kind, door);
  };
  return {
    reset: () => void (built = 0),
    validate: (policy: ResourceValidationPolicy, kind: Kind, wire: Wire, options: RunOptions = {}) =>
      validate(policy, nextType(kind), wire, options),
    remediate: (policy: ResourceValidationPolicy, kind: Kind, wire: Wire, options: RunOptions = {}) =>
      remediate(policy, nextType(kind), wire, options),
    stackResource: (
      kind: Kind,
      name: string,
      inputs: Wire,
      dependsOn: Record<string, PolicyResource[]> = {},
      options: StackResourceOptions = {},
    ) => stackResource(nextType(kind), name, inputs, dependsOn, options),
  };
}
