/**
 * Typed client of the workspace and no-code provisioning service.
 *
 * ```ts
 * const client = new WorkspacesClient();              // settings from env / credentials file
 * const ws = await client.workspaces.create("acme", { name: "web", tagBindings: [{ key: "env", value: "prod" }] });
 * for await (const w of client.workspaces.list("acme", { tags: ["team-a"] })) console.log(w.name);
 * ```
 *
 * Constructing a client sends no request. The first request of a process to a base URL
 * asks `/ping` once for the announced rate limit; every later request is paced under it
 * (a service that announces no limit is not paced).
 *
 * Every call ends: it has an overall deadline (`deadlineMs`, default five minutes,
 * covering pacing waits, retries and the whole answer) and stops when a given
 * `AbortSignal` aborts. For one call, or a group of calls, use {@link WorkspacesClient.with}:
 *
 * ```ts
 * const ws = await client.with({ deadlineMs: 10_000, signal: AbortSignal.timeout(5_000) }).workspaces.read("ws-123");
 * ```
 *
 * @module pulumi-workspaces/client
 */
import { RemoteStateConsumers } from "./consumers";
import { WorkspaceLocks } from "./locks";
import { NoCodeModules } from "./no-code-modules";
import { Organizations } from "./organizations";
import { Projects } from "./projects";
import { RegistryModules } from "./registry-modules";
import { DataRetentionPolicies } from "./retention-policy";
import { runInCall, withinCalls, type CallOptions } from "./call-scope";
import { announcedLimit } from "./retry";
import { resolveSettings, type Settings, type SettingsInput } from "./connection-settings";
import { SshKeys } from "./ssh-keys";
import { TagBindings } from "./tag-bindings";
import { Tags } from "./tags";
import type { TransportOptions, TransportStats } from "./request-spec";
import { Transport } from "./transport";
import { VariableSets } from "./variable-sets";
import { Variables } from "./variables";
import { Teams } from "./teams";
import { TeamAccesses, TeamProjectAccesses } from "./team-access";
import { RunTriggers } from "./run-triggers";
import { NotificationConfigurations } from "./notification-configurations";
import { StateVersionOutputs } from "./state-version-outputs";
import { AgentPools } from "./agent-pools";
import { AgentTokens } from "./agent-tokens";
import { Policies } from "./policies";
import { PolicySets } from "./policy-sets";
import { PolicySetParameters } from "./policy-set-parameters";
import { PolicySetVersions } from "./policy-set-versions";
import { OrganizationMemberships } from "./organization-memberships";
import { TeamMembers } from "./team-members";
import { TeamTokens } from "./team-tokens";
import { OrganizationTokens } from "./organization-tokens";
import { Workspaces } from "./workspaces";

/** Options of a {@link WorkspacesClient}: where the service is and how to reach it. Each setting left out is read from the environment (`WORKSPACES_*`, then `TFE_*`) and the engine CLI's credentials file. */
export interface ClientOptions extends SettingsInput, TransportOptions {
  /** Already resolved settings; when given, `address`, `token`, `organization`, `env` and `homeDir` are ignored. */
  settings?: Settings;
  /**
   * Called with the method and path of every request other than a GET this client sends,
   * when it starts and again when it settles (answered, failed or cut off): for example to
   * drop what a cache holds of the records it may have changed.
   */
  onWrite?: (method: string, path: string) => void;
}

/** Makes `transport` call `onWrite` when a request other than a GET starts and when it settles. */
function observeWrites(transport: Transport, onWrite: (method: string, path: string) => void): void {
  const request = transport.request.bind(transport);
  transport.request = async (spec) => {
    if (spec.method === "GET") return request(spec);
    onWrite(spec.method, spec.path);
    try {
      return await request(spec);
    } finally {
      onWrite(spec.method, spec.path);
    }
  };
}

/** How {@link WorkspacesClient.with} builds a view over an existing client's transport. */
const VIEW = Symbol("view");
interface ViewOptions {
  [VIEW]?: { transport: Transport; settings: Settings; call: CallOptions };
}

/** What the service's `/ping` announces. */
export interface PingResult {
  /** Requests per second the service announces (`X-RateLimit-Limit`), or null. */
  rateLimit: number | null;
  /** The service's API version header (`TFP-API-Version`), or null. */
  apiVersion: string | null;
}

/** Client of the workspace and no-code provisioning service: one property per group of endpoints (`client.workspaces.create(...)`, `client.noCode.read(...)`). It paces requests under the announced rate limit, retries what is safe to retry and raises typed errors (see `errors`). */
export class WorkspacesClient {
  /** Workspaces: create, read, update, list, delete, lock, SSH key. */
  readonly workspaces: Workspaces;
  /** Workspace locks: lock, unlock, force-unlock. */
  readonly locks: WorkspaceLocks;
  /** Which workspaces may read a workspace's state. */
  readonly remoteStateConsumers: RemoteStateConsumers;
  /** Flat tags: the organization's list and a workspace's tags. */
  readonly tags: Tags;
  /** Key-value tags of workspaces and projects. */
  readonly tagBindings: TagBindings;
  /** The organization's SSH keys. */
  readonly sshKeys: SshKeys;
  /** Data retention policy of a workspace. */
  readonly dataRetentionPolicy: DataRetentionPolicies;
  /** No-code modules and the workspaces created from them. */
  readonly noCode: NoCodeModules;
  /** Organizations. */
  readonly organizations: Organizations;
  /** Projects of an organization. */
  readonly projects: Projects;
  /** Private registry modules and their versions. */
  readonly registryModules: RegistryModules;
  /** Workspace variables: list, create, read, update, delete, and the service's effective list. */
  readonly variables: Variables;
  /** Variable sets, their variables, where they apply, and a workspace's effective variables. */
  readonly variableSets: VariableSets;
  /** Teams of an organization. */
  readonly teams: Teams;
  /** Teams' access to workspaces. */
  readonly teamAccess: TeamAccesses;
  /** Teams' access to projects. */
  readonly teamProjectAccess: TeamProjectAccesses;
  /** Run triggers between workspaces. */
  readonly runTriggers: RunTriggers;
  /** Notification configurations of workspaces and projects. */
  readonly notificationConfigurations: NotificationConfigurations;
  /** Outputs of a workspace's state. */
  readonly stateVersionOutputs: StateVersionOutputs;
  /** Agent pools of an organization and the lists of who may use them. */
  readonly agentPools: AgentPools;
  /** Agent tokens of an agent pool. */
  readonly agentTokens: AgentTokens;
  /** Sentinel and OPA policies of an organization, and their code. */
  readonly policies: Policies;
  /** Policy sets: their policies, and the workspaces and projects they apply to. */
  readonly policySets: PolicySets;
  /** Parameters of policy sets. */
  readonly policySetParameters: PolicySetParameters;
  /** Versions of policy sets: a policies folder uploaded as a tarball. */
  readonly policySetVersions: PolicySetVersions;
  /** Who is invited to and who has joined an organization. */
  readonly organizationMemberships: OrganizationMemberships;
  /** Who is in a team, by username or by organization membership. */
  readonly teamMembers: TeamMembers;
  /** Team tokens: a team's legacy token and its described ones. */
  readonly teamTokens: TeamTokens;
  /** An organization's token and its audit-trail token. */
  readonly organizationTokens: OrganizationTokens;
  /** Base URL including `/api/v2`. */
  readonly baseUrl: string;
  /** Organization from the settings, for callers that do not name one. */
  readonly organization: string | undefined;
  readonly #transport: Transport;
  readonly #settings: Settings;
  readonly #call: CallOptions;

  /** Resolves settings now (env, credentials file) and throws SettingsError if no token is found; sends nothing. */
  constructor(options: ClientOptions = {}) {
    const view = (options as ViewOptions)[VIEW];
    const settings = view?.settings ?? options.settings ?? resolveSettings(options);
    this.#transport = view?.transport ?? new Transport(settings, options);
    if (!view && options.onWrite) observeWrites(this.#transport, options.onWrite);
    this.#settings = settings;
    this.baseUrl = settings.baseUrl;
    this.organization = settings.organization;
    const t = this.#transport;
    // Each method is one call: the requests it sends share its deadline and signal.
    const call = view?.call ?? {};
    this.#call = call;
    const locks = new WorkspaceLocks(t);
    const sshKeys = new SshKeys(t);
    const workspaces = new Workspaces(t, locks, sshKeys);
    this.locks = withinCalls(locks, call);
    this.sshKeys = withinCalls(sshKeys, call);
    this.workspaces = withinCalls(workspaces, call);
    this.remoteStateConsumers = withinCalls(new RemoteStateConsumers(t), call);
    this.tags = withinCalls(new Tags(t), call);
    this.tagBindings = withinCalls(new TagBindings(t, workspaces), call);
    this.dataRetentionPolicy = withinCalls(new DataRetentionPolicies(t), call);
    this.noCode = withinCalls(new NoCodeModules(t), call);
    this.organizations = withinCalls(new Organizations(t), call);
    this.projects = withinCalls(new Projects(t), call);
    this.registryModules = withinCalls(new RegistryModules(t), call);
    this.teams = withinCalls(new Teams(t), call);
    this.teamAccess = withinCalls(new TeamAccesses(t), call);
    this.teamProjectAccess = withinCalls(new TeamProjectAccesses(t), call);
    this.runTriggers = withinCalls(new RunTriggers(t), call);
    this.notificationConfigurations = withinCalls(new NotificationConfigurations(t), call);
    this.stateVersionOutputs = withinCalls(new StateVersionOutputs(t), call);
    this.agentPools = withinCalls(new AgentPools(t), call);
    this.agentTokens = withinCalls(new AgentTokens(t), call);
    this.policies = withinCalls(new Policies(t), call);
    this.policySets = withinCalls(new PolicySets(t), call);
    this.policySetParameters = withinCalls(new PolicySetParameters(t), call);
    this.policySetVersions = withinCalls(new PolicySetVersions(t), call);
    this.organizationMemberships = withinCalls(new OrganizationMemberships(t), call);
    this.teamMembers = withinCalls(new TeamMembers(t), call);
    this.teamTokens = withinCalls(new TeamTokens(t), call);
    this.organizationTokens = withinCalls(new OrganizationTokens(t), call);
    const variables = new Variables(t);
    this.variables = withinCalls(variables, call);
    this.variableSets = withinCalls(new VariableSets(t, workspaces, variables), call);
  }

  /**
   * The same client (same settings, pacing and counters) with other options for each
   * call made through it: a `deadlineMs` in place of the client's, and a `signal` that
   * ends the call when aborted. Each method call counts its deadline from its own start;
   * a paged list is one call with these options, its deadline covering every page.
   *
   * ```ts
   * const controller = new AbortController();
   * const quick = client.with({ deadlineMs: 5_000, signal: controller.signal });
   * await quick.workspaces.read("ws-123"); // DeadlineExceededError after 5 s at the latest
   * ```
   */
  with(call: CallOptions): WorkspacesClient {
    const view: ViewOptions = { [VIEW]: { transport: this.#transport, settings: this.#settings, call } };
    return new WorkspacesClient(view as ClientOptions);
  }

  /** Requests sent by this client so far (retries and the rate-limit announcement included). */
  get stats(): Readonly<TransportStats> {
    return this.#transport.stats;
  }

  /** `GET /ping`: checks reachability and the token, and reports the announced limit. */
  async ping(): Promise<PingResult> {
    const res = await runInCall(this.#call, () => this.#transport.ping());
    const version = res.headers["tfp-api-version"];
    return { rateLimit: announcedLimit(res.headers) ?? null, apiVersion: typeof version === "string" ? version : null };
  }
}

export { resolveSettings, normalizeAddress, tokenSource } from "./connection-settings";
export type { Settings, SettingsInput, SettingSource } from "./connection-settings";
export * from "./typed-errors";
export { PagedList, PAGE_SIZE } from "./pagination";
export type { CallOptions } from "./call-scope";
export type { Page, PageCounters } from "./pagination";
export { DEFAULT_RETRY } from "./retry";
export type { RetryOptions, Repeatability } from "./retry";
export { resetLimiters } from "./limiter";
export { USER_AGENT } from "./request-spec";
export { DEFAULT_DEADLINE_MS } from "./call-scope";
export type { TransportOptions, TransportStats } from "./request-spec";
export * from "./workspaces";
export { unavailableFromAnswer } from "./features";
export type { RemoteStateConsumers } from "./consumers";
export type { WorkspaceLocks } from "./locks";
export * from "./tags";
export * from "./tag-bindings";
export * from "./ssh-keys";
export * from "./retention-policy";
export * from "./no-code-modules";
export * from "./no-code-workspaces";
export * from "./organizations";
export * from "./projects";
export * from "./registry-modules";
export * from "./variables";
export * from "./variable-sets";
export * from "./teams";
export * from "./team-access";
export * from "./run-triggers";
export * from "./notification-configurations";
export * from "./state-version-outputs";
export * from "./agent-pools";
export * from "./agent-tokens";
export * from "./policies";
export * from "./policy-sets";
export * from "./policy-set-parameters";
export * from "./policy-set-versions";
export * from "./organization-memberships";
export * from "./team-members";
export * from "./team-tokens";
export * from "./organization-tokens";
