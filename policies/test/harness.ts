// Builds the arguments the analyzer hands to a rule and runs the rule directly. Props go through
// @pulumi/policy's own deserializer and unknown-checking proxy (and remediation results through
// its serializer), so rules meet them exactly as the engine delivers them; the PolicyPack itself
// is never constructed because that starts the analyzer server.
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
import { forgetRecordedInputs, type ResourceClass } from "../rules";

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

/** `isType` and `asType` as the analyzer implements them: by the class's `__pulumiType`. */
function typeChecks<
  T extends Pick<PolicyResource, "isType" | "asType"> | Pick<ResourceValidationArgs, "isType" | "asType">,
>(type: string, props: Record<string, unknown>): T {
  return {
    isType: (cls: ResourceClass) => cls.__pulumiType === type,
    asType: (cls: ResourceClass) => (cls.__pulumiType === type ? props : undefined),
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

/** Runs a resource rule's validations on one resource. */
export async function validate(
  policy: ResourceValidationPolicy,
  cls: ResourceClass,
  wire: Wire,
  options: RunOptions = {},
): Promise<Outcome> {
  const violations: string[] = [];
  const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource];
  for (const validation of validations) {
    if (validation === undefined) continue;
    const args = resourceArgs(cls.__pulumiType, engineProps(wire, false), options);
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
export async function remediate(
  policy: ResourceValidationPolicy,
  cls: ResourceClass,
  wire: Wire,
  options: RunOptions = {},
): Promise<Wire | undefined> {
  if (policy.remediateResource === undefined) throw new Error(`${policy.name} has no remediation`);
  const args = resourceArgs(cls.__pulumiType, engineProps(wire, true), options);
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
export function stackResource(
  cls: ResourceClass,
  name: string,
  inputs: Wire,
  dependsOn: Record<string, PolicyResource[]> = {},
  options: StackResourceOptions = {},
): PolicyResource {
  const props = engineProps(options.outputs ?? inputs, false);
  const type = cls.__pulumiType;
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
      const cls = { __pulumiType: r.type } as ResourceClass;
      const outcome = await validate(policy, cls, inputs, { name: r.name, config });
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
