/**
 * Settings of the providers, read at call time and never stored in state.
 *
 * The dynamic-provider host calls `configure` with the stack's whole configuration
 * before any other method; the `workspaces:*` keys found there take precedence over
 * the environment and the credentials file, which `resolveSettings` reads.
 */
import { resolveSettings, type Settings } from "../client/settings";

/** Stack configuration keys the providers read. */
export const CONFIG_KEYS = {
  address: "workspaces:address",
  token: "workspaces:token",
  organization: "workspaces:organization",
} as const;

interface Configured {
  address?: string;
  token?: string;
  organization?: string;
}

// Module state of the provider process; the token is kept in a closure variable,
// not on an object that could be logged.
let configured: Configured = {};

interface ConfigLike {
  get(key: string): string | undefined;
}

function readKey(config: ConfigLike, key: string): string | undefined {
  try {
    const v = config.get(key);
    return typeof v === "string" && v.trim() !== "" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the `workspaces:*` keys from a `ConfigureRequest` (or anything with `config.get`). */
export function configureFromStack(req: unknown): void {
  const config = (req as { config?: ConfigLike } | undefined)?.config;
  if (!config || typeof config.get !== "function") {
    configured = {};
    return;
  }
  configured = {
    address: readKey(config, CONFIG_KEYS.address),
    token: readKey(config, CONFIG_KEYS.token),
    organization: readKey(config, CONFIG_KEYS.organization),
  };
}

/** Replaces the configured values directly (tests, embedding). */
export function setConfiguredSettings(values: Configured): void {
  configured = { ...values };
}

/** Resolves the settings now: stack config, then `WORKSPACES_*`, then `TFE_*` and the credentials file. */
export function currentSettings(): Settings {
  return resolveSettings({ address: configured.address, token: configured.token, organization: configured.organization });
}

/** The default organization, without requiring a token or an address to be set. */
export function defaultOrganization(): string | undefined {
  if (configured.organization) return configured.organization;
  const env = process.env;
  for (const v of [env.WORKSPACES_ORGANIZATION, env.TFE_ORGANIZATION]) {
    if (v && v.trim() !== "") return v.trim();
  }
  return undefined;
}
