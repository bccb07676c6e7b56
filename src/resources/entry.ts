/**
 * The one stable entry point that provider text in state calls:
 * `require("pulumi-workspaces/provider").provider(protocol, kind)` as this release writes
 * it, `.dispatch(protocol, kind, method, args)` as earlier releases wrote it.
 *
 * State written by any earlier release holds provider text that calls these
 * functions, so they stay tolerant: older protocol numbers are adapted, kinds are
 * matched by type name or full type token, and a call it cannot serve fails
 * with a message that says what to do instead of a stack trace.
 *
 * @module pulumi-workspaces/provider
 */
import type * as pulumi from "@pulumi/pulumi";
import { PROTOCOL } from "./provider-text";
import { configureFromStack } from "./provider-settings";
import type { ProviderImpl, Props } from "./providers/types";
import { failuresForEngine } from "./providers/check-failures";
import { INPUT_NAMES_KEY, inputNames, reconstructInputs } from "./providers/inputs";
import { text } from "../api/common";
import { workspaceProvider } from "./providers/workspace";
import { workspaceTagsProvider } from "./providers/workspace-tags";
import { remoteStateConsumersProvider } from "./providers/remote-state-consumers";
import { noCodeModuleProvider } from "./providers/no-code-module";
import { noCodeWorkspaceProvider } from "./providers/no-code-workspace";
import { workspaceLockProvider } from "./providers/workspace-lock";
import { dataRetentionPolicyProvider } from "./providers/data-retention-policy";
import { workspaceVariableProvider } from "./providers/workspace-variable";
import { workspaceVariablesProvider } from "./providers/workspace-variables";
import { variableSetProvider } from "./providers/variable-set";
import { variableSetApplicationProvider } from "./providers/variable-set-application";
import { projectProvider } from "./providers/project";
import { teamProvider } from "./providers/team";
import { organizationMembershipProvider } from "./providers/organization-membership";
import { teamWorkspaceAccessProvider } from "./providers/team-workspace-access";
import { teamProjectAccessProvider } from "./providers/team-project-access";
import { runTriggerProvider } from "./providers/run-trigger";
import { notificationConfigurationProvider } from "./providers/notification-configuration";
import { agentPoolProvider } from "./providers/agent-pool";
import { agentTokenProvider } from "./providers/agent-token";
import { teamTokenProvider } from "./providers/team-token";
import { organizationTokenProvider } from "./providers/organization-token";
import { workspaceSettingsProvider } from "./providers/workspace-settings";
import { claimingSettings } from "./providers/workspace-settings-rules";
import { agentPoolListProvider } from "./providers/agent-pool-lists";
import { policySetProvider } from "./providers/policy-set";
import { policySetParameterProvider } from "./providers/policy-set-parameter";
import { policySetListProvider } from "./providers/policy-set-lists";
import { policyProvider } from "./providers/policy";
import { teamMembersProvider } from "./providers/team-members";
import { adoptable } from "./providers/adoption";
import { noCodeModuleAdopter, noCodeWorkspaceAdopter, workspaceAdopter } from "./providers/workspace-adopters";
import { tokenRefused } from "./providers/client";
import { stackOriginProvider } from "./providers/origin";

export { PROTOCOL };
export { failuresForEngine };

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";
const METHODS: ReadonlySet<string> = new Set<Method>([
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
]);

const implementations: Record<string, ProviderImpl> = {
  workspace: claimingSettings(adoptable(workspaceProvider, workspaceAdopter)),
  workspacetags: workspaceTagsProvider,
  remotestateconsumers: remoteStateConsumersProvider,
  nocodemodule: adoptable(noCodeModuleProvider, noCodeModuleAdopter),
  nocodeworkspace: adoptable(noCodeWorkspaceProvider, noCodeWorkspaceAdopter),
  workspacelock: workspaceLockProvider,
  dataretentionpolicy: dataRetentionPolicyProvider,
  workspacevariable: workspaceVariableProvider,
  workspacevariables: workspaceVariablesProvider,
  variableset: variableSetProvider,
  variablesetapplication: variableSetApplicationProvider,
  project: projectProvider,
  team: teamProvider,
  organizationmembership: organizationMembershipProvider,
  teamworkspaceaccess: teamWorkspaceAccessProvider,
  teamprojectaccess: teamProjectAccessProvider,
  runtrigger: runTriggerProvider,
  notificationconfiguration: notificationConfigurationProvider,
  agentpool: agentPoolProvider,
  agenttoken: agentTokenProvider,
  teamtoken: teamTokenProvider,
  organizationtoken: organizationTokenProvider,
  workspacesettings: workspaceSettingsProvider,
  agentpoolallowedworkspaces: agentPoolListProvider("AgentPoolAllowedWorkspaces"),
  agentpoolallowedprojects: agentPoolListProvider("AgentPoolAllowedProjects"),
  agentpoolexcludedworkspaces: agentPoolListProvider("AgentPoolExcludedWorkspaces"),
  policyset: policySetProvider,
  policysetparameter: policySetParameterProvider,
  policysetworkspaces: policySetListProvider("PolicySetWorkspaces"),
  policysetprojects: policySetListProvider("PolicySetProjects"),
  policysetworkspaceexclusions: policySetListProvider("PolicySetWorkspaceExclusions"),
  policysetprojectexclusions: policySetListProvider("PolicySetProjectExclusions"),
  policy: policyProvider,
  teammembers: teamMembersProvider,
  stackorigin: stackOriginProvider,
};

/** Accepts `Workspace`, `workspace`, `workspaces:Workspace` or the full token. */
function normalizeKind(kind: unknown): string {
  const s = text(kind);
  const last = s.slice(s.lastIndexOf(":") + 1);
  return last.replace(/[-_\s]/g, "").toLowerCase();
}

/** Implementations by the kind string callers send (one per resource type), so that each is normalized once per process. */
const byKind = new Map<string, ProviderImpl>();

/**
 * The provider implementation of a resource kind (type name or token), for tests that
 * call one method directly; programs and provider text go through {@link provider} or
 * {@link dispatch}.
 *
 * @internal
 */
export function implementationOf(kind: string): ProviderImpl {
  const known = byKind.get(kind);
  if (known) return known;
  const impl = implementations[normalizeKind(kind)];
  if (!impl) {
    throw new Error(
      `pulumi-workspaces: unknown resource kind "${String(kind)}"; the state was written by a release that knows it, ` +
        `install that release (or a newer one) of pulumi-workspaces`,
    );
  }
  if (typeof kind === "string") byKind.set(kind, impl);
  return impl;
}

function checkProtocol(protocol: number): void {
  if (typeof protocol !== "number" || !Number.isFinite(protocol) || protocol < 1) {
    throw new Error(`pulumi-workspaces: provider call with an unreadable protocol version (${String(protocol)})`);
  }
  if (protocol > PROTOCOL) {
    throw new Error(
      `pulumi-workspaces: the state was written by a newer release (provider protocol ${protocol}, this release speaks ` +
        `${PROTOCOL}); upgrade the pulumi-workspaces package in this program`,
    );
  }
}

/**
 * Serves one provider call.
 *
 * @param protocol version of the serialized caller (see PROTOCOL in provider-text.ts)
 * @param kind resource type name, e.g. "Workspace"
 * @param method provider method name
 * @param args the method's own arguments, unchanged
 */
export async function dispatch(protocol: number, kind: string, method: string, args: unknown[] = []): Promise<unknown> {
  checkProtocol(protocol);
  if (!METHODS.has(method)) {
    throw new Error(`pulumi-workspaces: unknown provider method "${String(method)}"`);
  }
  if (method === "configure") {
    configureFromStack(args[0]);
    return undefined;
  }
  const impl = implementationOf(kind);
  const a = Array.isArray(args) ? args : [];
  try {
    return await serve(impl, method as Exclude<Method, "configure">, a);
  } catch (err) {
    // A refused token is said once, with where it came from, whatever the call was.
    const failure = tokenRefused(err) ?? err;
    throw ECHOED.has(method) ? withoutEcho(failure) : failure;
  }
}

/**
 * The provider object of one kind, as the provider text in state asks for it
 * (`require("pulumi-workspaces/provider").provider(protocol, kind)`, see provider-text.ts):
 * each method hands its own arguments to {@link dispatch}. A protocol or kind this
 * release cannot serve fails here, when the dynamic-provider host loads the text,
 * with the message `dispatch` gives.
 *
 * @param protocol version of the provider text (see PROTOCOL in provider-text.ts)
 * @param kind resource type name, e.g. "Workspace"
 */
export function provider(
  protocol: number,
  kind: string,
): Required<Omit<pulumi.dynamic.ResourceProvider, "read">> & Pick<pulumi.dynamic.ResourceProvider, "read"> {
  checkProtocol(protocol);
  implementationOf(kind);
  const call = (method: Method, args: unknown[]) => dispatch(protocol, kind, method, args) as Promise<never>;
  return {
    configure: (req) => call("configure", [req]),
    check: (olds, news) => call("check", [olds, news]),
    diff: (id, olds, news) => call("diff", [id, olds, news]),
    create: (inputs) => call("create", [inputs]),
    read: (id, props) => call("read", [id, props]),
    update: (id, olds, news) => call("update", [id, olds, news]),
    delete: (id, props) => call("delete", [id, props]),
  };
}

/** Methods whose errors the dynamic-provider host echoes to stderr (see withoutEcho). */
const ECHOED: ReadonlySet<string> = new Set(["check", "diff", "read", "delete"]);

const echoes = new Set<string>();
let echoFilter = false;

/**
 * The dynamic-provider host prints every error thrown from check, diff, read and delete
 * to stderr as `${err}: ${err.stack}` before returning it to the engine, and the engine
 * shows each of those lines beside the error it reports itself: the same message again
 * and a stack into files that are not shipped. Inside the host, the echo of an error
 * this entry point returns is dropped (that exact text, once); any other output passes.
 */
function withoutEcho(err: unknown): unknown {
  if (!(err instanceof Error) || !/dynamic-provider/.test(process.argv[1] ?? "")) return err;
  if (!echoFilter) {
    echoFilter = true;
    const print = console.error.bind(console);
    console.error = (...parts: unknown[]) => {
      if (parts.length === 1 && typeof parts[0] === "string" && echoes.delete(parts[0])) return;
      print(...parts);
    };
  }
  echoes.add(`${String(err)}: ${err.stack}`);
  return err;
}

/**
 * A create that made the record and then failed (an error with `id` and `properties`) is
 * recorded by the host with `properties` as they are, not with the provider's code added
 * as after a successful create. Without that code in state the engine cannot run the
 * provider for the record again, so a later delete or refresh would fail; it is added here,
 * with the input names.
 */
function withProviderCode(err: unknown, inputs: Props): unknown {
  if (!(err instanceof Error)) return err;
  const partial = err as Error & { id?: unknown; properties?: unknown };
  if (typeof partial.id !== "string" || partial.properties === null || typeof partial.properties !== "object")
    return err;
  partial.properties = {
    ...(partial.properties as Props),
    [PROVIDER_KEY]: inputs[PROVIDER_KEY],
    [INPUT_NAMES_KEY]: inputNames(inputs),
  };
  return err;
}

/** The property under which the host keeps a dynamic provider's serialized code. */
const PROVIDER_KEY = "__provider";

/** The method's argument at `i` as the property bag the engine hands over (an absent one as empty). */
function propsAt(a: unknown[], i: number): Props {
  const v = a[i];
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Props) : {};
}

async function serve(impl: ProviderImpl, method: Exclude<Method, "configure">, a: unknown[]): Promise<unknown> {
  switch (method) {
    case "check": {
      const result = await impl.check(propsAt(a, 0), propsAt(a, 1));
      return { ...result, failures: failuresForEngine(result.failures) };
    }
    case "diff":
      return impl.diff(text(a[0]), propsAt(a, 1), propsAt(a, 2));
    case "create": {
      const inputs = propsAt(a, 0);
      try {
        const result = await impl.create(inputs);
        return { ...result, outs: { ...result.outs, [INPUT_NAMES_KEY]: inputNames(inputs) } };
      } catch (err) {
        throw withProviderCode(err, inputs);
      }
    }
    case "read": {
      const props = propsAt(a, 1);
      const result = await impl.read(text(a[0]), props);
      if (!result.props) return result;
      const names = props[INPUT_NAMES_KEY];
      const outs = Array.isArray(names) ? { ...result.props, [INPUT_NAMES_KEY]: names } : result.props;
      const inputs = result.inputs ?? reconstructInputs(result.props, names, impl.inputShape?.bind(impl));
      return inputs ? { ...result, props: outs, inputs } : { ...result, props: outs };
    }
    case "update": {
      const news = propsAt(a, 2);
      const result = await impl.update(text(a[0]), propsAt(a, 1), news);
      return { ...result, outs: { ...result.outs, [INPUT_NAMES_KEY]: inputNames(news) } };
    }
    case "delete":
      return impl.delete(text(a[0]), propsAt(a, 1));
  }
}
