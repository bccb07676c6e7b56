/**
 * Where the client finds its address, token and organization. Each value is taken
 * from the first place that has it: explicit options, then `WORKSPACES_*`, then the
 * engine CLI's own `TFE_*` variables and, for the token only, the credentials file the
 * engine CLI writes (`~/.terraform.d/credentials.tfrc.json`), looked up by hostname.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { SettingsError } from "./typed-errors";

/** Settings given in code; each one left out is read from the environment, then from the credentials file. */
export interface SettingsInput {
  /** Base address; a bare hostname, a URL, or a URL already ending in `/api/v2`. */
  address?: string;
  /** API token; never printed, logged or serialized by the client. */
  token?: string;
  /** Default organization for calls that do not name one. */
  organization?: string;
  /** Environment to read instead of `process.env` (tests, embedding). */
  env?: Record<string, string | undefined>;
  /** Home directory holding `.terraform.d/credentials.tfrc.json`; defaults to the user's home. */
  homeDir?: string;
}

/** Where a setting came from: the options, `WORKSPACES_*` or `TFE_*` environment variables, or the engine CLI's credentials file. */
export type SettingSource = "options" | "WORKSPACES_*" | "TFE_*" | "credentials file";

/**
 * Resolved settings. The token is a non-enumerable property so that logging,
 * `JSON.stringify` or `util.inspect` of a settings object never prints it.
 */
export interface Settings {
  /** Base URL including `/api/v2`, without a trailing slash. */
  readonly baseUrl: string;
  /** Hostname (with port when not the default) used for the credentials file. */
  readonly hostname: string;
  /** API token (non-enumerable: not printed by `JSON.stringify` or `util.inspect`). */
  readonly token: string;
  /** Default organization, when one was configured. */
  readonly organization: string | undefined;
  /** Where each value came from, for diagnostics. */
  readonly sources: { address: SettingSource; token: SettingSource; organization?: SettingSource };
  /** The credentials file the token was read from, when it was. */
  readonly tokenFile?: string;
}

const CREDENTIALS_FILE = path.join(".terraform.d", "credentials.tfrc.json");

/** Resolves the settings, reading env and the credentials file now; makes no request. */
export function resolveSettings(input: SettingsInput = {}): Settings {
  const env = input.env ?? process.env;
  const home = input.homeDir ?? os.homedir();
  const credentialsPath = path.join(home, CREDENTIALS_FILE);

  const address = pick<string>([
    [nonEmpty(input.address), "options"],
    [nonEmpty(env.WORKSPACES_ADDRESS), "WORKSPACES_*"],
    [nonEmpty(env.TFE_HOSTNAME), "TFE_*"],
  ]);
  if (!address) {
    throw new SettingsError(
      "no service address: pass `address` in the options, or set WORKSPACES_ADDRESS, or set TFE_HOSTNAME",
    );
  }
  const { baseUrl, hostname } = normalizeAddress(address.value);

  const organization = pick<string>([
    [nonEmpty(input.organization), "options"],
    [nonEmpty(env.WORKSPACES_ORGANIZATION), "WORKSPACES_*"],
    [nonEmpty(env.TFE_ORGANIZATION), "TFE_*"],
  ]);

  const token =
    pick<string>([
      [nonEmpty(input.token), "options"],
      [nonEmpty(env.WORKSPACES_TOKEN), "WORKSPACES_*"],
      [nonEmpty(env.TFE_TOKEN), "TFE_*"],
    ]) ?? tokenFromCredentialsFile(credentialsPath, hostname);
  if (!token) {
    throw new SettingsError(
      `no API token for ${hostname}: pass \`token\` in the options (stack config workspaces:token), ` +
        `or set WORKSPACES_TOKEN (or TFE_TOKEN), ` +
        `or add a credentials entry for "${hostname}" to ${credentialsPath}`,
    );
  }

  const settings = {
    baseUrl,
    hostname,
    organization: organization?.value,
    sources: {
      address: address.source,
      token: token.source,
      ...(organization ? { organization: organization.source } : {}),
    },
    ...(token.source === "credentials file" ? { tokenFile: credentialsPath } : {}),
  };
  Object.defineProperty(settings, "token", { value: token.value, enumerable: false });
  Object.defineProperty(settings, inspect.custom, {
    value: () => ({ ...settings, token: "[redacted]" }),
    enumerable: false,
  });
  return Object.freeze(settings) as Settings;
}

/**
 * Where the token of `settings` came from and how to replace it, for a message about a
 * refused token. `given` names the `options` source as the caller knows it (a stack
 * configuration key, a command-line flag); the token itself is never part of it.
 */
export function tokenSource(
  settings: Settings,
  given: { name: string; replace: string } = { name: "the `token` option", replace: "pass a valid `token`" },
): { name: string; replace: string } {
  switch (settings.sources.token) {
    case "options":
      return given;
    case "WORKSPACES_*":
      return { name: "the environment variable WORKSPACES_TOKEN", replace: "set WORKSPACES_TOKEN to a valid token" };
    case "TFE_*":
      return {
        name: "the environment variable TFE_TOKEN",
        replace: "set TFE_TOKEN to a valid token (or WORKSPACES_TOKEN, which comes first)",
      };
    case "credentials file": {
      const file = settings.tokenFile ?? CREDENTIALS_FILE;
      return {
        name: `the credentials file ${file} (entry "${settings.hostname}")`,
        replace: `replace the token of "${settings.hostname}" in ${file}`,
      };
    }
  }
}

/**
 * Accepts `host`, `host:port`, `https://host`, `http://127.0.0.1:8080/`, with or without
 * `/api/v2`, and returns the base URL with `/api/v2` and the hostname used as the
 * credentials-file key.
 */
export function normalizeAddress(address: string): { baseUrl: string; hostname: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new SettingsError(
      `invalid service address ${JSON.stringify(address)}: expected a hostname or an http(s) URL`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SettingsError(`invalid service address ${JSON.stringify(address)}: only http and https are supported`);
  }
  if (url.username || url.password) {
    throw new SettingsError("invalid service address: credentials in the URL are not accepted; use the token setting");
  }
  let pathname = url.pathname.replace(/\/+$/, "");
  if (!pathname.endsWith("/api/v2")) pathname += "/api/v2";
  return { baseUrl: `${url.protocol}//${url.host}${pathname}`, hostname: url.host };
}

function tokenFromCredentialsFile(
  file: string,
  hostname: string,
): { value: string; source: SettingSource } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SettingsError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The file's content is never echoed: it holds tokens.
    throw new SettingsError(`${file} is not valid JSON`);
  }
  const credentials = (parsed as { credentials?: Record<string, { token?: unknown }> } | null)?.credentials;
  if (!credentials || typeof credentials !== "object") return undefined;
  const entry = credentials[hostname] ?? credentials[hostname.toLowerCase()];
  const value = entry && typeof entry.token === "string" && entry.token.length > 0 ? entry.token : undefined;
  return value ? { value, source: "credentials file" } : undefined;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v.trim() : undefined;
}

function pick<T>(candidates: [T | undefined, SettingSource][]): { value: T; source: SettingSource } | undefined {
  for (const [value, source] of candidates) if (value !== undefined) return { value, source };
  return undefined;
}
