/**
 * The local service: `startServer(options)` opens (or creates) the database, makes sure
 * the bootstrap organization and its owners token exist, and serves the API on HTTP.
 * Published as the package `pulumi-workspaces-server`.
 *
 * @module pulumi-workspaces-server
 */
import type { AddressInfo } from "node:net";
import type { Domain, ServerContext, ServerOptions } from "./context";
import { buildApp, type RequestStats } from "./app";
import { DOMAINS } from "./domains";
import { migrate, openDatabase } from "./store/db";
import { bootstrapOrganization } from "./organization/service";
import type { FaultOptions } from "./faults";
import { loadKey, secretBox, type SecretBox } from "./secrets";

export interface RunningServer {
  /** Base URL including `/api/v2`. */
  url: string;
  /** Owners-team token of `organization` (also administers the whole local server). */
  token: string;
  organization: string;
  /** Requests served so far, by method and route pattern. */
  stats(): RequestStats;
  /**
   * The address that signs a browser in to the web view as the owners token:
   * `http://127.0.0.1:<port>/app/#code=<one-time code>`, usable once within ten minutes.
   * Throws when the server was started without `webView: true`.
   */
  viewUrl(): string;
  /** Replaces the fault injection settings while running. */
  setFaults(faults: FaultOptions): void;
  close(): Promise<void>;
}

/** A configured public address as an origin plus optional path prefix, without a trailing slash. */
function publicAddress(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`publicUrl "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`publicUrl "${raw}" must be an http or https URL`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function startServer(
  options: ServerOptions = {},
  domains: ReadonlyArray<Domain> = DOMAINS,
): Promise<RunningServer> {
  const publicUrl = options.publicUrl === undefined ? undefined : publicAddress(options.publicUrl);
  const file = options.db ?? "workspaces.db";
  const db = openDatabase(file);
  let secrets: SecretBox;
  try {
    migrate(db, domains);
    secrets = secretBox(loadKey({ key: options.encryptionKey, file: options.encryptionKeyFile, db: file }));
  } catch (err) {
    db.close();
    return Promise.reject(err);
  }
  const ctx: ServerContext = {
    db,
    secrets,
    options: {
      host: options.host ?? "127.0.0.1",
      port: options.port ?? 8080,
      db: options.db ?? "workspaces.db",
      organization: options.organization ?? "example-org",
      rateLimit: options.rateLimit === false ? 0 : (options.rateLimit ?? 30),
      runSpeed: options.runSpeed ?? 1,
      selfManaged: options.selfManaged ?? false,
      storeRemoteNotifications: options.storeRemoteNotifications ?? false,
      webView: options.webView ?? false,
    },
    hooks: { workspaceRender: [], workspaceUnlock: [], registryModule: [] },
    publicUrl: "",
    log: { level: options.logLevel ?? "silent", destination: options.logDestination },
  };
  let token: string;
  let handles: ReturnType<typeof buildApp>;
  try {
    ({ token } = bootstrapOrganization(db, ctx.options.organization, options.token));
    handles = buildApp(ctx, domains, options.faults);
  } catch (err) {
    db.close();
    return Promise.reject(err);
  }
  const view = handles.view;
  return Promise.resolve(view?.ready)
    .then(() => handles.app.listen({ host: ctx.options.host, port: ctx.options.port }))
    .then(() => {
      const address = handles.app.server.address() as AddressInfo;
      const host = ctx.options.host.includes(":") ? `[${ctx.options.host}]` : ctx.options.host;
      const listening = `http://${host}:${address.port}`;
      ctx.publicUrl = publicUrl ?? listening;
      let closed = false;
      return {
        url: `${listening}/api/v2`,
        token,
        organization: ctx.options.organization,
        viewUrl: () => {
          if (!view) throw new Error("The web view is off: start the server with webView: true (CLI --web-view).");
          return view.signInAddress(token, address.port);
        },
        stats: handles.stats,
        setFaults: handles.setFaults,
        close: async () => {
          if (closed) return;
          closed = true;
          await handles.app.close();
          db.close();
        },
      };
    })
    .catch((err) => {
      db.close();
      throw err;
    });
}

export type { ServerOptions, ServerContext, Domain } from "./context";
export type { RequestStats } from "./app";
export type { FaultOptions } from "./faults";
