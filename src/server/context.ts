import type { FastifyInstance } from "fastify";
import type { Db } from "./store/db";
import type { Caller } from "./auth/service/caller";
import type { FaultOptions } from "./faults";
import type { WorkspaceRecord } from "./workspace/store";
import type { Resource } from "./http/jsonapi";
import type { LogDestination, LogLevel, LogSettings } from "./logging";
import type { SecretBox } from "./secrets";

export interface ServerOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  port?: number;
  /** SQLite file, or `:memory:`. Default `workspaces.db` in the working directory. */
  db?: string;
  /**
   * Token of the bootstrap organization's owners team; generated when absent. A token
   * not of the generated shape is stored under a slow salted digest (scrypt).
   */
  token?: string;
  /**
   * Key that seals sensitive values at rest (AES-256-GCM): 64 hex digits or base64 of 32
   * bytes, or the bytes. Default: `encryptionKeyFile`, else the file `<db>.key` beside
   * the database, created with a new key (mode 0600) when missing; `:memory:` gets a key
   * of its own.
   */
  encryptionKey?: string | Buffer;
  /** File holding the encryption key as text. */
  encryptionKeyFile?: string;
  /** Name of the organization created on start; default `example-org`. */
  organization?: string;
  /** Requests per second per user; 0 or false disables the limit. Default 30. */
  rateLimit?: number | false;
  /** How fast simulated runs move (no-code upgrades): 1 is real-time-like, larger is faster. */
  runSpeed?: number;
  /** Serve the self-managed offering's endpoints (data retention policies). */
  selfManaged?: boolean;
  /**
   * Store notification configurations whose destination is off this machine, enabled
   * ones too, without verifying or delivering anything to them (for rehearsing programs
   * that name real webhooks). Default false: such a destination is refused, before any
   * connection, when a configuration is created or updated enabled, or verified.
   */
  storeRemoteNotifications?: boolean;
  /**
   * Serve the web view at /app/ (read-only, to this machine only); default false.
   * `RunningServer.viewUrl()` then gives the address that signs a browser in.
   */
  webView?: boolean;
  /** Injected failures and latency, for exercising clients' retry paths. */
  faults?: FaultOptions;
  /**
   * Address clients reach the server at (`https://workspaces.example.com`), for the
   * absolute links the server renders; default the address it listens on. The request's
   * `Host` header is never used.
   */
  publicUrl?: string;
  /** One log line per request (see ./logging.ts) at this level or above; default `silent`. */
  logLevel?: LogLevel;
  /** Where log lines go; default the process's stderr. */
  logDestination?: LogDestination;
}

interface ResolvedOptions {
  host: string;
  port: number;
  db: string;
  organization: string;
  rateLimit: number;
  runSpeed: number;
  selfManaged: boolean;
  storeRemoteNotifications: boolean;
  webView?: boolean;
}

/**
 * Adds attributes or relationships to a rendered workspace. Domains that own data about
 * a workspace (no-code provisioning) register one instead of the workspace domain
 * knowing about them. Called for every rendering: create response, read and list alike.
 */
export type WorkspaceRenderHook = (ctx: ServerContext, workspace: WorkspaceRecord, resource: Resource) => void;

/**
 * Runs inside the transaction of a workspace's unlock, after the caller's right to unlock
 * is checked and before the lock is cleared; `force` is an admin's force-unlock. The
 * state-version domain settles the versions uploaded under the lock here; a hook that
 * throws keeps the lock.
 */
type WorkspaceUnlockHook = (ctx: ServerContext, workspace: WorkspaceRecord, force: boolean) => void;

/**
 * What another domain keeps about registry modules (the no-code domain's settings), so
 * that the registry domain does not know about it: each function is optional.
 */
interface RegistryModuleHook {
  /** A version was published, inside its transaction. */
  versionPublished?(ctx: ServerContext, moduleId: string, version: string): void;
  /** A version is about to be deleted, inside the transaction; throwing keeps it. */
  versionDeleting?(ctx: ServerContext, moduleId: string, version: string): void;
  /** Adds to a rendered module (create response, read and list alike). */
  render?(ctx: ServerContext, moduleId: string, resource: Resource): void;
  /** Resources for a module list's `include=no-code-modules`. */
  included?(ctx: ServerContext, moduleId: string): Resource[];
}

interface Hooks {
  workspaceRender: WorkspaceRenderHook[];
  workspaceUnlock: WorkspaceUnlockHook[];
  registryModule: RegistryModuleHook[];
}

export interface ServerContext {
  db: Db;
  /** Seals and opens sensitive values at rest (./secrets.ts). */
  secrets: SecretBox;
  options: ResolvedOptions;
  hooks: Hooks;
  /** The configured public address, else `http://host:port` once listening; used where the API asks for absolute URLs. */
  publicUrl: string;
  /** Logging; absent or `silent` logs nothing. */
  log?: LogSettings;
}

/**
 * A slice of the service. `schema` is the DDL of the domain's tables as of schema
 * version 1, run by that migration after the core tables (so it may reference them);
 * a later change of a table is a new migration in ./store/schema.ts. `init` runs once before any route exists
 * (register hooks there, and bring stored data that needs the server's key up to what
 * this build writes); `routes` adds the HTTP handlers, with paths relative to /api/v2.
 */
export interface Domain {
  name: string;
  schema?: string;
  init?(ctx: ServerContext): void;
  routes(app: FastifyInstance, ctx: ServerContext): void;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
    /** The server's public address (`http://host:port`, no trailing slash), or "" for relative links. */
    publicUrl: string;
  }
}
