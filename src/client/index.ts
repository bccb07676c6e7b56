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
 * asks `/ping` once for the announced rate limit; every later request is paced under it.
 */
import { RemoteStateConsumers } from "./consumers";
import { WorkspaceLocks } from "./locks";
import { NoCodeModules } from "./no-code-modules";
import { Organizations } from "./organizations";
import { Projects } from "./projects";
import { RegistryModules } from "./registry-modules";
import { DataRetentionPolicies } from "./retention-policy";
import { announcedLimit } from "./retry";
import { resolveSettings, type Settings, type SettingsInput } from "./settings";
import { SshKeys } from "./ssh-keys";
import { TagBindings } from "./tag-bindings";
import { Tags } from "./tags";
import { Transport, type TransportOptions, type TransportStats } from "./transport";
import { Variables } from "./variables";
import { Workspaces } from "./workspaces";

export interface ClientOptions extends SettingsInput, TransportOptions {
  /** Already resolved settings; when given, `address`, `token`, `organization`, `env` and `homeDir` are ignored. */
  settings?: Settings;
}

export interface PingResult {
  /** Requests per second the service announces (`X-RateLimit-Limit`), or null. */
  rateLimit: number | null;
  /** The service's API version header (`TFP-API-Version`), or null. */
  apiVersion: string | null;
}

export class WorkspacesClient {
  readonly workspaces: Workspaces;
  readonly locks: WorkspaceLocks;
  readonly remoteStateConsumers: RemoteStateConsumers;
  readonly tags: Tags;
  readonly tagBindings: TagBindings;
  readonly sshKeys: SshKeys;
  readonly dataRetentionPolicy: DataRetentionPolicies;
  readonly noCode: NoCodeModules;
  readonly organizations: Organizations;
  readonly projects: Projects;
  readonly registryModules: RegistryModules;
  readonly variables: Variables;
  /** Base URL including `/api/v2`. */
  readonly baseUrl: string;
  /** Organization from the settings, for callers that do not name one. */
  readonly organization: string | undefined;
  readonly #transport: Transport;

  /** Resolves settings now (env, credentials file) and throws SettingsError if no token is found; sends nothing. */
  constructor(options: ClientOptions = {}) {
    const settings = options.settings ?? resolveSettings(options);
    this.#transport = new Transport(settings, options);
    this.baseUrl = settings.baseUrl;
    this.organization = settings.organization;
    const t = this.#transport;
    this.locks = new WorkspaceLocks(t);
    this.sshKeys = new SshKeys(t);
    this.workspaces = new Workspaces(t, this.locks, this.sshKeys);
    this.remoteStateConsumers = new RemoteStateConsumers(t);
    this.tags = new Tags(t);
    this.tagBindings = new TagBindings(t, this.workspaces);
    this.dataRetentionPolicy = new DataRetentionPolicies(t);
    this.noCode = new NoCodeModules(t);
    this.organizations = new Organizations(t);
    this.projects = new Projects(t);
    this.registryModules = new RegistryModules(t);
    this.variables = new Variables(t);
  }

  /** Requests sent by this client so far (retries and the rate-limit announcement included). */
  get stats(): Readonly<TransportStats> {
    return this.#transport.stats;
  }

  /** `GET /ping`: checks reachability and the token, and reports the announced limit. */
  async ping(): Promise<PingResult> {
    const res = await this.#transport.ping();
    const version = res.headers["tfp-api-version"];
    return { rateLimit: announcedLimit(res.headers) ?? null, apiVersion: typeof version === "string" ? version : null };
  }
}

export { resolveSettings, normalizeAddress } from "./settings";
export type { Settings, SettingsInput, SettingSource } from "./settings";
export * from "./errors";
export { PagedList, PAGE_SIZE } from "./pagination";
export type { Page } from "./pagination";
export { DEFAULT_RETRY } from "./retry";
export type { RetryOptions, Repeatability } from "./retry";
export { resetLimiters } from "./limiter";
export { USER_AGENT } from "./transport";
export type { TransportOptions, TransportStats } from "./transport";
export * from "./workspaces";
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
