import type { Resource } from "@pulumi/pulumi";
import * as policy from "@pulumi/policy";
import type {
  PolicyConfigSchema,
  PolicyResource,
  ReportViolation,
  ResourceValidation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { pluginTypeTokens, typeTokens, type PluginResourceName } from "pulumi-workspaces/tokens";

// ---------------------------------------------------------------------------------------------
// Resource types
// ---------------------------------------------------------------------------------------------

/**
 * A resource type of the package as the pack matches it: by the token of either door, the
 * dynamic resource of a TypeScript program (`pulumi-nodejs:dynamic/workspaces:Workspace`) or
 * the provider plugin's resource of a YAML, Python, Go or C# program (`workspaces:index:Workspace`).
 * Both doors hand the analyzer the same inputs (the shared provider's checked inputs), so a
 * rule is written once for both.
 *
 * A marker has no single `__pulumiType` (which `validateResourceOfType`, `isType` and `asType`
 * would compare with one token); they fall back to its `isInstance`, which knows both tokens,
 * so rules of one's own written with them apply through both doors as well.
 */
export interface ResourceKind {
  new (name: string, args: Props, ...rest: unknown[]): Resource;
  readonly name: PluginResourceName;
  /** Its token through each door: the dynamic resource's, then the plugin's. */
  readonly tokens: readonly [dynamic: string, plugin: string];
  /** Whether an object of the given `__pulumiType` is of this kind, through either door. */
  isInstance(obj: unknown): boolean;
}

// The tokens come from the package's dependency-free `tokens` module, the same constants the
// resource classes, the plugin and its schema use: importing the classes themselves would load
// the provider code, the HTTP client and a second copy of @pulumi/pulumi into the analyzer.
function kind(name: PluginResourceName): ResourceKind {
  const tokens: readonly string[] = [typeTokens[name], pluginTypeTokens[name]];
  const marker = {
    [name]: class {
      static readonly tokens = tokens;
      static isInstance(obj: unknown): boolean {
        const type = (obj as { __pulumiType?: unknown } | null)?.__pulumiType;
        return typeof type === "string" && tokens.includes(type);
      }
      constructor() {
        throw new Error(`${name} names a resource type for the policy pack; create resources with pulumi-workspaces`);
      }
    },
  }[name];
  return marker as unknown as ResourceKind;
}

export const Workspace = kind("Workspace");
export const WorkspaceTags = kind("WorkspaceTags");
export const RemoteStateConsumers = kind("RemoteStateConsumers");
export const NoCodeModule = kind("NoCodeModule");
export const NoCodeWorkspace = kind("NoCodeWorkspace");
export const WorkspaceVariable = kind("WorkspaceVariable");
export const WorkspaceVariables = kind("WorkspaceVariables");
export const VariableSet = kind("VariableSet");
export const VariableSetApplication = kind("VariableSetApplication");
export const Project = kind("Project");
export const Team = kind("Team");
export const TeamWorkspaceAccess = kind("TeamWorkspaceAccess");
export const TeamProjectAccess = kind("TeamProjectAccess");
export const RunTrigger = kind("RunTrigger");
export const NotificationConfiguration = kind("NotificationConfiguration");
export const WorkspaceSettings = kind("WorkspaceSettings");
export const AgentPool = kind("AgentPool");
export const AgentPoolAllowedWorkspaces = kind("AgentPoolAllowedWorkspaces");
export const AgentPoolAllowedProjects = kind("AgentPoolAllowedProjects");
export const AgentPoolExcludedWorkspaces = kind("AgentPoolExcludedWorkspaces");
export const AgentToken = kind("AgentToken");
export const Policy = kind("Policy");
export const PolicySet = kind("PolicySet");
export const PolicySetParameter = kind("PolicySetParameter");
export const PolicySetWorkspaces = kind("PolicySetWorkspaces");
export const PolicySetProjects = kind("PolicySetProjects");
export const PolicySetWorkspaceExclusions = kind("PolicySetWorkspaceExclusions");
export const PolicySetProjectExclusions = kind("PolicySetProjectExclusions");
export const OrganizationMembership = kind("OrganizationMembership");
export const TeamMembers = kind("TeamMembers");
export const TeamToken = kind("TeamToken");
export const OrganizationToken = kind("OrganizationToken");

/** Resources that are a workspace of their own. */
export const workspaceKinds: readonly ResourceKind[] = [Workspace, NoCodeWorkspace];
/** Resources that write tags onto a workspace (NoCodeWorkspace has no tags of its own; a WorkspaceTags tags it). */
export const taggingKinds: readonly ResourceKind[] = [Workspace, WorkspaceTags];

const kindNames = new Map<string, string>(
  [typeTokens, pluginTypeTokens].flatMap((tokens) =>
    Object.entries(tokens).map(([name, token]) => [token, name] as const),
  ),
);

/** The resource's name in the package (`Workspace`) for a token of either door; another token as it is. */
export function kindOf(type: string): string {
  return kindNames.get(type) ?? type;
}

/** `Workspace "app-prod"`: how every message names a resource (its Pulumi name). */
export function subject(resource: { type: string; name: string }): string {
  return `${kindOf(resource.type)} "${resource.name}"`;
}

export function show(value: unknown): string {
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Known values
// ---------------------------------------------------------------------------------------------

/**
 * Stands for a value the engine does not know yet (an output of a resource still to be created).
 * Rules treat it as neither present nor absent, so an unknown is never reported as a violation.
 */
export const UNKNOWN: unique symbol = Symbol("unknown");

export type Props = Readonly<Record<string, unknown>>;

// The analyzer wraps props in a proxy that throws this error on reading an unknown value; the
// class is exported at runtime but not in the package's type declarations.
const UnknownValueError = (policy as unknown as { UnknownValueError?: abstract new (...args: never[]) => Error })
  .UnknownValueError;

function read(container: object, key: string | number): unknown {
  try {
    return (container as Record<string | number, unknown>)[key];
  } catch (e) {
    if (UnknownValueError !== undefined && e instanceof UnknownValueError) return UNKNOWN;
    throw e;
  }
}

function snapshot(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, i) => snapshot(read(value, i)));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // `__provider` is the serialized provider code, not a setting of the workspace.
    if (key.startsWith("__")) continue;
    out[key] = snapshot(read(value, key));
  }
  return out;
}

/** A plain copy of the props with every unknown value replaced by `UNKNOWN`. */
export function knownProps(props: unknown): Props {
  const copy = snapshot(props);
  return copy !== null && typeof copy === "object" && !Array.isArray(copy) ? (copy as Props) : {};
}

/** Known to be set (not absent, not unknown). */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== UNKNOWN;
}

/** Known to be absent. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The known strings of a list (unknown elements left out), or undefined if it is not a known list. */
export function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

/** The known string entries of a key-value map, or undefined if it is not a known map. */
export function stringMap(value: unknown): Record<string, string> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

/** True when a list or map holds an element the engine does not know yet. */
export function hasUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some((v) => v === UNKNOWN);
  if (value !== null && typeof value === "object") return Object.values(value).some((v) => v === UNKNOWN);
  return false;
}

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------

/**
 * The policy's config with the schema's defaults filled in. The defaults live only in the
 * schema, so `pulumi policy` tooling and the rules read the same values.
 */
export function configOf<T extends object>(schema: PolicyConfigSchema, args: { getConfig<C extends object>(): C }): T {
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (prop.default !== undefined) out[key] = structuredClone(prop.default);
  }
  const given = args.getConfig<Record<string, unknown>>();
  if (given !== null && typeof given === "object") {
    for (const [key, value] of Object.entries(given)) if (value !== undefined) out[key] = value;
  }
  return out as T;
}

/**
 * The config of a rule that an organisation turns off as a whole (`allow<Something>`) or for
 * some resources by name (`allowedNames`).
 */
export function allowanceSchema(
  flag: string,
  allowByDefault: boolean,
  flagDescription: string,
  namesDescription: string,
): PolicyConfigSchema {
  return {
    properties: {
      [flag]: { type: "boolean", default: allowByDefault, description: flagDescription },
      allowedNames: {
        type: "array",
        items: { type: "string", minLength: 1 },
        uniqueItems: true,
        default: [],
        description: namesDescription,
      },
    },
  };
}

/** Whether `allowedNames` exempts a resource of this name; a name not known yet may turn out to be an allowed one. */
export function exemptByName(allowedNames: unknown, name: string | undefined): boolean {
  const allowed = strings(allowedNames) ?? [];
  return name === undefined ? allowed.length > 0 : allowed.includes(name);
}

const patterns = new Map<string, RegExp>();

/** Compiles a configured regular expression, failing with the policy and key that hold it. */
export function pattern(policyName: string, key: string, source: unknown): RegExp {
  if (typeof source !== "string") {
    throw new Error(`policy ${policyName}: config ${key} must be a regular expression string, got ${show(source)}`);
  }
  let re = patterns.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source);
    } catch (e) {
      throw new Error(
        `policy ${policyName}: config ${key} ${show(source)} is not a valid regular expression (${(e as Error).message})`,
      );
    }
    patterns.set(source, re);
  }
  return re;
}

// ---------------------------------------------------------------------------------------------
// Validation helpers
// ---------------------------------------------------------------------------------------------

export type KnownValidation = (props: Props, args: ResourceValidationArgs, reportViolation: ReportViolation) => void;

/**
 * Validates resources of the given kinds, through either door, with their known props; the
 * policy declares itself not applicable to any other resource.
 */
export function validateKnownProps(kinds: readonly ResourceKind[], validate: KnownValidation): ResourceValidation {
  return (args, report) => {
    requireType(args, kinds);
    validate(knownProps(args.props), args, report);
  };
}

/** Declares the policy not applicable unless the resource is of one of the given kinds. */
export function requireType(
  args: Pick<ResourceValidationArgs, "type" | "notApplicable">,
  kinds: readonly ResourceKind[],
): void {
  if (!isOfType(args, ...kinds)) {
    args.notApplicable(`Policy only applies to ${kinds.map((k) => k.name).join(", ")} resources`);
  }
}

/** Whether the resource is of one of the given kinds, through either door. */
export function isOfType(resource: { type: string }, ...kinds: readonly ResourceKind[]): boolean {
  return kinds.some((k) => k.tokens.includes(resource.type));
}

// ---------------------------------------------------------------------------------------------
// Stack helpers
// ---------------------------------------------------------------------------------------------

/**
 * Identifies the workspace a property (such as `workspaceId`) points at. A value taken from a
 * workspace resource of this stack carries a property dependency on it, which identifies the
 * workspace even in a preview where its id is still unknown; otherwise the known id string does.
 */
export function workspaceRef(
  resource: PolicyResource,
  property: string,
  props: Props,
): { key: string; resource?: PolicyResource; label: string } | undefined {
  const deps = (resource.propertyDependencies?.[property] ?? []).filter((d) => isOfType(d, ...workspaceKinds));
  if (deps.length === 1) return { key: `urn:${deps[0].urn}`, resource: deps[0], label: subject(deps[0]) };
  const id = str(props[property]);
  if (id !== undefined && id !== "") return { key: `id:${id}`, label: `workspace ${id}` };
  return undefined;
}

/** The key `workspaceRef` gives a workspace resource of the stack. */
export function workspaceKey(resource: PolicyResource): string {
  return `urn:${resource.urn}`;
}

// ---------------------------------------------------------------------------------------------
// What the program declares, for stack rules
// ---------------------------------------------------------------------------------------------

/** A rule of the whole stack that also reads (without judging) the inputs of the resources it looks at. */
export type StackRule = StackValidationPolicy & ResourceValidationPolicy;

// Stack validation sees each resource's outputs, and outputs echo the service: a Workspace
// reports its tags whether or not the program manages them, so outputs cannot tell who owns
// what. The engine analyzes every resource's inputs (Analyze) before the stack (AnalyzeStack)
// in one analyzer process, so stack rules record the inputs on the way.
const recordedInputs = new Map<string, Props>();

/** A resource validation that reports nothing and records the inputs of the given types. */
export function recordInputsOf(kinds: readonly ResourceKind[]): ResourceValidation {
  return (args) => {
    requireType(args, kinds);
    recordedInputs.set(args.urn, knownProps(args.props));
  };
}

/** The inputs the engine analyzed for this resource in this run, if it did. */
export function recordedInputsOf(resource: PolicyResource): Props | undefined {
  return recordedInputs.get(resource.urn);
}

/** The recorded inputs of a resource, else its outputs. */
export function declaredProps(resource: PolicyResource): Props {
  return recordedInputs.get(resource.urn) ?? knownProps(resource.props);
}

/** Forgets recorded inputs; for tests, which run many stacks in one process. */
export function forgetRecordedInputs(): void {
  recordedInputs.clear();
}
