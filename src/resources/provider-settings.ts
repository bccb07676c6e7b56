/**
 * Settings of the providers, read at call time and never stored in state.
 *
 * The dynamic-provider host calls `configure` with the stack's whole configuration
 * before any other method; the `workspaces:*` keys found there take precedence over
 * the environment and the credentials file, which `resolveSettings` reads.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { resolveSettings, type Settings } from "../client/connection-settings";
import { reportInfo } from "./process/engine-status";

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

/**
 * The stack settings file (`Pulumi.<stack>.yaml`) of `dir` that holds `token` in plain
 * text, if any. The engine hands the provider config values without their secret mark,
 * so this is how the provider tells `pulumi config set workspaces:token` from
 * `pulumi config set --secret workspaces:token` (whose file holds only ciphertext).
 */
function plainTokenFile(token: string, dir = process.cwd()): string | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^Pulumi\..+\.ya?ml$/.test(n));
  } catch {
    return undefined;
  }
  for (const name of names) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, name), "utf8");
    } catch {
      continue;
    }
    for (const m of text.matchAll(/^\s*workspaces:token:[ \t]*(.*?)\s*$/gm)) {
      if (m[1].replace(/^(["'])(.*)\1$/, "$2") === token) return name;
    }
  }
  return undefined;
}

let plainTokenReported = false;

/** Once per provider process: a token kept in plain text in stack config is said so. */
function reportPlainToken(token: string | undefined): void {
  if (!token || plainTokenReported) return;
  const file = plainTokenFile(token);
  if (!file) return;
  plainTokenReported = true;
  reportInfo(
    `warning: workspaces:token is set in plain text (in ${file}, and unencrypted in the state as an input of the default provider); ` +
      `set it with \`pulumi config set --secret workspaces:token\`, or keep it out of the stack with WORKSPACES_TOKEN`,
  );
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
  reportPlainToken(configured.token);
}

/** The configured values (the provider plugin's lookups read them, see lookups.ts). */
export function configuredSettings(): Configured {
  return { ...configured };
}

/** Replaces the configured values directly (tests, embedding, the provider plugin's configuration). */
export function setConfiguredSettings(values: Configured): void {
  configured = { ...values };
}

/** Resolves the settings now: stack config, then `WORKSPACES_*`, then `TFE_*` and the credentials file. */
export function currentSettings(): Settings {
  return resolveSettings({
    address: configured.address,
    token: configured.token,
    organization: configured.organization,
  });
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
